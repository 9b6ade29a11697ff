"""OSWorld's Impress evaluators (``slides.py``), LibreOffice's settings (``libreoffice.py``
and the settings ``slides.py`` reads) and the Impress getters (``audio_in_slide``,
``background_image_in_slide``) as checks of the presentation family.

Each conversion follows the OSWorld function's own code: its defaults, its constants
(``compare_pptx_files``' position options name slides, texts and EMU bounds), its edge
cases. Where that code cannot judge what it is named for, the check judges what it is
named for, and says so: ``compare_pptx_files`` reads backgrounds after clearing them
(so compares none; we compare them), ``check_strikethrough`` accepts the ``noStrike``
LibreOffice writes on every run, ``check_page_number_colors`` reads hex digits off by one.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

from gui_agent.checks.osworld.config import home_path
from gui_agent.checks.osworld.metric import Check, Metric, kind_of
from gui_agent.errors import OsworldConfigError, OsworldUnsupported

#: compare_pptx_files options -> presentation_equal aspects (OSWorld's default for each: on).
_PPTX_ASPECTS = {
    "examine_number_of_slides": "slide_count", "examine_shape": "shapes", "examine_text": "text",
    "examine_indent": "indent", "examine_font_name": "font_name", "examine_font_size": "font_size",
    "examine_font_bold": "font_bold", "examine_font_italic": "font_italic", "examine_color_rgb": "font_color",
    "examine_font_underline": "font_underline", "examine_strike_through": "font_strike",
    "examine_alignment": "alignment", "examine_bullets": "bullets", "examine_background_color": "background",
    "examine_note": "notes",
}

#: compare_pptx_files' position options (off by default) -> the layout rules that judge the
#: same way, with the slides (from 0), texts and EMU bounds OSWorld's code names.
_PPTX_LAYOUT: dict[str, list[dict[str, Any]]] = {
    # The shape reading "Product Comparison" went down, to 3600000 EMU or lower; any shape
    # whose text changed (or that holds none) kept its place and size.
    "examine_title_bottom_position": [
        {"same_text": True, "otherwise": "same_geometry"},
        {"text": "Product Comparison", "lower": True, "min_top": 3600000, "otherwise": "anything"},
    ],
    # The table on the third slide went down, to 3600000 EMU or lower; the rest stayed.
    "examine_table_bottom_position": [
        {"slide": 2, "kinds": ["table"], "lower": True, "min_top": 3600000, "otherwise": "same_geometry"},
    ],
    # Shapes without text on the second slide went right, to 4320000 EMU or further.
    "examine_right_position": [
        {"slide": 1, "kinds": ["no_text"], "further_right": True, "min_left": 4320000, "otherwise": "anything"},
    ],
    # The picture on the second slide went up, to 1980000 EMU or higher; the rest stayed.
    "examine_top_position": [
        {"slide": 1, "kinds": ["picture"], "higher": True, "max_top": 1980000, "otherwise": "same_geometry"},
    ],
    # Every shape kept its place and size, but the one reading "Elaborate on what you want to discuss.".
    "examine_shape_for_shift_size": [{"text": "Elaborate on what you want to discuss.", "otherwise": "same_geometry"}],
    # Pictures have the reference's size (wherever they are); other shapes kept place and size.
    "examine_image_size": [{"kinds": ["picture"], "same_size": True, "otherwise": "same_geometry"}],
    # Shapes without text (or freeforms) have the reference's height; the others kept place and size.
    "examine_modify_height": [{"kinds": ["no_text", "freeform"], "same_height": True, "otherwise": "same_geometry"}],
}

#: Options OSWorld's code never reads (a misspelling of examine_alignment) or that only log.
_PPTX_IGNORED = {"examine_aligment", "enable_debug"}


def compare_pptx_files(metric: Metric) -> list[Check]:
    path, gold = metric.result_path(".pptx"), metric.expected_file(".pptx")
    # OSWorld pairs shapes with zip(): a slide may hold more shapes than the reference's.
    check: dict[str, Any] = {"path": path, "expected": gold, "shape_count": False}
    layout: list[dict[str, Any]] = []
    for key, value in metric.options.items():
        if key in _PPTX_ASPECTS:
            if not value:
                check[_PPTX_ASPECTS[key]] = False
        elif key in _PPTX_LAYOUT:
            if value:
                layout += _PPTX_LAYOUT[key]
        elif key == "approximately_tolerance" and isinstance(value, (int, float)) and not isinstance(value, bool):
            check["tolerance"] = float(value)
        elif key not in _PPTX_IGNORED:
            raise OsworldUnsupported(f"compare_pptx_files option {key!r} is not one its code reads (no equivalent)")
    if layout:
        check["layout"] = layout
    return [{"presentation_equal": check}]


def check_transition(metric: Metric) -> list[Check]:
    rules = metric.rules()
    if not isinstance(rules.get("slide_idx"), int) or not isinstance(rules.get("transition_type"), str):
        raise OsworldConfigError(f"{metric.where}.expected.rules", "expected slide_idx (a number) and transition_type")
    return [{"slide_transition": {"path": metric.result_path(".pptx"), "slide": rules["slide_idx"], "type": rules["transition_type"]}}]


def _settings_file(metric: Metric) -> str:
    """The result: LibreOffice's ``registrymodifications.xcu`` in the home folder."""
    path = metric.result_path()
    if posixpath.basename(path) != "registrymodifications.xcu":
        raise OsworldUnsupported(f"{metric.func} reads LibreOffice's registrymodifications.xcu, not {path!r}")
    return path


