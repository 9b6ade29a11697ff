"""Checks of what the agent said when it ended the episode: its answer
(``done(answer=...)``) equals a value, or it reported the task cannot be done.

``answer_equals`` works in every environment. ``infeasible_reported`` is OSWorld's
``infeasible`` evaluator: the agent must end with ``done(success=False, answer=why)``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pydantic import Field, field_validator

from gui_agent.checks.family import DESKTOP, EVERYWHERE, CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut
from gui_agent.schema import Regex, SingleKey, StrictModel


class AnswerEqualsArgs(StrictModel):
    """The agent's ``done(answer=...)`` equals ``value`` (whitespace-stripped)."""

    value: str
    case_sensitive: bool = False


class InfeasibleReportedArgs(StrictModel):
    """The agent ended the episode saying the task cannot be done: ``done(success=False)``
    with an answer (why), as OSWorld's infeasible tasks require. ``answer_matches``: a
    regex the answer must match too (case-insensitive)."""

    answer_matches: Regex | None = None


class AnswerEqualsCheck(SingleKey):
    name: ClassVar[str] = "answer_equals"
    answer_equals: AnswerEqualsArgs


class InfeasibleReportedCheck(SingleKey):
    name: ClassVar[str] = "infeasible_reported"
    infeasible_reported: InfeasibleReportedArgs = Field(default_factory=lambda: InfeasibleReportedArgs())

    @field_validator("infeasible_reported", mode="before")
    @classmethod
    def _empty_means_defaults(cls, value: Any) -> Any:
        return {} if value is None else value  # ``infeasible_reported:`` alone


def _answer_equals(args: AnswerEqualsArgs, answer: str | None, report: Report) -> None:
    report["observed"] = {"answer": answer}
    if answer is None:
        report["reason"] = "the agent gave no answer"
        return
    given, wanted = answer.strip(), args.value.strip()
    ok = given == wanted if args.case_sensitive else given.casefold() == wanted.casefold()
    case = "" if args.case_sensitive else " (ignoring case)"
    report.update(passed=ok, reason=f"answer {given!r} {'equals' if ok else 'is not'} {wanted!r}{case}")


def _infeasible_reported(args: InfeasibleReportedArgs, probe: DesktopProbe, report: Report) -> None:
    done = probe.reported_done()
    report["observed"] = {"done": done}
    if done is None:
        report["reason"] = "the agent did not end the episode with done(success=False, answer=...)"
    elif done.get("success", True):
        report["reason"] = "the agent said the task was done (success=True); it cannot be done and must say so"
    elif not (done.get("answer") or "").strip():
        report["reason"] = "the agent said done(success=False) without an answer saying why the task cannot be done"
    elif args.answer_matches is not None and re.search(args.answer_matches, done["answer"], re.IGNORECASE) is None:
        report["reason"] = f"the answer {cut(done['answer'])!r} does not match {args.answer_matches!r}"
    else:
        report.update(passed=True, reason=f"the agent reported the task infeasible: {cut(done['answer'])!r}")


#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(AnswerEqualsCheck, _answer_equals, EVERYWHERE, looks_at="answer"),
    CheckType(InfeasibleReportedCheck, _infeasible_reported, DESKTOP),
)
