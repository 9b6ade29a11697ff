"""Executing a fixed list of actions as an episode: how the simulator runs its variants.

The variants must be executed *exactly* as planned (a click offset must land where it was
offset to), so this policy does not look at the screen or re-anchor anything. After the
last action it says ``done``; the task's evaluator then judges the episode.
"""

from __future__ import annotations

from pathlib import Path

from gui_agent.actions import Action, Done
from gui_agent.envs.base import Env, Observation
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.runner import RunResult, run_episode
from gui_agent.task import Task


class ScriptedPolicy:
    """Emits ``actions`` one per call, then ``done(success=True)``."""

    def __init__(self, actions: list[Action], *, name: str = "human-simulator") -> None:
        self.actions = list(actions)
        self.name = name
        self._next = 0

    def reset(self, task: TaskContext) -> None:
        self._next = 0

    def act(self, observation: Observation) -> PolicyOutput:
        if self._next >= len(self.actions):
            return PolicyOutput(actions=[Done(success=True)], thought="simulator: end of the planned steps")
        self._next += 1
        return PolicyOutput(actions=[self.actions[self._next - 1]])


def execute(task: Task, actions: list[Action], *, env: Env, seed: int | None, out_dir: str | Path, name: str = "human-simulator") -> RunResult:
    """Run ``actions`` (then done) on ``task`` from its start state and write the episode under ``out_dir``."""
    return run_episode(task, ScriptedPolicy(actions, name=name), out_dir=out_dir, seed=seed, env=env)