def check_auto_saving_time(metric: Metric) -> list[Check]:
    minutes = metric.rules().get("minutes")
    if not isinstance(minutes, int) or isinstance(minutes, bool):
        raise OsworldConfigError(f"{metric.where}.expected.rules.minutes", "expected a number of minutes")
    return [{"libreoffice_setting": {"path": _settings_file(metric), "item": "/org.openoffice.Office.Common/Save/Document",
                                     "prop": "AutoSaveTimeIntervall", "value": {"method": "eq", "ref": minutes}}}]


def check_presenter_console_disable(metric: Metric) -> list[Check]:
    return [{"libreoffice_setting": {"path": _settings_file(metric), "item": "/org.openoffice.Office.Impress/Misc/Start",
                                     "prop": "EnablePresenterScreen", "value": {"method": "eq", "ref": False}}}]


def check_left_panel(metric: Metric) -> list[Check]:
    """OSWorld reads the accessibility tree for a visible pane at the window's left. Impress
    saves that pane's state (its child window 27414) in the profile as soon as it is shown
    or closed: ``V2,V,...`` visible, ``V2,H,...`` hidden; never closed, it is visible."""
    if not isinstance(metric.result, dict) or metric.result.get("type") != "accessibility_tree":
        raise OsworldConfigError(f"{metric.where}.result", f"expected {{type: accessibility_tree}}, got {kind_of(metric.result)}")
    return [{"libreoffice_setting": {"item": "/org.openoffice.Office.Views/Windows/27414/UserData", "prop": "Data",
                                     "value": {"method": "re", "ref": r"^V\d*,V(,|$)"}, "default": "V2,V"}}]


def check_libre_locale(metric: Metric) -> list[Check]:
    patterns = metric.rules().get("locale_set")
    if not isinstance(patterns, list) or not patterns or not all(isinstance(p, str) and p for p in patterns):
        raise OsworldConfigError(f"{metric.where}.expected.rules.locale_set", "expected a list of locale patterns")
    return [{"libreoffice_locale": {"path": _settings_file(metric), "patterns": patterns}}]


def evaluate_presentation_fill_to_rgb_distance(metric: Metric) -> list[Check]:
    rules = metric.rules()
    rgb = rules.get("rgb")
    if not (isinstance(rgb, list) and len(rgb) == 3 and all(isinstance(c, int) and 0 <= c <= 255 for c in rgb)):
        raise OsworldConfigError(f"{metric.where}.expected.rules.rgb", "expected [r, g, b]")
    if rules.get("original_rgb") is not None:
        raise OsworldUnsupported("original_rgb (an unchanged slide scores 1) has no equivalent")
    return [{"slide_background": {"path": metric.result_path(".pptx"), "color": "".join(f"{c:02X}" for c in rgb)}}]


def check_slide_orientation_portrait(metric: Metric) -> list[Check]:
    return [{"slide_orientation": {"path": metric.result_path(".pptx"), "orientation": "portrait"}}]


def contains_mp4_video(metric: Metric) -> list[Check]:
    """OSWorld's code defines no such function (its config names one): judged as the name
    says, a video named ``*.mp4`` in the presentation."""
    return [{"presentation_media": {"path": metric.result_path(".pptx"), "kind": "any", "name_matches": r"\.mp4$"}}]


