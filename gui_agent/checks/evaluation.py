"""Evaluating a task's check tree against a live environment.

:func:`evaluate` walks the evaluator of a task file (:data:`gui_agent.checks.tree.Check`)
and asks the environment only what its probe answers (:mod:`gui_agent.checks.probes`).

The result's ``detail`` records, for every check, what was expected and what was observed,
so an episode's outcome says *why* it failed ("text of '#total' is '41', expected '42'"),
not just that it did.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gui_agent.checks.probes import BrowserProbe, DesktopProbe
from gui_agent.checks.registry import check_type
from gui_agent.checks.reports import Report
from gui_agent.checks.tree import AllOfCheck, AnyOfCheck, Check, NotCheck
from gui_agent.errors import EnvError

__all__ = ["EvalResult", "evaluate"]


@dataclass(frozen=True)
class EvalResult:
    """What the evaluator concluded.

    Attributes:
        success: whether the root check passed.
        reward: the reward the root check's type reads from its report, if it declares
            one (``miniwob_reward``: the raw MiniWoB++ reward, -1..1, 0 while the episode
            has not ended); otherwise 1.0 on success, else 0.0.
        detail: the root check's report. Every report has ``check`` (its name), ``path``
            (where it is in the task file, e.g. ``evaluator.all_of[1]``), ``passed`` and
            ``reason`` (one sentence). Leaves add ``expected`` (the check's arguments) and
            ``observed`` (what the environment showed); combinators add ``children``.
            ``error`` is present when the outcome hinges on a check that could not be
            evaluated (its JavaScript threw, its file was unreadable). JSON-serialisable, for episode.json's outcome.
    """

    success: bool
    reward: float
    detail: dict[str, Any] = field(default_factory=dict)


def evaluate(evaluator: Check, probe: BrowserProbe | DesktopProbe, *, answer: str | None = None) -> EvalResult:
    """Evaluate a check tree against the environment behind ``probe``.

    Every check of an ``all_of`` / ``any_of`` is evaluated, even after the outcome is
    known, so the detail shows the state of everything a person may want to look at.
    A check that could not be evaluated (its JavaScript threw, its file was unreadable)
    fails, and a ``not`` around it fails too: an error never turns into a pass. Each leaf
    is judged by the function its family registers (:mod:`gui_agent.checks.registry`).

    Args:
        evaluator: the task's evaluator (``task.evaluator``).
        probe: the environment, see :mod:`gui_agent.checks.probes`.
        answer: the agent's ``done(answer=...)``, for ``answer_equals``.

    Raises:
        EnvError: the probe reported a broken environment.
    """
    walker = _Walker(probe, answer)
    detail = walker.check(evaluator, "evaluator")
    success = bool(detail["passed"])
    scored_by = None if isinstance(evaluator, (AllOfCheck, AnyOfCheck, NotCheck)) else check_type(evaluator).reward
    reward = scored_by(detail) if scored_by is not None else (1.0 if success else 0.0)
    return EvalResult(success=success, reward=reward, detail=detail)


class _Walker:
    """One evaluation: the probe and the answer, shared by every check of the tree."""

    def __init__(self, probe: BrowserProbe | DesktopProbe, answer: str | None):
        self.probe = probe
        self.answer = answer

    def check(self, check: Check, path: str) -> Report:
        if isinstance(check, (AllOfCheck, AnyOfCheck)):
            return self._group(check, path)
        if isinstance(check, NotCheck):
            return self._not(check, path)
        kind = check_type(check)
        report: Report = {
            "check": check.name,
            "path": path,
            "passed": False,
            "reason": "",
            "expected": check.args.model_dump(mode="json", exclude_none=True),
        }
        subject = self.answer if kind.looks_at == "answer" else self.probe
        try:
            kind.judge(check.args, subject, report)
        except EnvError:
            raise
        except Exception as exc:  # the environment could not answer it: the check fails
            message = _first_line(str(exc))
            report.update(passed=False, error=f"{type(exc).__name__}: {message}",
                          reason=f"could not be evaluated: {message}")
        return report

    # ---------------------------------------------------------------- combinators

    def _group(self, check: AllOfCheck | AnyOfCheck, path: str) -> Report:
        members = check.all_of if isinstance(check, AllOfCheck) else check.any_of
        children = [self.check(c, f"{path}.{check.name}[{i}]") for i, c in enumerate(members)]
        passed = [c for c in children if c["passed"]]
        failed = [c for c in children if not c["passed"]]
        # "error": the outcome hinges on checks that could not be evaluated, so a `not`
        # above must not turn it into a pass.
        if isinstance(check, AllOfCheck):
            ok = not failed
            undetermined = bool(failed) and all("error" in c for c in failed)
            reason = (f"all {len(children)} checks passed" if ok else
                      f"{len(failed)} of {len(children)} checks failed: " +
                      "; ".join(f"{c['path']} ({c['check']}): {c['reason']}" for c in failed))
        else:
            ok = bool(passed)
            undetermined = not ok and any("error" in c for c in failed)
            reason = (f"{passed[0]['path']} ({passed[0]['check']}) passed" if ok else
                      f"none of {len(children)} checks passed: " +
                      "; ".join(f"{c['path']} ({c['check']}): {c['reason']}" for c in failed))
        report = {"check": check.name, "path": path, "passed": ok, "reason": reason, "children": children}
        if undetermined:
            report["error"] = "depends on a check that could not be evaluated"
        return report

    def _not(self, check: NotCheck, path: str) -> Report:
        child = self.check(check.not_, f"{path}.not")
        report = {"check": "not", "path": path, "passed": False, "reason": "", "children": [child]}
        if "error" in child:
            report.update(error=child["error"], reason=f"the inner check could not be evaluated: {child['error']}")
        elif child["passed"]:
            report["reason"] = f"the inner check passed but must fail: {child['reason']}"
        else:
            report.update(passed=True, reason=f"the inner check failed, as required: {child['reason']}")
        return report


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text
