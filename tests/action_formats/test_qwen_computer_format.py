"""Qwen's computer_use function calling (Qwen2.5-VL smart_resize pixels, Qwen3-VL 0..1000) <-> canonical."""

from __future__ import annotations

import hashlib
import itertools
import json
import math

import pytest

from gui_agent.action_formats import (
    QwenComputerReply,
    format_qwen_computer,
    parse_qwen_computer,
    qwen_computer_frame,
    qwen_computer_system_prompt,
    qwen_computer_tool,
    qwen_tool_call_text,
)
from gui_agent.action_formats.qwen_computer import ACTIONS, FIELDS
from gui_agent.actions import Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError, ActionParseError

FHD = dict(screen_width=1920, screen_height=1080)  # 2.5 frame: 1932x1092
WXGA = dict(screen_width=1280, screen_height=800)  # 2.5 frame: 1288x812
SCREENS = {"1920x1080": FHD, "1280x800": WXGA}


def call(arguments: dict, thought: str | None = None) -> str:
    block = f"<tool_call>\n{json.dumps({'name': 'computer_use', 'arguments': arguments})}\n</tool_call>"
    return block if thought is None else f"{thought}\n{block}"


def arguments_of(text: str) -> list[dict]:
    """The arguments of every <tool_call> block of a written reply."""
    return [json.loads(part.split("\n</tool_call>")[0])["arguments"] for part in text.split("<tool_call>\n")[1:]]


# -- the frame and the prompt ------------------------------------------------------------------------


def test_frames() -> None:
    assert qwen_computer_frame(version="2.5", **FHD) == (1932, 1092)
    assert qwen_computer_frame(version="2.5", **WXGA) == (1288, 812)
    assert qwen_computer_frame(version="3", **FHD) == (1000, 1000)
    assert qwen_computer_frame(version="3", relative_range=999, **WXGA) == (999, 999)
    assert qwen_computer_frame(version="2.5", max_pixels=1280 * 28 * 28, **FHD) == (1316, 728)
    for bad in (dict(version="2", **FHD), dict(version="3", screen_width=0, screen_height=5),
                dict(version="3", relative_range=0, **FHD)):
        with pytest.raises(ValueError):
            qwen_computer_frame(**bad)  # type: ignore[arg-type]


# sha256 of the prompts as the cookbooks build them: ComputerUse(cfg).function from
# QwenLM/Qwen2.5-VL and QwenLM/Qwen3-VL cookbooks/utils/agent_function_call.py (display 1932x1092,
# resp. 1000x1000), dumped into qwen-agent's NousFnCallPrompt FN_CALL_TEMPLATE after
# "You are a helpful assistant.\n\n"; checked character for character when this was written.
PROMPT_SHA256 = {
    "2.5": "07006095f59e34f97024e321b232c62989028e1665b8ef17cccb4ded44305139",
    "3": "6084d16a025c374a9523958d4438e1f068c73da969aa3002415da011ff85b37c",
}


@pytest.mark.parametrize("version", ["2.5", "3"])
def test_system_prompt_is_the_cookbooks_word_for_word(version: str) -> None:
    prompt = qwen_computer_system_prompt(version=version, **FHD)
    assert hashlib.sha256(prompt.encode()).hexdigest() == PROMPT_SHA256[version]


@pytest.mark.parametrize(("version", "screen", "resolution"), [
    ("2.5", FHD, "1932x1092"), ("2.5", WXGA, "1288x812"), ("3", FHD, "1000x1000"), ("3", WXGA, "1000x1000"),
])
def test_system_prompt_structure(version: str, screen: dict, resolution: str) -> None:
    prompt = qwen_computer_system_prompt(version=version, **screen)
    assert prompt.startswith("You are a helpful assistant.\n\n# Tools\n\nYou may call one or more functions")
    assert prompt.endswith(
        "<tool_call></tool_call> XML tags:\n<tool_call>\n"
        '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
    )
    tools = prompt.split("<tools>\n")[1].split("\n</tools>")[0]
    tool = json.loads(tools)
    assert tool == qwen_computer_tool(version=version, **screen)
    function = tool["function"]
    assert function["name"] == "computer_use" and list(function) == ["name", "description", "parameters"]
    assert f"* The screen's resolution is {resolution}.\n" in function["description"]
    assert function["parameters"]["properties"]["action"]["enum"] == list(ACTIONS[version])
    assert function["parameters"]["required"] == ["action"]
    for action in ACTIONS[version]:
        assert f"* `{action}`:" in function["parameters"]["properties"]["action"]["description"]
    assert ("triple_click" in prompt) == (version == "3")


