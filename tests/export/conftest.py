"""Shared fixtures: real episodes from the runner, synthetic ones from EpisodeWriter, offline hub libs."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from gui_agent.actions import Action
from gui_agent.episode import (
    ActorInfo,
    EnvInfo,
    EpisodeWriter,
    Outcome,
    ScreenSize,
    TaskInfo,
)

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "datasets" / "tasks" / "miniwob"
ANNOTATOR = ActorInfo(type="human", name="annotator-7")


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
    from gui_agent.runner import run_episode
    from gui_agent.task import load_task
    from models.policies import load_policy

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


def frame(width: int, height: int, value: int) -> np.ndarray:
    """A deterministic picture with structure (gradients, a moving bar)."""
    y, x = np.mgrid[0:height, 0:width]
    pixels = np.stack([(x * 3 + value) % 256, (y * 5 + value * 7) % 256, ((x ^ y) + value) % 256], axis=-1).astype(np.uint8)
    pixels[(value * 3) % height, :, :] = 255
    return pixels


def write_synthetic(
    root: Path,
    episode_id: str,
    actions: Sequence[Action],
    *,
    task_id: str = "synthetic/all-actions",
    instruction: str = "Do every kind of action once",
    size: tuple[int, int] = (64, 48),
    thoughts: Sequence[str | None] | None = None,
    frames: Sequence[np.ndarray] | None = None,
    final: bool = True,
    success: bool | None = True,
    actor: ActorInfo = ANNOTATOR,
    labels: dict | None = None,
    frame_format: str = "png",
) -> Path:
    """An episode written with the real EpisodeWriter (frames, thoughts, a final frame)."""
    width, height = size
    writer = EpisodeWriter.create(
        root,
        task=TaskInfo(id=task_id, instruction=instruction, source="test"),
        env=EnvInfo(kind="desktop", app="synthetic", screen=ScreenSize(width=width, height=height)),
        actor=actor,
        episode_id=episode_id,
        labels=labels or {"session": 3},
        frame_format=frame_format,
    )
    for index, action in enumerate(actions):
        pixels = frames[index] if frames is not None else frame(width, height, index)
        thought = thoughts[index] if thoughts is not None else f"step {index}"
        writer.add_step(action, frame_before=pixels, thought=thought, target={"role": "button", "name": f"b{index}"},
                        reward=float(index == len(actions) - 1), timings={"act_s": 0.01 * index})
    if final:
        writer.add_final_frame(frame(width, height, len(actions)))
    writer.finalize(Outcome(success=success, reward=1.0 if success else 0.0, termination="done",
                            detail={"check": "synthetic"}))
    return writer.path


def copy_episodes(source: Path, dest: Path) -> Path:
    shutil.copytree(source, dest)
    return dest
