"""OSWorld's Writer evaluators as checks of the document family."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gui_agent.errors import OsworldConfigError, OsworldUnsupported
from gui_agent.checks.osworld.metric import Check, Metric


def _text_equal(metric: Metric, **extra: Any) -> Check:
    return {"document_text_equal": {"path": metric.result_path(".docx", ".odt"), "expected": metric.expected_file(".docx", ".odt"), **extra}}


def compare_docx_files(metric: Metric) -> list[Check]:
    options = metric.options
    known = {"ignore_blanks", "ignore_case", "ignore_order", "delete_empty_lines", "fuzzy_match", "fuzzy_match_threshold"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise OsworldUnsupported(f"compare_docx_files options {unknown} have no equivalent (content_only scores a similarity)")
    extra = {k: bool(options[k]) for k in ("ignore_blanks", "ignore_case", "ignore_order", "delete_empty_lines") if k in options}
    if options.get("fuzzy_match"):
        threshold = options.get("fuzzy_match_threshold")
        if not isinstance(threshold, (int, float)) or not options.get("ignore_blanks", True):
            raise OsworldUnsupported("a fuzzy comparison without a threshold scores a similarity, not a pass or fail")
        extra["min_similarity"] = float(threshold)
    return [_text_equal(metric, **extra)]


def compare_docx_lines(metric: Metric) -> list[Check]:
    return [_text_equal(metric, distinct=True)]


def compare_line_spacing(metric: Metric) -> list[Check]:
    path, gold = metric.result_path(".docx", ".odt"), metric.expected_file(".docx", ".odt")
    return [_text_equal(metric), {"paragraph_format_equal": {"path": path, "expected": gold, "props": ["line_spacing"]}}]


def compare_insert_equation(metric: Metric) -> list[Check]:
    return [_text_equal(metric), {"document_equations": {"path": metric.result_path(".docx", ".odt")}}]


def compare_font_names(metric: Metric) -> list[Check]:
    font = metric.rules().get("font_name")
    if not isinstance(font, str) or not font:
        raise OsworldConfigError(f"{metric.where}.expected.rules.font_name", "expected a font name")
    return [{"run_format": {"path": metric.result_path(".docx", ".odt"), "mode": "every", "font_name": font}}]


def compare_subscript_contains(metric: Metric) -> list[Check]:
    metric.expected_files()  # declared: the gold file is an input of the task
    return [{"run_format": {"path": metric.result_path(".docx", ".odt"), "subscript": True}}]


def has_page_numbers_in_footers(metric: Metric) -> list[Check]:
    return [{"footer_page_numbers": {"path": metric.result_path(".docx", ".odt")}}]


def is_first_line_centered(metric: Metric) -> list[Check]:
    return [{"paragraph_alignment": {"path": metric.result_path(".docx", ".odt"), "paragraph": 0, "equals": "center"}}]


def compare_highlighted_text(metric: Metric) -> list[Check]:
    return [{"highlighted_text_equal": {"path": metric.result_path(".docx", ".odt"), "expected": metric.expected_file(".docx", ".odt")}}]


def check_highlighted_words(metric: Metric) -> list[Check]:
    return [_text_equal(metric), {"run_format": {"path": metric.result_path(".docx", ".odt"), "mode": "none", "highlight": "FFFF00"}}]


def evaluate_colored_words_in_tables(metric: Metric) -> list[Check]:
    path = metric.result_path(".docx", ".odt")
    tolerance = float(metric.options.get("threshold", 3.5))
    common = {"path": path, "mode": "every", "in_tables": True, "color_tolerance": tolerance}
    return [
        _text_equal(metric),
        {"run_format": {**common, "matching": "^[aeiouAEIOU]", "color": "FF0000"}},
        {"run_format": {**common, "matching": "^[^aeiouAEIOU]", "color": "0000FF"}},
    ]


def contains_page_break(metric: Metric) -> list[Check]:
    count = metric.rules().get("page_break_count") if isinstance(metric.expected, dict) else None
    check: dict[str, Any] = {"path": metric.result_path(".docx", ".odt")}
    if isinstance(count, int):
        check["count"] = count
    return [{"page_breaks": check}]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "compare_docx_files": compare_docx_files,
    "compare_docx_lines": compare_docx_lines,
    "compare_line_spacing": compare_line_spacing,
    "compare_insert_equation": compare_insert_equation,
    "compare_font_names": compare_font_names,
    "compare_subscript_contains": compare_subscript_contains,
    "has_page_numbers_in_footers": has_page_numbers_in_footers,
    "is_first_line_centered": is_first_line_centered,
    "compare_highlighted_text": compare_highlighted_text,
    "check_highlighted_words": check_highlighted_words,
    "evaluate_colored_words_in_tables": evaluate_colored_words_in_tables,
    "contains_page_break": contains_page_break,
}
