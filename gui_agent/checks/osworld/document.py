"""OSWorld's Writer evaluators (``desktop_env/evaluators/metrics/docs.py``) as checks of the
document family, each built from how the function judges: its options, its defaults, and
what it reads (python-docx's body paragraphs, runs, tables; ``registrymodifications.xcu``).

Functions that score a fraction (``check_tabstops``, ``compare_references``,
``compare_docx_files`` with ``content_only`` or ``fuzzy_match``) become scored checks:
they pass at OSWorld's full marks, and give OSWorld's score as the reward when they are
the task's whole evaluator. :data:`NO_EQUIVALENT` lists what has none, and why.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

from gui_agent.checks.osworld.config import home_path
from gui_agent.checks.osworld.metric import Check, Metric
from gui_agent.errors import OsworldConfigError, OsworldUnsupported

_DOCS = (".docx", ".odt")
#: The keys compare_docx_files reads (OSWorld's, over its versions).
_DOCX_FILES_OPTIONS = {"ignore_blanks", "ignore_case", "ignore_order", "content_only", "fuzzy_match",
                       "delete_empty_lines", "fuzzy_match_threshold"}
#: docs.py functions with no check of their own, and why.
NO_EQUIVALENT = {
    "get_unique_train_ids": "no equivalent: a helper of check_no_duplicates that returns a set and a count, not a score",
}


def _pair(metric: Metric) -> dict[str, str]:
    return {"path": metric.result_path(*_DOCS), "expected": metric.expected_file(*_DOCS)}


def _text_equal(metric: Metric, **extra: Any) -> Check:
    return {"document_text_equal": {**_pair(metric), **extra}}


def _known(metric: Metric, known: set[str]) -> dict[str, Any]:
    unknown = sorted(set(metric.options) - known)
    if unknown:
        raise OsworldUnsupported(f"{metric.func} options {unknown} are not ones OSWorld's code reads (known: {sorted(known)})")
    return metric.options


def compare_docx_files(metric: Metric) -> list[Check]:
    options = _known(metric, _DOCX_FILES_OPTIONS)
    flags = {k: bool(options[k]) for k in ("ignore_case", "ignore_order", "delete_empty_lines") if k in options}
    if options.get("content_only") or options.get("fuzzy_match"):
        scored: dict[str, Any] = {**_pair(metric), **flags}
        if not options.get("content_only") and not options.get("ignore_blanks", True):
            scored["by_paragraph"] = True
        threshold = options.get("fuzzy_match_threshold")
        if isinstance(threshold, (int, float)) and not isinstance(threshold, bool) and options.get("fuzzy_match"):
            if not 0 < threshold <= 1:
                raise OsworldConfigError(f"{metric.where}.options.fuzzy_match_threshold", "expected a similarity in (0, 1]")
            scored["min_score"] = float(threshold)
        return [{"document_text_similarity": scored}]
    if "ignore_blanks" in options:
        flags["ignore_blanks"] = bool(options["ignore_blanks"])
    return [_text_equal(metric, **flags)]


def compare_docx_files_and_ignore_new_lines(metric: Metric) -> list[Check]:
    ignore_blanks = bool(_known(metric, {"ignore_blanks"}).get("ignore_blanks", True))
    return [_text_equal(metric, ignore_blanks=ignore_blanks, delete_empty_lines=True, keep_whitespace_lines=True)]


def compare_init_lines(metric: Metric) -> list[Check]:
    return [_text_equal(metric, ignore_blanks=False, ignore_extra_paragraphs=True)]


def compare_docx_lines(metric: Metric) -> list[Check]:
    return [_text_equal(metric, distinct=True)]


def compare_line_spacing(metric: Metric) -> list[Check]:
    return [_text_equal(metric), {"paragraph_format_equal": {**_pair(metric), "props": ["line_spacing"]}}]


def compare_insert_equation(metric: Metric) -> list[Check]:
    return [_text_equal(metric), {"document_equations": {"path": metric.result_path(*_DOCS)}}]


def compare_font_names(metric: Metric) -> list[Check]:
    font = metric.rules().get("font_name")
    if not isinstance(font, str) or not font:
        raise OsworldConfigError(f"{metric.where}.expected.rules.font_name", "expected a font name")
    # OSWorld looks at every run of the body's paragraphs (blank ones too), not at tables.
    return [{"run_format": {"path": metric.result_path(*_DOCS), "mode": "every", "font_name": font, "body_only": True, "blank_runs": True}}]


def compare_subscript_contains(metric: Metric) -> list[Check]:
    metric.expected_files()  # declared: the gold file is an input of the task
    return [{"run_format": {"path": metric.result_path(*_DOCS), "subscript": True}}]


def has_page_numbers_in_footers(metric: Metric) -> list[Check]:
    return [{"footer_page_numbers": {"path": metric.result_path(*_DOCS)}}]


def is_first_line_centered(metric: Metric) -> list[Check]:
    return [{"paragraph_alignment": {"path": metric.result_path(*_DOCS), "paragraph": 0, "equals": "center"}}]


def compare_highlighted_text(metric: Metric) -> list[Check]:
    return [{"highlighted_text_equal": _pair(metric)}]


def check_highlighted_words(metric: Metric) -> list[Check]:
    return [_text_equal(metric), {"run_format": {"path": metric.result_path(*_DOCS), "mode": "none", "highlight": "FFFF00"}}]


def evaluate_colored_words_in_tables(metric: Metric) -> list[Check]:
    tolerance = _known(metric, {"threshold"}).get("threshold", 3.5)
    if not isinstance(tolerance, (int, float)) or isinstance(tolerance, bool) or tolerance < 0:
        raise OsworldConfigError(f"{metric.where}.options.threshold", "expected a CIEDE2000 colour difference (a number >= 0)")
    common = {"path": metric.result_path(*_DOCS), "mode": "every", "in_tables": True,
              "color_tolerance": float(tolerance), "color_formula": "ciede2000"}
    return [
        _text_equal(metric),
        {"run_format": {**common, "matching": "^[aeiouAEIOU]", "color": "FF0000"}},
        {"run_format": {**common, "matching": "^[^aeiouAEIOU]", "color": "0000FF"}},
    ]


def contains_page_break(metric: Metric) -> list[Check]:
    # Newer OSWorld reads an optional rules.page_break_count; older versions take no expected.
    is_rule = isinstance(metric.expected, dict) and metric.expected.get("type") == "rule"
    count = metric.rules().get("page_break_count") if is_rule else None
    check: dict[str, Any] = {"path": metric.result_path(*_DOCS)}
    if isinstance(count, int):
        check["count"] = count
    return [{"page_breaks": check}]


def compare_docx_tables(metric: Metric) -> list[Check]:
    return [{"document_tables_equal": _pair(metric)}]


def compare_docx_images(metric: Metric) -> list[Check]:
    return [{"document_images_equal": _pair(metric)}]


def compare_contains_image(metric: Metric) -> list[Check]:
    return [{"image_positions_equal": _pair(metric)}]


def compare_image_text(metric: Metric) -> list[Check]:
    rules = metric.rules()
    if rules.get("type") != "text":
        raise OsworldConfigError(f"{metric.where}.expected.rules.type", f"expected 'text' (OSWorld raises on {rules.get('type')!r})")
    text = rules.get("text")
    if not isinstance(text, str) or not text:
        raise OsworldConfigError(f"{metric.where}.expected.rules.text", "expected the text the picture must show")
    return [{"ocr_text_contains": {"path": metric.result_path(), "text": text}}]


def check_tabstops(metric: Metric) -> list[Check]:
    options = _known(metric, {"word_number_split_by_tabstop", "index"})
    check: dict[str, Any] = _pair(metric)
    words, index = options.get("word_number_split_by_tabstop"), options.get("index", 0)
    if words is not None:
        if not isinstance(words, int) or isinstance(words, bool) or words < 0:
            raise OsworldConfigError(f"{metric.where}.options.word_number_split_by_tabstop", "expected a number of words")
        if not isinstance(index, int) or isinstance(index, bool):
            raise OsworldConfigError(f"{metric.where}.options.index", "expected the 0-based part between tabs")
        check.update(words_before_tab=words, tab_index=index)
    return [{"tab_stops_equal": check}]


def compare_references(metric: Metric) -> list[Check]:
    # content_only is passed by configs and read by compare_docx_files, not by compare_references.
    options = _known(metric, {"reference_indicator", "reference_base_result", "content_only"})
    check: dict[str, Any] = _pair(metric)
    heading, base = options.get("reference_indicator", "References"), options.get("reference_base_result", 0.5)
    if not isinstance(heading, str) or not heading.strip():
        raise OsworldConfigError(f"{metric.where}.options.reference_indicator", "expected the heading's text")
    if not isinstance(base, (int, float)) or isinstance(base, bool) or not 0 <= base < 1:
        raise OsworldConfigError(f"{metric.where}.options.reference_base_result", "expected a similarity in [0, 1)")
    return [{"references_equal": {**check, "heading": heading, "base": float(base)}}]


def evaluate_strike_through_last_paragraph(metric: Metric) -> list[Check]:
    return [_text_equal(metric), {"run_format": {"path": metric.result_path(*_DOCS), "paragraph": -1, "mode": "every",
                                                 "strike": True, "blank_runs": True, "min_runs": 0}}]


def check_italic_font_size_14(metric: Metric) -> list[Check]:
    return [_text_equal(metric), {"run_format": {"path": metric.result_path(*_DOCS), "body_only": True, "among": {"italic": True},
                                                 "mode": "every", "font_size": 14, "blank_runs": True, "min_runs": 0}}]


def evaluate_conversion(metric: Metric) -> list[Check]:
    return [{"run_format": {"path": metric.result_path(*_DOCS), "mode": "none", "uppercase": True}}]


def evaluate_spacing(metric: Metric) -> list[Check]:
    path = metric.result_path(*_DOCS)
    return [{"paragraph_line_spacing": {"path": path, "paragraph": i, "equals": lines}} for i, lines in enumerate((1.0, 2.0, 1.5))]


def evaluate_alignment(metric: Metric) -> list[Check]:
    return [{"sentence_words_apart": {"path": metric.result_path(*_DOCS), "words": 3}}]


def check_no_duplicates(metric: Metric) -> list[Check]:
    # check_no_duplicates(initial_file, processed_file) gets (result, expected): the expected
    # file is the one it searches for duplicate train ids.
    return [{"record_keys_equal": {**_pair(metric), "fields": 4, "key": 1, "separator": ",", "no_duplicates": "expected"}}]


def check_file_exists(metric: Metric) -> list[Check]:
    folder, name = (_rule_text(part, f"{metric.where}.{key}") for part, key in ((metric.result, "result"), (metric.expected, "expected")))
    return [{"file_exists": {"path": home_path(posixpath.join(folder, name))}}]


def _rule_text(part: Any, where: str) -> str:
    """A ``{type: rule, rules: "text"}`` getter's text (the only getter giving check_file_exists a folder or a name)."""
    if not isinstance(part, dict) or part.get("type") != "rule":
        raise OsworldUnsupported(f"check_file_exists joins two texts on the host; {where} must be a rule naming one "
                                 "(a file getter gives a downloaded copy, not a folder in the VM)")
    text = part.get("rules")
    if not isinstance(text, str) or not text:
        raise OsworldConfigError(f"{where}.rules", "expected a folder or a file name")
    return text


