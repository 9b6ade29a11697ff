"""What the runner needs from a policy: observation in; actions, thought and usage out.

Policies live in ``models/`` (they may need torch); this protocol lives in the core so
the runner can drive any of them without importing them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from gui_agent.actions import Action
from gui_agent.envs.base import Observation
from gui_agent.episode.format import Usage


@dataclass
class PolicyOutput:
    """One decision. ``actions`` run in order, each as its own step of the episode.

    Attributes:
        actions: at least one canonical action.
        thought: the policy's reasoning text, if it has one.
        usage: tokens/images/latency of the model call, if any.
        raw: the raw model output the actions were parsed from, for the record.
    """

    actions: list[Action]
    thought: str | None = None
    usage: Usage | None = None
    raw: str | None = None
    info: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class TaskContext:
    """What a policy may know about the task before the first observation."""

    task_id: str
    instruction: str
    seed: int | None = None


@runtime_checkable
class Policy(Protocol):
    """A policy decides the next action(s) from the current observation."""

    name: str

    def reset(self, task: TaskContext) -> None:
        """Forget the previous episode; called before each episode."""

    def act(self, observation: Observation) -> PolicyOutput:
        """Return the next action(s) for this observation."""
