"""OSWorld's spreadsheet evaluators (``table.py``: ``compare_table`` and every one of its
rules, ``compare_conference_city_in_order``) as spreadsheet checks.

``compare_csv`` (also in ``table.py``) compares text files line by line: the files
family converts it (:mod:`gui_agent.checks.osworld.files`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, get_args

from gui_agent.errors import OsworldConfigError, OsworldUnsupported
from gui_agent.checks.osworld.metric import Check, Metric, value_rule
from gui_agent.checks.spreadsheet.models import ChartProp, PivotProp


def sheet_side(ref: Any, where: str) -> tuple[str, int | str]:
    """OSWorld's sheet reference -> (``result`` or ``expected``, position or name).

    ``0`` / ``"RI0"`` / ``"RNSheet1"`` are the result's; ``"EI0"`` / ``"ENSheet1"`` the expected file's.
    """
    if isinstance(ref, int) and not isinstance(ref, bool):
        return "result", ref
    if isinstance(ref, str) and len(ref) > 2 and ref[:2] in ("RI", "RN", "EI", "EN"):
        side = "result" if ref[0] == "R" else "expected"
        if ref[1] == "I":
            if not ref[2:].isdigit():
                raise OsworldConfigError(where, f"{ref!r}: expected a position after {ref[:2]}")
            return side, int(ref[2:])
        return side, ref[2:]
    raise OsworldConfigError(where, f"expected a sheet like 0, 'RI0', 'RNSheet1', 'EI0' or 'ENSheet1', got {ref!r}")


def _pair(metric: Metric, rule: dict[str, Any], where: str, path: str) -> dict[str, Any]:
    """The sheet pair fields (path, sheet, expected, expected_sheet) of a two-sheet rule."""
    if "sheet_idx0" not in rule or "sheet_idx1" not in rule:
        raise OsworldConfigError(where, "a comparison rule needs sheet_idx0 and sheet_idx1")
    first, second = sheet_side(rule["sheet_idx0"], f"{where}.sheet_idx0"), sheet_side(rule["sheet_idx1"], f"{where}.sheet_idx1")
    if first[0] == "expected" and second[0] == "result":
        first, second = second, first
    if first[0] != "result":
        raise OsworldUnsupported(f"{where} compares two sheets of the expected file, which says nothing of the result")
    fields: dict[str, Any] = {"path": path, "sheet": first[1]}
    if second[0] == "expected":
        fields["expected"] = metric.expected_file(".xlsx", ".xls", ".ods")
        if second[1] != first[1]:
            fields["expected_sheet"] = second[1]
    else:
        if second[1] == first[1]:
            raise OsworldUnsupported(f"{where} compares a sheet with itself")
        fields["expected_sheet"] = second[1]
    return fields


_VALIDATION_PROPS = {
    "ranges": "ranges", "type": "type", "formula1": "formula1", "formula2": "formula2", "operator": "operator",
    "allowBlank": "allow_blank", "showDropDown": "show_drop_down", "showInputMessage": "show_input_message",
    "showErrorMessage": "show_error_message", "error": "error", "errorTitle": "error_title",
    "errorStyle": "error_style", "prompt": "prompt", "promptTitle": "prompt_title", "imeMode": "ime_mode",
}


class _Rule:
    """One ``compare_table`` rule being converted: the metric, the rule, where it is, the saved file."""

    def __init__(self, metric: Metric, rule: dict[str, Any], where: str, path: str) -> None:
        self.metric, self.rule, self.where, self.path = metric, rule, where, path

    def sheet(self, key: str) -> tuple[str, int | str]:
        """The sheet the rule names under ``key`` (``sheet_idx``...; the first when omitted)."""
        return sheet_side(self.rule.get(key, 0), f"{self.where}.{key}")

    def pair(self) -> dict[str, Any]:
        return _pair(self.metric, self.rule, self.where, self.path)


def _sheet_data(r: _Rule) -> list[Check]:
    pair = r.pair()
    check: dict[str, Any] = {"path": r.path, "sheets": [pair["sheet"]]}
    if "expected" in pair:
        check["expected"] = pair["expected"]
    if "expected_sheet" in pair:
        check["expected_sheets"] = [pair["expected_sheet"]]
    precision = r.rule.get("precision", 4)  # OSWorld rounds both sheets to 4 decimals unless told
    if isinstance(precision, bool) or not isinstance(precision, int) or not 0 <= precision <= 15:
        raise OsworldConfigError(f"{r.where}.precision", f"expected a number of decimals, got {precision!r}")
    check["precision"] = precision
    return [{"sheet_data_equal": check}]


def _sheet_name(r: _Rule) -> list[Check]:
    return [{"sheet_names": {"path": r.path, "same_as": r.metric.expected_file(".xlsx", ".xls", ".ods")}}]


#: The properties OSWorld's loaders read for charts and pivot tables; others it ignores.
_KNOWN_PROPS = {"chart_equal": set(get_args(ChartProp)), "pivot_equal": set(get_args(PivotProp))}


def _sheet_pair(name: str, props_key: str | None, r: _Rule) -> list[Check]:
    """A comparison of one aspect of two sheets (``chart``, ``style``, ``freeze``...), with its
    property list (OSWorld's default: none, for charts and pivot tables only their sources)."""
    check = r.pair()
    if props_key is not None:
        props = r.rule.get(props_key, [])
        if not isinstance(props, list) or not all(isinstance(p, str) for p in props):
            raise OsworldConfigError(f"{r.where}.{props_key}", "expected a list of property names")
        check["props"] = [p for p in props if p in _KNOWN_PROPS[name]] if name in _KNOWN_PROPS else props
    return [{name: check}]


def _result_sheet(r: _Rule) -> int | str:
    """The sheet (of the result) a one-sheet rule (zoom, data_validation, check_cell) reads."""
    side = r.sheet("sheet_idx")
    if side[0] != "result":
        raise OsworldUnsupported(f"{r.where} reads the expected file, which says nothing of the result")
    return side[1]


def _zoom(r: _Rule) -> list[Check]:
    return [{"sheet_zoom": {"path": r.path, "sheet": _result_sheet(r), "zoom": value_rule(r.rule, r.where)}}]


def _validation_rule(prop: str, rule: Any, where: str) -> dict[str, Any]:
    """A ``dv_props`` rule; ``spreadsheet_range`` (ranges between two range lists) as range bounds."""
    if isinstance(rule, dict) and rule.get("method") == "spreadsheet_range":
        bounds = rule.get("ref")
        if prop != "ranges":
            raise OsworldUnsupported(f"{where}: spreadsheet_range judges the validated ranges, not {prop!r}")
        if not (isinstance(bounds, list) and len(bounds) == 2 and all(isinstance(b, str) and b.strip() for b in bounds)):
            raise OsworldConfigError(f"{where}.ref", "spreadsheet_range needs ref: [ranges it covers, ranges it stays within]")
        return {"contains": bounds[0], "within": bounds[1]}
    return value_rule(rule, where)


def _data_validation(r: _Rule) -> list[Check]:
    sheet = _result_sheet(r)
    props = r.rule.get("dv_props")
    if not isinstance(props, list) or not props:
        raise OsworldConfigError(f"{r.where}.dv_props", "expected a list of property rules")
    validations = []
    for i, entry in enumerate(props):
        if not isinstance(entry, dict):
            raise OsworldConfigError(f"{r.where}.dv_props[{i}]", "expected a mapping of property -> rule")
        unknown = [k for k in entry if k not in _VALIDATION_PROPS]
        if unknown:
            raise OsworldUnsupported(f"data validation properties {unknown} have no equivalent")
        validations.append({_VALIDATION_PROPS[k]: _validation_rule(k, v, f"{r.where}.dv_props[{i}].{k}") for k, v in entry.items()})
    return [{"data_validation": {"path": r.path, "sheet": sheet, "validations": validations}}]


def _check_cell(r: _Rule) -> list[Check]:
    sheet = _result_sheet(r)
    props = r.rule.get("props")
    if not isinstance(props, dict) or not props or not isinstance(r.rule.get("coordinate"), str):
        raise OsworldConfigError(r.where, "check_cell needs 'coordinate' and 'props' (property -> rule)")
    return [{"cell_props": {"path": r.path, "sheet": sheet, "cell": r.rule["coordinate"],
                            "props": {k: value_rule(v, f"{r.where}.props.{k}") for k, v in props.items()}}}]


def _sheet_print(r: _Rule) -> list[Check]:
    first = r.sheet("sheet_idx0")
    csvs = [f for f in r.metric.expected_files() if f.lower().endswith(".csv")]
    if len(csvs) != 1:
        raise OsworldUnsupported(f"{r.where}: sheet_print needs exactly one expected CSV file, the config lists {len(csvs)}")
    r.metric.files.drop_producer(r.path, "the sheet_print_equal check exports the sheet itself")
    return [{"sheet_print_equal": {"path": r.path, "sheet": first[1], "expected": csvs[0],
                                   "ignore_case": bool(r.rule.get("ignore_case", False))}}]


#: sheet_fuzzy's rule types -> cells_match's ``match``, and each one's mirror (the sheets swapped).
_FUZZY_MATCHES = {"exact_match": "exact", "includes": "includes", "included_by": "included_by", "fuzzy_match": "fuzzy"}
_MIRRORED = {"includes": "included_by", "included_by": "includes"}


def _fuzzy_rule(rule: Any, where: str, swapped: bool) -> dict[str, Any]:
    """One of sheet_fuzzy's cell rules as a cells_match rule."""
    if not isinstance(rule, dict) or not isinstance(rule.get("type"), str) or rule["type"] not in _FUZZY_MATCHES:
        raise OsworldConfigError(f"{where}.type", f"expected one of {sorted(_FUZZY_MATCHES)}")
    ranges = rule.get("range")
    ranges = [ranges] if isinstance(ranges, str) else ranges
    if not isinstance(ranges, list) or not ranges or not all(isinstance(x, str) and x.strip() for x in ranges):
        raise OsworldConfigError(f"{where}.range", "expected a list of cell ranges")
    match = _FUZZY_MATCHES[rule["type"]]
    out: dict[str, Any] = {"ranges": ranges, "match": _MIRRORED.get(match, match) if swapped else match}
    for key, field in (("threshold", "threshold"), ("ignore_case", "ignore_case"), ("ignore_chars", "ignore_chars"),
                       ("trim_leadings", "trim_leading"), ("trim_trailings", "trim_trailing"), ("normalization", "replace")):
        if key in rule:
            out[field] = rule[key]
    return out


def _sheet_fuzzy(r: _Rule) -> list[Check]:
    first = sheet_side(r.rule.get("sheet_idx0"), f"{r.where}.sheet_idx0")
    second = sheet_side(r.rule.get("sheet_idx1"), f"{r.where}.sheet_idx1")
    swapped = first[0] == "expected" and second[0] == "result"  # _pair puts the result's sheet first
    rules = r.rule.get("rules")
    if not isinstance(rules, list) or not rules:
        raise OsworldConfigError(f"{r.where}.rules", "expected a list of cell rules")
    check = {**r.pair(), "rules": [_fuzzy_rule(rule, f"{r.where}.rules[{i}]", swapped) for i, rule in enumerate(rules)]}
    return [{"cells_match": check}]


#: ``compare_table`` rule type -> its conversion.
_TABLE_RULES: dict[str, Callable[[_Rule], list[Check]]] = {
    "sheet_data": _sheet_data,
    "sheet_name": _sheet_name,
    "chart": partial(_sheet_pair, "chart_equal", "chart_props"),
    "pivot_table": partial(_sheet_pair, "pivot_equal", "pivot_props"),
    "style": partial(_sheet_pair, "style_equal", "props"),
    "row_props": partial(_sheet_pair, "rows_equal", "props"),
    "col_props": partial(_sheet_pair, "columns_equal", "props"),
    "freeze": partial(_sheet_pair, "freeze_equal", None),
    "filter": partial(_sheet_pair, "filter_equal", None),
    "zoom": _zoom,
    "data_validation": _data_validation,
    "check_cell": _check_cell,
    "sheet_print": _sheet_print,
    "sheet_fuzzy": _sheet_fuzzy,
    "sparkline": partial(_sheet_pair, "sparklines_equal", None),
}


def _table_rule(metric: Metric, rule: Any, where: str, path: str) -> list[Check]:
    if not isinstance(rule, dict) or not isinstance(rule.get("type"), str):
        raise OsworldConfigError(where, "expected a rule mapping with a 'type'")
    convert = _TABLE_RULES.get(rule["type"])
    if convert is None:
        raise OsworldUnsupported(f"compare_table rule {rule['type']!r} has no equivalent")
    return convert(_Rule(metric, rule, where, path))


def compare_table(metric: Metric) -> list[Check]:
    path = metric.result_path(".xlsx", ".xls", ".ods")
    rules = metric.options.get("rules")
    if rules is None:
        rules = [{"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"}]
    if not isinstance(rules, list) or not rules:
        raise OsworldConfigError(f"{metric.where}.options.rules", "expected a list of rules")
    return [c for i, rule in enumerate(rules) for c in _table_rule(metric, rule, f"{metric.where}.options.rules[{i}]", path)]


def compare_conference_city_in_order(metric: Metric) -> list[Check]:
    """The active sheet's C2:C22, row by row, contains the expected cities (a list: one of them)."""
    expected = metric.rules().get("expected")
    valid = isinstance(expected, list) and expected and all(
        (isinstance(e, str) and e) or (isinstance(e, list) and e and all(isinstance(x, str) and x for x in e)) for e in expected)
    if not valid:
        raise OsworldConfigError(f"{metric.where}.expected.rules.expected", "expected a list of texts (or lists of texts)")
    return [{"cells_contain": {"path": metric.result_path(".xlsx", ".xls", ".ods"), "range": "C2:C22", "contains": expected}}]



#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "compare_table": compare_table,
    "compare_conference_city_in_order": compare_conference_city_in_order,
}
