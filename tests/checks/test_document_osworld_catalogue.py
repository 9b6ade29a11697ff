"""The conversion of OSWorld's ``metrics/docs.py`` as a catalogue: every function there has
a conversion (or a stated reason it has none), each reaches it through ``convert_metric``,
what it writes validates as a task's checks, and options and rules OSWorld's code would
not read, or that are the wrong shape, are refused with the key named."""

from __future__ import annotations

from typing import Any

import pytest

from gui_agent.checks import osworld
from gui_agent.checks.osworld import document
from gui_agent.checks.osworld.metric import Metric
from gui_agent.checks.registry import FAMILIES
from gui_agent.errors import OsworldConfigError, OsworldUnsupported
from gui_agent.task.osworld_import import convert_osworld

#: Every function defined in OSWorld's desktop_env/evaluators/metrics/docs.py.
DOCS_FUNCTIONS = (
    "find_default_font", "contains_page_break", "compare_docx_files", "compare_init_lines", "compare_docx_tables",
    "compare_docx_images", "compare_image_text", "compare_line_spacing", "compare_insert_equation", "compare_font_names",
    "compare_subscript_contains", "has_page_numbers_in_footers", "is_first_line_centered", "check_file_exists",
    "check_tabstops", "compare_contains_image", "evaluate_colored_words_in_tables", "check_highlighted_words",
    "evaluate_strike_through_last_paragraph", "evaluate_conversion", "evaluate_spacing", "check_italic_font_size_14",
    "evaluate_alignment", "get_unique_train_ids", "check_no_duplicates", "compare_docx_lines",
    "compare_docx_files_and_ignore_new_lines", "compare_highlighted_text", "compare_references",
)
DOC = "/home/user/Desktop/a.docx"
GOLD = {"type": "cloud_file", "path": "https://example.test/g", "dest": "a_Gold.docx"}
#: A config's result and expected per function whose inputs are not a document and its gold.
SHAPES: dict[str, dict[str, Any]] = {
    "find_default_font": {"result": {"type": "vm_file", "path": "/home/user/.config/libreoffice/4/user/registrymodifications.xcu"},
                          "expected": {"type": "rule", "rules": {"font_name": "Times New Roman"}}},
    "compare_font_names": {"expected": {"type": "rule", "rules": {"font_name": "Arial"}}},
    "compare_image_text": {"result": {"type": "vm_file", "path": "/home/user/Desktop/s.png"},
                           "expected": {"type": "rule", "rules": {"type": "text", "text": "ls"}}},
    "check_file_exists": {"result": {"type": "rule", "rules": "/home/user/Desktop"}, "expected": {"type": "rule", "rules": "a.txt"}},
}


def config(func: str, **evaluator: Any) -> dict[str, Any]:
    spec = {"func": func, "result": {"type": "vm_file", "path": DOC}, "expected": GOLD, **SHAPES.get(func, {}), **evaluator}
    return {"id": f"c-{func}", "instruction": "x", "related_apps": ["libreoffice_writer"], "evaluator": spec}


def checks_of(evaluator: dict[str, Any]) -> list[dict[str, Any]]:
    return evaluator.get("all_of", [evaluator])


def test_every_docs_function_has_a_conversion_reached_through_convert_metric() -> None:
    assert set(document.METRICS) == set(DOCS_FUNCTIONS)
    assert all(osworld.METRICS[f] is document.METRICS[f] for f in DOCS_FUNCTIONS)
    assert set(document.NO_EQUIVALENT) <= set(DOCS_FUNCTIONS)
    assert all(reason.startswith("no equivalent: ") for reason in document.NO_EQUIVALENT.values())


@pytest.mark.parametrize("func", [f for f in DOCS_FUNCTIONS if f not in document.NO_EQUIVALENT])
def test_each_conversion_is_a_valid_task_of_registered_checks(func: str) -> None:
    conversion = convert_osworld(config(func))
    assert conversion.complete, conversion.unsupported
    evaluator = conversion.task.model_dump(mode="json", by_alias=True, exclude_none=True)["evaluator"]
    names = {next(iter(check)) for check in checks_of(evaluator)}
    known = {kind.name for family in FAMILIES.values() for kind in family}
    assert names <= known and names


