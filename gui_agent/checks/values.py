"""The ``value`` check: a value read from the environment (a *source*) judged by a rule.

OSWorld's general metrics (``exact_match``, ``is_in_list``, ``check_include_exclude``,
``fuzzy_match`` ...) judge whatever its getters return: a command's output, the active
tab's URL, a player setting. Here the getter is the check's ``of`` (a source from
:mod:`gui_agent.checks.sources`) and the judgement one of the comparisons below, so
every source works with every comparison::

    value:
      of: {command_output: {command: [xdotool, getactivewindow, getwindowname]}}
      rule: {method: re, ref: "Untitled"}
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import model_validator

from gui_agent.checks.family import CheckType
from gui_agent.checks.reports import Report, cut
from gui_agent.checks.sources import Source, read_source
from gui_agent.checks.value_rules import ValueRule, matches
from gui_agent.schema import SingleKey, StrictModel


class ValueArgs(StrictModel):
    """``of``: the source to read; ``rule``: what the value must satisfy."""

    of: Source
    rule: ValueRule | None = None

    @model_validator(mode="after")
    def _one_judgement(self) -> ValueArgs:
        if self.rule is None:
            raise ValueError("a value check needs a judgement: rule")
        return self


class ValueCheck(SingleKey):
    name: ClassVar[str] = "value"
    value: ValueArgs


def _value(args: ValueArgs, probe: Any, report: Report) -> None:
    observed = read_source(args.of, probe)
    report["observed"] = {"value": cut(observed) if isinstance(observed, str) else observed}
    assert args.rule is not None
    ok = matches(observed, args.rule)
    report.update(passed=ok, reason=f"{args.of.name}: {cut(str(observed))!r} {'satisfies' if ok else 'does not satisfy'} {args.rule.describe()}")


CHECKS: tuple[CheckType, ...] = (CheckType(ValueCheck, _value),)