def test_system_prompt_options() -> None:
    assert qwen_computer_system_prompt(version="3", preamble=None, **FHD).startswith("# Tools\n\n")
    assert "resolution is 999x999." in qwen_computer_system_prompt(version="3", relative_range=999, **FHD)
    assert qwen_computer_system_prompt(version="3", preamble="Be brief.", **FHD).startswith("Be brief.\n\n# Tools")


# -- replies as the models write them -------------------------------------------------------------------


def v25(mx: float, my: float) -> tuple[int, int]:
    """A Qwen2.5-VL point on a 1920x1080 screen (frame 1932x1092), rounded half up."""
    return math.floor(mx * 1920 / 1932 + 0.5), math.floor(my * 1080 / 1092 + 0.5)


# Shapes from Qwen's cookbooks (computer_use.ipynb, mobile_agent.ipynb: "Thought: ...\nAction: ...\n
# <tool_call>"), OSWorld's qwen3vl_agent (answer/terminate, key lists), Qwen3-VL-Thinking (<think>).
REAL_REPLIES = [
    (
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [1099, 64]}}\n</tool_call>',
        "2.5", None, [Click(*v25(1099, 64))],
    ),
    (
        "Thought: To search for Musk in X, I need to click on the search bar.\n"
        'Action: "I tapped on the search bar to begin searching for Musk."\n'
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [447, 81]}}\n</tool_call>',
        "3",
        'Thought: To search for Musk in X, I need to click on the search bar.\n'
        'Action: "I tapped on the search bar to begin searching for Musk."',
        [Click(858, 87)],
    ),
    (
        "<think>\nThe third issue is in the list; its title is at about (310, 540).\n</think>\n\n"
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [310, 540]}}\n</tool_call>',
        "3", "The third issue is in the list; its title is at about (310, 540).", [Click(595, 583)],
    ),
    (
        "I'll type the query and press Enter.\n"
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "type", "text": "OSWorld"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "key", "keys": ["Return"]}}\n</tool_call>',
        "3", "I'll type the query and press Enter.", [Type("OSWorld"), Hotkey(("enter",))],
    ),
    (
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "key", "keys": ["ctrl", "shift", "t"]}}\n</tool_call>',
        "2.5", None, [Hotkey(("ctrl", "shift", "t"))],
    ),
    (
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "scroll", "pixels": -5}}\n</tool_call>',
        "2.5", None, "pointer",
    ),
    (
        "The answer is on screen.\n"
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "answer", "text": "42 stars"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "terminate", "status": "success"}}\n</tool_call>',
        "3", "The answer is on screen.", [Done(answer="42 stars")],
    ),
    (
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "terminate", "status": "failure"}}\n</tool_call><|im_end|>',
        "2.5", None, [Done(success=False)],
    ),
    (  # the closing tag cut off by a stop string
        'Done.\n<tool_call>\n{"name": "computer_use", "arguments": {"action": "wait", "time": 3}}',
        "3", "Done.", [Wait(3)],
    ),
    (  # arguments as a JSON string, a raw newline inside the text
        '<tool_call>\n{"name": "computer_use", "arguments": "{\\"action\\": \\"type\\", \\"text\\": \\"a\\\\nb\\"}"}\n</tool_call>',
        "3", None, [Type("a\nb")],
    ),
    ('<tool_call>\n{"name": "computer_use", "arguments": {"action": "type", "text": "line one\nline two"}}\n</tool_call>',
     "3", None, [Type("line one\nline two")]),
]


@pytest.mark.parametrize(("text", "version", "thought", "expected"), REAL_REPLIES)
def test_real_replies(text: str, version: str, thought, expected) -> None:
    if expected == "pointer":
        reply = parse_qwen_computer(text, version=version, pointer=(5, 6), **FHD)
        assert reply.actions == (Scroll(5, 6, dy=5),)
        return
    reply = parse_qwen_computer(text, version=version, **FHD)
    assert reply == QwenComputerReply(thought=thought, actions=tuple(expected), raw=text)


