"""Anthropic computer-use tool inputs (computer_20250124 / computer_20251124) <-> canonical actions."""

from __future__ import annotations

import json
import string

import pytest

from gui_agent.action_formats import (
    AnthropicComputerReader,
    DisplayScale,
    ObservationRequest,
    action_to_anthropic_computer,
    actions_to_anthropic_computer,
    anthropic_computer_tool,
    anthropic_display_scale,
    parse_anthropic_computer,
)
from gui_agent.action_formats.anthropic_computer import (
    ACTIONS,
    ANTHROPIC_MAX_LONG_EDGE,
    ANTHROPIC_MAX_LONG_EDGE_HIGH_RES,
    ANTHROPIC_MAX_PIXELS,
    key_from_xdotool,
    key_to_xdotool,
    split_xdotool_keys,
)
from gui_agent.actions import NAMED_KEYS, Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError, ActionParseError

# A 1280x800 display declared to the tool, a 1920x1080 screen: x scales by 1.5, y by 1.35.
SCALE = DisplayScale(1280, 800, 1920, 1080)
SAME = DisplayScale.identity(1920, 1080)

# Tool inputs as Claude sends them (the examples of the computer use tool page and the
# action list of its schema) and what they mean on the 1920x1080 screen.
READ = [
    ({"action": "left_click", "coordinate": [640, 400]}, [Click(960, 540)]),
    ({"action": "left_click", "coordinate": [101, 33]}, [Click(152, 45)]),  # 151.5 -> 152, 44.55 -> 45
    ({"action": "left_click", "coordinate": [500, 300], "text": None}, [Click(750, 405)]),
    ({"action": "left_click", "coordinate": [500, 300], "text": ""}, [Click(750, 405)]),
    ({"action": "right_click", "coordinate": [10, 20]}, [Click(15, 27, button="right")]),
    ({"action": "middle_click", "coordinate": [10, 20]}, [Click(15, 27, button="middle")]),
    ({"action": "double_click", "coordinate": [10, 20]}, [Click(15, 27, count=2)]),
    ({"action": "triple_click", "coordinate": [10, 20]}, [Click(15, 27, count=3)]),
    ({"action": "mouse_move", "coordinate": [1279, 799]}, [Move(1919, 1079)]),
    ({"action": "mouse_move", "coordinate": [1280, 800]}, [Move(1919, 1079)]),  # the far edge, clamped inside
    (
        {"action": "left_click_drag", "start_coordinate": [100, 100], "coordinate": [200, 300]},
        [Drag(150, 135, 300, 405)],
    ),
    (
        {"action": "scroll", "coordinate": [500, 400], "scroll_direction": "down", "scroll_amount": 3},
        [Scroll(750, 540, dy=3)],
    ),
    ({"action": "scroll", "coordinate": [0, 0], "scroll_direction": "up", "scroll_amount": 5}, [Scroll(0, 0, dy=-5)]),
    ({"action": "scroll", "coordinate": [0, 0], "scroll_direction": "left", "scroll_amount": 2}, [Scroll(0, 0, dx=-2)]),
    ({"action": "scroll", "coordinate": [0, 0], "scroll_direction": "right", "scroll_amount": 1.0}, [Scroll(0, 0, dx=1)]),
    ({"action": "type", "text": "Hello, world!"}, [Type("Hello, world!")]),
    ({"action": "type", "text": "line\n"}, [Type("line\n")]),
    ({"action": "key", "text": "ctrl+s"}, [Hotkey(("ctrl", "s"))]),
    ({"action": "key", "text": "Return"}, [Hotkey(("enter",))]),
    ({"action": "key", "text": "alt+Tab"}, [Hotkey(("alt", "tab"))]),
    ({"action": "key", "text": "Up"}, [Hotkey(("up",))]),
    ({"action": "key", "text": "Page_Down"}, [Hotkey(("pagedown",))]),
    ({"action": "key", "text": "Next"}, [Hotkey(("pagedown",))]),
    ({"action": "key", "text": "ctrl+shift+t"}, [Hotkey(("ctrl", "shift", "t"))]),
    ({"action": "key", "text": "super"}, [Hotkey(("meta",))]),
    ({"action": "key", "text": "Escape"}, [Hotkey(("escape",))]),
    ({"action": "key", "text": "BackSpace"}, [Hotkey(("backspace",))]),
    ({"action": "key", "text": "F5"}, [Hotkey(("f5",))]),
    ({"action": "key", "text": "space"}, [Hotkey(("space",))]),
    ({"action": "key", "text": "slash"}, [Hotkey(("/",))]),
    ({"action": "key", "text": "ctrl+plus"}, [Hotkey(("ctrl", "+"))]),
    ({"action": "key", "text": "ctrl++"}, [Hotkey(("ctrl", "+"))]),
    ({"action": "key", "text": "ctrl+S"}, [Hotkey(("ctrl", "S"))]),  # xdotool keeps the capital
    ({"action": "key", "text": "U00E9"}, [Hotkey(("é",))]),
    ({"action": "key", "text": "ctrl+a BackSpace"}, [Hotkey(("ctrl", "a")), Hotkey(("backspace",))]),
    ({"action": "wait", "duration": 2}, [Wait(2)]),
    ({"action": "wait", "duration": 0.5}, [Wait(0.5)]),
    ({"action": "screenshot"}, [ObservationRequest("screenshot")]),
    ({"action": "cursor_position"}, [ObservationRequest("cursor_position")]),
    ({"action": "zoom", "region": [100, 200, 400, 350]}, [ObservationRequest("zoom", (150, 270, 600, 473))]),
    (
        [
            {"action": "left_mouse_down", "coordinate": [100, 100]},
            {"action": "mouse_move", "coordinate": [200, 100]},
            {"action": "left_mouse_up"},
        ],
        [Drag(150, 135, 300, 135)],
    ),
    (
        [{"action": "mouse_move", "coordinate": [100, 100]}, {"action": "left_mouse_down"}, {"action": "left_mouse_up"}],
        [Click(150, 135)],
    ),
    (
        [{"action": "mouse_move", "coordinate": [10, 10]}, {"action": "left_click"}],  # a click at the pointer
        [Click(15, 14)],
    ),
    (
        [
            {"action": "scroll", "coordinate": [10, 10], "scroll_direction": "down", "scroll_amount": 3},
            {"action": "scroll", "coordinate": [10, 10], "scroll_direction": "left", "scroll_amount": 2},
        ],
        [Scroll(15, 14, dx=-2, dy=3)],
    ),
    (
        [{"action": "left_click", "coordinate": [640, 400]}, {"action": "screenshot"}, {"action": "type", "text": "x"}],
        [Click(960, 540), ObservationRequest("screenshot"), Type("x")],
    ),
]


