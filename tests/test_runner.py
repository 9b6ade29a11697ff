"""The runner end to end on real Chromium: episodes written, limits, agent and env failures."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from gui_agent.actions import Wait
from gui_agent.envs.base import Observation
from gui_agent.envs.factory import make_env
from gui_agent.episode import read_episode
from gui_agent.errors import ActionParseError
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.registry import load_policy
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from gui_agent.models.policies.replay_policy import ReplayPolicy
from tests.paths import MINIWOB_TASKS

TASKS = MINIWOB_TASKS
CLICK_BUTTON = TASKS / "click-button.yaml"


@pytest.fixture(scope="module")
def task():
    return load_task(CLICK_BUTTON)


@pytest.fixture(scope="module")
def env(task) -> Iterator:
    environment = make_env(task)
    try:
        yield environment
    finally:
        environment.close()


class WaitingPolicy:
    """Never finishes: only waits."""

    name = "waiting"

    def reset(self, task: TaskContext) -> None:
        pass

    def act(self, observation: Observation) -> PolicyOutput:
        return PolicyOutput(actions=[Wait(0)])


class BabblingPolicy:
    """Says something no parser understands."""

    name = "babbling"

    def reset(self, task: TaskContext) -> None:
        pass

    def act(self, observation: Observation) -> PolicyOutput:
        raise ActionParseError("no Action: line", raw="I think I should click somewhere nice")


class BrowserKillingPolicy:
    """Kills the environment's browser on its second decision, as a crash would."""

    name = "killer"

    def __init__(self, env) -> None:
        self.env = env
        self.calls = 0

    def reset(self, task: TaskContext) -> None:
        self.calls = 0

    def act(self, observation: Observation) -> PolicyOutput:
        self.calls += 1
        if self.calls == 2:
            os.kill(self.env.pid, signal.SIGKILL)
        return PolicyOutput(actions=[Wait(0)])


def test_oracle_solves_and_the_episode_is_complete(task, env, tmp_path: Path) -> None:
    result = run_episode(task, load_policy("oracle"), out_dir=tmp_path, seed=3, env=env)
    assert result.success and result.reward == 1.0 and result.termination == "done"
    episode = read_episode(result.episode_path)  # strict: every frame and line valid
    assert episode.meta.status == "complete"
    assert episode.meta.actor.name == "miniwob-oracle" and episode.meta.labels["seed"] == 3
    assert episode.meta.task.instruction.startswith("Click on the")
    assert episode.meta.env.screen.width == 160 and episode.meta.env.screen.height == 210
    assert len(episode.steps) == result.steps >= 1
    assert all(step.frame_before for step in episode.steps) and episode.final_frame
    assert episode.load_frame(episode.steps[0].frame_before).shape == (210, 160, 3)
    assert episode.meta.outcome.detail["passed"] is True


def test_replay_of_a_recorded_episode_succeeds_on_the_same_seed(task, env, tmp_path: Path) -> None:
    recorded = run_episode(task, load_policy("oracle"), out_dir=tmp_path / "rec", seed=5, env=env)
    replayed = run_episode(task, ReplayPolicy(recorded.episode_path), out_dir=tmp_path / "rep", seed=5, env=env)
    assert recorded.success and replayed.success
    assert read_episode(replayed.episode_path).actions() == read_episode(recorded.episode_path).actions()


def test_random_policy_mostly_fails(task, env, tmp_path: Path) -> None:
    results = [run_episode(task, load_policy("random"), out_dir=tmp_path, seed=seed, env=env) for seed in range(6)]
    assert sum(r.success for r in results) <= 2
    assert all(not r.env_failed for r in results)


def test_step_limit_truncates_with_reason(task, env, tmp_path: Path) -> None:
    result = run_episode(task, WaitingPolicy(), out_dir=tmp_path, seed=0, env=env)
    assert result.termination == "truncated" and not result.success
    assert result.steps == task.limits.max_steps
    assert "step limit" in result.reason
    assert read_episode(result.episode_path).final_frame is not None


def test_unparseable_policy_output_is_an_agent_error_with_the_raw_text(task, env, tmp_path: Path) -> None:
    result = run_episode(task, BabblingPolicy(), out_dir=tmp_path, seed=0, env=env)
    assert result.termination == "agent_error" and not result.success
    meta = read_episode(result.episode_path).meta
    assert meta.outcome.detail["raw"] == "I think I should click somewhere nice"


@pytest.mark.slow
def test_a_killed_browser_is_an_environment_failure_not_the_agents(task, tmp_path: Path) -> None:
    environment = make_env(task)
    try:
        result = run_episode(task, BrowserKillingPolicy(environment), out_dir=tmp_path, seed=0, env=environment)
    finally:
        environment.close()
    assert result.env_failed and result.termination == "env_error" and result.fault == "dead"
    episode = read_episode(result.episode_path)
    assert episode.meta.status == "complete" and episode.meta.outcome.success is None
    assert episode.steps and "environment failed" in episode.steps[-1].error


@pytest.mark.slow
@pytest.mark.parametrize("name", ["click-test-2", "click-checkboxes", "enter-text", "click-tab-2", "choose-list"])
def test_random_policy_fails_where_the_oracle_succeeds(name: str, tmp_path: Path) -> None:
    task = load_task(TASKS / f"{name}.yaml")
    environment = make_env(task)
    try:
        oracle = [run_episode(task, load_policy("oracle"), out_dir=tmp_path, seed=s, env=environment) for s in (11, 12)]
        random_runs = [run_episode(task, load_policy("random"), out_dir=tmp_path, seed=s, env=environment) for s in (11, 12)]
    finally:
        environment.close()
    assert all(r.success for r in oracle)
    assert sum(r.success for r in random_runs) <= 1


def test_a_failing_post_step_is_a_failed_task_not_a_crash(task, env, tmp_path: Path) -> None:
    from gui_agent.task import load_task_text

    text = CLICK_BUTTON.read_text() + "post_steps:\n  - wait_for: {selector: '#never-there', timeout_s: 0.2}\n"
    with_post = load_task_text(text, "with_post.yaml")
    result = run_episode(with_post, load_policy("oracle"), out_dir=tmp_path, seed=3, env=env)
    assert not result.success and result.termination == "done"
    assert "never-there" in read_episode(result.episode_path).meta.outcome.detail["post_step_error"]
