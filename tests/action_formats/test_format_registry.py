"""The registry of reply formats: each format's record declares everything, and its writer and
parser agree (what the writer writes, the parser reads back to the same actions)."""

from __future__ import annotations

import pytest

from gui_agent.action_formats import FORMATS, ScreenPixels, SmartResize, ToolCall, format_names
from gui_agent.action_formats.image_size import QWEN25_MAX_PIXELS, QWEN25_MIN_PIXELS, UITARS_MIN_PIXELS
from gui_agent.actions import Action, Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError

#: A screen whose every model frame (0..1000, smart_resize) is at least its size, so that
#: screen -> model -> screen is exact in every format.
SCREEN = {"screen_width": 1000, "screen_height": 800}
SAMPLE: list[Action] = [
    Click(10, 20), Click(500, 400, count=2), Click(999, 799, button="right"), Click(300, 300, button="middle"),
    Click(40, 50, count=3), Move(123, 456), Drag(100, 200, 300, 400), Scroll(500, 400, dy=5), Scroll(500, 400, dx=5),
    Type("hello\n"), Type("it's \"quoted\""), Hotkey(("ctrl", "c")), Hotkey(("enter",)), Wait(5.0),
    Done(success=True), Done(success=True, answer="42"),
]
#: What each format cannot say, of the sample (its writer raises ActionError for these).
CANNOT_EXPRESS: dict[str, set[int]] = {
    "uitars-v1": {3, 4},  # UI-TARS has no middle or triple click
    "uitars": {3, 4},
    "pyautogui": {15},  # OSWorld's DONE carries no answer
    "canonical": set(),
    "json": set(),
    "qwen2.5": {4, 8, 15},  # Qwen2.5-VL's tool has no triple click, hscroll or answer
    "qwen3": set(),
    "opencua": set(),
}


def test_every_format_declares_its_name_prompt_and_image_size() -> None:
    assert list(FORMATS) == ["uitars-v1", "uitars", "pyautogui", "canonical", "json", "qwen2.5", "qwen3", "opencua"]
    for name, fmt in FORMATS.items():
        assert fmt.name == name and fmt.family and fmt.summary
        assert isinstance(fmt.image_size, (ScreenPixels, SmartResize))
        prompt = fmt.system_prompt(**SCREEN)
        assert isinstance(prompt, str) and len(prompt) > 100, name
    assert FORMATS["uitars"].image_size == SmartResize(UITARS_MIN_PIXELS, QWEN25_MAX_PIXELS)
    assert FORMATS["qwen2.5"].image_size == FORMATS["opencua"].image_size == SmartResize(QWEN25_MIN_PIXELS, QWEN25_MAX_PIXELS)
    assert format_names(sft=True) == ("uitars-v1", "uitars", "pyautogui", "canonical")
    assert format_names(parses=True) == ("uitars-v1", "uitars", "pyautogui", "json", "qwen2.5", "qwen3", "opencua")
    assert format_names(sft=True, parses=True) == ("uitars-v1", "uitars", "pyautogui")


@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_reads_back_what_it_writes(name: str) -> None:
    fmt = FORMATS[name]
    refused = set()
    for index, action in enumerate(SAMPLE):
        try:
            written = fmt.write(action, "I act.", **SCREEN)
        except ActionError:
            refused.add(index)
            continue
        if not fmt.parses:
            continue
        reply = fmt.parse(written, **SCREEN)
        assert (reply.thought, reply.actions) == ("I act.", [action]), (written, reply)
        assert fmt.parse(fmt.write(action, None, **SCREEN), **SCREEN).actions == [action]
    assert refused == CANNOT_EXPRESS[name], sorted(refused)


def test_a_format_served_with_other_bounds_resizes_and_reads_with_them() -> None:
    uitars = FORMATS["uitars"].with_pixels(min_pixels=QWEN25_MIN_PIXELS)
    assert uitars.image_size == SmartResize(QWEN25_MIN_PIXELS, QWEN25_MAX_PIXELS)
    assert uitars.image_frame(160, 210) == (168, 224) and FORMATS["uitars"].image_frame(160, 210) == (252, 336)
    assert uitars.parse("Action: click(start_box='(84,112)')", screen_width=160, screen_height=210).actions == [Click(80, 105)]
    assert FORMATS["pyautogui"].with_pixels(min_pixels=1) is FORMATS["pyautogui"]  # screen pixels: no bounds
    assert FORMATS["qwen3"].image_frame(160, 210) == (160, 210)


def test_previous_actions_are_listed_in_the_format_or_as_canonical_calls() -> None:
    click = Click(10, 20)
    assert FORMATS["pyautogui"].history_line(click, **SCREEN) == "pyautogui.click(10, 20)"
    assert FORMATS["uitars-v1"].history_line(click, **SCREEN) == "click(start_box='<|box_start|>(10,25)<|box_end|>')"
    assert FORMATS["uitars"].history_line(Click(5, 5, button="middle"), **SCREEN) == "click(5, 5, button=\"middle\")"
    for name in ("canonical", "json", "qwen3", "opencua"):
        assert FORMATS[name].history_line(click, **SCREEN) == "click(10, 20)"


def test_tool_calls_a_server_returns_apart_are_part_of_the_reply() -> None:
    json_format, qwen = FORMATS["json"], FORMATS["qwen3"]
    assert json_format.tools and {tool["name"] for tool in json_format.tools} >= {"click", "type", "done"}
    text = json_format.reply_text("", [ToolCall("click", '{"x": 3, "y": 4}')])
    assert json_format.parse(text, **SCREEN).actions == [Click(3, 4)]
    assert json_format.parse(text, **SCREEN).thought is None
    call = ToolCall("computer_use", {"action": "left_click", "coordinate": [500, 500]})
    assert qwen.parse(qwen.reply_text("The middle.", [call]), **SCREEN).actions == [Click(500, 400)]
    assert not qwen.tools and FORMATS["uitars"].reply_text("Action: wait()", [call]) == "Action: wait()"


def test_a_format_without_a_parser_says_so() -> None:
    with pytest.raises(ValueError, match="'canonical' format has no parser"):
        FORMATS["canonical"].parse("Action: click(1, 2)", **SCREEN)
