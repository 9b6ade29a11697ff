"""OSWorld's Thunderbird evaluators as checks of the mail family."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gui_agent.errors import OsworldConfigError
from gui_agent.checks.osworld.metric import Check, Metric, expect_unexpect, records, value_rule


def check_thunderbird_prefs(metric: Metric) -> list[Check]:
    def prefs(value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise OsworldConfigError(where, "expected a mapping of preference -> rule")
        return {k: value_rule(v, f"{where}.{k}") for k, v in value.items()}
    rules = expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", prefs)
    return [{"thunderbird_prefs": {"path": metric.result_path(), **rules}}]


def check_thunderbird_filter(metric: Metric) -> list[Check]:
    rules = expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", records)
    return [{"thunderbird_filters": {"path": metric.result_path(), **rules}}]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "check_thunderbird_prefs": check_thunderbird_prefs,
    "check_thunderbird_filter": check_thunderbird_filter,
}