@pytest.mark.parametrize(("tool_input", "expected"), READ, ids=lambda v: json.dumps(v, default=repr, ensure_ascii=False)[:60])
def test_tool_inputs_read_as_screen_actions(tool_input, expected) -> None:
    assert parse_anthropic_computer(tool_input, scale=SCALE) == expected


def test_every_action_of_both_versions_is_in_the_read_table() -> None:
    read = {item["action"] for tool_input, _ in READ for item in ([tool_input] if isinstance(tool_input, dict) else tool_input)}
    assert ACTIONS["computer_20251124"] - read == {"hold_key"}  # refused, see BAD
    assert ACTIONS["computer_20251124"] - ACTIONS["computer_20250124"] == {"zoom"}
    assert len(ACTIONS["computer_20250124"]) == 16


def test_without_scaling_coordinates_pass_through() -> None:
    assert parse_anthropic_computer({"action": "left_click", "coordinate": [101, 33]}, scale=SAME) == [Click(101, 33)]


def test_clicks_and_scrolls_without_coordinate_act_at_the_pointer() -> None:
    pointer = (700, 500)  # screen pixels
    assert parse_anthropic_computer({"action": "left_click"}, scale=SCALE, pointer=pointer) == [Click(700, 500)]
    assert parse_anthropic_computer(
        {"action": "scroll", "scroll_direction": "down", "scroll_amount": 2}, scale=SCALE, pointer=pointer
    ) == [Scroll(700, 500, dy=2)]
    # left_click_drag without start_coordinate drags from the pointer (the reference implementation).
    assert parse_anthropic_computer(
        {"action": "left_click_drag", "coordinate": [200, 300]}, scale=SCALE, pointer=pointer
    ) == [Drag(700, 500, 300, 405)]


