"""OpenAI Responses API computer tool actions <-> canonical actions, and the shared DisplayScale."""

from __future__ import annotations

import json
import math
import string
from fractions import Fraction

import pytest

from gui_agent.action_formats import (
    DisplayScale,
    ObservationRequest,
    action_to_openai_computer,
    actions_to_openai_computer,
    openai_computer_tool,
    openai_display_scale,
    parse_openai_computer,
)
from gui_agent.action_formats._gestures import fit_display, wheel_clicks
from gui_agent.action_formats.openai_computer import ACTIONS, OPENAI_WAIT_SECONDS, key_from_openai, key_to_openai
from gui_agent.actions import NAMED_KEYS, Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError, ActionParseError

# A 1280x800 declared display on a 1920x1080 screen: x scales by 1.5, y by 1.35.
SCALE = DisplayScale(1280, 800, 1920, 1080)
SAME = DisplayScale.identity(1024, 768)


def _id(value) -> str:
    return json.dumps(value, default=repr, ensure_ascii=False)[:60]


# Actions as the API returns them (the openai-python SDK's ActionClick ... ActionWait; the
# guide's examples), and what they mean on the 1920x1080 screen.
READ = [
    ({"type": "click", "button": "left", "x": 640, "y": 400}, [Click(960, 540)]),
    ({"type": "click", "button": "left", "x": 101, "y": 33}, [Click(152, 45)]),  # 151.5 -> 152, 44.55 -> 45
    ({"type": "click", "button": "right", "x": 10, "y": 20}, [Click(15, 27, button="right")]),
    ({"type": "click", "button": "wheel", "x": 10, "y": 20}, [Click(15, 27, button="middle")]),
    ({"type": "click", "button": "left", "x": 10, "y": 20, "keys": None}, [Click(15, 27)]),  # SDK model_dump()
    ({"type": "click", "button": "left", "x": 10, "y": 20, "keys": []}, [Click(15, 27)]),
    ({"type": "double_click", "x": 10, "y": 20}, [Click(15, 27, count=2)]),
    ({"type": "move", "x": 1279, "y": 799}, [Move(1919, 1079)]),
    ({"type": "move", "x": 1280, "y": 800}, [Move(1919, 1079)]),  # the far edge, clamped inside
    ({"type": "drag", "path": [{"x": 100, "y": 100}, {"x": 200, "y": 300}]}, [Drag(150, 135, 300, 405)]),
    (
        {"type": "drag", "path": [{"x": 100, "y": 100}, {"x": 150, "y": 150}, {"x": 200, "y": 300}]},
        [Drag(150, 135, 300, 405)],  # straight from the first point to the last
    ),
    ({"type": "scroll", "x": 640, "y": 400, "scroll_x": 0, "scroll_y": 222}, [Scroll(960, 540, dy=3)]),  # 299.7 px
    ({"type": "scroll", "x": 640, "y": 400, "scroll_x": 0, "scroll_y": 300}, [Scroll(960, 540, dy=4)]),  # 405 px
    ({"type": "scroll", "x": 640, "y": 400, "scroll_x": 0, "scroll_y": -300}, [Scroll(960, 540, dy=-4)]),
    ({"type": "scroll", "x": 640, "y": 400, "scroll_x": -150, "scroll_y": 0}, [Scroll(960, 540, dx=-2)]),  # 225 px
    ({"type": "scroll", "x": 640, "y": 400, "scroll_x": 0, "scroll_y": 30}, [Scroll(960, 540, dy=1)]),  # never 0
    ({"type": "scroll", "x": 0, "y": 0, "scroll_x": 100, "scroll_y": 200}, [Scroll(0, 0, dx=2, dy=3)]),  # 150, 270
    ({"type": "keypress", "keys": ["CTRL", "C"]}, [Hotkey(("ctrl", "c"))]),
    ({"type": "keypress", "keys": ["ENTER"]}, [Hotkey(("enter",))]),
    ({"type": "keypress", "keys": ["ARROWDOWN"]}, [Hotkey(("down",))]),
    ({"type": "keypress", "keys": ["ESC"]}, [Hotkey(("escape",))]),
    ({"type": "keypress", "keys": ["CMD", "SHIFT", "T"]}, [Hotkey(("meta", "shift", "t"))]),
    ({"type": "keypress", "keys": ["ctrl", "a"]}, [Hotkey(("ctrl", "a"))]),
    ({"type": "keypress", "keys": ["SPACE"]}, [Hotkey(("space",))]),
    ({"type": "keypress", "keys": ["ALT", "F4"]}, [Hotkey(("alt", "f4"))]),
    ({"type": "keypress", "keys": ["PAGEDOWN"]}, [Hotkey(("pagedown",))]),
    ({"type": "keypress", "keys": ["/"]}, [Hotkey(("/",))]),
    ({"type": "type", "text": "Hello, world!"}, [Type("Hello, world!")]),
    ({"type": "wait"}, [Wait(OPENAI_WAIT_SECONDS)]),
    ({"type": "screenshot"}, [ObservationRequest("screenshot")]),
    (
        [{"type": "click", "button": "left", "x": 405, "y": 157}, {"type": "type", "text": "penguin"}],  # a batch
        [Click(608, 212), Type("penguin")],
    ),
    (
        [{"type": "move", "x": 1, "y": 1}, {"type": "screenshot"}, {"type": "click", "button": "left", "x": 1, "y": 1}],
        [Move(2, 1), ObservationRequest("screenshot"), Click(2, 1)],
    ),
]


