"""Budgets of an episode: steps, wall time, model tokens and money.

Steps and time are spent in the environment, tokens by the policy, so the budget is kept
by the runner's loop (which sees both), not by an environment wrapper: the runner charges
each decision's :class:`~gui_agent.episode.format.Usage` and each step, and asks
:meth:`BudgetMeter.exhausted` before every decision. An exhausted budget ends the episode
as ``truncated`` with the reason.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from gui_agent.episode.format import Usage
from gui_agent.task import Limits


@dataclass(frozen=True)
class Budget:
    """What one episode may spend; None means no limit.

    Attributes:
        max_steps: actions executed.
        max_seconds: wall time since the episode started.
        max_tokens: model input + output tokens, as the policy reports them.
        max_cost_usd: what the policy's model calls may cost, in US dollars, as the policy
            prices them (calls of unknown price count nothing).
    """

    max_steps: int | None = None
    max_seconds: float | None = None
    max_tokens: int | None = None
    max_cost_usd: float | None = None

    @classmethod
    def from_limits(cls, limits: Limits, *, max_tokens: int | None = None, max_cost_usd: float | None = None) -> Budget:
        """The task file's step, time and token limits; ``max_tokens`` (a run's
        ``--max-tokens``) replaces the task's token limit when given, and ``max_cost_usd``
        (``--max-cost``) adds a money budget."""
        return cls(
            max_steps=limits.max_steps,
            max_seconds=limits.episode_timeout_s,
            max_tokens=limits.max_tokens if max_tokens is None else max_tokens,
            max_cost_usd=max_cost_usd,
        )


class BudgetMeter:
    """Counts what an episode spent against its :class:`Budget`."""

    def __init__(self, budget: Budget, *, started: float | None = None) -> None:
        self.budget = budget
        self.started = time.monotonic() if started is None else started
        self.steps = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.images = 0
        self.cached_tokens = 0
        self.retries = 0
        #: US dollars of the calls whose price is known; None while no call was priced.
        self.cost_usd: float | None = None

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def charge(self, usage: Usage | None) -> None:
        """Add a model call's usage."""
        if usage is not None:
            self.input_tokens += usage.input_tokens
            self.output_tokens += usage.output_tokens
            self.images += usage.images
            self.cached_tokens += usage.cached_tokens
            self.retries += usage.retries
            if usage.cost_usd is not None:
                self.cost_usd = (self.cost_usd or 0.0) + usage.cost_usd

    def usage(self) -> dict[str, float]:
        """The episode's totals, as the ledger and the results record them (cost only when priced)."""
        totals: dict[str, float] = {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens, "images": self.images}
        if self.cached_tokens:
            totals["cached_tokens"] = self.cached_tokens
        if self.retries:
            totals["retries"] = self.retries
        if self.cost_usd is not None:
            totals["cost_usd"] = round(self.cost_usd, 6)
        return totals

    def exhausted(self) -> str | None:
        """Why the episode must stop now, or None while every budget has room."""
        budget = self.budget
        if budget.max_steps is not None and self.steps >= budget.max_steps:
            return f"step limit reached ({budget.max_steps} steps)"
        if budget.max_seconds is not None and time.monotonic() - self.started >= budget.max_seconds:
            return f"episode time limit reached ({budget.max_seconds:g} s)"
        if budget.max_tokens is not None and self.tokens >= budget.max_tokens:
            return f"token budget reached ({self.tokens} of {budget.max_tokens} tokens)"
        if budget.max_cost_usd is not None and (self.cost_usd or 0.0) >= budget.max_cost_usd:
            return f"cost budget reached (${self.cost_usd or 0.0:.4f} of ${budget.max_cost_usd:g})"
        return None