def find_default_font(metric: Metric) -> list[Check]:
    font = metric.rules().get("font_name")
    if not isinstance(font, str) or not font:
        raise OsworldConfigError(f"{metric.where}.expected.rules.font_name", "expected a font name")
    profile = metric.result_paths()[0]
    if posixpath.basename(profile) != "registrymodifications.xcu":
        raise OsworldUnsupported(f"find_default_font reads LibreOffice's registrymodifications.xcu, not {profile!r}")
    # No path: libreoffice_setting reads the episode's own LibreOffice profile, wherever the VM kept it.
    return [{"libreoffice_setting": {"item": "/org.openoffice.Office.Writer/DefaultFont", "prop": "Standard",
                                     "value": {"method": "eq", "ref": font}}}]


def _no_equivalent(metric: Metric) -> list[Check]:
    raise OsworldUnsupported(NO_EQUIVALENT[metric.func])


#: OSWorld metric name -> its conversion (every function of docs.py).
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "find_default_font": find_default_font,
    "contains_page_break": contains_page_break,
    "compare_docx_files": compare_docx_files,
    "compare_init_lines": compare_init_lines,
    "compare_docx_tables": compare_docx_tables,
    "compare_docx_images": compare_docx_images,
    "compare_image_text": compare_image_text,
    "compare_line_spacing": compare_line_spacing,
    "compare_insert_equation": compare_insert_equation,
    "compare_font_names": compare_font_names,
    "compare_subscript_contains": compare_subscript_contains,
    "has_page_numbers_in_footers": has_page_numbers_in_footers,
    "is_first_line_centered": is_first_line_centered,
    "check_file_exists": check_file_exists,
    "check_tabstops": check_tabstops,
    "compare_contains_image": compare_contains_image,
    "evaluate_colored_words_in_tables": evaluate_colored_words_in_tables,
    "check_highlighted_words": check_highlighted_words,
    "evaluate_strike_through_last_paragraph": evaluate_strike_through_last_paragraph,
    "evaluate_conversion": evaluate_conversion,
    "evaluate_spacing": evaluate_spacing,
    "check_italic_font_size_14": check_italic_font_size_14,
    "evaluate_alignment": evaluate_alignment,
    "get_unique_train_ids": _no_equivalent,
    "check_no_duplicates": check_no_duplicates,
    "compare_docx_lines": compare_docx_lines,
    "compare_docx_files_and_ignore_new_lines": compare_docx_files_and_ignore_new_lines,
    "compare_highlighted_text": compare_highlighted_text,
    "compare_references": compare_references,
}

__all__ = ["METRICS", "NO_EQUIVALENT"]
