"""OSWorld's Thunderbird evaluators (``check_thunderbird_prefs``, ``check_thunderbird_filter``,
``check_thunderbird_folder``) as checks of the mail family."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gui_agent.errors import OsworldConfigError, OsworldUnsupported
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


#: ``check_thunderbird_folder``'s options, all kept as ``mail_folder_equal``'s.
_FOLDER_OPTIONS = ("ignore_status", "ignore_keys", "remove_deleted", "remove_duplicate")


def check_thunderbird_folder(metric: Metric) -> list[Check]:
    """Each folder file (or saved message) against its expected one. OSWorld's code splits
    the files at ``FROM - `` (Thunderbird writes ``From - ``) and keeps only the empty
    pieces, so as written it compares nothing; this judges what its docstring says: the
    same messages in each folder."""
    unknown = sorted(set(metric.options) - set(_FOLDER_OPTIONS))
    if unknown:
        raise OsworldUnsupported(f"check_thunderbird_folder options {unknown} have no equivalent")
    options = {k: bool(metric.options[k]) for k in _FOLDER_OPTIONS if k in metric.options}
    paths, golds = metric.result_paths(), metric.expected_files()
    if len(paths) != len(golds):
        raise OsworldConfigError(f"{metric.where}.result", f"{len(paths)} folder(s) for {len(golds)} expected one(s)")
    return [{"mail_folder_equal": {"path": p, "expected": g, **options}} for p, g in zip(paths, golds)]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "check_thunderbird_prefs": check_thunderbird_prefs,
    "check_thunderbird_filter": check_thunderbird_filter,
    "check_thunderbird_folder": check_thunderbird_folder,
}
