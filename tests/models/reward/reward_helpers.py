"""Helpers the reward tests share (a module with a unique name: test folders here have no
__init__.py, so importing ``conftest`` by name could find another folder's)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tests.paths import REPO

TASKS_DIR = REPO / "datasets" / "tasks" / "miniwob"


def episode_with_change(reward_data: Path, *, changed: bool) -> Path:
    """An episode of the data whose screen changed (or not) between its first and last frame."""
    from gui_agent.models.reward.judge import episode_trajectory

    for line in (reward_data / "outcomes.jsonl").read_text().splitlines():
        record = json.loads(line)
        frames, _, _ = episode_trajectory(reward_data / record["episode"])
        moved = any(np.any(f != frames[0]) for f in frames[1:])
        if moved == changed:
            return reward_data / record["episode"]
    raise AssertionError("no such episode in the data")
