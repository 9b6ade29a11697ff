"""Shared fixtures: real episodes from the runner, offline hub libs (synthetic episodes: :mod:`tests.synthetic_episodes`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.paths import REPO

ROOT = REPO
TASKS = ROOT / "datasets" / "tasks" / "miniwob"


@pytest.fixture(autouse=True)
def offline_hub(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Nothing may reach a hub or download at test time; caches live in the test's tmp dir."""
    import datasets.config
    import huggingface_hub.constants

    for name, value in {
        "HF_DATASETS_OFFLINE": "1",
        "HF_HUB_OFFLINE": "1",
        "HF_HUB_DISABLE_TELEMETRY": "1",
        "HF_HOME": str(tmp_path / "hf-home"),
        "HF_DATASETS_CACHE": str(tmp_path / "hf-datasets-cache"),
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)


@pytest.fixture(scope="session")
def runner_episodes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Real episodes: the oracle on MiniWoB++ in headless Chromium, through the runner."""
    from gui_agent.envs.factory import make_env
    from gui_agent.registry import load_policy
    from gui_agent.runner import run_episode
    from gui_agent.task import load_task

    root = tmp_path_factory.mktemp("runner-episodes")
    policy = load_policy("oracle")
    for name, seeds in (("click-button", (0, 1, 2)), ("enter-text", (0, 1))):
        task = load_task(TASKS / f"{name}.yaml")
        env = make_env(task)
        try:
            for seed in seeds:
                result = run_episode(task, policy, out_dir=root, seed=seed, env=env)
                assert result.success, f"the oracle failed {name} seed {seed}: {result.reason}"
        finally:
            env.close()
    return root


def copy_episodes(source: Path, dest: Path) -> Path:
    shutil.copytree(source, dest)
    return dest