# -- the stateful reader: a button held across tool calls -------------------------------------


def test_reader_carries_a_held_button_across_calls() -> None:
    reader = AnthropicComputerReader(scale=SCALE)
    assert reader.read({"action": "left_mouse_down", "coordinate": [100, 100]}) == []
    assert reader.button_held
    assert reader.read({"action": "screenshot"}) == [ObservationRequest("screenshot")]
    assert reader.read({"action": "mouse_move", "coordinate": [300, 200]}) == []
    assert reader.read({"action": "cursor_position"}) == [ObservationRequest("cursor_position")]
    assert reader.pointer == (450, 270)
    assert reader.read({"action": "left_mouse_up"}) == [Drag(150, 135, 450, 270)]
    assert not reader.button_held
    # The pointer stays known: a later click without coordinate lands where the drag ended.
    assert reader.read({"action": "left_click"}) == [Click(450, 270)]


def test_reader_is_unchanged_by_a_failed_call() -> None:
    reader = AnthropicComputerReader(scale=SCALE)
    reader.read({"action": "left_mouse_down", "coordinate": [100, 100]})
    with pytest.raises(ActionParseError, match="held"):
        reader.read([{"action": "mouse_move", "coordinate": [110, 100]}, {"action": "type", "text": "x"}])
    assert reader.button_held
    assert reader.read({"action": "left_mouse_up"}) == [Click(150, 135)]  # the failed move never happened


def test_a_move_is_its_own_step_across_calls() -> None:
    reader = AnthropicComputerReader(scale=SCALE)
    assert reader.read({"action": "mouse_move", "coordinate": [10, 10]}) == [Move(15, 14)]
    assert reader.read({"action": "left_click"}) == [Click(15, 14)]


# -- bad input ---------------------------------------------------------------------------------


BAD = [
    ({"action": "click", "coordinate": [1, 2]}, "unknown action"),
    ({"coordinate": [1, 2]}, "'action'"),
    ("left_click", "expected a computer tool input dict"),
    ([], "non-empty"),
    ({"action": "left_click", "coordinate": [1]}, "[x, y]"),
    ({"action": "left_click", "coordinate": "1,2"}, "[x, y]"),
    ({"action": "mouse_move"}, "missing ['coordinate']"),
    ({"action": "left_click", "coordinate": [1281, 10]}, "outside the 1280x800 display"),
    ({"action": "left_click", "coordinate": [-1, 10]}, "outside"),
    ({"action": "left_click", "coordinate": ["10", 10]}, "must be a number"),
    ({"action": "left_click", "coordinate": [1, 1], "key": "ctrl"}, "unknown ['key']"),  # the quickstart's spelling
    ({"action": "screenshot", "coordinate": [1, 1]}, "unknown ['coordinate']"),
    ({"action": "left_click", "coordinate": [1, 1], "text": "shift"}, "keys held"),
    ({"action": "double_click", "coordinate": [1, 1], "text": "ctrl"}, "keys held"),
    (
        {"action": "scroll", "coordinate": [1, 1], "scroll_direction": "down", "scroll_amount": 3, "text": "shift"},
        "keys held",
    ),
    ({"action": "left_click_drag", "start_coordinate": [1, 1], "coordinate": [5, 5], "text": "alt"}, "keys held"),
    ({"action": "hold_key", "text": "shift", "duration": 1}, "no held keys"),
    ({"action": "scroll", "coordinate": [1, 1], "scroll_direction": "down", "scroll_amount": -3}, "positive"),
    ({"action": "scroll", "coordinate": [1, 1], "scroll_direction": "down", "scroll_amount": 0}, "positive"),
    ({"action": "scroll", "coordinate": [1, 1], "scroll_direction": "down", "scroll_amount": 1.5}, "whole number"),
    ({"action": "scroll", "coordinate": [1, 1], "scroll_direction": "sideways", "scroll_amount": 1}, "scroll_direction"),
    ({"action": "scroll", "coordinate": [1, 1], "scroll_amount": 1}, "missing ['scroll_direction']"),
    ({"action": "key", "text": "KP_0"}, "invalid key"),
    ({"action": "key", "text": "XF86AudioMute"}, "invalid key"),
    ({"action": "key", "text": "ctrl+"}, "cannot read"),
    ({"action": "key", "text": ""}, "non-empty"),
    ({"action": "key", "text": 5}, "non-empty"),
    ({"action": "type"}, "missing ['text']"),
    ({"action": "type", "text": 5}, "non-empty"),
    ({"action": "wait", "duration": -1}, "between 0 and 60"),
    ({"action": "wait", "duration": 61}, "between 0 and 60"),
    ({"action": "wait", "duration": "2"}, "between 0 and 60"),
    ({"action": "wait"}, "missing ['duration']"),
    ({"action": "zoom", "region": [100, 200, 50, 300]}, "x1 < x2"),
    ({"action": "zoom", "region": [100, 200, 300]}, "[x1, y1, x2, y2]"),
    ({"action": "zoom", "region": [0, 0, 1300, 10]}, "outside"),
    ({"action": "left_mouse_up"}, "never pressed"),
    ({"action": "left_mouse_down", "coordinate": [1, 1]}, "left_mouse_up"),
    ({"action": "left_click"}, "pointer"),
    ({"action": "left_click_drag", "coordinate": [1, 1]}, "pointer"),
    ([{"action": "left_mouse_down", "coordinate": [1, 1]}, {"action": "type", "text": "x"}], "held"),
]


