"""OSWorld's general metrics (``metrics/general.py``) and its os ones (``metrics/basic_os.py``)
as ``value`` checks: the getter becomes the check's source, the metric its judgement.

OSWorld calls a metric as ``metric(result, expected, **options)``, whatever its
parameters are named: ``is_in_vm_clickboard(config, terminal_output)`` gets the rule as
``config`` and the command's output as ``terminal_output``, and
``is_included_all_json_objects(gold_file_path, result_file_path)`` gets the *result* as
``gold_file_path``. The conversions keep those meanings.

Scored metrics (a similarity in 0..1: ``fuzzy_match``, ``diff_text_file``,
``fuzzy_place_math``) pass at their full score: a pass here is full marks there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gui_agent.checks.osworld.getters import source_of
from gui_agent.checks.osworld.metric import Check, Metric, kind_of
from gui_agent.errors import OsworldConfigError, OsworldUnsupported

#: The clock times ``check_line_number`` counts lines by (OSWorld's ``timeRegex``).
TIME_OF_DAY = r"([01]\d|2[0-3]):[0-5]\d:[0-5]\d"


def _result(metric: Metric) -> dict[str, Any]:
    return source_of(metric.result, f"{metric.where}.result", metric.files)


def _expected_source(metric: Metric) -> dict[str, Any]:
    return source_of(metric.expected, f"{metric.where}.expected", metric.files)


def _rule_field(metric: Metric, key: str = "expected") -> Any:
    """``expected.rules[key]`` of a ``rule`` expectation (other getters: no equivalent)."""
    expected = metric.expected
    if isinstance(expected, dict) and expected.get("type") not in ("rule", None):
        raise OsworldUnsupported(f"{metric.func} against a {expected.get('type')!r} getter (OSWorld's configs give a rule)")
    rules = metric.rules()
    if key not in rules:
        raise OsworldConfigError(f"{metric.where}.expected.rules.{key}", "missing")
    return rules[key]


def _value(metric: Metric, **judgement: Any) -> list[Check]:
    return [{"value": {"of": _result(metric), **judgement}}]


def exact_match(metric: Metric) -> list[Check]:
    return _value(metric, equals=_rule_field(metric))


def fuzzy_match(metric: Metric) -> list[Check]:
    ref = _rule_field(metric)
    if not isinstance(ref, str):
        raise OsworldConfigError(f"{metric.where}.expected.rules.expected", f"expected a text, got {kind_of(ref)}")
    return _value(metric, fuzzy={"ref": ref, "min_ratio": 1.0})


def is_in_list(metric: Metric) -> list[Check]:
    return _value(metric, include=[_rule_field(metric)])


def check_include_exclude(metric: Metric) -> list[Check]:
    expected = metric.expected
    if isinstance(expected, dict) and expected.get("type") not in ("rule", None):
        raise OsworldUnsupported(f"check_include_exclude against a {expected.get('type')!r} getter (OSWorld's configs give a rule)")
    rules = metric.rules()
    include, exclude = rules.get("include", []), rules.get("exclude", [])
    if not isinstance(include, list) or not isinstance(exclude, list):
        raise OsworldConfigError(f"{metric.where}.expected.rules", "expected include and exclude lists")
    return _value(metric, include=include, exclude=exclude)


def literal_match(metric: Metric) -> list[Check]:
    kind = metric.options.get("type", "str")
    if kind not in ("str", "list"):
        raise OsworldUnsupported(f"literal_match of type {kind!r} (OSWorld knows str and list)")
    expected = metric.expected
    if not isinstance(expected, dict) or expected.get("type") != "rule":
        found = expected.get("type") if isinstance(expected, dict) else kind_of(expected)
        raise OsworldUnsupported(f"literal_match against a {found!r} getter: its value is only known when the check runs")
    literal = {"ref": metric.rules(), "as_list": kind == "list", "ignore_case": bool(metric.options.get("ignore_case", False))}
    return _value(metric, literal=literal)


def check_direct_json_object(metric: Metric) -> list[Check]:
    expected = metric.expected
    kind = expected.get("type") if isinstance(expected, dict) else None
    if kind not in ("rule", "rule_relativeTime"):
        raise OsworldUnsupported(f"check_direct_json_object against a {kind or kind_of(expected)!r} getter")
    rules = expected.get("rules")
    if not isinstance(rules, dict) or not isinstance(rules.get("expected"), dict):
        raise OsworldConfigError(f"{metric.where}.expected.rules.expected", "expected a mapping of keys to values")
    judgement: dict[str, Any] = {"expected": rules["expected"], "expect_in_result": bool(rules.get("expect_in_result", False))}
    if kind == "rule_relativeTime":
        source_of(expected, f"{metric.where}.expected", metric.files)  # its days are ones OSWorld dates
        judgement["relative_time"] = rules["relativeTime"]
    return _value(metric, json_object=judgement)


def _compare(how: str) -> Callable[[Metric], list[Check]]:
    """A metric comparing the result's value with the expectation's (both getters)."""
    def convert(metric: Metric) -> list[Check]:
        return _value(metric, same_as={"of": _expected_source(metric), "how": how})
    convert.__doc__ = f"the result's value and the expectation's compared as {how}"
    return convert


def is_gold_text_included_in_pdf(metric: Metric) -> list[Check]:
    source = {"pdf_text": {"path": metric.result_path(".pdf")}}
    return [{"value": {"of": source, "same_as": {"of": _expected_source(metric), "how": "values_in"}}}]


def file_contains(metric: Metric) -> list[Check]:
    texts = _rule_field(metric)
    # OSWorld loops over ``expected``: a text's characters, each one looked for.
    items = list(texts) if isinstance(texts, str) else texts
    if not isinstance(items, list):
        raise OsworldConfigError(f"{metric.where}.expected.rules.expected", f"expected texts, got {kind_of(texts)}")
    return _value(metric, include=items)


def check_line_number(metric: Metric) -> list[Check]:
    count = _rule_field(metric)
    try:
        wanted = int(count)
    except (TypeError, ValueError):
        raise OsworldConfigError(f"{metric.where}.expected.rules.expected", f"expected a number of lines, got {count!r}") from None
    return _value(metric, lines_matching={"pattern": TIME_OF_DAY, "count": wanted})


def fuzzy_place_math(metric: Metric) -> list[Check]:
    answers = _rule_field(metric)
    if not isinstance(answers, list) or not answers or not all(isinstance(a, str) for a in answers):
        raise OsworldConfigError(f"{metric.where}.expected.rules.expected", "expected a list of answers (texts)")
    source = {"docx_text": {"path": metric.result_path(".docx")}}
    return [{"value": {"of": source, "fuzzy_words": {"answers": answers, "count": 3, "min_score": 1.0}}}]


def compare_time_in_speedtest_results(metric: Metric) -> list[Check]:
    expected = metric.expected
    if not isinstance(expected, dict) or expected.get("type") != "time_diff_range":
        raise OsworldUnsupported("compare_time_in_speedtest_results without a time_diff_range expectation")
    try:
        minutes = int(expected.get("diff_range_in_minutes"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise OsworldConfigError(f"{metric.where}.expected.diff_range_in_minutes", "expected a number of minutes") from None
    return _value(metric, recent_time={"within_minutes": minutes})


def run_sqlite3(metric: Metric) -> list[Check]:
    sql = _rule_field(metric, "sql")
    if not isinstance(sql, str) or not sql.strip():
        raise OsworldConfigError(f"{metric.where}.expected.rules.sql", "expected an SQL query")
    # OSWorld's score is the first value of the first row (0 without one): full marks from 1.
    source = {"sqlite_value": {"path": metric.result_path(), "sql": sql}}
    return [{"value": {"of": source, "rule": {"method": "ge", "ref": 1}}}]


def check_moved_jpgs(metric: Metric) -> list[Check]:
    names = _rule_field(metric)
    if not isinstance(names, list):
        raise OsworldConfigError(f"{metric.where}.expected.rules.expected", f"expected a list of file names, got {kind_of(names)}")
    return _value(metric, set_equals=names)


def is_in_vm_clickboard(metric: Metric) -> list[Check]:
    # OSWorld's configs give the rule as the result and the clipboard's getter as the expectation.
    rule = metric.result
    if not isinstance(rule, dict) or rule.get("type") != "rule" or not isinstance(rule.get("rules"), dict) \
            or "expected" not in rule["rules"]:
        raise OsworldConfigError(f"{metric.where}.result", "expected {type: rule, rules: {expected: ...}}")
    wanted = rule["rules"]["expected"]
    return [{"value": {"of": _expected_source(metric), "include": wanted if isinstance(wanted, list) else [wanted]}}]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "exact_match": exact_match,
    "fuzzy_match": fuzzy_match,
    "is_in_list": is_in_list,
    "check_include_exclude": check_include_exclude,
    "literal_match": literal_match,
    "check_direct_json_object": check_direct_json_object,
    "is_included_all_json_objects": _compare("json_within"),
    "diff_text_file": _compare("lines"),
    "compare_terminal_and_txt": _compare("text"),
    "compare_python_pure_text": _compare("no_whitespace"),
    "file_contains": file_contains,
    "check_line_number": check_line_number,
    "fuzzy_place_math": fuzzy_place_math,
    "compare_time_in_speedtest_results": compare_time_in_speedtest_results,
    "run_sqlite3": run_sqlite3,
    "check_moved_jpgs": check_moved_jpgs,
    "is_in_vm_clickboard": is_in_vm_clickboard,
    "is_gold_text_included_in_pdf": is_gold_text_included_in_pdf,
}
#: OSWorld metric name -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {
    "check_gnome_favorite_apps": "GNOME Shell's dock favourites (org.gnome.shell favorite-apps): no GNOME Shell here",
    "is_utc_0": "the system time zone (timedatectl): changing it needs systemd-timedated and root, which a desktop "
                "session here does not have",
    "check_text_enlarged": "GNOME's text scaling (org.gnome.desktop.interface text-scaling-factor): gsettings here "
                           "writes to dconf over D-Bus, which desktop sessions do not have, and no app here reads it",
}