@pytest.mark.parametrize(("action", "expected"), READ, ids=_id)
def test_actions_read_as_screen_actions(action, expected) -> None:
    assert parse_openai_computer(action, scale=SCALE) == expected


def test_every_action_type_is_in_the_read_table() -> None:
    read = {item["type"] for action, _ in READ for item in ([action] if isinstance(action, dict) else action)}
    assert read == ACTIONS
    assert len(ACTIONS) == 9


def test_without_scaling_pixels_pass_through() -> None:
    assert parse_openai_computer({"type": "click", "button": "left", "x": 101, "y": 33}, scale=SAME) == [Click(101, 33)]
    scroll = {"type": "scroll", "x": 5, "y": 5, "scroll_x": 0, "scroll_y": 250}
    assert parse_openai_computer(scroll, scale=SAME) == [Scroll(5, 5, dy=3)]  # 2.5 clicks, half away from zero


BAD = [
    ({"type": "triple_click", "x": 1, "y": 1}, "unknown computer action type"),
    ({"x": 1, "y": 1}, "'type'"),
    ("click", "expected a computer action dict"),
    ([], "non-empty"),
    ({"type": "click", "x": 1, "y": 1}, "missing ['button']"),
    ({"type": "click", "button": "left", "y": 1}, "missing ['x']"),
    ({"type": "click", "button": "middle", "x": 1, "y": 1}, "button must be one of"),
    ({"type": "click", "button": "back", "x": 1, "y": 1}, "browser history"),
    ({"type": "click", "button": "forward", "x": 1, "y": 1}, "browser history"),
    ({"type": "click", "button": "left", "x": 1281, "y": 1}, "outside the 1280x800 display"),
    ({"type": "click", "button": "left", "x": -1, "y": 1}, "outside"),
    ({"type": "click", "button": "left", "x": "1", "y": 1}, "must be a number"),
    ({"type": "click", "button": "left", "x": 1, "y": 1, "keys": ["SHIFT"]}, "keys held"),
    ({"type": "double_click", "x": 1, "y": 1, "keys": ["CTRL"]}, "keys held"),
    ({"type": "drag", "path": [{"x": 1, "y": 1}, {"x": 5, "y": 5}], "keys": ["ALT"]}, "keys held"),
    ({"type": "move", "x": 1, "y": 1, "keys": ["SHIFT"]}, "keys held"),
    ({"type": "scroll", "x": 1, "y": 1, "scroll_x": 0, "scroll_y": 100, "keys": ["SHIFT"]}, "keys held"),
    ({"type": "click", "button": "left", "x": 1, "y": 1, "modifiers": ["SHIFT"]}, "unknown ['modifiers']"),
    ({"type": "drag", "path": [{"x": 1, "y": 1}]}, "at least two"),
    ({"type": "drag", "path": [{"x": 1, "y": 1}, {"x": 5}]}, "path point 1"),
    ({"type": "drag", "path": "1,1 5,5"}, "at least two"),
    ({"type": "scroll", "x": 1, "y": 1, "scroll_x": 0, "scroll_y": 0}, "scrolls nothing"),
    ({"type": "scroll", "x": 1, "y": 1, "scroll_x": "10", "scroll_y": 0}, "must be a number"),
    ({"type": "scroll", "x": 1, "y": 1, "scroll_y": 100}, "missing ['scroll_x']"),
    ({"type": "keypress", "keys": "CTRL+C"}, "non-empty list"),
    ({"type": "keypress", "keys": []}, "non-empty list"),
    ({"type": "keypress", "keys": ["NUMLOCK"]}, "invalid key"),
    ({"type": "keypress", "keys": [5]}, "invalid key"),
    ({"type": "type", "text": ""}, "non-empty"),
    ({"type": "type"}, "missing ['text']"),
    ({"type": "wait", "ms": 500}, "unknown ['ms']"),
]


