"""The pixel policy driven by the real runner in real Chromium, and the shipped checkpoint's worth."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.actions import Click, Done, Hotkey, Type, action_from_dict
from gui_agent.cli import main
from gui_agent.envs.factory import make_env
from gui_agent.episode.reader import read_episode
from gui_agent.registry import load_policy
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from gui_agent.models.pixel.policy import DEFAULT_CHECKPOINT, PixelPolicy
from gui_agent.models.policies.random_policy import RandomPolicy
from tests.paths import REPO

TASKS_DIR = REPO / "datasets" / "tasks" / "miniwob"


def test_the_policy_emits_valid_actions_through_the_runner(demos: Path, tiny_net_config, tmp_path: Path) -> None:
    from gui_agent.models.pixel.train import TrainConfig, train

    checkpoint = tmp_path / "tiny.pt"
    train([demos], checkpoint, config=TrainConfig(epochs=2, batch_size=8, val_fraction=0.0), net_config=tiny_net_config, progress=False, log=lambda _: None)
    policy = load_policy(f"pixel:{checkpoint}")
    task = load_task(TASKS_DIR / "enter-text.yaml")
    result = run_episode(task, policy, out_dir=tmp_path / "runs", seed=7)
    assert not result.env_failed and result.steps >= 1
    episode = read_episode(result.episode_path)
    assert episode.meta.actor.name == "pixel:tiny.pt"
    for step in episode.steps:
        action = action_from_dict(step.action)
        assert isinstance(action, (Click, Type, Hotkey, Done))
        if isinstance(action, Click):
            assert 0 <= action.x < 160 and 0 <= action.y < 210
        if isinstance(action, Type):
            assert action.text in episode.meta.task.instruction  # copied, never invented
        assert step.usage is not None and step.usage.images == 1 and step.usage.latency_s > 0


@pytest.mark.slow
def test_the_shipped_checkpoint_beats_random_on_unseen_seeds(tmp_path: Path) -> None:
    assert DEFAULT_CHECKPOINT.is_file(), "the shipped checkpoint is missing"
    pixel, random_policy = PixelPolicy(), RandomPolicy(seed=0)
    wins = {"pixel": 0, "random": 0}
    seeds = range(5)  # evaluation seeds: demonstrations use seeds >= 1000
    for name in ("click-tab", "click-button", "enter-text"):
        task = load_task(TASKS_DIR / f"{name}.yaml")
        env = make_env(task)
        try:
            for label, policy in (("pixel", pixel), ("random", random_policy)):
                for seed in seeds:
                    result = run_episode(task, policy, out_dir=tmp_path / label, seed=seed, env=env)
                    assert not result.env_failed, result.reason
                    wins[label] += bool(result.success)
        finally:
            env.close()
    assert wins["pixel"] >= 11, wins  # of 15
    assert wins["pixel"] - wins["random"] >= 8, wins


def test_gui_agent_run_uses_the_shipped_pixel_policy_by_default(tmp_path: Path, capsys) -> None:
    code = main(["run", str(TASKS_DIR / "click-tab.yaml"), "--seed", "3", "--out", str(tmp_path), "--quiet"])
    out = capsys.readouterr().out
    assert "policy=pixel:miniwob-pixel.pt" in out
    assert code in (0, 1) and ("SUCCESS" in out) == (code == 0)
