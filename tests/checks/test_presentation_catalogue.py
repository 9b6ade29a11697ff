"""The conversion of OSWorld's ``metrics/slides.py``, ``metrics/libreoffice.py`` and
``getters/impress.py`` as a catalogue: every function (and every option of
``compare_pptx_files``) there has a conversion reached through ``convert_metric``, what
it writes validates as a task's checks, and wrong shapes are refused naming the key."""

from __future__ import annotations

from typing import Any

import pytest

from gui_agent.checks import osworld
from gui_agent.checks.osworld import presentation
from gui_agent.checks.osworld.metric import Metric
from gui_agent.errors import OsworldConfigError
from gui_agent.task.osworld_import import convert_osworld

#: Every function defined in OSWorld's metrics/slides.py, but its two helpers
#: (is_red_color, get_master_placeholder_color: parts of check_slide_numbers_color).
SLIDES_FUNCTIONS = (
    "check_presenter_console_disable", "check_image_stretch_and_center", "check_slide_numbers_color", "compare_pptx_files",
    "check_strikethrough", "check_slide_orientation_Portrait", "evaluate_presentation_fill_to_rgb_distance",
    "check_left_panel", "check_transition", "check_page_number_colors", "check_auto_saving_time",
)
#: metrics/libreoffice.py.
LIBREOFFICE_FUNCTIONS = ("check_libre_locale",)
#: Every option compare_pptx_files reads, with its default there.
PPTX_OPTIONS = {
    "examine_number_of_slides": True, "examine_shape": True, "examine_text": True, "examine_indent": True,
    "examine_font_name": True, "examine_font_size": True, "examine_font_bold": True, "examine_font_italic": True,
    "examine_color_rgb": True, "examine_font_underline": True, "examine_strike_through": True, "examine_alignment": True,
    "examine_title_bottom_position": False, "examine_table_bottom_position": False, "examine_right_position": False,
    "examine_top_position": False, "examine_shape_for_shift_size": False, "examine_image_size": False,
    "examine_modify_height": False, "examine_bullets": True, "examine_background_color": True, "examine_note": True,
}

DECK = {"type": "vm_file", "path": "/home/user/Desktop/a.pptx"}
GOLD = {"type": "cloud_file", "path": "https://example.test/g", "dest": "a_Gold.pptx"}
SETTINGS = {"type": "vm_file", "path": "/home/user/.config/libreoffice/4/user/registrymodifications.xcu"}


def rule(**rules: Any) -> dict[str, Any]:
    return {"type": "rule", "rules": rules}


#: A config's result and expected per function, and the check it becomes.
SHAPES: dict[str, tuple[dict[str, Any], str]] = {
    "check_presenter_console_disable": ({"result": SETTINGS}, "libreoffice_setting"),
    "check_image_stretch_and_center": ({"result": DECK, "expected": GOLD}, "image_fills_slide"),
    "check_slide_numbers_color": ({"result": DECK}, "slide_number_color"),
    "compare_pptx_files": ({"result": DECK, "expected": GOLD}, "presentation_equal"),
    "check_strikethrough": ({"result": DECK, "expected": rule(slide_index_s=[0], shape_index_s=[1], paragraph_index_s=[0, 1])},
                            "text_strikethrough"),
    "check_slide_orientation_Portrait": ({"result": DECK}, "slide_orientation"),
    "evaluate_presentation_fill_to_rgb_distance": ({"result": DECK, "expected": rule(rgb=[0, 0, 255])}, "slide_background"),
    "check_left_panel": ({"result": {"type": "accessibility_tree"}}, "libreoffice_setting"),
    "check_transition": ({"result": DECK, "expected": rule(slide_idx=0, transition_type="dissolve")}, "slide_transition"),
    "check_page_number_colors": ({"result": DECK, "expected": rule(color="red")}, "slide_number_color"),
    "check_auto_saving_time": ({"result": SETTINGS, "expected": rule(minutes=3)}, "libreoffice_setting"),
    "check_libre_locale": ({"result": SETTINGS, "expected": rule(locale_set=["en-*"])}, "libreoffice_locale"),
}


def config(func: str, **evaluator: Any) -> dict[str, Any]:
    spec = {"func": func, **SHAPES[func][0], **evaluator}
    return {"id": f"c-{func}", "instruction": "x", "related_apps": ["libreoffice_impress"], "evaluator": spec}


def evaluator_of(func: str, **spec: Any) -> dict[str, Any]:
    conversion = convert_osworld(config(func, **spec))
    assert conversion.complete, conversion.unsupported
    return conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)["evaluator"]


def test_every_function_has_a_conversion_reached_through_convert_metric() -> None:
    functions = {*SLIDES_FUNCTIONS, *LIBREOFFICE_FUNCTIONS}
    assert functions <= set(presentation.METRICS)
    assert all(osworld.METRICS[f] is presentation.METRICS[f] for f in functions)
    assert set(SHAPES) == functions
    assert all(reason.startswith("no equivalent: ") for reason in presentation.NO_EQUIVALENT.values())


@pytest.mark.parametrize("func", sorted(SHAPES))
def test_each_conversion_is_a_valid_task_of_the_named_check(func: str) -> None:
    assert next(iter(evaluator_of(func))) == SHAPES[func][1]


@pytest.mark.parametrize(("option", "default"), sorted(PPTX_OPTIONS.items()))
def test_every_compare_pptx_files_option_changes_the_comparison(option: str, default: bool) -> None:
    plain = evaluator_of("compare_pptx_files")["presentation_equal"]
    changed = evaluator_of("compare_pptx_files", options={option: not default})["presentation_equal"]
    same = evaluator_of("compare_pptx_files", options={option: default})["presentation_equal"]
    assert changed != plain and same == plain
    if default:
        assert [k for k in changed if k not in plain] and all(v is False for k, v in changed.items() if k not in plain)
    else:
        assert changed["layout"] and "layout" not in plain