@pytest.mark.parametrize(("action", "reason"), BAD, ids=_id)
def test_bad_input_raises_with_raw(action, reason: str) -> None:
    with pytest.raises(ActionParseError) as info:
        parse_openai_computer(action, scale=SCALE)
    assert reason in info.value.reason
    assert info.value.raw == json.dumps(action, ensure_ascii=False)


# -- writing -----------------------------------------------------------------------------------


WRITE = [
    (Click(960, 540), {"type": "click", "button": "left", "x": 640, "y": 400}),
    (Click(152, 45), {"type": "click", "button": "left", "x": 101, "y": 33}),
    (Click(15, 27, button="right"), {"type": "click", "button": "right", "x": 10, "y": 20}),
    (Click(15, 27, button="middle"), {"type": "click", "button": "wheel", "x": 10, "y": 20}),
    (Click(15, 27, count=2), {"type": "double_click", "x": 10, "y": 20}),
    (Move(1919, 1079), {"type": "move", "x": 1279, "y": 799}),
    (Drag(150, 135, 300, 405), {"type": "drag", "path": [{"x": 100, "y": 100}, {"x": 200, "y": 300}]}),
    (Scroll(960, 540, dy=3), {"type": "scroll", "x": 640, "y": 400, "scroll_x": 0, "scroll_y": 222}),  # 222.2
    (Scroll(960, 540, dx=-2), {"type": "scroll", "x": 640, "y": 400, "scroll_x": -133, "scroll_y": 0}),  # -133.3
    (Scroll(0, 0, dx=3, dy=-1), {"type": "scroll", "x": 0, "y": 0, "scroll_x": 200, "scroll_y": -74}),  # -74.07
    (Hotkey(("ctrl", "c")), {"type": "keypress", "keys": ["CTRL", "C"]}),
    (Hotkey(("enter",)), {"type": "keypress", "keys": ["ENTER"]}),
    (Hotkey(("down",)), {"type": "keypress", "keys": ["ARROWDOWN"]}),
    (Hotkey(("meta", "shift", "t")), {"type": "keypress", "keys": ["SUPER", "SHIFT", "T"]}),
    (Hotkey(("escape",)), {"type": "keypress", "keys": ["ESC"]}),
    (Hotkey(("ctrl", "+")), {"type": "keypress", "keys": ["CTRL", "+"]}),
    (Type("Hello, world!"), {"type": "type", "text": "Hello, world!"}),
    (Wait(OPENAI_WAIT_SECONDS), {"type": "wait"}),
    (ObservationRequest("screenshot"), {"type": "screenshot"}),
]


@pytest.mark.parametrize(("item", "expected"), WRITE, ids=repr)
def test_canonical_actions_write_as_tool_actions(item, expected) -> None:
    assert action_to_openai_computer(item, scale=SCALE) == expected