FULL_WIDTH = [
    # full-width punctuation outside JSON strings is read; inside strings it is typed as it is
    ('点击搜索框\n<tool_call>\n{"name"： "computer_use"， "arguments"： ｛"action"： "left_click"， '
     '"coordinate"： ［500，500］｝}\n</tool_call>', "点击搜索框", [Click(960, 540)]),
    ('<tool_call>\n{"name": "computer_use", "arguments": {"action": "type", "text": "你好，世界：［1］｛2｝"}}\n</tool_call>',
     None, [Type("你好，世界：［1］｛2｝")]),
    ('输入\n<tool_call>\n{"name"："computer_use"，"arguments"：{"action"："type"，"text"："a\\"，b"}}\n</tool_call>',
     "输入", [Type('a"，b')]),
    ('<tool_call>\n{"name": "computer_use", "arguments": {"action": "key", "keys": ["ctrl"， "c"]}}\n</tool_call>',
     None, [Hotkey(("ctrl", "c"))]),
]


@pytest.mark.parametrize(("text", "thought", "expected"), FULL_WIDTH)
def test_full_width_punctuation(text: str, thought, expected) -> None:
    reply = parse_qwen_computer(text, version="3", **FHD)
    assert reply.thought == thought and reply.actions == tuple(expected)


# -- every action, both ways, both versions, two screens ---------------------------------------------------

# (canonical action, arguments written for 2.5 on 1920x1080, 3 on 1920x1080, 2.5 on 1280x800, 3 on 1280x800)
TABLE = [
    (Click(640, 400), [{"action": "left_click", "coordinate": [644, 404]}],
     [{"action": "left_click", "coordinate": [333, 370]}],
     [{"action": "left_click", "coordinate": [644, 406]}], [{"action": "left_click", "coordinate": [500, 500]}]),
    (Click(0, 0, button="right"), [{"action": "right_click", "coordinate": [0, 0]}],
     [{"action": "right_click", "coordinate": [0, 0]}],
     [{"action": "right_click", "coordinate": [0, 0]}], [{"action": "right_click", "coordinate": [0, 0]}]),
    (Click(1919, 1079, button="middle"), [{"action": "middle_click", "coordinate": [1931, 1091]}],
     [{"action": "middle_click", "coordinate": [999, 999]}],
     None, None),
    (Click(1279, 799, button="middle"), None, None,
     [{"action": "middle_click", "coordinate": [1287, 811]}], [{"action": "middle_click", "coordinate": [999, 999]}]),
    (Click(320, 200, count=2), [{"action": "double_click", "coordinate": [322, 202]}],
     [{"action": "double_click", "coordinate": [167, 185]}],
     [{"action": "double_click", "coordinate": [322, 203]}], [{"action": "double_click", "coordinate": [250, 250]}]),
    (Click(640, 400, count=3), ActionError, [{"action": "triple_click", "coordinate": [333, 370]}],
     ActionError, [{"action": "triple_click", "coordinate": [500, 500]}]),
    (Move(100, 50), [{"action": "mouse_move", "coordinate": [101, 51]}],
     [{"action": "mouse_move", "coordinate": [52, 46]}],
     [{"action": "mouse_move", "coordinate": [101, 51]}], [{"action": "mouse_move", "coordinate": [78, 63]}]),
    (Drag(100, 100, 600, 400),
     [{"action": "mouse_move", "coordinate": [101, 101]}, {"action": "left_click_drag", "coordinate": [604, 404]}],
     [{"action": "mouse_move", "coordinate": [52, 93]}, {"action": "left_click_drag", "coordinate": [313, 370]}],
     [{"action": "mouse_move", "coordinate": [101, 102]}, {"action": "left_click_drag", "coordinate": [604, 406]}],
     [{"action": "mouse_move", "coordinate": [78, 125]}, {"action": "left_click_drag", "coordinate": [469, 500]}]),
    (Scroll(640, 400, dy=5), [{"action": "scroll", "coordinate": [644, 404], "pixels": -5}],
     [{"action": "scroll", "coordinate": [333, 370], "pixels": -5}],
     [{"action": "scroll", "coordinate": [644, 406], "pixels": -5}],
     [{"action": "scroll", "coordinate": [500, 500], "pixels": -5}]),
    (Scroll(640, 400, dy=-3), [{"action": "scroll", "coordinate": [644, 404], "pixels": 3}],
     [{"action": "scroll", "coordinate": [333, 370], "pixels": 3}],
     [{"action": "scroll", "coordinate": [644, 406], "pixels": 3}],
     [{"action": "scroll", "coordinate": [500, 500], "pixels": 3}]),
    (Scroll(640, 400, dx=2), ActionError, [{"action": "hscroll", "coordinate": [333, 370], "pixels": 2}],
     ActionError, [{"action": "hscroll", "coordinate": [500, 500], "pixels": 2}]),
    (Scroll(640, 400, dx=-1, dy=2), ActionError,
     [{"action": "scroll", "coordinate": [333, 370], "pixels": -2},
      {"action": "hscroll", "coordinate": [333, 370], "pixels": -1}],
     ActionError,
     [{"action": "scroll", "coordinate": [500, 500], "pixels": -2},
      {"action": "hscroll", "coordinate": [500, 500], "pixels": -1}]),
    (Type("hello world\n"), *[[{"action": "type", "text": "hello world\n"}]] * 4),
    (Type('quotes " and \\ and 中文，'), *[[{"action": "type", "text": 'quotes " and \\ and 中文，'}]] * 4),
    (Hotkey(("ctrl", "c")), *[[{"action": "key", "keys": ["ctrl", "c"]}]] * 4),
    (Hotkey(("meta",)), *[[{"action": "key", "keys": ["win"]}]] * 4),
    (Hotkey(("ctrl", "shift", "escape")), *[[{"action": "key", "keys": ["ctrl", "shift", "escape"]}]] * 4),
    (Wait(2.5), *[[{"action": "wait", "time": 2.5}]] * 4),
    (Done(), *[[{"action": "terminate", "status": "success"}]] * 4),
    (Done(success=False), *[[{"action": "terminate", "status": "failure"}]] * 4),
    (Done(answer="42"), ActionError,
     [{"action": "answer", "text": "42"}, {"action": "terminate", "status": "success"}],
     ActionError,
     [{"action": "answer", "text": "42"}, {"action": "terminate", "status": "success"}]),
    (Done(success=False, answer="not found"), ActionError,
     [{"action": "answer", "text": "not found"}, {"action": "terminate", "status": "failure"}],
     ActionError,
     [{"action": "answer", "text": "not found"}, {"action": "terminate", "status": "failure"}]),
]
CASES = [
    pytest.param(row[0], version, screen_name, row[1 + i], id=f"{row[0]!r}-{version}-{screen_name}")
    for row in TABLE
    for i, (screen_name, version) in enumerate(itertools.product(SCREENS, ["2.5", "3"]))
    if row[1 + i] is not None
]