@pytest.mark.parametrize(("tool_input", "reason"), BAD, ids=lambda v: json.dumps(v, default=repr, ensure_ascii=False)[:60])
def test_bad_input_raises_with_raw(tool_input, reason: str) -> None:
    with pytest.raises(ActionParseError) as info:
        parse_anthropic_computer(tool_input, scale=SCALE)
    assert reason in info.value.reason
    assert info.value.raw == json.dumps(tool_input, ensure_ascii=False)


def test_zoom_is_not_an_action_of_the_older_version() -> None:
    zoom = {"action": "zoom", "region": [0, 0, 10, 10]}
    with pytest.raises(ActionParseError, match="computer_20251124"):
        parse_anthropic_computer(zoom, scale=SCALE, version="computer_20250124")
    with pytest.raises(ActionError, match="computer_20251124"):
        action_to_anthropic_computer(ObservationRequest("zoom", (0, 0, 9, 9)), scale=SCALE, version="computer_20250124")
    with pytest.raises(ValueError, match="unknown computer tool version"):
        parse_anthropic_computer(zoom, scale=SCALE, version="computer_20241022")  # type: ignore[arg-type]


# -- writing -----------------------------------------------------------------------------------


WRITE = [
    (Click(960, 540), [{"action": "left_click", "coordinate": [640, 400]}]),
    (Click(152, 45), [{"action": "left_click", "coordinate": [101, 33]}]),  # 101.33, 33.33
    (Click(1919, 1079), [{"action": "left_click", "coordinate": [1279, 799]}]),
    (Click(15, 27, button="right"), [{"action": "right_click", "coordinate": [10, 20]}]),
    (Click(15, 27, button="middle"), [{"action": "middle_click", "coordinate": [10, 20]}]),
    (Click(15, 27, count=2), [{"action": "double_click", "coordinate": [10, 20]}]),
    (Click(15, 27, count=3), [{"action": "triple_click", "coordinate": [10, 20]}]),
    (Move(0, 0), [{"action": "mouse_move", "coordinate": [0, 0]}]),
    (
        Drag(150, 135, 300, 405),
        [{"action": "left_click_drag", "start_coordinate": [100, 100], "coordinate": [200, 300]}],
    ),
    (Scroll(750, 540, dy=3), [{"action": "scroll", "coordinate": [500, 400], "scroll_direction": "down", "scroll_amount": 3}]),
    (Scroll(750, 540, dy=-1), [{"action": "scroll", "coordinate": [500, 400], "scroll_direction": "up", "scroll_amount": 1}]),
    (
        Scroll(15, 14, dx=-2, dy=3),
        [
            {"action": "scroll", "coordinate": [10, 10], "scroll_direction": "down", "scroll_amount": 3},
            {"action": "scroll", "coordinate": [10, 10], "scroll_direction": "left", "scroll_amount": 2},
        ],
    ),
    (Type("Hello, world!"), [{"action": "type", "text": "Hello, world!"}]),
    (Hotkey(("ctrl", "s")), [{"action": "key", "text": "ctrl+s"}]),
    (Hotkey(("enter",)), [{"action": "key", "text": "Return"}]),
    (Hotkey(("meta",)), [{"action": "key", "text": "super"}]),
    (Hotkey(("ctrl", "+")), [{"action": "key", "text": "ctrl+plus"}]),
    (Hotkey(("pagedown",)), [{"action": "key", "text": "Next"}]),
    (Wait(2.5), [{"action": "wait", "duration": 2.5}]),
    (ObservationRequest("screenshot"), [{"action": "screenshot"}]),
    (ObservationRequest("cursor_position"), [{"action": "cursor_position"}]),
    (ObservationRequest("zoom", (150, 270, 600, 473)), [{"action": "zoom", "region": [100, 200, 400, 350]}]),
]


