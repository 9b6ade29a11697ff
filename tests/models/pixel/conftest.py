"""Shared fixtures: a few real oracle demonstrations (real Chromium) and a tiny network."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.envs.factory import make_env
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from tests.paths import REPO

TASKS_DIR = REPO / "datasets" / "tasks" / "miniwob"


@pytest.fixture(scope="session", autouse=True)
def one_torch_thread() -> None:
    """The 2 CPUs are shared with Chromium; two torch threads then wait on each other (10x slower)."""
    import torch

    torch.set_num_threads(1)


@pytest.fixture(scope="session")
def demos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Oracle episodes of click-tab (clicks) and enter-text (click, type, click), training seeds."""
    from gui_agent.models.policies.miniwob_oracle import MiniWobOraclePolicy

    out = tmp_path_factory.mktemp("demos")
    for name in ("click-tab", "enter-text"):
        task = load_task(TASKS_DIR / f"{name}.yaml")
        env = make_env(task)
        try:
            for seed in range(1000, 1004):
                result = run_episode(task, MiniWobOraclePolicy(), out_dir=out / name, seed=seed, env=env)
                assert result.success, result.reason
        finally:
            env.close()
    return out


@pytest.fixture()
def tiny_net_config():  # type: ignore[no-untyped-def]
    from gui_agent.models.pixel.network import NetConfig

    return NetConfig(stem_channels=8, channels=16, text_dim=16, match_heads=2)
