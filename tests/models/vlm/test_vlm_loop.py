"""The whole loop with a tiny model of each family on real Chromium: prompt, generate, parse, act.

An untrained tiny model answers noise: the runner must record it as the agent's error with
the raw reply. A tiny model taught one demonstration (click-button, seed 0) must then, loaded
back through ``--policy hf:DIR``, click exactly where the oracle clicked and solve the page,
with its token usage in the step record.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.episode import read_episode
from gui_agent.registry import load_policy
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from tests.paths import REPO

TASK_DIR = REPO / "datasets" / "tasks" / "miniwob"

FAMILIES = ("qwen2_vl", "qwen2_5_vl", "idefics3")
FORMATS = {"qwen2_vl": "uitars-v1", "qwen2_5_vl": "uitars", "idefics3": "pyautogui"}


def test_untrained_model_is_an_agent_error_with_the_raw_reply(tiny_model_dirs: dict[str, Path], tmp_path: Path) -> None:
    policy = load_policy(f"hf:{tiny_model_dirs['qwen2_vl']}?max_new_tokens=12")
    result = run_episode(load_task(TASK_DIR / "click-button.yaml"), policy, out_dir=tmp_path, seed=0)
    assert result.termination == "agent_error"
    assert result.reason.startswith("unparseable policy output")
    episode = read_episode(result.episode_path)
    assert episode.meta.outcome.detail["raw"]  # the noise itself is kept for inspection
    assert episode.steps == []
    assert episode.final_frame is not None


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES)
def test_taught_tiny_model_acts_like_the_demonstration(family: str, click_button_demo: Path, tmp_path: Path) -> None:
    from gui_agent.models.vlm.settings import read_settings
    from gui_agent.models.vlm.sft_train import TrainConfig, train_vlm

    out = tmp_path / "model"
    report = train_vlm(TrainConfig(inputs=(str(click_button_demo),), out=str(out), model=f"tiny:{family}",
                                   epochs=60, lr=5e-3))
    assert report.rows == 1 and report.action_format == FORMATS[family]
    assert report.epoch_losses[-1] < 0.05 < report.epoch_losses[0]
    assert read_settings(out).format == FORMATS[family]

    demo = read_episode(next(p.parent for p in click_button_demo.rglob("episode.json")))
    policy = load_policy(f"hf:{out}?max_new_tokens=48")
    assert policy.vlm.dtype == "float32" and policy.vlm.device == "cpu"
    result = run_episode(load_task(TASK_DIR / "click-button.yaml"), policy, out_dir=tmp_path / "runs", seed=0)
    episode = read_episode(result.episode_path)
    assert [s.action for s in episode.steps] == [s.action for s in demo.steps], episode.meta.outcome
    assert result.success
    step = episode.steps[0]
    assert step.thought == demo.steps[0].thought
    assert step.usage is not None and step.usage.images == 1
    assert step.usage.input_tokens > 50 and 5 < step.usage.output_tokens < 48
    assert step.usage.latency_s is not None and step.usage.latency_s > 0
    assert result.usage["input_tokens"] == step.usage.input_tokens
