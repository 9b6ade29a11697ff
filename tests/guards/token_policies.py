"""A policy that reports model usage, importable by eval worker processes
(``--policy py:tests.guards.token_policies:TokenSpender``)."""

from __future__ import annotations

from gui_agent.actions import Click
from gui_agent.envs.base import Observation
from gui_agent.episode import Usage
from gui_agent.policy import PolicyOutput, TaskContext
from tests.guards.guard_page import CLOSE, INC, OPEN

#: What every decision costs: 400 tokens (300 in, 100 out) and one image.
USAGE = Usage(input_tokens=300, output_tokens=100, images=1)


class TokenSpender:
    """Clicks without solving the task (+1, open, close, +1, ...) and bills 400 tokens a decision."""

    name = "token-spender"

    def __init__(self) -> None:
        self.calls = 0

    def reset(self, task: TaskContext) -> None:
        self.calls = 0

    def act(self, observation: Observation) -> PolicyOutput:
        action = [Click(*INC), Click(*OPEN), Click(*CLOSE)][self.calls % 3]
        self.calls += 1
        return PolicyOutput(actions=[action], usage=USAGE)
