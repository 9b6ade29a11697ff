"""Helpers of the VLM tests: oracle demonstrations on real Chromium."""

from __future__ import annotations

from pathlib import Path

from gui_agent.registry import load_policy
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from tests.paths import REPO

TASK_DIR = REPO / "datasets" / "tasks" / "miniwob"


def run_oracle(out: Path, task_seeds: list[tuple[str, int]]) -> list[Path]:
    """Oracle episodes of (task name, seed) pairs, written under ``out``; their folders in order."""
    paths = []
    oracle = load_policy("oracle")
    for name, seed in task_seeds:
        result = run_episode(load_task(TASK_DIR / f"{name}.yaml"), oracle, out_dir=out, seed=seed)
        assert result.success, (name, seed, result.reason)
        paths.append(result.episode_path)
    return paths
