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


@runtime_checkable
class SamplingPolicy(Policy, Protocol):
    """A policy that can also sample several decisions for one observation.

    For best-of-N selection (a reward model picks among the candidates): ``sample`` leaves
    the policy's memory of the episode untouched, and ``accept`` records the chosen
    candidate as if ``act`` had returned it, so the next prompt's history is right.
    ``act(obs)`` is the same as taking one greedy decision and accepting it; a caller
    that samples should call ``accept`` with the one it acts on. Policies
    without this (the oracle, random, replay) keep working wherever only ``act`` is used.
    """

    def sample(self, observation: Observation, n: int, *, temperature: float = 1.0) -> list[PolicyOutput]:
        """Up to ``n`` sampled decisions (unreadable samples are left out; none at all raises
        :class:`~gui_agent.errors.ActionParseError`)."""

    def accept(self, observation: Observation, output: PolicyOutput) -> None:
        """Remember ``output`` (one of :meth:`sample`'s) as the decision taken on ``observation``."""
