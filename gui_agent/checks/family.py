"""What a check family declares: every check type with the function judging it.

A family is a module (or a small package) of checks reading the same kind of thing: a
page, a workbook, a mailbox. It ends with ``CHECKS``, one :class:`CheckType` per check:
the one-key model a task file's check is read into, beside the judge that fills its
report and the environments whose probe the judge can ask. That table is the family's
registration; :mod:`gui_agent.checks.registry` lists the families, and the check tree,
the task schema's validation and the evaluation learn every check from there.

A judge is called as ``judge(args, probe, report)``: the check's arguments, the
environment's probe (:mod:`gui_agent.checks.probes`) and the report to fill with
``observed``, ``passed`` and ``reason`` (``check``, ``path`` and ``expected`` are already
there). A check of the agent's own answer (``looks_at="answer"``) gets the answer
(``done(answer=...)``, or None) in place of the probe. A judge that cannot read what it
needs raises; the evaluation records that as the check failing ("could not be
evaluated"), except an :class:`~gui_agent.errors.EnvError`, which it lets through.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from gui_agent.checks.reports import Report
from gui_agent.schema import SingleKey

#: ``judge(args, probe_or_answer, report)``: fills the report (see the module docstring).
Judge = Callable[[Any, Any, Report], None]

#: Environment kinds, as a check type names those whose probe it can ask.
BROWSER: frozenset[str] = frozenset({"browser"})
DESKTOP: frozenset[str] = frozenset({"desktop"})
EVERYWHERE: frozenset[str] = BROWSER | DESKTOP


@dataclass(frozen=True)
class CheckType:
    """One check as the registry knows it.

    Attributes:
        model: the one-key model a task file's check is read into; its ``name`` is the key.
        judge: the function filling the check's report (see the module docstring).
        environments: the environment kinds that can evaluate it.
        looks_at: ``"probe"`` (the environment) or ``"answer"`` (what the agent said).
        reward: for a check that scores the episode itself (MiniWoB++'s reward), the
            episode's reward read from its report; None: 1.0 when it passes, else 0.0.
    """

    model: type[SingleKey]
    judge: Judge
    environments: frozenset[str] = DESKTOP
    looks_at: Literal["probe", "answer"] = "probe"
    reward: Callable[[Report], float] | None = None

    @property
    def name(self) -> str:
        """The key a task file writes (``cell_value``)."""
        return self.model.name


__all__ = ["BROWSER", "DESKTOP", "EVERYWHERE", "CheckType", "Judge"]