@pytest.mark.parametrize("func", sorted(document.NO_EQUIVALENT))
def test_no_equivalent_functions_say_why(func: str) -> None:
    conversion = convert_osworld(config(func))
    assert not conversion.complete and document.NO_EQUIVALENT[func] in conversion.unsupported[0]


def evaluator_of(func: str, **spec: Any) -> dict[str, Any]:
    conversion = convert_osworld(config(func, **spec))
    assert conversion.complete, conversion.unsupported
    return conversion.task.model_dump(mode="json", by_alias=True, exclude_none=True)["evaluator"]


def test_options_map_to_the_checks_fields() -> None:
    scored = evaluator_of("compare_docx_files", options={"fuzzy_match": True, "ignore_blanks": False, "ignore_case": True})
    assert scored["document_text_similarity"]["by_paragraph"] and scored["document_text_similarity"]["ignore_case"]
    content = evaluator_of("compare_docx_files", options={"content_only": True, "ignore_blanks": False})
    assert content["document_text_similarity"]["by_paragraph"] is False  # content_only compares whole texts
    tabs = evaluator_of("check_tabstops", options={"word_number_split_by_tabstop": 2, "index": 1})["tab_stops_equal"]
    assert (tabs["words_before_tab"], tabs["tab_index"], tabs["min_score"]) == (2, 1, 1.0)
    refs = evaluator_of("compare_references", options={"reference_indicator": "Bibliography", "reference_base_result": 0.9})
    assert (refs["references_equal"]["heading"], refs["references_equal"]["base"]) == ("Bibliography", 0.9)
    colours = checks_of(evaluator_of("evaluate_colored_words_in_tables", options={"threshold": 5}))[1]["run_format"]
    assert (colours["color_tolerance"], colours["color_formula"]) == (5.0, "ciede2000")
    spacing = checks_of(evaluator_of("evaluate_spacing", expected=None))
    assert [c["paragraph_line_spacing"]["equals"] for c in spacing] == [1.0, 2.0, 1.5]
    font = evaluator_of("find_default_font")["libreoffice_setting"]
    assert font["path"] == ".config/libreoffice/4/user/registrymodifications.xcu"
    assert (font["item"], font["prop"], font["value"]["ref"]) == ("/org.openoffice.Office.Writer/DefaultFont", "Standard", "Times New Roman")
    assert evaluator_of("check_file_exists")["file_exists"]["path"] == "Desktop/a.txt"


@pytest.mark.parametrize(("func", "spec", "why"), [
    ("compare_docx_files", {"options": {"examine_shape": True}}, "examine_shape"),
    ("check_tabstops", {"options": {"tolerance": 1}}, "tolerance"),
    ("find_default_font", {"result": {"type": "vm_file", "path": "/home/user/Desktop/a.docx"}}, "registrymodifications.xcu"),
    ("check_file_exists", {"result": {"type": "vm_file", "path": "/home/user/Desktop"}}, "must be a rule"),
])
def test_what_osworld_would_not_read_is_refused(func: str, spec: dict[str, Any], why: str) -> None:
    conversion = convert_osworld(config(func, **spec))
    assert not conversion.complete and why in conversion.unsupported[0]


@pytest.mark.parametrize(("func", "spec", "key"), [
    ("compare_image_text", {"expected": {"type": "rule", "rules": {"type": "regex", "text": "x"}}}, "expected.rules.type"),
    ("compare_font_names", {"expected": {"type": "rule", "rules": {"font_name": ""}}}, "expected.rules.font_name"),
    ("evaluate_colored_words_in_tables", {"options": {"threshold": "big"}}, "options.threshold"),
    ("compare_references", {"options": {"reference_base_result": 1.5}}, "options.reference_base_result"),
    ("check_tabstops", {"options": {"word_number_split_by_tabstop": "three"}}, "options.word_number_split_by_tabstop"),
])
def test_wrong_shapes_name_the_key(func: str, spec: dict[str, Any], key: str) -> None:
    with pytest.raises(OsworldConfigError, match=key.replace(".", r"\.")):
        convert_osworld(config(func, **spec))


def test_unsupported_is_raised_by_the_conversion_itself() -> None:
    with pytest.raises(OsworldUnsupported, match="no equivalent"):
        document.METRICS["get_unique_train_ids"](Metric("get_unique_train_ids", None, None, None, "evaluator", None))  # type: ignore[arg-type]