@pytest.mark.parametrize(("item", "expected"), WRITE, ids=repr)
def test_canonical_actions_write_as_tool_inputs(item, expected) -> None:
    assert action_to_anthropic_computer(item, scale=SCALE) == expected


@pytest.mark.parametrize(
    "item",
    [Click(1, 1, button="right", count=2), Click(1, 1, button="middle", count=3), Drag(1, 1, 5, 5, button="right"), Done(), Click(1920, 5)],
    ids=repr,
)
def test_what_the_tool_cannot_express_raises(item) -> None:
    with pytest.raises(ActionError):
        action_to_anthropic_computer(item, scale=SCALE)


# -- round trips -------------------------------------------------------------------------------


def _inputs(tool_input):
    return [tool_input] if isinstance(tool_input, dict) else tool_input


@pytest.mark.parametrize(("item", "tool_inputs"), WRITE, ids=repr)
def test_round_trip_tool_to_canonical_to_tool(item, tool_inputs) -> None:
    # Every written form reads back as the action, and writes again to the same inputs.
    read = parse_anthropic_computer(tool_inputs, scale=SCALE)
    assert read == [item]
    assert actions_to_anthropic_computer(read, scale=SCALE) == tool_inputs


ROUND_TRIP = [
    Click(100, 200),
    Click(0, 0, button="right"),
    Click(1919, 1079, button="middle"),
    Click(5, 6, count=2),
    Click(5, 6, count=3),
    Move(50, 60),
    Drag(10, 20, 300, 400),
    Drag(10, 20, 10, 20),
    Scroll(640, 360, dy=3),
    Scroll(640, 360, dx=-2, dy=-1),
    Scroll(640, 360, dx=7),
    Type("hello 'world'\n"),
    *(Hotkey((key,)) for key in sorted(NAMED_KEYS)),
    Hotkey(("ctrl", "shift", "t")),
    Hotkey(("ctrl", "S")),
    Wait(0),
    Wait(60),
    ObservationRequest("screenshot"),
    ObservationRequest("cursor_position"),
    ObservationRequest("zoom", (10, 20, 300, 400)),
]


@pytest.mark.parametrize("item", ROUND_TRIP, ids=repr)
def test_round_trip_canonical_to_tool_to_canonical_unscaled(item) -> None:
    assert parse_anthropic_computer(action_to_anthropic_computer(item, scale=SAME), scale=SAME) == [item]


def test_round_trip_through_the_smaller_display_lands_within_a_pixel() -> None:
    # Screen -> display -> screen loses at most half a display pixel (0.75 and 0.675 px here).
    for x, y in [(1001, 777), (1, 1), (1918, 1078), (333, 334), (1234, 567)]:
        (back,) = parse_anthropic_computer(action_to_anthropic_computer(Click(x, y), scale=SCALE), scale=SCALE)
        assert abs(back.x - x) <= 1 and abs(back.y - y) <= 1


