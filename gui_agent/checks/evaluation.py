"""Evaluating a task's check tree against a live environment.

:func:`evaluate` walks the evaluator of a task file (:data:`gui_agent.checks.tree.Check`)
and asks the environment only what its probe answers (:mod:`gui_agent.checks.probes`).

The result's ``detail`` records, for every check, what was expected and what was observed,
so an episode's outcome says *why* it failed ("text of '#total' is '41', expected '42'"),
not just that it did.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gui_agent.checks.answer import AnswerEqualsArgs, AnswerEqualsCheck
from gui_agent.checks.browser import (
    ElementTextArgs,
    ElementTextCheck,
    ElementValueArgs,
    ElementValueCheck,
    JsTruthyArgs,
    JsTruthyCheck,
    MiniwobRewardArgs,
    MiniwobRewardCheck,
    PageContainsArgs,
    PageContainsCheck,
    UrlMatchesArgs,
    UrlMatchesCheck,
)
from gui_agent.checks.probes import BrowserProbe
from gui_agent.checks.reports import cut
from gui_agent.checks.tree import AllOfCheck, AnyOfCheck, Check, NotCheck
from gui_agent.errors import EnvError

__all__ = ["EvalResult", "evaluate"]


@dataclass(frozen=True)
class EvalResult:
    """What the evaluator concluded.

    Attributes:
        success: whether the root check passed.
        reward: the raw MiniWoB++ reward when the root check is ``miniwob_reward``
            (-1..1, 0 while the episode has not ended); otherwise 1.0 on success, else 0.0.
        detail: the root check's report. Every report has ``check`` (its name), ``path``
            (where it is in the task file, e.g. ``evaluator.all_of[1]``), ``passed`` and
            ``reason`` (one sentence). Leaves add ``expected`` (the check's arguments) and
            ``observed`` (what the page showed); combinators add ``children``. ``error``
            is present when the outcome hinges on a check that could not be evaluated
            (its JavaScript threw). JSON-serialisable, for episode.json's outcome.
    """

    success: bool
    reward: float
    detail: dict[str, Any] = field(default_factory=dict)


def evaluate(evaluator: Check, probe: BrowserProbe, *, answer: str | None = None) -> EvalResult:
    """Evaluate a check tree against the page behind ``probe``.

    Every check of an ``all_of`` / ``any_of`` is evaluated, even after the outcome is
    known, so the detail shows the state of everything a person may want to look at.
    A check that could not be evaluated (its JavaScript threw) fails, and a ``not``
    around it fails too: an error never turns into a pass.

    Args:
        evaluator: the task's evaluator (``task.evaluator``).
        probe: the environment's page, see :class:`BrowserProbe`.
        answer: the agent's ``done(answer=...)``, for ``answer_equals``.

    Raises:
        EnvError: the probe reported a broken environment.
    """
    walker = _Walker(probe, answer)
    detail = walker.check(evaluator, "evaluator")
    success = bool(detail["passed"])
    if isinstance(evaluator, MiniwobRewardCheck):
        reward = float(detail["observed"]["raw_reward"]) if detail.get("observed") else 0.0
    else:
        reward = 1.0 if success else 0.0
    return EvalResult(success=success, reward=reward, detail=detail)


# Each returns a JSON-like value and never throws by itself (only the embedded user
# expression or an invalid selector can make it throw).
_MINIWOB_JS = """(() => {
  if (typeof WOB_RAW_REWARD_GLOBAL === "undefined") return null;
  return {
    done: Boolean(WOB_DONE_GLOBAL),
    raw_reward: Number(WOB_RAW_REWARD_GLOBAL),
    reward: Number(WOB_REWARD_GLOBAL),
    reason: (typeof WOB_REWARD_REASON === "undefined" || WOB_REWARD_REASON === null) ? null : String(WOB_REWARD_REASON),
  };
})()"""
_PAGE_TEXT_JS = "(() => document.body ? document.body.innerText : '')()"
_ELEMENT_JS = """(() => {
  const el = document.querySelector(__SELECTOR__);
  if (el === null) return {found: false};
  const text = (typeof el.innerText === "string") ? el.innerText : (el.textContent || "");
  return {found: true, tag: el.tagName.toLowerCase(), text: text,
          value: ("value" in el && el.value !== undefined && el.value !== null) ? String(el.value) : null};
})()"""
_TRUTHY_JS = """Promise.resolve((
__EXPRESSION__
)).then((v) => {
  let shown;
  try {
    if (v === undefined) shown = "undefined";
    else if (typeof Node !== "undefined" && v instanceof Node) shown = "<" + v.nodeName.toLowerCase() + ">";
    else if (typeof v === "function") shown = "function";
    else { shown = JSON.stringify(v); if (shown === undefined) shown = String(v); }
  } catch (e) { shown = String(v); }
  return {truthy: Boolean(v), value: shown};
})"""


class _Walker:
    """One evaluation: the probe and the answer, shared by every check of the tree."""

    def __init__(self, probe: BrowserProbe, answer: str | None):
        self.probe = probe
        self.answer = answer

    def check(self, check: Check, path: str) -> dict[str, Any]:
        if isinstance(check, (AllOfCheck, AnyOfCheck)):
            return self._group(check, path)
        if isinstance(check, NotCheck):
            return self._not(check, path)
        report: dict[str, Any] = {
            "check": check.name,
            "path": path,
            "passed": False,
            "reason": "",
            "expected": check.args.model_dump(mode="json", exclude_none=True),
        }
        run_leaf = self._leaf(check)
        try:
            run_leaf(report)
        except EnvError:
            raise
        except Exception as exc:  # the page could not evaluate it: the check fails
            message = _first_line(str(exc))
            report.update(passed=False, error=f"{type(exc).__name__}: {message}",
                          reason=f"could not be evaluated: {message}")
        return report

    # ---------------------------------------------------------------- combinators

    def _group(self, check: AllOfCheck | AnyOfCheck, path: str) -> dict[str, Any]:
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

    def _not(self, check: NotCheck, path: str) -> dict[str, Any]:
        child = self.check(check.not_, f"{path}.not")
        report = {"check": "not", "path": path, "passed": False, "reason": "", "children": [child]}
        if "error" in child:
            report.update(error=child["error"], reason=f"the inner check could not be evaluated: {child['error']}")
        elif child["passed"]:
            report["reason"] = f"the inner check passed but must fail: {child['reason']}"
        else:
            report.update(passed=True, reason=f"the inner check failed, as required: {child['reason']}")
        return report

    # ---------------------------------------------------------------- leaves
    # Each fills report["observed"], report["passed"] and report["reason"].

    def _leaf(self, check: Check) -> Callable[[dict[str, Any]], None]:
        """The function that evaluates a leaf check into a report."""
        desktop = _desktop_handlers().get(type(check.args))
        if desktop is not None:
            return partial(desktop, check.args, self.probe)
        if isinstance(check, MiniwobRewardCheck):
            return partial(self._miniwob_reward, check.miniwob_reward)
        if isinstance(check, UrlMatchesCheck):
            return partial(self._url_matches, check.url_matches)
        if isinstance(check, PageContainsCheck):
            return partial(self._page_contains, check.page_contains)
        if isinstance(check, ElementTextCheck):
            return partial(self._element_text, check.element_text)
        if isinstance(check, ElementValueCheck):
            return partial(self._element_value, check.element_value)
        if isinstance(check, JsTruthyCheck):
            return partial(self._js_truthy, check.js_truthy)
        if isinstance(check, AnswerEqualsCheck):
            return partial(self._answer_equals, check.answer_equals)
        raise TypeError(f"no evaluator for check {check.name!r}")  # added to the schema, not here

    def _miniwob_reward(self, args: MiniwobRewardArgs, report: dict[str, Any]) -> None:
        state = self.probe.evaluate_js(_MINIWOB_JS)
        if state is None:
            report.update(observed=None, reason="the page is not a MiniWoB++ task (no WOB_RAW_REWARD_GLOBAL)")
            return
        state = {**state, "raw_reward": float(state["raw_reward"]), "reward": float(state["reward"])}
        report["observed"] = state
        raw = state["raw_reward"]
        if not state["done"]:
            report["reason"] = "the MiniWoB++ episode has not ended (WOB_DONE_GLOBAL is false)"
        elif raw >= args.min:
            report.update(passed=True, reason=f"raw reward {raw:g} >= {args.min:g}")
        else:
            why = f" ({state['reason']})" if state.get("reason") else ""
            report["reason"] = f"raw reward {raw:g} < {args.min:g}{why}"

    def _url_matches(self, args: UrlMatchesArgs, report: dict[str, Any]) -> None:
        url = self.probe.current_url()
        report["observed"] = {"url": url}
        if re.search(args.pattern, url):
            report.update(passed=True, reason=f"url {url!r} matches {args.pattern!r}")
        else:
            report["reason"] = f"url {url!r} does not match {args.pattern!r}"

    def _page_contains(self, args: PageContainsArgs, report: dict[str, Any]) -> None:
        text = str(self.probe.evaluate_js(_PAGE_TEXT_JS) or "")
        report["observed"] = {"text": cut(text), "length": len(text)}
        if args.text in text:
            report.update(passed=True, reason=f"the page text contains {args.text!r}")
        else:
            report["reason"] = f"the page text ({len(text)} characters) does not contain {args.text!r}"

    def _element(self, selector: str, report: dict[str, Any]) -> dict[str, Any] | None:
        found = self.probe.evaluate_js(_ELEMENT_JS.replace("__SELECTOR__", json.dumps(selector)))
        if not found or not found.get("found"):
            report.update(observed={"found": False}, reason=f"no element matches {selector!r}")
            return None
        return found

    def _element_text(self, args: ElementTextArgs, report: dict[str, Any]) -> None:
        found = self._element(args.selector, report)
        if found is None:
            return
        text = str(found.get("text") or "").strip()
        report["observed"] = {"found": True, "tag": found.get("tag"), "text": cut(text)}
        shown = f"text of {args.selector!r} is {cut(text)!r}"
        if args.equals is not None:
            ok, verb, wanted = text == args.equals.strip(), "equal", args.equals.strip()
        elif args.contains is not None:
            ok, verb, wanted = args.contains in text, "contain", args.contains
        else:
            pattern = args.matches or ""
            ok, verb, wanted = re.search(pattern, text) is not None, "match", pattern
        if ok:
            report.update(passed=True, reason=f"{shown}, which {verb}{'es' if verb == 'match' else 's'} {wanted!r}")
        else:
            report["reason"] = f"{shown}, expected it to {verb} {wanted!r}"

    def _element_value(self, args: ElementValueArgs, report: dict[str, Any]) -> None:
        found = self._element(args.selector, report)
        if found is None:
            return
        value = found.get("value")
        report["observed"] = {"found": True, "tag": found.get("tag"), "value": value}
        if value is None:
            report["reason"] = f"{args.selector!r} is a <{found.get('tag')}>, which has no value"
        elif value == args.equals:
            report.update(passed=True, reason=f"value of {args.selector!r} is {value!r}")
        else:
            report["reason"] = f"value of {args.selector!r} is {cut(value)!r}, expected {args.equals!r}"

    def _js_truthy(self, args: JsTruthyArgs, report: dict[str, Any]) -> None:
        result = self.probe.evaluate_js(_TRUTHY_JS.replace("__EXPRESSION__", args.expression))
        report["observed"] = {"value": cut(str(result["value"])), "truthy": bool(result["truthy"])}
        verdict = "truthy" if result["truthy"] else "falsy"
        shown = cut(str(result["value"]))
        report.update(passed=bool(result["truthy"]), reason=f"the expression is {verdict} ({shown})")

    def _answer_equals(self, args: AnswerEqualsArgs, report: dict[str, Any]) -> None:
        report["observed"] = {"answer": self.answer}
        if self.answer is None:
            report["reason"] = "the agent gave no answer"
            return
        given, wanted = self.answer.strip(), args.value.strip()
        ok = given == wanted if args.case_sensitive else given.casefold() == wanted.casefold()
        case = "" if args.case_sensitive else " (ignoring case)"
        report.update(passed=ok, reason=f"answer {given!r} {'equals' if ok else 'is not'} {wanted!r}{case}")


def _desktop_handlers() -> dict[type, Callable[..., None]]:
    """Argument model -> the function evaluating it, for every desktop check."""
    from gui_agent.checks import answer, document, files, mail, presentation, spreadsheet

    return {**answer.HANDLERS, **files.HANDLERS, **spreadsheet.HANDLERS, **document.HANDLERS, **presentation.HANDLERS,
            **mail.HANDLERS}


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text
