"""OSWorld evaluator functions -> our checks, one function per OSWorld metric.

:mod:`gui_agent.task.osworld_import` hands every ``func`` of a config's evaluator to
:func:`convert_metric` with its ``result``, ``expected`` and ``options``; what comes back
is a list of checks (combined with ``all_of``). A metric or an option with no
equivalent raises :class:`Unsupported` (the evaluator is then left out whole: a partial
check could pass what the original fails); a config whose shape is wrong raises
:class:`~gui_agent.task.osworld_config.ConfigError` naming the key.

Files: ``vm_file`` results are paths in the VM's home (``/home/user/X`` -> ``X``);
``cloud_file`` expectations are downloads, so they become declared inputs; a
``vm_file`` expectation is usable when a config step downloaded it (it is that input);
``cache_file`` results are the ``stdout`` files post steps write.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from gui_agent.task.osworld_config import ConfigError, Unsupported, home_path
from gui_agent.task.value_rules import from_osworld

Check = dict[str, Any]


class Files(Protocol):
    """What metric conversion needs from the config being converted (its inputs and outputs)."""

    def declare(self, url: str, name: str) -> str: ...

    def downloaded(self, vm_path: str) -> str | None: ...

    def cache_file(self, name: str) -> str | None: ...

    def cache_producer(self, name: str) -> list[str] | None: ...

    def drop_producer(self, name: str, reason: str) -> None: ...


class Metric:
    """One ``func`` of an evaluator with its ``result``, ``expected`` and ``options``."""

    def __init__(self, func: str, result: Any, expected: Any, options: Any, where: str, files: Files) -> None:
        self.func, self.result, self.expected, self.where, self.files = func, result, expected, where, files
        if options is not None and not isinstance(options, dict):
            raise ConfigError(f"{where}.options", f"expected a mapping, got {type(options).__name__}")
        self.options: dict[str, Any] = options or {}

    # ------------------------------------------------------------------ files
    def result_paths(self) -> list[str]:
        """The home-relative paths a ``vm_file`` result names (several with ``multi``)."""
        result = self.result
        if not isinstance(result, dict):
            raise ConfigError(f"{self.where}.result", f"expected a mapping with 'type', got {_kind(result)}")
        kind = result.get("type")
        if kind == "vm_file":
            paths = result.get("path")
            listed = paths if isinstance(paths, list) else [paths]
            if not listed or not all(isinstance(p, str) and p for p in listed):
                raise ConfigError(f"{self.where}.result.path", "expected a path (or a list of paths with multi)")
            return [home_path(p) for p in listed]
        if kind == "cache_file":
            name = result.get("path")
            if not isinstance(name, str) or not name:
                raise ConfigError(f"{self.where}.result.path", "expected the cache file's name")
            made = self.files.cache_file(name)
            if made is None:
                raise Unsupported(f"the result is the cache file {name!r}, which no post step writes")
            return [made]
        raise Unsupported(f"results of type {kind!r} have no equivalent (files in the home folder do: vm_file, cache_file)")

    def result_path(self, *suffixes: str) -> str:
        paths = self.result_paths()
        if suffixes:
            fitting = [p for p in paths if p.lower().endswith(suffixes)]
            if fitting:
                return fitting[0]
        return paths[0]

    def expected_files(self) -> list[str]:
        """Task paths of the expected file(s): declared inputs."""
        expected = self.expected
        if not isinstance(expected, dict):
            raise ConfigError(f"{self.where}.expected", f"expected a mapping with 'type', got {_kind(expected)}")
        kind = expected.get("type")
        paths = expected.get("path")
        listed = paths if isinstance(paths, list) else [paths]
        if not listed or not all(isinstance(p, str) and p for p in listed):
            raise ConfigError(f"{self.where}.expected.path", "expected a path or URL (or a list of them with multi)")
        if kind == "cloud_file":
            dests = expected.get("dest")
            names = dests if isinstance(dests, list) else [dests] * len(listed)
            if len(names) != len(listed):
                raise ConfigError(f"{self.where}.expected.dest", f"expected {len(listed)} names, one per path")
            return [self.files.declare(url, name if isinstance(name, str) and name else url) for url, name in zip(listed, names)]
        if kind == "vm_file":
            found = []
            for path in listed:
                local = self.files.downloaded(path)
                if local is None:
                    raise Unsupported(f"the expected file {path!r} is made in the VM, not downloaded, so it cannot be supplied")
                found.append(local)
            return found
        raise Unsupported(f"expected of type {kind!r} has no equivalent here (files: cloud_file, vm_file)")

    def expected_file(self, *suffixes: str) -> str:
        files = self.expected_files()
        fitting = [f for f in files if f.lower().endswith(suffixes)] if suffixes else files
        return (fitting or files)[0]

    def rules(self) -> dict[str, Any]:
        """``expected.rules`` of a ``rule`` expectation."""
        if not isinstance(self.expected, dict) or self.expected.get("type") != "rule":
            raise ConfigError(f"{self.where}.expected", "expected {type: rule, rules: ...}")
        rules = self.expected.get("rules")
        if not isinstance(rules, (dict, list)):
            raise ConfigError(f"{self.where}.expected.rules", f"expected a mapping, got {_kind(rules)}")
        return rules if isinstance(rules, dict) else {"list": rules}


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


def _rule(rule: Any, where: str) -> dict[str, Any]:
    if not isinstance(rule, dict) or "method" not in rule:
        raise ConfigError(where, "expected a rule {method: ..., ref: ...}")
    try:
        return from_osworld(rule)
    except ValueError as exc:
        raise Unsupported(str(exc)) from None


# ---------------------------------------------------------------------- spreadsheets


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
                raise ConfigError(where, f"{ref!r}: expected a position after {ref[:2]}")
            return side, int(ref[2:])
        return side, ref[2:]
    raise ConfigError(where, f"expected a sheet like 0, 'RI0', 'RNSheet1', 'EI0' or 'ENSheet1', got {ref!r}")


def _pair(metric: Metric, rule: dict[str, Any], where: str, path: str) -> dict[str, Any]:
    """The sheet pair fields (path, sheet, expected, expected_sheet) of a two-sheet rule."""
    if "sheet_idx0" not in rule or "sheet_idx1" not in rule:
        raise ConfigError(where, "a comparison rule needs sheet_idx0 and sheet_idx1")
    first, second = sheet_side(rule["sheet_idx0"], f"{where}.sheet_idx0"), sheet_side(rule["sheet_idx1"], f"{where}.sheet_idx1")
    if first[0] == "expected" and second[0] == "result":
        first, second = second, first
    if first[0] != "result":
        raise Unsupported(f"{where} compares two sheets of the expected file, which says nothing of the result")
    fields: dict[str, Any] = {"path": path, "sheet": first[1]}
    if second[0] == "expected":
        fields["expected"] = metric.expected_file(".xlsx", ".xls", ".ods")
        if second[1] != first[1]:
            fields["expected_sheet"] = second[1]
    else:
        if second[1] == first[1]:
            raise Unsupported(f"{where} compares a sheet with itself")
        fields["expected_sheet"] = second[1]
    return fields


_VALIDATION_PROPS = {
    "ranges": "ranges", "type": "type", "formula1": "formula1", "formula2": "formula2", "operator": "operator",
    "allowBlank": "allow_blank", "showDropDown": "show_drop_down", "showInputMessage": "show_input_message",
    "showErrorMessage": "show_error_message", "error": "error", "errorTitle": "error_title",
    "errorStyle": "error_style", "prompt": "prompt", "promptTitle": "prompt_title",
}


def _table_rule(metric: Metric, rule: Any, where: str, path: str) -> list[Check]:
    if not isinstance(rule, dict) or not isinstance(rule.get("type"), str):
        raise ConfigError(where, "expected a rule mapping with a 'type'")
    kind = rule["type"]
    if kind == "sheet_data":
        pair = _pair(metric, rule, where, path)
        check: dict[str, Any] = {"path": path, "sheets": [pair["sheet"]]}
        if "expected" in pair:
            check["expected"] = pair["expected"]
        if "expected_sheet" in pair:
            check["expected_sheets"] = [pair["expected_sheet"]]
        if "precision" in rule:
            check["tolerance"] = 10.0 ** -int(rule["precision"])
        return [{"sheet_data_equal": check}]
    if kind == "sheet_name":
        return [{"sheet_names": {"path": path, "same_as": metric.expected_file(".xlsx", ".xls", ".ods")}}]
    simple = {"chart": ("chart_equal", "chart_props"), "pivot_table": ("pivot_equal", "pivot_props"),
              "style": ("style_equal", "props"), "row_props": ("rows_equal", "props"), "col_props": ("columns_equal", "props"),
              "freeze": ("freeze_equal", None), "filter": ("filter_equal", None)}
    if kind in simple:
        name, props_key = simple[kind]
        check = _pair(metric, rule, where, path)
        if props_key is not None:
            props = rule.get(props_key, [])
            if not isinstance(props, list):
                raise ConfigError(f"{where}.{props_key}", "expected a list of property names")
            if props or name in ("style_equal", "rows_equal", "columns_equal"):
                check["props"] = props
        return [{name: check}]
    if kind == "zoom":
        side = sheet_side(rule.get("sheet_idx", 0), f"{where}.sheet_idx")
        if side[0] != "result":
            raise Unsupported(f"{where} checks the zoom of the expected file")
        return [{"sheet_zoom": {"path": path, "sheet": side[1], "zoom": _rule(rule, where)}}]
    if kind == "data_validation":
        side = sheet_side(rule.get("sheet_idx", 0), f"{where}.sheet_idx")
        props = rule.get("dv_props")
        if not isinstance(props, list) or not props:
            raise ConfigError(f"{where}.dv_props", "expected a list of property rules")
        validations = []
        for i, entry in enumerate(props):
            if not isinstance(entry, dict):
                raise ConfigError(f"{where}.dv_props[{i}]", "expected a mapping of property -> rule")
            unknown = [k for k in entry if k not in _VALIDATION_PROPS]
            if unknown:
                raise Unsupported(f"data validation properties {unknown} have no equivalent")
            validations.append({_VALIDATION_PROPS[k]: _rule(v, f"{where}.dv_props[{i}].{k}") for k, v in entry.items()})
        return [{"data_validation": {"path": path, "sheet": side[1], "validations": validations}}]
    if kind == "check_cell":
        side = sheet_side(rule.get("sheet_idx", 0), f"{where}.sheet_idx")
        props = rule.get("props")
        if not isinstance(props, dict) or not props or not isinstance(rule.get("coordinate"), str):
            raise ConfigError(where, "check_cell needs 'coordinate' and 'props' (property -> rule)")
        return [{"cell_props": {"path": path, "sheet": side[1], "cell": rule["coordinate"],
                                "props": {k: _rule(v, f"{where}.props.{k}") for k, v in props.items()}}}]
    if kind == "sheet_print":
        first = sheet_side(rule.get("sheet_idx0", 0), f"{where}.sheet_idx0")
        csvs = [f for f in metric.expected_files() if f.lower().endswith(".csv")]
        if len(csvs) != 1:
            raise Unsupported(f"{where}: sheet_print needs exactly one expected CSV file, the config lists {len(csvs)}")
        metric.files.drop_producer(path, "the sheet_print_equal check exports the sheet itself")
        return [{"sheet_print_equal": {"path": path, "sheet": first[1], "expected": csvs[0],
                                       "ignore_case": bool(rule.get("ignore_case", False))}}]
    raise Unsupported(f"compare_table rule {kind!r} has no equivalent")


def compare_table(metric: Metric) -> list[Check]:
    path = metric.result_path(".xlsx", ".xls", ".ods")
    rules = metric.options.get("rules")
    if rules is None:
        rules = [{"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"}]
    if not isinstance(rules, list) or not rules:
        raise ConfigError(f"{metric.where}.options.rules", "expected a list of rules")
    return [c for i, rule in enumerate(rules) for c in _table_rule(metric, rule, f"{metric.where}.options.rules[{i}]", path)]


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
        raise ConfigError(f"{metric.where}.expected.rules", "expected relation (eq, lt, ...) and ref_value (a number)")
    return [{"pdf_pages": {"path": metric.result_path(".pdf"), "pages": {"method": _RELATIONS[relation], "ref": rules["ref_value"]}}}]


# ---------------------------------------------------------------------- documents


def _text_equal(metric: Metric, **extra: Any) -> Check:
    return {"document_text_equal": {"path": metric.result_path(".docx", ".odt"), "expected": metric.expected_file(".docx", ".odt"), **extra}}


def compare_docx_files(metric: Metric) -> list[Check]:
    options = metric.options
    known = {"ignore_blanks", "ignore_case", "ignore_order", "delete_empty_lines", "fuzzy_match", "fuzzy_match_threshold"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise Unsupported(f"compare_docx_files options {unknown} have no equivalent (content_only scores a similarity)")
    extra = {k: bool(options[k]) for k in ("ignore_blanks", "ignore_case", "ignore_order", "delete_empty_lines") if k in options}
    if options.get("fuzzy_match"):
        threshold = options.get("fuzzy_match_threshold")
        if not isinstance(threshold, (int, float)) or not options.get("ignore_blanks", True):
            raise Unsupported("a fuzzy comparison without a threshold scores a similarity, not a pass or fail")
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
        raise ConfigError(f"{metric.where}.expected.rules.font_name", "expected a font name")
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


# ---------------------------------------------------------------------- presentations

#: compare_pptx_files options -> presentation_equal aspects.
_PPTX_ASPECTS = {
    "examine_number_of_slides": "slide_count", "examine_shape": "shapes", "examine_text": "text",
    "examine_font_name": "font_name", "examine_font_size": "font_size", "examine_font_bold": "font_bold",
    "examine_font_italic": "font_italic", "examine_color_rgb": "font_color", "examine_font_underline": "font_underline",
    "examine_strike_through": "font_strike", "examine_alignment": "alignment", "examine_background_color": "background",
    "examine_note": "notes",
}
#: Options moving one shape, and the shape, slide (from 0) and edge OSWorld's code checks for them.
_PPTX_MOVES = {
    "examine_title_bottom_position": ("title", 1, "bottom"),
    "examine_table_bottom_position": ("table", 2, "bottom"),
    "examine_right_position": ("picture", 1, "right"),
    "examine_top_position": ("picture", 1, "top"),
}
#: Options OSWorld's code reads but that change nothing we compare (bullets and indents are not compared).
_PPTX_IGNORED = {"examine_bullets", "examine_indent", "enable_debug", "normalize_runs", "approximately_tolerance"}


def compare_pptx_files(metric: Metric) -> list[Check]:
    path, gold = metric.result_path(".pptx"), metric.expected_file(".pptx")
    check: dict[str, Any] = {"path": path, "expected": gold}
    moves = []
    for key, value in metric.options.items():
        if key in _PPTX_ASPECTS:
            check[_PPTX_ASPECTS[key]] = bool(value)
        elif key in _PPTX_MOVES:
            if value:
                shape, slide, toward = _PPTX_MOVES[key]
                moves.append({"shape_moved": {"path": path, "original": gold, "slide": slide, "shape": shape, "toward": toward}})
        elif key == "approximately_tolerance" and isinstance(value, (int, float)):
            check["tolerance"] = float(value)
        elif key not in _PPTX_IGNORED and key.startswith("examine_") and value and key not in ("examine_aligment",):
            raise Unsupported(f"compare_pptx_files option {key!r} has no equivalent")
    return [{"presentation_equal": check}, *moves]


def check_transition(metric: Metric) -> list[Check]:
    rules = metric.rules()
    if not isinstance(rules.get("slide_idx"), int) or not isinstance(rules.get("transition_type"), str):
        raise ConfigError(f"{metric.where}.expected.rules", "expected slide_idx (a number) and transition_type")
    return [{"slide_transition": {"path": metric.result_path(".pptx"), "slide": rules["slide_idx"], "type": rules["transition_type"]}}]


def check_auto_saving_time(metric: Metric) -> list[Check]:
    minutes = metric.rules().get("minutes")
    if not isinstance(minutes, int):
        raise ConfigError(f"{metric.where}.expected.rules.minutes", "expected a number of minutes")
    return [{"libreoffice_setting": {"path": metric.result_path(), "item": "/org.openoffice.Office.Common/Save/Document",
                                     "prop": "AutoSaveTimeIntervall", "value": {"method": "eq", "ref": minutes}}}]


def evaluate_presentation_fill_to_rgb_distance(metric: Metric) -> list[Check]:
    rules = metric.rules()
    rgb = rules.get("rgb")
    if not (isinstance(rgb, list) and len(rgb) == 3 and all(isinstance(c, int) for c in rgb)):
        raise ConfigError(f"{metric.where}.expected.rules.rgb", "expected [r, g, b]")
    if rules.get("original_rgb") is not None:
        raise Unsupported("original_rgb (an unchanged slide scores 1) has no equivalent")
    return [{"slide_background": {"path": metric.result_path(".pptx"), "color": "".join(f"{c:02X}" for c in rgb)}}]


def check_slide_orientation_portrait(metric: Metric) -> list[Check]:
    return [{"slide_orientation": {"path": metric.result_path(".pptx"), "orientation": "portrait"}}]


def contains_mp4_video(metric: Metric) -> list[Check]:
    return [{"presentation_media": {"path": metric.result_path(".pptx"), "kind": "any", "name_matches": r"\.mp4$"}}]


def compare_audios(metric: Metric) -> list[Check]:
    result = metric.result
    if not isinstance(result, dict) or result.get("type") != "audio_in_slide":
        raise Unsupported("compare_audios compares audio files by their sound (MFCC), which has no equivalent")
    deck, slide = result.get("ppt_file_path"), result.get("slide_index", 0)
    if not isinstance(deck, str) or not isinstance(slide, int):
        raise ConfigError(f"{metric.where}.result", "audio_in_slide needs ppt_file_path and slide_index")
    return [{"presentation_media": {"path": home_path(deck), "slide": slide, "kind": "audio", "same_as": metric.expected_file()}}]


# ---------------------------------------------------------------------- mail and data files


def _expect_unexpect(rules: dict[str, Any], where: str, convert: Callable[[Any, str], Any], empty: Any) -> dict[str, Any]:
    out = {}
    for key in ("expect", "unexpect"):
        if key in rules:
            out[key] = convert(rules[key], f"{where}.{key}")
    if not out:
        raise ConfigError(where, "expected 'expect' and/or 'unexpect'")
    return out


def check_thunderbird_prefs(metric: Metric) -> list[Check]:
    def prefs(value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ConfigError(where, "expected a mapping of preference -> rule")
        return {k: _rule(v, f"{where}.{k}") for k, v in value.items()}
    rules = _expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", prefs, {})
    return [{"thunderbird_prefs": {"path": metric.result_path(), **rules}}]


def _records(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
        raise ConfigError(where, "expected a list of records (mappings)")
    return [{str(k): (v if isinstance(v, list) else str(v)) for k, v in r.items()} for r in value]


def check_thunderbird_filter(metric: Metric) -> list[Check]:
    rules = _expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", _records, [])
    return [{"thunderbird_filters": {"path": metric.result_path(), **rules}}]


def check_list(metric: Metric) -> list[Check]:
    def patterns(value: Any, where: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
            raise ConfigError(where, "expected a list of regexes")
        return value
    rules = _expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", patterns, [])
    return [{"lines_match": {"path": metric.result_path(), **rules}}]


def check_csv(metric: Metric) -> list[Check]:
    rules = _expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", _records, [])
    result = metric.result
    name = result.get("path") if isinstance(result, dict) and result.get("type") == "cache_file" else None
    producer = metric.files.cache_producer(name) if isinstance(name, str) else None
    if producer is not None and any("firefox_decrypt" in part for part in producer):
        # OSWorld lists the stored accounts with a downloaded script; the accounts are in prefs.js.
        profiles = next((home_path(p) for p in producer[2:] if p.rstrip("/").endswith(".thunderbird")), ".thunderbird")
        metric.files.drop_producer(name, "thunderbird_accounts reads the accounts from the profile's prefs.js")
        records = {k: [{f: v for f, v in r.items() if f in ("url", "user")} for r in rs] for k, rs in rules.items()}
        return [{"thunderbird_accounts": {"profile": profiles, **records}}]
    return [{"csv_rows": {"path": metric.result_path(), **rules}}]


def check_json(metric: Metric) -> list[Check]:
    def values(value: Any, where: str) -> list[dict[str, Any]]:
        if not isinstance(value, list):
            raise ConfigError(where, "expected a list of {key: [...], method, ref}")
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict) or not isinstance(item.get("key"), list):
                raise ConfigError(f"{where}[{i}]", "expected {key: [path...], method: ..., ref: ...}")
            out.append({"key": item["key"], "rule": _rule(item, f"{where}[{i}]")})
        return out
    rules = _expect_unexpect(metric.rules(), f"{metric.where}.expected.rules", values, [])
    return [{"json_values": {"path": metric.result_path(".json"), **rules}}]


def infeasible(metric: Metric) -> list[Check]:
    return [{"infeasible_reported": None}]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "compare_table": compare_table, "compare_csv": compare_csv, "check_pdf_pages": check_pdf_pages,
    "compare_docx_files": compare_docx_files, "compare_docx_lines": compare_docx_lines,
    "compare_line_spacing": compare_line_spacing, "compare_insert_equation": compare_insert_equation,
    "compare_font_names": compare_font_names, "compare_subscript_contains": compare_subscript_contains,
    "has_page_numbers_in_footers": has_page_numbers_in_footers, "is_first_line_centered": is_first_line_centered,
    "compare_highlighted_text": compare_highlighted_text, "check_highlighted_words": check_highlighted_words,
    "evaluate_colored_words_in_tables": evaluate_colored_words_in_tables, "contains_page_break": contains_page_break,
    "compare_pptx_files": compare_pptx_files, "check_transition": check_transition,
    "check_auto_saving_time": check_auto_saving_time,
    "evaluate_presentation_fill_to_rgb_distance": evaluate_presentation_fill_to_rgb_distance,
    "check_slide_orientation_Portrait": check_slide_orientation_portrait, "contains_mp4_video": contains_mp4_video,
    "compare_audios": compare_audios, "check_thunderbird_prefs": check_thunderbird_prefs,
    "check_thunderbird_filter": check_thunderbird_filter, "check_list": check_list, "check_csv": check_csv,
    "check_json": check_json, "infeasible": infeasible,
}
#: Metrics known to have no equivalent, and why (the rest: "no equivalent check").
NO_EQUIVALENT = {
    "check_accessibility_tree": "it reads the VM's accessibility tree, which this desktop does not export",
}


def convert_metric(metric: Metric) -> list[Check]:
    """The checks for one OSWorld metric.

    Raises:
        Unsupported: it (or one of its options) has no equivalent.
        ConfigError: the config's shape is wrong (the message names the key).
    """
    convert = METRICS.get(metric.func)
    if convert is None:
        raise Unsupported(NO_EQUIVALENT.get(metric.func, "no equivalent check"))
    return convert(metric)


__all__ = ["METRICS", "NO_EQUIVALENT", "Files", "Metric", "convert_metric", "sheet_side"]
