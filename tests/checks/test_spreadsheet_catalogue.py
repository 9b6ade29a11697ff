"""The conversion of OSWorld's ``metrics/table.py`` (and the Calc getter) as a catalogue:
every function, every ``compare_table`` rule type, every data-validation property, every
cell property and every value-rule method there has a conversion reached through
``convert_metric``; what it writes validates as a task's checks; wrong shapes are refused
naming the key."""

from __future__ import annotations

from typing import Any

import pytest

from gui_agent.checks import osworld
from gui_agent.checks.osworld import files, getters, spreadsheet
from gui_agent.errors import OsworldConfigError
from gui_agent.task.osworld_import import convert_osworld

BOOK = {"type": "vm_file", "path": "/home/user/a.xlsx"}
GOLD = {"type": "cloud_file", "path": "https://example.test/g", "dest": "a_gold.xlsx"}
#: Every rule type compare_table reads, a minimal rule of it, and the check it becomes.
TABLE_RULES: dict[str, tuple[dict[str, Any], str]] = {
    "sheet_name": ({}, "sheet_names"),
    "sheet_data": ({"sheet_idx0": 0, "sheet_idx1": "EI0"}, "sheet_data_equal"),
    "sheet_print": ({"sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1"}, "sheet_print_equal"),
    "sheet_fuzzy": ({"sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1",
                     "rules": [{"range": ["A1:B2"], "type": "fuzzy_match", "threshold": 90}]}, "cells_match"),
    "sparkline": ({"sheet_idx0": 0, "sheet_idx1": "EI0"}, "sparklines_equal"),
    "chart": ({"sheet_idx0": 0, "sheet_idx1": "EI0", "chart_props": ["type", "legend"]}, "chart_equal"),
    "style": ({"sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["font_bold", "bgcolor"]}, "style_equal"),
    "freeze": ({"sheet_idx0": 0, "sheet_idx1": "EI0"}, "freeze_equal"),
    "zoom": ({"sheet_idx": 0, "method": "lt", "ref": 260}, "sheet_zoom"),
    "data_validation": ({"sheet_idx": 0, "dv_props": [{"type": {"method": "eq", "ref": "list"}}]}, "data_validation"),
    "row_props": ({"sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["hidden", "height"]}, "rows_equal"),
    "col_props": ({"sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["width", "min", "max"]}, "columns_equal"),
    "filter": ({"sheet_idx0": 0, "sheet_idx1": "EI0"}, "filter_equal"),
    "pivot_table": ({"sheet_idx0": "RNSheet2", "sheet_idx1": "ENSheet2", "pivot_props": ["row_fields", "data_fields"]}, "pivot_equal"),
    "check_cell": ({"sheet_idx": 0, "coordinate": "A1", "props": {"value": {"method": "eq", "ref": "x"}}}, "cell_props"),
}
#: data_validation's attributes (as OSWorld's comment lists them).
VALIDATION_PROPS = ("ranges", "type", "formula1", "formula2", "operator", "allowBlank", "showDropDown", "showInputMessage",
                    "showErrorMessage", "error", "errorTitle", "errorStyle", "prompt", "promptTitle", "imeMode")
#: check_cell's properties: the value and every style _read_cell_style reads.
CELL_PROPS = ("value", "number_format", "font_name", "font_family", "font_color", "font_bold", "font_italic",
              "font_underline", "font_size", "fill_type", "bgcolor", "fgcolor", "hyperlink")
#: _match_value_to_rule's methods, a ref for each.
METHODS = {"re": "^a", "re.I": "^a", "re.S.M": "a$", "eq": 1, "ne": 1, "le": 1, "lt": 1, "ge": 1, "gt": 1, "approx:0.1": 1,
           "range.te": [0, 2], "range.ee": [0, 2], "str_list_eq": ["a", "b"], "str_set_eq": ["a", "b"]}


def config(func: str = "compare_table", **evaluator: Any) -> dict[str, Any]:
    spec = {"func": func, "result": BOOK, "expected": GOLD, **evaluator}
    return {"id": f"c-{func}", "instruction": "x", "related_apps": ["libreoffice_calc"], "evaluator": spec}


def checks_of(conf: dict[str, Any]) -> list[dict[str, Any]]:
    conversion = convert_osworld(conf)
    assert conversion.complete, conversion.unsupported
    evaluator = conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)["evaluator"]
    return evaluator.get("all_of", [evaluator])


def table(*rules: dict[str, Any]) -> list[dict[str, Any]]:
    return checks_of(config(options={"rules": list(rules)}))


def test_every_table_function_has_a_conversion_reached_through_convert_metric() -> None:
    assert set(spreadsheet.METRICS) == {"compare_table", "compare_conference_city_in_order"}
    assert all(osworld.METRICS[f] is spreadsheet.METRICS[f] for f in spreadsheet.METRICS)
    assert osworld.METRICS["compare_csv"] is files.METRICS["compare_csv"]  # text lines: the files family's
    assert "conference_city_in_order" in getters.NO_EQUIVALENT and "conference_city_in_order" not in getters.GETTERS


@pytest.mark.parametrize("kind", sorted(TABLE_RULES))
def test_every_compare_table_rule_type_converts(kind: str) -> None:
    rule, check = TABLE_RULES[kind]
    expected = {**GOLD, "path": ["https://example.test/g", "https://example.test/c"], "dest": ["a_gold.xlsx", "a_gold-Sheet1.csv"]}
    conf = config(options={"rules": [{"type": kind, **rule}]}, **({"expected": expected} if kind == "sheet_print" else {}))
    assert [next(iter(c)) for c in checks_of(conf)] == [check]


def test_sheets_are_named_every_way_compare_table_names_them() -> None:
    for ref, sheet in ((0, 0), ("RI1", 1), ("RNSales", "Sales")):
        for other, expected_sheet in (("EI0", 0), ("ENSales", "Sales")):
            (check,) = table({"type": "freeze", "sheet_idx0": ref, "sheet_idx1": other})
            assert check["freeze_equal"]["sheet"] == sheet
            assert check["freeze_equal"].get("expected_sheet", sheet) == expected_sheet
    (swapped,) = table({"type": "sheet_fuzzy", "sheet_idx0": "EI0", "sheet_idx1": 0, "rules": [{"range": ["A1"], "type": "includes"}]})
    assert swapped["cells_match"]["rules"][0]["match"] == "included_by"  # the result's sheet comes first
    with pytest.raises(OsworldConfigError) as raised:
        table({"type": "freeze", "sheet_idx0": "XI0", "sheet_idx1": 0})
    assert raised.value.key == "evaluator.options.rules[0].sheet_idx0"


def test_defaults_are_osworlds() -> None:
    (data,) = table({"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"})
    assert data["sheet_data_equal"]["precision"] == 4
    (chart,) = table({"type": "chart", "sheet_idx0": 0, "sheet_idx1": "EI0"})
    assert chart["chart_equal"]["props"] == []  # only the series are compared
    (pivot,) = table({"type": "pivot_table", "sheet_idx0": 0, "sheet_idx1": "EI0", "pivot_props": ["row_fields", "no_such"]})
    assert pivot["pivot_equal"]["props"] == ["row_fields"]  # OSWorld's loader ignores what it does not know


@pytest.mark.parametrize("prop", VALIDATION_PROPS)
def test_every_data_validation_property_converts(prop: str) -> None:
    (check,) = table({"type": "data_validation", "sheet_idx": 0, "dv_props": [{prop: {"method": "eq", "ref": "x"}}]})
    assert len(check["data_validation"]["validations"][0]) == 1


def test_spreadsheet_range_bounds_the_validated_ranges() -> None:
    bounds = {"ranges": {"method": "spreadsheet_range", "ref": ["D2:D29", "D2:D1048576"]}}
    (check,) = table({"type": "data_validation", "sheet_idx": 0, "dv_props": [bounds]})
    assert check["data_validation"]["validations"] == [{"ranges": {"contains": "D2:D29", "within": "D2:D1048576"}}]
    with pytest.raises(OsworldConfigError) as raised:
        table({"type": "data_validation", "sheet_idx": 0, "dv_props": [{"ranges": {"method": "spreadsheet_range", "ref": "D2"}}]})
    assert raised.value.key == "evaluator.options.rules[0].dv_props[0].ranges.ref"


@pytest.mark.parametrize("prop", CELL_PROPS)
def test_every_cell_property_converts(prop: str) -> None:
    (check,) = table({"type": "check_cell", "sheet_idx": 0, "coordinate": "B3", "props": {prop: {"method": "eq", "ref": "x"}}})
    assert list(check["cell_props"]["props"]) == [prop]


@pytest.mark.parametrize(("method", "ref"), sorted(METHODS.items()))
def test_every_value_rule_method_converts(method: str, ref: Any) -> None:
    (check,) = table({"type": "check_cell", "sheet_idx": 0, "coordinate": "B3", "props": {"value": {"method": method, "ref": ref}}})
    assert check["cell_props"]["props"]["value"]["ref"] == ref


def test_sheet_fuzzy_options_become_the_rules_fields() -> None:
    rule = {"range": ["A1:A6", "D1:D6"], "type": "includes", "threshold": 80, "ignore_case": True, "ignore_chars": " ()-",
            "trim_leadings": "+ ", "trim_trailings": " ", "normalization": [["Rd", "Road"]]}
    (check,) = table({"type": "sheet_fuzzy", "sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1", "rules": [rule]})
    assert check["cells_match"]["rules"] == [{"ranges": ["A1:A6", "D1:D6"], "match": "includes", "threshold": 80.0, "ignore_case": True,
                                              "ignore_chars": " ()-", "trim_leading": "+ ", "trim_trailing": " ",
                                              "replace": [["Rd", "Road"]]}]


def test_compare_conference_city_in_order() -> None:
    cities = ["Scottsdale", ["Montreal", "Montréal"]]
    (check,) = checks_of(config("compare_conference_city_in_order", expected={"type": "rule", "rules": {"expected": cities}}))
    assert check == {"cells_contain": {"path": "a.xlsx", "range": "C2:C22", "contains": cities}}
    with pytest.raises(OsworldConfigError) as raised:
        convert_osworld(config("compare_conference_city_in_order", expected={"type": "rule", "rules": {"expected": [3]}}))
    assert raised.value.key == "evaluator.expected.rules.expected"


@pytest.mark.parametrize(("rule", "key"), [
    ({"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0", "precision": "4"}, "evaluator.options.rules[0].precision"),
    ({"type": "sheet_fuzzy", "sheet_idx0": 0, "sheet_idx1": "EI0", "rules": [{"range": "A1", "type": "similar"}]},
     "evaluator.options.rules[0].rules[0].type"),
    ({"type": "sheet_fuzzy", "sheet_idx0": 0, "sheet_idx1": "EI0", "rules": [{"range": [3], "type": "includes"}]},
     "evaluator.options.rules[0].rules[0].range"),
    ({"type": "chart", "sheet_idx0": 0, "sheet_idx1": "EI0", "chart_props": "type"}, "evaluator.options.rules[0].chart_props"),
])
def test_wrong_shapes_are_refused_naming_the_key(rule: dict[str, Any], key: str) -> None:
    with pytest.raises(OsworldConfigError) as raised:
        table(rule)
    assert raised.value.key == key


def test_rules_reading_only_the_expected_file_say_why() -> None:
    conversion = convert_osworld(config(options={"rules": [{"type": "zoom", "sheet_idx": "EI0", "method": "lt", "ref": 2}]}))
    assert not conversion.complete and "reads the expected file" in conversion.unsupported[0]
