"""Checks of a web page: the MiniWoB++ reward, the URL, the page's text, an element's
text or value, a JavaScript expression.

They ask the environment only what :class:`~gui_agent.checks.probes.BrowserProbe` lists
(run an expression in the page, tell the current URL), so any environment that shows a
page can be judged by them.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.checks.family import BROWSER, CheckType
from gui_agent.checks.probes import BrowserProbe
from gui_agent.checks.reports import Report, cut
from gui_agent.schema import NonBlank, Regex, SingleKey, StrictModel


class MiniwobRewardArgs(StrictModel):
    """The MiniWoB++ episode ended with a raw reward of at least ``min`` (-1..1)."""

    min: float = Field(default=1.0, strict=True, ge=-1, le=1)


class UrlMatchesArgs(StrictModel):
    """The page's current URL matches the regex ``pattern`` (``re.search``)."""

    pattern: Regex


class PageContainsArgs(StrictModel):
    """The page's visible text (``document.body.innerText``) contains ``text``."""

    text: NonBlank


class ElementTextArgs(StrictModel):
    """The visible text of the first element matching ``selector``, stripped of surrounding
    whitespace, ``equals`` a string, ``contains`` one, or ``matches`` a regex (exactly one).
    """

    selector: NonBlank
    equals: str | None = None
    contains: str | None = None
    matches: Regex | None = None

    @model_validator(mode="after")
    def _one_comparison(self) -> ElementTextArgs:
        given = [k for k in ("equals", "contains", "matches") if getattr(self, k) is not None]
        if len(given) != 1:
            raise PydanticCustomError(
                "one_of", "expected exactly one of: equals, contains, matches; got {got}",
                {"got": ", ".join(given) or "none", "key": given[1] if len(given) > 1 else None},
            )
        return self


class ElementValueArgs(StrictModel):
    """The ``value`` of the form field matching ``selector`` equals ``equals`` exactly."""

    selector: NonBlank
    equals: str


class JsTruthyArgs(StrictModel):
    """The JavaScript ``expression`` (one expression; a Promise is awaited) is truthy."""

    expression: NonBlank


class MiniwobRewardCheck(SingleKey):
    name: ClassVar[str] = "miniwob_reward"
    miniwob_reward: MiniwobRewardArgs = Field(default_factory=lambda: MiniwobRewardArgs())

    @field_validator("miniwob_reward", mode="before")
    @classmethod
    def _empty_means_defaults(cls, value: Any) -> Any:
        return {} if value is None else value  # ``miniwob_reward:`` alone means min 1.0


class UrlMatchesCheck(SingleKey):
    name: ClassVar[str] = "url_matches"
    url_matches: UrlMatchesArgs


class PageContainsCheck(SingleKey):
    name: ClassVar[str] = "page_contains"
    page_contains: PageContainsArgs


class ElementTextCheck(SingleKey):
    name: ClassVar[str] = "element_text"
    element_text: ElementTextArgs


class ElementValueCheck(SingleKey):
    name: ClassVar[str] = "element_value"
    element_value: ElementValueArgs


class JsTruthyCheck(SingleKey):
    name: ClassVar[str] = "js_truthy"
    js_truthy: JsTruthyArgs


# ---------------------------------------------------------------------- judging

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


def _miniwob_reward(args: MiniwobRewardArgs, probe: BrowserProbe, report: Report) -> None:
    state = probe.evaluate_js(_MINIWOB_JS)
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


def _url_matches(args: UrlMatchesArgs, probe: BrowserProbe, report: Report) -> None:
    url = probe.current_url()
    report["observed"] = {"url": url}
    if re.search(args.pattern, url):
        report.update(passed=True, reason=f"url {url!r} matches {args.pattern!r}")
    else:
        report["reason"] = f"url {url!r} does not match {args.pattern!r}"


def _page_contains(args: PageContainsArgs, probe: BrowserProbe, report: Report) -> None:
    text = str(probe.evaluate_js(_PAGE_TEXT_JS) or "")
    report["observed"] = {"text": cut(text), "length": len(text)}
    if args.text in text:
        report.update(passed=True, reason=f"the page text contains {args.text!r}")
    else:
        report["reason"] = f"the page text ({len(text)} characters) does not contain {args.text!r}"


def _element(probe: BrowserProbe, selector: str, report: Report) -> dict[str, Any] | None:
    found = probe.evaluate_js(_ELEMENT_JS.replace("__SELECTOR__", json.dumps(selector)))
    if not found or not found.get("found"):
        report.update(observed={"found": False}, reason=f"no element matches {selector!r}")
        return None
    return found


def _element_text(args: ElementTextArgs, probe: BrowserProbe, report: Report) -> None:
    found = _element(probe, args.selector, report)
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


def _element_value(args: ElementValueArgs, probe: BrowserProbe, report: Report) -> None:
    found = _element(probe, args.selector, report)
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


def _js_truthy(args: JsTruthyArgs, probe: BrowserProbe, report: Report) -> None:
    result = probe.evaluate_js(_TRUTHY_JS.replace("__EXPRESSION__", args.expression))
    report["observed"] = {"value": cut(str(result["value"])), "truthy": bool(result["truthy"])}
    verdict = "truthy" if result["truthy"] else "falsy"
    shown = cut(str(result["value"]))
    report.update(passed=bool(result["truthy"]), reason=f"the expression is {verdict} ({shown})")


def raw_reward(report: Report) -> float:
    """The episode's reward under ``miniwob_reward``: the page's raw reward (-1..1), 0 while
    the episode has not ended or the page is not a MiniWoB++ task."""
    return float(report["observed"]["raw_reward"]) if report.get("observed") else 0.0


#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(MiniwobRewardCheck, _miniwob_reward, BROWSER, reward=raw_reward),
    CheckType(UrlMatchesCheck, _url_matches, BROWSER),
    CheckType(PageContainsCheck, _page_contains, BROWSER),
    CheckType(ElementTextCheck, _element_text, BROWSER),
    CheckType(ElementValueCheck, _element_value, BROWSER),
    CheckType(JsTruthyCheck, _js_truthy, BROWSER),
)