def check_image_stretch_and_center(metric: Metric) -> list[Check]:
    return [{"image_fills_slide": {"path": metric.result_path(".pptx"), "original": metric.expected_file(".pptx"), "slide": 0}}]


def check_slide_numbers_color(metric: Metric) -> list[Check]:
    """A slide shows a number, and the master's slide number is pure red (#FF0000)."""
    return [{"slide_number_color": {"path": metric.result_path(".pptx"), "equals": "FF0000", "shown": True}}]


def check_page_number_colors(metric: Metric) -> list[Check]:
    color = metric.rules().get("color")
    if color not in ("red", "green", "blue", "black"):
        raise OsworldUnsupported(f"check_page_number_colors judges red, green, blue and black; {color!r} it passes whatever the colour")
    return [{"slide_number_color": {"path": metric.result_path(".pptx"), "like": color}}]


def check_strikethrough(metric: Metric) -> list[Check]:
    rules = metric.rules()
    fields = {}
    for key, name in (("slide_index_s", "slides"), ("shape_index_s", "shapes"), ("paragraph_index_s", "paragraphs")):
        value = rules.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in value):
            raise OsworldConfigError(f"{metric.where}.expected.rules.{key}", "expected a list of positions (from 0)")
        fields[name] = value
    return [{"text_strikethrough": {"path": metric.result_path(".pptx"), **fields}}]


def slide_file(spec: Any, where: str) -> tuple[str, int]:
    """The presentation (home-relative) and slide of an ``audio_in_slide`` or
    ``background_image_in_slide`` getter spec: what they read a file out of."""
    if not isinstance(spec, dict):
        raise OsworldConfigError(where, f"expected a getter mapping, got {kind_of(spec)}")
    deck, slide = spec.get("ppt_file_path"), spec.get("slide_index", 0)
    if isinstance(slide, str) and slide.isdigit():
        slide = int(slide)
    if not isinstance(deck, str) or not deck or not isinstance(slide, int) or isinstance(slide, bool) or slide < 0:
        raise OsworldConfigError(where, f"{spec.get('type')} needs ppt_file_path and slide_index")
    return home_path(deck), slide


def compare_background_image(metric: Metric) -> list[Check]:
    """``compare_images`` of the picture OSWorld's ``background_image_in_slide`` getter takes
    off a slide, and the reference: judged in the presentation, scored as compare_images
    scores (grayscale SSIM, full marks to pass). The image family's ``compare_images``
    hands such a result here, as the media family hands ``audio_in_slide``."""
    deck, slide = slide_file(metric.result, f"{metric.where}.result")
    return [{"slide_background_image": {"path": deck, "slide": slide, "expected": metric.expected_file(), "min_score": 1.0}}]


def compare_audios(metric: Metric) -> list[Check]:
    result = metric.result
    if not isinstance(result, dict) or result.get("type") != "audio_in_slide":
        raise OsworldUnsupported(NO_EQUIVALENT["compare_audios"])
    deck, slide = slide_file(result, f"{metric.where}.result")
    if not isinstance(metric.expected, dict) or metric.expected.get("type") != "vm_file":
        # A recording made elsewhere is alike in sound (OSWorld's MFCC distance), not in bytes.
        raise OsworldUnsupported(NO_EQUIVALENT["compare_audios"])
    return [{"presentation_media": {"path": deck, "slide": slide, "kind": "audio", "same_as": metric.expected_file()}}]


#: What has no equivalent here, and why.
NO_EQUIVALENT: dict[str, str] = {
    "compare_audios": "no equivalent: compare_audios scores how alike two sounds are (MFCC distance); of a slide's "
                      "audio only the file given to the agent (a vm_file), embedded unchanged, is judged here (by its bytes)",
}

#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "compare_pptx_files": compare_pptx_files,
    "check_transition": check_transition,
    "check_auto_saving_time": check_auto_saving_time,
    "check_presenter_console_disable": check_presenter_console_disable,
    "check_left_panel": check_left_panel,
    "check_libre_locale": check_libre_locale,
    "evaluate_presentation_fill_to_rgb_distance": evaluate_presentation_fill_to_rgb_distance,
    "check_slide_orientation_Portrait": check_slide_orientation_portrait,
    "contains_mp4_video": contains_mp4_video,
    "check_image_stretch_and_center": check_image_stretch_and_center,
    "check_slide_numbers_color": check_slide_numbers_color,
    "check_page_number_colors": check_page_number_colors,
    "check_strikethrough": check_strikethrough,
    "compare_audios": compare_audios,
}