def test_a_whole_step_round_trips_as_json() -> None:
    items = [Click(960, 540), Type("abc"), Hotkey(("enter",)), Scroll(15, 14, dx=-2, dy=3), ObservationRequest("screenshot")]
    inputs = json.loads(json.dumps(actions_to_anthropic_computer(items, scale=SCALE)))
    assert parse_anthropic_computer(inputs, scale=SCALE) == items


# -- keys --------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(NAMED_KEYS) + list(string.ascii_letters + string.digits + string.punctuation))
def test_every_canonical_key_round_trips_through_xdotool_names(key: str) -> None:
    assert key_from_xdotool(key_to_xdotool(key)) == key


@pytest.mark.parametrize(
    ("name", "key"),
    [("Return", "enter"), ("return", "enter"), ("KP_Enter", "enter"), ("Prior", "pageup"), ("Page_Up", "pageup"),
     ("Caps_Lock", "capslock"), ("Super_L", "meta"), ("Meta_L", "meta"), ("cmd", "meta"), ("Control_L", "ctrl"),
     ("Ctrl", "ctrl"), ("exclam", "!"), ("Left", "left"), ("Print", "printscreen"), ("Delete", "delete")],
)
def test_xdotool_spellings(name: str, key: str) -> None:
    assert key_from_xdotool(name) == key


def test_split_xdotool_keys() -> None:
    assert split_xdotool_keys("ctrl+a  BackSpace") == [["ctrl", "a"], ["BackSpace"]]
    assert split_xdotool_keys("ctrl++") == [["ctrl", "+"]]


# -- display size and tool definition ---------------------------------------------------------


def test_display_size_follows_the_documented_limits() -> None:
    assert anthropic_display_scale(1512, 982).display_size == (1330, 864)  # the docs' own example
    assert anthropic_display_scale(1920, 1080).display_size == (1429, 804)
    assert anthropic_display_scale(3840, 2160).display_size == (1429, 804)
    assert anthropic_display_scale(1280, 800).is_identity  # 1.02 MP, long edge 1280: no scaling
    assert anthropic_display_scale(1024, 768).is_identity
    high = anthropic_display_scale(3840, 2160, max_long_edge=ANTHROPIC_MAX_LONG_EDGE_HIGH_RES, max_pixels=None)
    assert high.display_size == (2576, 1449)
    scale = anthropic_display_scale(1920, 1080)
    assert (scale.screen_width, scale.screen_height) == (1920, 1080)


@pytest.mark.parametrize("screen", [(w, h) for w in (800, 1366, 1600, 1920, 2560, 3024, 5120) for h in (600, 768, 1050, 1964, 2880)])
def test_display_size_stays_within_limits_and_keeps_the_aspect(screen) -> None:
    width, height = screen
    display = anthropic_display_scale(width, height)
    w, h = display.display_size
    assert max(w, h) <= ANTHROPIC_MAX_LONG_EDGE and w * h <= ANTHROPIC_MAX_PIXELS
    assert w <= width and h <= height
    assert abs(w * height - h * width) < width + height  # both sides scaled by one factor, truncated
    if max(width, height) <= ANTHROPIC_MAX_LONG_EDGE and width * height <= ANTHROPIC_MAX_PIXELS:
        assert display.is_identity


def test_tool_definition() -> None:
    scale = anthropic_display_scale(1920, 1080)
    assert anthropic_computer_tool(scale) == {
        "type": "computer_20251124",
        "name": "computer",
        "display_width_px": 1429,
        "display_height_px": 804,
    }
    assert anthropic_computer_tool(scale, enable_zoom=True, display_number=1)["enable_zoom"] is True
    assert anthropic_computer_tool(scale, version="computer_20250124")["type"] == "computer_20250124"
    with pytest.raises(ValueError, match="enable_zoom"):
        anthropic_computer_tool(scale, version="computer_20250124", enable_zoom=True)
