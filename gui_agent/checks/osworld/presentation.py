"""OSWorld's Impress evaluators (and LibreOffice's auto-save setting) as checks of the
presentation family."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gui_agent.checks.osworld.config import home_path
from gui_agent.errors import OsworldConfigError, OsworldUnsupported
from gui_agent.checks.osworld.metric import Check, Metric


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
            raise OsworldUnsupported(f"compare_pptx_files option {key!r} has no equivalent")
    return [{"presentation_equal": check}, *moves]


def check_transition(metric: Metric) -> list[Check]:
    rules = metric.rules()
    if not isinstance(rules.get("slide_idx"), int) or not isinstance(rules.get("transition_type"), str):
        raise OsworldConfigError(f"{metric.where}.expected.rules", "expected slide_idx (a number) and transition_type")
    return [{"slide_transition": {"path": metric.result_path(".pptx"), "slide": rules["slide_idx"], "type": rules["transition_type"]}}]


def check_auto_saving_time(metric: Metric) -> list[Check]:
    minutes = metric.rules().get("minutes")
    if not isinstance(minutes, int):
        raise OsworldConfigError(f"{metric.where}.expected.rules.minutes", "expected a number of minutes")
    return [{"libreoffice_setting": {"path": metric.result_path(), "item": "/org.openoffice.Office.Common/Save/Document",
                                     "prop": "AutoSaveTimeIntervall", "value": {"method": "eq", "ref": minutes}}}]


def evaluate_presentation_fill_to_rgb_distance(metric: Metric) -> list[Check]:
    rules = metric.rules()
    rgb = rules.get("rgb")
    if not (isinstance(rgb, list) and len(rgb) == 3 and all(isinstance(c, int) for c in rgb)):
        raise OsworldConfigError(f"{metric.where}.expected.rules.rgb", "expected [r, g, b]")
    if rules.get("original_rgb") is not None:
        raise OsworldUnsupported("original_rgb (an unchanged slide scores 1) has no equivalent")
    return [{"slide_background": {"path": metric.result_path(".pptx"), "color": "".join(f"{c:02X}" for c in rgb)}}]


def check_slide_orientation_portrait(metric: Metric) -> list[Check]:
    return [{"slide_orientation": {"path": metric.result_path(".pptx"), "orientation": "portrait"}}]


def contains_mp4_video(metric: Metric) -> list[Check]:
    return [{"presentation_media": {"path": metric.result_path(".pptx"), "kind": "any", "name_matches": r"\.mp4$"}}]


def compare_audios(metric: Metric) -> list[Check]:
    result = metric.result
    if not isinstance(result, dict) or result.get("type") != "audio_in_slide":
        raise OsworldUnsupported("compare_audios compares audio files by their sound (MFCC), which has no equivalent")
    deck, slide = result.get("ppt_file_path"), result.get("slide_index", 0)
    if not isinstance(deck, str) or not isinstance(slide, int):
        raise OsworldConfigError(f"{metric.where}.result", "audio_in_slide needs ppt_file_path and slide_index")
    return [{"presentation_media": {"path": home_path(deck), "slide": slide, "kind": "audio", "same_as": metric.expected_file()}}]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "compare_pptx_files": compare_pptx_files,
    "check_transition": check_transition,
    "check_auto_saving_time": check_auto_saving_time,
    "evaluate_presentation_fill_to_rgb_distance": evaluate_presentation_fill_to_rgb_distance,
    "check_slide_orientation_Portrait": check_slide_orientation_portrait,
    "contains_mp4_video": contains_mp4_video,
    "compare_audios": compare_audios,
}