@pytest.mark.parametrize(("action", "version", "screen_name", "expected"), CASES)
def test_every_action_both_ways(action, version: str, screen_name: str, expected) -> None:
    screen = SCREENS[screen_name]
    if expected is ActionError:
        with pytest.raises(ActionError):
            format_qwen_computer([action], version=version, **screen)
        return
    text = format_qwen_computer([action], "Why.", version=version, **screen)
    assert text.startswith("Why.\n<tool_call>\n")
    assert arguments_of(text) == expected
    back = parse_qwen_computer(text, version=version, **screen)
    assert back.thought == "Why."
    # The written model points read back to within the frame's rounding of the original.
    (read,) = back.actions
    assert type(read) is type(action)
    for name in ("x", "y", "x1", "y1", "x2", "y2"):
        if hasattr(action, name):
            assert abs(getattr(read, name) - getattr(action, name)) <= 1
    for name in ("button", "count", "dx", "dy", "text", "keys", "seconds", "success", "answer", "handoff"):
        if hasattr(action, name):
            assert getattr(read, name) == getattr(action, name)


@pytest.mark.parametrize(("version", "screen", "model", "pixel"), [
    ("2.5", FHD, [966, 546], (960, 540)),
    ("2.5", FHD, [0, 0], (0, 0)),
    ("2.5", FHD, [1932, 1092], (1919, 1079)),  # the frame's edge: clamped to the last pixel
    ("2.5", FHD, [100.5, 200.25], (100, 198)),
    ("2.5", WXGA, [644, 406], (640, 400)),
    ("2.5", WXGA, [1288, 812], (1279, 799)),
    ("3", FHD, [500, 500], (960, 540)),
    ("3", FHD, [1000, 1000], (1919, 1079)),
    ("3", FHD, [999, 999], (1918, 1079)),
    ("3", FHD, [250, 750], (480, 810)),
    ("3", WXGA, [500, 500], (640, 400)),
    ("3", WXGA, [250, 750], (320, 600)),
    ("3", WXGA, [1, 1], (1, 1)),
])
def test_coordinates(version: str, screen: dict, model: list, pixel: tuple) -> None:
    text = call({"action": "left_click", "coordinate": model})
    assert parse_qwen_computer(text, version=version, **screen).actions == (Click(*pixel),)


