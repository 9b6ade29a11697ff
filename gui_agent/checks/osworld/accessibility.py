"""OSWorld's ``check_accessibility_tree`` (``metrics/general.py``) over its
``accessibility_tree`` getter (``getters/misc.py``) as ``value`` checks.

OSWorld scores the tree rule by rule and multiplies: a rule whose selection (``xpath``, or
CSS ``selectors`` joined with ``", "``; ``xpath`` wins when both are given) matches
nothing scores 0; a rule without ``text`` scores 1 once something matches; with ``text``,
the best of the selected elements' texts (``exact``, the default: equal, 1 or 0; else
rapidfuzz's ratio). Each rule becomes one ``value`` check of the ``accessibility_tree``
source (:mod:`gui_agent.checks.sources.accessibility`), all of which must pass:

=========================  ==================================================================
rule                       check
=========================  ==================================================================
no ``text``                the selection is not empty (``rule: {method: ne, ref: []}``)
``text``                   one selected element's text equals it (``include: [text]``)
``text``, ``exact: false`` the same: a fuzzy rule passes at OSWorld's full score only, and a
                           ratio of 1 means equal texts
=========================  ==================================================================

The task's desktop must run with ``accessibility: true``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gui_agent.checks.osworld.metric import Check, Metric, kind_of
from gui_agent.errors import OsworldConfigError


def _selection(rule: dict[str, Any], where: str) -> dict[str, Any]:
    if "xpath" in rule:
        if not isinstance(rule["xpath"], str) or not rule["xpath"].strip():
            raise OsworldConfigError(f"{where}.xpath", f"expected an XPath, got {kind_of(rule['xpath'])}")
        return {"xpath": rule["xpath"]}
    selectors = rule.get("selectors")
    if not isinstance(selectors, list) or not selectors or not all(isinstance(s, str) and s.strip() for s in selectors):
        raise OsworldConfigError(where, "expected 'xpath' or a list of CSS 'selectors'")
    return {"selectors": list(selectors)}


def _rule_check(rule: Any, where: str) -> Check:
    if not isinstance(rule, dict):
        raise OsworldConfigError(where, f"expected a mapping, got {kind_of(rule)}")
    source = {"accessibility_tree": _selection(rule, where)}
    if "text" not in rule:
        return {"value": {"of": source, "rule": {"method": "ne", "ref": []}}}
    if not isinstance(rule["text"], str):
        raise OsworldConfigError(f"{where}.text", f"expected a text, got {kind_of(rule['text'])}")
    if not isinstance(rule.get("exact", True), bool):
        raise OsworldConfigError(f"{where}.exact", f"expected true or false, got {kind_of(rule['exact'])}")
    return {"value": {"of": source, "include": [rule["text"]]}}


def check_accessibility_tree(metric: Metric) -> list[Check]:
    result = metric.result
    if not isinstance(result, dict) or result.get("type") != "accessibility_tree":
        raise OsworldConfigError(f"{metric.where}.result", "expected {type: accessibility_tree}")
    rules = metric.rules().get("list")
    if not isinstance(rules, list) or not rules:
        raise OsworldConfigError(f"{metric.where}.expected.rules", "expected a list of rules")
    return [_rule_check(rule, f"{metric.where}.expected.rules[{i}]") for i, rule in enumerate(rules)]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {"check_accessibility_tree": check_accessibility_tree}
#: None: the one metric converts.
NO_EQUIVALENT: dict[str, str] = {}

__all__ = ["METRICS", "NO_EQUIVALENT", "check_accessibility_tree"]