def test_compare_pptx_files_reads_shapes_as_zip_pairs_them_and_ignores_what_its_code_ignores() -> None:
    plain = evaluator_of("compare_pptx_files")["presentation_equal"]
    assert plain == {"path": "Desktop/a.pptx", "expected": "inputs/a_Gold.pptx", "shape_count": False}
    assert evaluator_of("compare_pptx_files", options={"examine_aligment": False})["presentation_equal"] == plain
    moved = evaluator_of("compare_pptx_files", options={"examine_shape": False, "examine_title_bottom_position": True})
    assert moved["presentation_equal"]["layout"][1] == {"text": "Product Comparison", "lower": True, "min_top": 3600000, "otherwise": "anything"}
    refused = convert_osworld(config("compare_pptx_files", options={"examine_run_count": True}))
    assert not refused.complete and "'examine_run_count' is not one its code reads" in refused.unsupported[0]


def test_settings_functions_read_the_profile_the_config_names() -> None:
    assert evaluator_of("check_presenter_console_disable")["libreoffice_setting"] == {
        "path": ".config/libreoffice/4/user/registrymodifications.xcu", "item": "/org.openoffice.Office.Impress/Misc/Start",
        "prop": "EnablePresenterScreen", "value": {"method": "eq", "ref": False}}
    pane = evaluator_of("check_left_panel")["libreoffice_setting"]
    assert pane["item"] == "/org.openoffice.Office.Views/Windows/27414/UserData" and pane["default"] == "V2,V"
    other = convert_osworld(config("check_auto_saving_time", result={"type": "vm_file", "path": "/home/user/notes.txt"}))
    assert not other.complete and "registrymodifications.xcu" in other.unsupported[0]


def test_page_number_colours_outside_the_four_judged_are_refused() -> None:
    assert evaluator_of("check_page_number_colors")["slide_number_color"]["like"] == "red"
    refused = convert_osworld(config("check_page_number_colors", expected=rule(color="purple")))
    assert not refused.complete and "passes whatever the colour" in refused.unsupported[0]
    assert evaluator_of("check_slide_numbers_color")["slide_number_color"] == {"path": "Desktop/a.pptx", "equals": "FF0000", "shown": True}


class _Files:
    """The inputs a conversion declares, as the importer keeps them (``inputs/<name>``)."""

    def declare(self, url: str, name: str) -> str:
        return f"inputs/{name}"


def test_the_impress_getters() -> None:
    audio = {"type": "audio_in_slide", "ppt_file_path": "/home/user/Desktop/a.pptx", "slide_index": 2, "dest": "x.mp3"}
    given = {"type": "vm_file", "path": "/home/user/Desktop/song.mp3", "dest": "song.mp3"}
    download = {"type": "download", "parameters": {"files": [{"url": "https://example.test/s", "path": "/home/user/Desktop/song.mp3"}]}}
    made = convert_osworld({"id": "a", "instruction": "x", "related_apps": ["libreoffice_impress"], "config": [download],
                            "evaluator": {"func": "compare_audios", "result": audio, "expected": given}})
    assert made.complete, made.unsupported
    assert made.task.model_dump(mode="json", exclude_unset=True)["evaluator"]["presentation_media"] == {
        "path": "Desktop/a.pptx", "slide": 2, "kind": "audio", "same_as": "inputs/song.mp3"}
    gold = convert_osworld({"id": "a", "instruction": "x", "evaluator": {"func": "compare_audios", "result": audio, "expected": GOLD}})
    assert not gold.complete and presentation.NO_EQUIVALENT["compare_audios"] in gold.unsupported[0]
    background = {"type": "background_image_in_slide", "ppt_file_path": "/home/user/Desktop/b.pptx", "slide_index": "1", "dest": "b.png"}
    assert presentation.slide_file(background, "evaluator.result") == ("Desktop/b.pptx", 1)
    metric = Metric("compare_images", background, {**GOLD, "dest": "b_gold.png"}, None, "evaluator", _Files())
    assert presentation.compare_background_image(metric) == [{"slide_background_image": {
        "path": "Desktop/b.pptx", "slide": 1, "expected": "inputs/b_gold.png", "min_score": 1.0}}]


@pytest.mark.parametrize(("func", "spec", "key"), [
    ("check_transition", {"expected": rule(slide_idx="first", transition_type="dissolve")}, "evaluator.expected.rules"),
    ("check_auto_saving_time", {"expected": rule(minutes="3")}, "evaluator.expected.rules.minutes"),
    ("check_strikethrough", {"expected": rule(slide_index_s=[0], shape_index_s=["a"], paragraph_index_s=[0])},
     "evaluator.expected.rules.shape_index_s"),
    ("check_libre_locale", {"expected": rule(locale_set="en-*")}, "evaluator.expected.rules.locale_set"),
    ("evaluate_presentation_fill_to_rgb_distance", {"expected": rule(rgb=[0, 0, 256])}, "evaluator.expected.rules.rgb"),
    ("check_left_panel", {"result": {"type": "vm_file", "path": "/home/user/a"}}, "evaluator.result"),
])
def test_wrong_shapes_are_refused_naming_the_key(func: str, spec: dict[str, Any], key: str) -> None:
    with pytest.raises(OsworldConfigError) as raised:
        convert_osworld(config(func, **spec))
    assert raised.value.key == key
