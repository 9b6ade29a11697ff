"""``gui-agent train vlm``: a tiny model overfit on a handful of oracle steps acts them out.

The slow test proves that training and inference agree end to end: rows built from oracle
episodes of three MiniWoB++ tasks (five steps: clicks, typing, a click after typing that
depends on the history), fine-tuned through the CLI, saved, loaded back as
``--policy hf:DIR`` and run on the same task seeds in Chromium, take exactly the oracle's
actions and solve every task. The model is a tiny Qwen2.5-VL answering in UI-TARS-1.5 form,
so the smart_resize coordinate contract is exercised both ways.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gui_agent.cli import main
from gui_agent.episode import read_episode
from gui_agent.registry import load_policy
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from tests.models.vlm.vlm_support import run_oracle
from tests.paths import REPO

TASK_DIR = REPO / "datasets" / "tasks" / "miniwob"
TASK_SEEDS = [("click-button", 0), ("click-link", 0), ("enter-text", 0)]


@pytest.mark.slow
def test_overfit_tiny_model_takes_the_demonstrated_actions(tmp_path: Path) -> None:
    demos = run_oracle(tmp_path / "demos", TASK_SEEDS)
    out = tmp_path / "model"
    code = main(["train", "vlm", str(tmp_path / "demos"), "--out", str(out), "--model", "tiny:qwen2_5_vl",
                 "--epochs", "60", "--lr", "2e-3", "--quiet"])
    assert code == 0
    report = json.loads((out / "train_report.json").read_text())
    assert report["rows"] == 5 and report["action_format"] == "uitars" and report["family"] == "qwen2_5_vl"
    assert report["epoch_losses"][-1] < 0.05 < report["epoch_losses"][0]
    assert json.loads((out / "gui_agent_vlm.json").read_text())["format"] == "uitars"

    policy = load_policy(f"hf:{out}?max_new_tokens=64")
    for (task, seed), demo_dir in zip(TASK_SEEDS, demos, strict=True):
        result = run_episode(load_task(TASK_DIR / f"{task}.yaml"), policy, out_dir=tmp_path / "runs", seed=seed)
        taken = read_episode(result.episode_path)
        demo = read_episode(demo_dir)
        assert [s.action for s in taken.steps] == [s.action for s in demo.steps], (task, taken.meta.outcome)
        assert result.success, (task, result.reason)


def test_lora_fine_tuning_is_merged_into_a_plain_model(click_button_demo: Path, tmp_path: Path) -> None:
    out = tmp_path / "lora"
    code = main(["train", "vlm", str(click_button_demo), "--out", str(out), "--model", "tiny:idefics3", "--lora",
                 "--lora-rank", "4", "--epochs", "6", "--lr", "1e-2", "--quiet"])
    assert code == 0
    report = json.loads((out / "train_report.json").read_text())
    assert report["lora"] is True
    assert 0 < report["trainable_parameters"] < report["parameters"] / 4
    assert report["epoch_losses"][-1] < report["epoch_losses"][0]
    from safetensors import safe_open

    with safe_open(str(out / "model.safetensors"), framework="pt") as weights:
        names = list(weights.keys())
    assert names and not any("lora" in name for name in names)  # merged: a plain transformers model
    policy = load_policy(f"hf:{out}")
    assert policy.action_format == "pyautogui"