@pytest.mark.parametrize(
    "item",
    [
        Click(1, 1, count=3),
        Click(1, 1, button="right", count=2),
        Drag(1, 1, 5, 5, button="middle"),
        Wait(1.0),
        Done(),
        Hotkey(("ctrl", "A")),
        ObservationRequest("cursor_position"),
        ObservationRequest("zoom", (0, 0, 5, 5)),
        Move(1920, 0),
    ],
    ids=repr,
)
def test_what_the_tool_cannot_express_raises(item) -> None:
    with pytest.raises(ActionError):
        action_to_openai_computer(item, scale=SCALE)


# -- round trips -------------------------------------------------------------------------------


@pytest.mark.parametrize(("item", "action"), WRITE, ids=repr)
def test_round_trip_tool_to_canonical_to_tool(item, action) -> None:
    read = parse_openai_computer(action, scale=SCALE)
    assert read == [item]
    assert actions_to_openai_computer(read, scale=SCALE) == [action]


ROUND_TRIP = [
    Click(100, 200),
    Click(0, 0, button="right"),
    Click(1023, 767, button="middle"),
    Click(5, 6, count=2),
    Move(50, 60),
    Drag(10, 20, 300, 400),
    Drag(10, 20, 10, 20),
    Scroll(640, 360, dy=3),
    Scroll(640, 360, dx=-2, dy=-1),
    Type("hello 'world'\n"),
    *(Hotkey((key,)) for key in sorted(NAMED_KEYS)),
    Hotkey(("ctrl", "shift", "t")),
    Wait(OPENAI_WAIT_SECONDS),
    ObservationRequest("screenshot"),
]


@pytest.mark.parametrize("item", ROUND_TRIP, ids=repr)
def test_round_trip_canonical_to_tool_to_canonical_unscaled(item) -> None:
    assert parse_openai_computer(action_to_openai_computer(item, scale=SAME), scale=SAME) == [item]


@pytest.mark.parametrize("clicks", range(-40, 41))
def test_scroll_amounts_round_trip_through_the_scaled_display(clicks: int) -> None:
    for dx, dy in ((clicks, 0), (0, clicks), (clicks, -clicks)):
        if dx == dy == 0:
            continue
        action = action_to_openai_computer(Scroll(960, 540, dx=dx, dy=dy), scale=SCALE)
        assert parse_openai_computer(action, scale=SCALE) == [Scroll(960, 540, dx=dx, dy=dy)]


def test_a_batch_round_trips_as_json() -> None:
    items = [Click(960, 540), Type("abc"), Hotkey(("enter",)), Scroll(15, 14, dx=-2, dy=3), ObservationRequest("screenshot")]
    actions = json.loads(json.dumps(actions_to_openai_computer(items, scale=SCALE)))
    assert parse_openai_computer(actions, scale=SCALE) == items


# -- keys --------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(NAMED_KEYS) + list(string.ascii_lowercase + string.digits + string.punctuation))
def test_every_canonical_key_round_trips_through_cua_names(key: str) -> None:
    assert key_from_openai(key_to_openai(key)) == key


@pytest.mark.parametrize(
    ("name", "key"),
    [("CTRL", "ctrl"), ("Control", "ctrl"), ("OPTION", "alt"), ("WIN", "meta"), ("SUPER", "meta"), ("META", "meta"),
     ("RETURN", "enter"), ("ESCAPE", "escape"), ("ARROWLEFT", "left"), ("PAGEUP", "pageup"), ("A", "a"), ("z", "z")],
)
def test_cua_spellings(name: str, key: str) -> None:
    assert key_from_openai(name) == key


# -- the shared DisplayScale -------------------------------------------------------------------


def test_every_display_point_survives_display_to_screen_to_display() -> None:
    for x in range(SCALE.display_width):
        assert SCALE.to_display(*SCALE.to_screen(x, 399)) == (x, 399)
    for y in range(SCALE.display_height):
        assert SCALE.to_display(*SCALE.to_screen(639, y)) == (639, y)