def test_relative_range_999() -> None:
    text = call({"action": "left_click", "coordinate": [999, 999]})
    assert parse_qwen_computer(text, version="3", relative_range=999, **FHD).actions == (Click(1919, 1079),)
    assert parse_qwen_computer(call({"action": "mouse_move", "coordinate": [499.5, 499.5]}), version="3",
                               relative_range=999, **FHD).actions == (Move(960, 540),)
    with pytest.raises(ActionParseError, match="outside"):
        parse_qwen_computer(call({"action": "left_click", "coordinate": [1000, 5]}), version="3",
                            relative_range=999, **FHD)


# -- round trips ------------------------------------------------------------------------------------------


def grid(width: int, height: int) -> list[tuple[int, int]]:
    xs = sorted({0, 1, width // 3, width // 2, width - 2, width - 1, *range(0, width, 37)})
    ys = sorted({0, 1, height // 3, height // 2, height - 2, height - 1, *range(0, height, 41)})
    return list(zip(xs, itertools.cycle(ys)))


@pytest.mark.parametrize("screen_name", SCREENS)
def test_round_trip_exact_on_2_5(screen_name: str) -> None:
    screen = SCREENS[screen_name]  # the smart_resize frame is at least the screen: exact
    for x, y in grid(screen["screen_width"], screen["screen_height"]):
        for action in (Click(x, y), Move(x, y), Scroll(x, y, dy=1)):
            text = format_qwen_computer([action], version="2.5", **screen)
            assert parse_qwen_computer(text, version="2.5", **screen).actions == (action,)


@pytest.mark.parametrize("screen_name", SCREENS)
def test_round_trip_on_3_within_the_bound(screen_name: str) -> None:
    screen = SCREENS[screen_name]
    width, height = screen["screen_width"], screen["screen_height"]
    bound_x, bound_y = math.floor(0.5 + width / 2000), math.floor(0.5 + height / 2000)
    assert (bound_x, bound_y) == ((1, 1) if width == 1920 else (1, 0))
    for x, y in grid(width, height):
        text = format_qwen_computer([Click(x, y)], version="3", **screen)
        (click,) = parse_qwen_computer(text, version="3", **screen).actions
        assert abs(click.x - x) <= bound_x and abs(click.y - y) <= bound_y


def test_model_points_round_trip_exactly_where_the_screen_is_larger() -> None:
    # 3 on 1920x1080: every model point 0..999 -> screen -> the same model point (1000, the
    # far edge, is clamped onto the last pixel, which writes as 999).
    for m in range(0, 1001):
        text = call({"action": "mouse_move", "coordinate": [m, m]})
        (move,) = parse_qwen_computer(text, version="3", **FHD).actions
        written = arguments_of(format_qwen_computer([move], version="3", **FHD))
        assert written == [{"action": "mouse_move", "coordinate": [min(m, 999)] * 2}]


ROUND_TRIP_3 = [
    Click(960, 540), Click(10, 10, button="right"), Click(12, 12, button="middle"), Click(960, 540, count=2),
    Click(960, 540, count=3), Move(480, 270), Drag(96, 108, 1824, 972), Scroll(960, 540, dy=3),
    Scroll(480, 270, dx=-4), Scroll(960, 540, dx=2, dy=-7), Type("a\nb\tc \"d\" 'e' \\ 中文，"),
    Hotkey(("ctrl", "alt", "delete")), Hotkey(("f5",)), Wait(0.5), Wait(60),
]


def test_round_trip_several_actions_in_one_reply() -> None:
    # points on multiples of 1.92 x 1.08 px are exact in the 0..1000 frame
    actions = [*ROUND_TRIP_3, Done(success=False, answer="no such file")]
    text = format_qwen_computer(actions, "Plan: many steps.", version="3", **FHD)
    assert parse_qwen_computer(text, version="3", **FHD) == QwenComputerReply(
        thought="Plan: many steps.", actions=tuple(actions), raw=text
    )
    actions_25 = [Click(640, 400), Click(3, 4, count=2), Move(1, 2), Drag(0, 0, 1279, 799), Scroll(9, 9, dy=-2),
                  Type("x"), Hotkey(("alt", "f4")), Wait(1), Done(success=False)]
    text = format_qwen_computer(actions_25, version="2.5", **WXGA)
    assert parse_qwen_computer(text, version="2.5", **WXGA).actions == tuple(actions_25)


def test_written_text_is_what_qwen_writes() -> None:
    assert format_qwen_computer([Click(960, 540)], "Click it.", version="3", **FHD) == (
        'Click it.\n<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", '
        '"coordinate": [500, 500]}}\n</tool_call>'
    )
    assert format_qwen_computer([Type("中文")], version="3", **FHD) == (
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "type", "text": "中文"}}\n</tool_call>'
    )


def test_scroll_units() -> None:
    text = call({"action": "scroll", "coordinate": [500, 500], "pixels": -500})
    assert parse_qwen_computer(text, version="3", pixels_per_click=100, **FHD).actions == (Scroll(960, 540, dy=5),)
    assert parse_qwen_computer(text, version="3", **FHD).actions == (Scroll(960, 540, dy=500),)
    for pixels, clicks in ((30, -1), (149, -1), (150, -2), (250, -3), (-49.5, 1)):
        text = call({"action": "scroll", "coordinate": [500, 500], "pixels": pixels})
        assert parse_qwen_computer(text, version="3", pixels_per_click=100, **FHD).actions == (
            Scroll(960, 540, dy=clicks),
        )
    written = format_qwen_computer([Scroll(960, 540, dy=3, dx=1)], version="3", pixels_per_click=100, **FHD)
    assert [a["pixels"] for a in arguments_of(written)] == [-300, 100]
    assert parse_qwen_computer(written, version="3", pixels_per_click=100, **FHD).actions == (
        Scroll(960, 540, dx=1, dy=3),
    )
    with pytest.raises(ValueError):
        parse_qwen_computer(text, version="3", pixels_per_click=0, **FHD)


def test_pointer_actions() -> None:
    click = call({"action": "left_click"})
    assert parse_qwen_computer(click, version="3", pointer=(7, 8), **FHD).actions == (Click(7, 8),)
    moved = call({"action": "mouse_move", "coordinate": [500, 500]}) + "\n" + click
    assert parse_qwen_computer(moved, version="3", **FHD).actions == (Click(960, 540),)
    drag = call({"action": "left_click_drag", "coordinate": [500, 500]})
    assert parse_qwen_computer(drag, version="3", pointer=(1, 2), **FHD).actions == (Drag(1, 2, 960, 540),)
    for text in (click, drag, call({"action": "scroll", "pixels": 3})):
        with pytest.raises(ActionParseError, match="pointer") as info:
            parse_qwen_computer(text, version="3", **FHD)
        assert info.value.raw == text


def test_tool_calls_a_server_parsed() -> None:
    text = qwen_tool_call_text({"name": "computer_use", "arguments": '{"action": "left_click", "coordinate": [500, 500]}'})
    assert parse_qwen_computer(text, version="3", **FHD).actions == (Click(960, 540),)
    text = qwen_tool_call_text({"name": "computer_use", "arguments": {"action": "type", "text": "中"}})
    assert parse_qwen_computer(text, version="3", **FHD).actions == (Type("中"),)


def test_every_declared_action_is_read() -> None:
    assert set(ACTIONS["3"]) == set(FIELDS) and set(ACTIONS["2.5"]) < set(FIELDS)


# -- errors -----------------------------------------------------------------------------------------------

BAD_REPLIES = [
    ("I will click the button.", "no <tool_call>"),
    ("<tool_call>\n{not json}\n</tool_call>", "not valid JSON"),
    ('<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click"}\n</tool_call>', "not valid JSON"),
    ('<tool_call>\n["left_click"]\n</tool_call>', "must be"),
    ('<tool_call>\n{"name": "browser", "arguments": {"action": "left_click"}}\n</tool_call>', "unknown function"),
    ('<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click"}, "id": 1}\n</tool_call>',
     "unknown keys"),
    ('<tool_call>\n{"name": "computer_use", "arguments": [1, 2]}\n</tool_call>', "JSON object"),
    (call({"action": "tap", "coordinate": [1, 2]}), "unknown computer_use action"),
    (call({"coordinate": [1, 2]}), "unknown computer_use action"),
    (call({"action": "screenshot"}), "unknown computer_use action"),
    (call({"action": "mouse_move"}), "missing ['coordinate']"),
    (call({"action": "left_click_drag"}), "missing ['coordinate']"),
    (call({"action": "type"}), "missing ['text']"),
    (call({"action": "key"}), "missing ['keys']"),
    (call({"action": "scroll", "coordinate": [1, 2]}), "missing ['pixels']"),
    (call({"action": "wait"}), "missing ['time']"),
    (call({"action": "terminate"}), "missing ['status']"),
    (call({"action": "answer"}), "missing ['text']"),
    (call({"action": "left_click", "coordinate": [1, 2], "button": "left"}), "unknown ['button']"),
    (call({"action": "type", "text": "x", "coordinate": [1, 2]}), "unknown ['coordinate']"),
    (call({"action": "left_click", "coordinate": [1001, 2]}), "outside"),
    (call({"action": "left_click", "coordinate": [-1, 2]}), "outside"),
    (call({"action": "left_click", "coordinate": [1, 2, 3]}), "must be [x, y]"),
    (call({"action": "left_click", "coordinate": ["1", "2"]}), "must be [x, y]"),
    (call({"action": "left_click", "coordinate": [True, 2]}), "must be [x, y]"),
    (call({"action": "key", "keys": []}), "non-empty list"),
    (call({"action": "key", "keys": ["ctrl", "hyper"]}), "invalid key"),
    (call({"action": "type", "text": ""}), "non-empty"),
    (call({"action": "type", "text": 5}), "must be a string"),
    (call({"action": "scroll", "coordinate": [1, 2], "pixels": 0}), "scrolls nothing"),
    (call({"action": "scroll", "coordinate": [1, 2], "pixels": 2.5}), "whole number"),
    (call({"action": "wait", "time": "soon"}), "number of seconds"),
    (call({"action": "wait", "time": 90}), "invalid action"),
    (call({"action": "terminate", "status": "done"}), "status must be"),
    (call({"action": "terminate", "status": "success"}) + "\n" + call({"action": "left_click", "coordinate": [1, 2]}),
     "after the episode"),
    (call({"action": "answer", "text": "x"}) + "\n" + call({"action": "type", "text": "y"}), "after the episode"),
    ("</tool_call>\n" + call({"action": "terminate", "status": "success"}), "without a '<tool_call>'"),
    (42, "must be a string"),
]


@pytest.mark.parametrize(("text", "reason"), BAD_REPLIES)
def test_bad_replies_raise_with_raw(text, reason: str) -> None:
    with pytest.raises(ActionParseError) as info:
        parse_qwen_computer(text, version="3", **FHD)
    assert reason in info.value.reason
    assert info.value.raw == (text if isinstance(text, str) else repr(text))


def test_tool_calls_inside_thinking_are_not_read() -> None:
    text = "<think>I could answer with <tool_call> blocks.</think>No action yet."
    with pytest.raises(ActionParseError, match="no <tool_call>"):
        parse_qwen_computer(text, version="3", **FHD)


@pytest.mark.parametrize("action", [
    Click(1, 2, button="right", count=2), Click(1, 2, button="middle", count=3), Drag(1, 2, 3, 4, button="right"),
    Done(success=False, handoff=True),
], ids=repr)
def test_unrepresentable_actions_raise(action) -> None:
    for version in ("2.5", "3"):
        with pytest.raises(ActionError):
            format_qwen_computer([action], version=version, **FHD)


def test_writer_refusals() -> None:
    with pytest.raises(ActionError):
        format_qwen_computer([], version="3", **FHD)
    with pytest.raises(ActionError):
        format_qwen_computer([Done()], "see <tool_call>", version="3", **FHD)
    with pytest.raises(ActionError):
        format_qwen_computer([Click(1920, 5)], version="3", **FHD)  # off the screen
    with pytest.raises(ValueError):
        format_qwen_computer([Done()], version="4", **FHD)  # type: ignore[arg-type]
