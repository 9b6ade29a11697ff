"""Shared fixtures: a small reward-data set made by real policies on real MiniWoB++ pages, and a
reward model trained on it (small network sizes so that the suite stays fast)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from gui_agent.models.reward.network import NetConfig
from tests.models.reward.reward_helpers import TASKS_DIR, episode_with_change

#: Tasks of the small set (training tests hold out seeds of them).
TASKS = ("click-button", "click-link", "enter-text")
SMALL = NetConfig(width=8, text_dims=16, hidden=32)


@pytest.fixture(scope="session")
def reward_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Stand-in reward data: oracle and random episodes of three tasks, seeds 0-3 (about 10 s)."""
    from gui_agent.models.reward.standin_data import build_standin_data

    torch.set_num_threads(1)
    out = tmp_path_factory.mktemp("reward-data")
    return build_standin_data([TASKS_DIR / f"{t}.yaml" for t in TASKS], out, seeds=range(4))


@pytest.fixture(scope="session")
def trained_checkpoint(reward_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small reward model trained for a few epochs on all three tasks."""
    from gui_agent.models.reward.data import load_reward_data
    from gui_agent.models.reward.training import TrainOptions, train_reward_model

    out = tmp_path_factory.mktemp("reward-ckpt")
    train_reward_model(load_reward_data([reward_data]), TrainOptions(out=out, epochs=6, config=SMALL, threads=1))
    return out


@pytest.fixture(scope="session")
def yes_model(reward_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny Qwen2-VL, trained for a few steps to answer YES to the judge's outcome question."""
    from gui_agent.models.reward.judge import VlmJudge, episode_trajectory
    from gui_agent.models.vlm.generation import prompt_text, to_pil
    from gui_agent.models.vlm.loading import load_vlm
    from gui_agent.models.vlm.tiny import save_tiny_model

    torch.manual_seed(0)
    folder = save_tiny_model("qwen2_vl", tmp_path_factory.mktemp("tiny-judge"), texts=["YES NO Did the agent complete the task?"])
    vlm = load_vlm(str(folder), device="cpu")
    frames, actions, instruction = episode_trajectory(episode_with_change(reward_data, changed=True))
    question, images = VlmJudge.outcome_question(frames, actions, instruction)
    messages = VlmJudge.messages(question, len(images))
    prompt = prompt_text(vlm, messages)
    full = vlm.processor(text=[prompt + "YES<|im_end|>"], images=[to_pil(i) for i in images], return_tensors="pt")
    answer_length = len(vlm.tokenizer("YES<|im_end|>")["input_ids"])
    labels = torch.full_like(full["input_ids"], -100)
    labels[:, -answer_length:] = full["input_ids"][:, -answer_length:]
    vlm.model.train()
    optimizer = torch.optim.Adam(vlm.model.parameters(), lr=3e-3)
    for _ in range(30):
        loss = vlm.model(**full, labels=labels).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    vlm.model.save_pretrained(folder)
    return folder