def test_screen_to_display_to_screen_lands_within_a_pixel() -> None:
    # |error| <= ratio / 2 + 1 / 2: 1.25 and 1.175 here, so at most 1 whole pixel.
    errors_x = {SCALE.to_screen(*SCALE.to_display(x, 0))[0] - x for x in range(SCALE.screen_width)}
    errors_y = {SCALE.to_screen(*SCALE.to_display(0, y))[1] - y for y in range(SCALE.screen_height)}
    assert errors_x <= {-1, 0, 1} and errors_y <= {-1, 0, 1}
    assert errors_x != {0}  # downscaling really loses pixels: only the identity is exact
    assert SAME.to_screen(*SAME.to_display(517, 300)) == (517, 300)


def test_to_screen_matches_exact_arithmetic_and_rounds_half_up() -> None:
    for x in range(0, 1281, 7):
        expected = min(math.floor(Fraction(x * 1920, 1280) + Fraction(1, 2)), 1919)
        assert SCALE.to_screen(x, 0)[0] == expected
    assert DisplayScale(2, 2, 5, 5).to_screen(1, 1) == (3, 3)  # 2.5 -> 3, not Python's round() -> 2
    assert DisplayScale(2, 2, 5, 5).to_display(3, 1) == (1, 0)  # 1.2 -> 1, 0.4 -> 0
    assert SCALE.to_screen(100.4, 0.2) == (151, 0)  # floats too: 150.6, 0.27
    assert SCALE.to_screen(1280, 800) == (1919, 1079)


def test_display_scale_refuses_what_is_not_on_it() -> None:
    for point in [(-1, 0), (0, -0.5), (1280.5, 0), (0, 801), (math.nan, 0), (math.inf, 1), ("1", 1), (True, 1)]:
        with pytest.raises(ActionError):
            SCALE.to_screen(*point)
    for point in [(1920, 0), (0, 1080), (-1, 0)]:
        with pytest.raises(ActionError):
            SCALE.to_display(*point)
    for sizes in [(0, 800, 1920, 1080), (1280, 800, -1, 1080), (1280.0, 800, 1920, 1080), (True, 800, 1920, 1080)]:
        with pytest.raises(ValueError):
            DisplayScale(*sizes)


def test_lengths_scale_per_axis() -> None:
    assert SCALE.length_to_screen(100, "x") == 150 and SCALE.length_to_screen(-100, "y") == -135
    assert SCALE.length_to_display(300, "y") == 222 and SCALE.length_to_display(-300, "y") == -222
    assert SCALE.length_to_display(75, "x") == 50 and DisplayScale(2, 2, 4, 4).length_to_display(-3, "x") == -2


def test_wheel_clicks_from_pixels() -> None:
    assert [wheel_clicks(p) for p in (0, 1, 49, 50, 149, 150, 250, -50, -151, Fraction(299, 1))] == [0, 1, 1, 1, 1, 2, 3, -1, -2, 3]


def test_fit_display() -> None:
    assert fit_display(1920, 1080) == (1920, 1080)
    assert fit_display(1920, 1080, max_long_edge=1280) == (1280, 720)
    assert fit_display(1080, 1920, max_long_edge=1280) == (720, 1280)
    assert fit_display(800, 600, max_long_edge=1280, max_pixels=1_000_000) == (800, 600)
    with pytest.raises(ValueError):
        fit_display(0, 10)
    with pytest.raises(ValueError):
        fit_display(10, 10, max_pixels=0)


def test_observation_requests_check_their_region() -> None:
    assert ObservationRequest("zoom", (0, 0, 1, 1)).region == (0, 0, 1, 1)
    for bad in [("zoom", None), ("zoom", (0, 0, 0, 5)), ("zoom", (0, 0, 5)), ("screenshot", (0, 0, 1, 1)), ("look", None)]:
        with pytest.raises(ActionError):
            ObservationRequest(*bad)


# -- display size and tool definition ---------------------------------------------------------


def test_display_size_and_tool_definition() -> None:
    assert openai_display_scale(1920, 1080).is_identity
    assert openai_display_scale(1920, 1080, max_long_edge=1280).display_size == (1280, 720)
    scale = openai_display_scale(1024, 768)
    assert openai_computer_tool(scale, environment="browser") == {
        "type": "computer_use_preview",
        "display_width": 1024,
        "display_height": 768,
        "environment": "browser",
    }
    with pytest.raises(ValueError):
        openai_computer_tool(scale, environment="android")  # type: ignore[arg-type]
