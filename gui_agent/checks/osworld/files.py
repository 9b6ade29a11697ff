"""OSWorld's evaluators of plain files (``compare_csv``, ``check_pdf_pages``, ``check_list``,
``check_csv``, ``check_json``) as checks of the files family."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gui_agent.checks.osworld.config import home_path
from gui_agent.errors import OsworldConfigError
from gui_agent.checks.osworld.metric import Check, Metric, expect_unexpect, records, value_rule


def compare_csv(metric: Metric) -> list[Check]:
    path = metric.result_path()
    files = metric.expected_files()
    checks = [{"file_equal": {"path": path, "expected": f}} for f in files]
    return checks if len(checks) == 1 else [{"any_of": checks}]


_RELATIONS = {"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}


def check_pdf_pages(metric: Metric) -> list[Check]:
    rules = metric.rules()
    relation = rules.get("relation", "eq")
    if relation not in _RELATIONS or not isinstance(rules.get("ref_value"), int):
        raise OsworldConfigError(f"{metric.where}.expected.rules", "expected relation (eq, lt, ...) and ref_value (a number)")
    return [{"pdf_pages": {"path": metric.result_path(".pdf"), "pages": {"method": _RELATIONS[relation], "ref": rules["ref_value"]}}}]


def check_list(metric: Metric) -> list[Check]:
    def patterns(value: Any, where: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
            raise OsworldConfigError(where, "expected a list of regexes")
        return value
    rules = expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", patterns)
    return [{"lines_match": {"path": metric.result_path(), **rules}}]


def check_csv(metric: Metric) -> list[Check]:
    rules = expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", records)
    result = metric.result
    name = result.get("path") if isinstance(result, dict) and result.get("type") == "cache_file" else None
    producer = metric.files.cache_producer(name) if isinstance(name, str) else None
    if producer is not None and any("firefox_decrypt" in part for part in producer):
        # OSWorld lists the stored accounts with a downloaded script; the accounts are in prefs.js.
        profiles = next((home_path(p) for p in producer[2:] if p.rstrip("/").endswith(".thunderbird")), ".thunderbird")
        metric.files.drop_producer(name, "thunderbird_accounts reads the accounts from the profile's prefs.js")
        accounts = {k: [{f: v for f, v in r.items() if f in ("url", "user")} for r in rs] for k, rs in rules.items()}
        return [{"thunderbird_accounts": {"profile": profiles, **accounts}}]
    return [{"csv_rows": {"path": metric.result_path(), **rules}}]


def check_json(metric: Metric) -> list[Check]:
    def values(value: Any, where: str) -> list[dict[str, Any]]:
        if not isinstance(value, list):
            raise OsworldConfigError(where, "expected a list of {key: [...], method, ref}")
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict) or not isinstance(item.get("key"), list):
                raise OsworldConfigError(f"{where}[{i}]", "expected {key: [path...], method: ..., ref: ...}")
            out.append({"key": item["key"], "rule": value_rule(item, f"{where}[{i}]")})
        return out
    rules = expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", values)
    return [{"json_values": {"path": metric.result_path(".json"), **rules}}]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "compare_csv": compare_csv,
    "check_pdf_pages": check_pdf_pages,
    "check_list": check_list,
    "check_csv": check_csv,
    "check_json": check_json,
}
