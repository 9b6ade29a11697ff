"""Policies for the evaluation tests, importable by worker processes (``py:tests.evaluate.slow_policies:SlowOracle``)."""

from __future__ import annotations

from gui_agent.actions import Wait
from gui_agent.envs.base import Observation
from gui_agent.policy import PolicyOutput, TaskContext


class SlowOracle:
    """The MiniWoB++ oracle after a few ``wait`` steps: episodes last long enough to be hit mid-way."""

    name = "slow-oracle"
    waits = 3
    wait_s = 0.3

    def __init__(self) -> None:
        from gui_agent.registry import load_policy

        self.oracle = load_policy("oracle")
        self.left = 0

    def reset(self, task: TaskContext) -> None:
        self.oracle.reset(task)
        self.left = self.waits

    def act(self, observation: Observation) -> PolicyOutput:
        if self.left:
            self.left -= 1
            return PolicyOutput(actions=[Wait(self.wait_s)])
        return self.oracle.act(observation)
