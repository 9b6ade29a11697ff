"""BrowserGym coordinate actions <-> canonical actions."""

from __future__ import annotations

import pytest

from gui_agent.action_formats.browsergym import (
    action_to_browsergym,
    actions_to_browsergym,
    key_from_playwright,
    key_to_playwright,
    parse_browsergym,
    split_playwright_keys,
)
from gui_agent.actions import PIXELS_PER_WHEEL_CLICK, Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError, ActionParseError

# The examples of BrowserGym's own action docstrings (browsergym/core/action/functions.py),
# which are what BrowserGym puts in agents' prompts, and multi-action strings built from them.
REAL_ACTIONS = [
    (
        'send_msg_to_user("Based on the results of my search, the city was built in 1751.")',
        [Done(answer="Based on the results of my search, the city was built in 1751.")],
    ),
    (
        'report_infeasible("I cannot follow these instructions because there is no email field in this form.")',
        [
            Done(
                success=False, answer="I cannot follow these instructions because there is no email field in this form."
            )
        ],
    ),
    ("noop()", [Wait(1.0)]),
    ("noop(500)", [Wait(0.5)]),
    ("noop(wait_ms=1000)", [Wait(1.0)]),
    ("mouse_move(65.2, 158.5)", [Move(65, 159)]),
    ("mouse_click(887.2, 68)", [Click(887, 68)]),
    ("mouse_click(56, 712.56, 'right')", [Click(56, 713, button="right")]),
    ("mouse_dblclick(5, 236)", [Click(5, 236, count=2)]),
    ("mouse_dblclick(87.5, 354, 'right')", [Click(88, 354, button="right", count=2)]),
    ("mouse_drag_and_drop(10.7, 325, 235.6, 24.54)", [Drag(11, 325, 236, 25)]),
    ("mouse_down(140.2, 580.1)\nmouse_up(250, 120)", [Drag(140, 580, 250, 120)]),
    ("mouse_down(458, 254.5, 'middle')\nmouse_up(458, 254.5, 'middle')", [Click(458, 255, button="middle")]),
    ("keyboard_press('Backspace')", [Hotkey(("backspace",))]),
    ("keyboard_press('Control+a')", [Hotkey(("ctrl", "a"))]),
    ("keyboard_press('Meta+Shift+t')", [Hotkey(("meta", "shift", "t"))]),
    ('page.keyboard.press("PageDown")', None),  # a docstring example that is not an action: refused
    ("keyboard_press('PageDown')", [Hotkey(("pagedown",))]),
    ("keyboard_down('Shift')\nkeyboard_press('ArrowDown')\nkeyboard_up('Shift')", [Hotkey(("shift", "down"))]),
    ("keyboard_down('Shift')\nkeyboard_up('Shift')", [Hotkey(("shift",))]),
    ("keyboard_type('Hello world!')", [Type("Hello world!")]),
    ("keyboard_insert_text('Hello world!')", [Type("Hello world!")]),
    ("mouse_move(100, 200)\nscroll(0, 200)", [Scroll(100, 200, dy=2)]),
    ("mouse_move(100, 200)\nscroll(-50.2, -100.5)", [Scroll(100, 200, dx=-1, dy=-1)]),
    (
        "mouse_click(300, 400)\nkeyboard_type('search terms')\nkeyboard_press('Enter')",
        [Click(300, 400), Type("search terms"), Hotkey(("enter",))],
    ),
    ("  mouse_click(1, 2)\n  mouse_click(3, 4)", [Click(1, 2), Click(3, 4)]),
]


@pytest.mark.parametrize(("code", "expected"), REAL_ACTIONS)
def test_real_actions(code: str, expected) -> None:
    if expected is None:
        with pytest.raises(ActionParseError):
            parse_browsergym(code)
    else:
        assert parse_browsergym(code) == expected


def test_scroll_is_at_the_pointer_in_pixels() -> None:
    assert parse_browsergym("scroll(0, 300)", pointer=(10, 20)) == [Scroll(10, 20, dy=3)]
    assert parse_browsergym("scroll(0, -100)", pointer=(10, 20)) == [Scroll(10, 20, dy=-1)]
    assert parse_browsergym("scroll(250, 0)", pointer=(10, 20)) == [Scroll(10, 20, dx=3)]  # 2.5 -> 3 (half away from 0)
    assert parse_browsergym("scroll(0, -149)", pointer=(10, 20)) == [Scroll(10, 20, dy=-1)]
    assert parse_browsergym("scroll(0, 30)", pointer=(10, 20)) == [Scroll(10, 20, dy=1)]  # never rounds to nothing
    # The pointer follows clicks too.
    assert parse_browsergym("mouse_click(5, 6)\nscroll(0, 100)") == [Click(5, 6), Scroll(5, 6, dy=1)]


@pytest.mark.parametrize("pixels", [1, 30, 49, 50, 99, 100, 149, 150, 151, 260, 999, 1000, 1234.5])
def test_scroll_pixel_rounding_error_is_at_most_half_a_click(pixels: float) -> None:
    for sign in (1, -1):
        (scroll,) = parse_browsergym(f"scroll(0, {sign * pixels})", pointer=(0, 0))
        assert scroll.dy * sign > 0
        error = abs(scroll.dy * PIXELS_PER_WHEEL_CLICK - sign * pixels)
        assert error <= PIXELS_PER_WHEEL_CLICK / 2 or abs(scroll.dy) == 1


def test_playwright_keys() -> None:
    assert split_playwright_keys("Control+Shift+t") == ["Control", "Shift", "t"]
    assert split_playwright_keys("Shift++") == ["Shift", "+"]
    assert split_playwright_keys("+") == ["+"]
    assert key_from_playwright("ArrowLeft") == "left"
    assert key_from_playwright("KeyA") == "a"
    assert key_from_playwright("Digit7") == "7"
    assert key_from_playwright("Escape") == "escape"
    assert key_from_playwright("ContextMenu") == "menu"
    assert key_from_playwright("Backquote") == "`"
    assert key_from_playwright("F11") == "f11"
    assert key_to_playwright("pagedown") == "PageDown"
    assert key_to_playwright("space") == "Space"
    assert key_to_playwright("q") == "q"
    assert parse_browsergym("keyboard_press('Control++')") == [Hotkey(("ctrl", "+"))]
    with pytest.raises(ActionError):
        key_from_playwright("NumpadAdd")


ROUND_TRIP = [
    Click(100, 200),
    Click(100, 200, button="right"),
    Click(100, 200, button="middle", count=2),
    Move(3, 4),
    Drag(10, 20, 300, 400),
    Drag(10, 20, 10, 20),
    Drag(10, 20, 300, 400, button="right"),
    Scroll(640, 360, dy=3),
    Scroll(640, 360, dx=-2, dy=1),
    Type("line one\nline 'two' \"quoted\""),
    Hotkey(("ctrl", "shift", "t")),
    Hotkey(("space",)),
    Hotkey(("up",)),
    Hotkey(("ctrl", "+")),
    Hotkey(("meta", "menu")),
    Hotkey(("f5",)),
    Wait(1.0),
    Wait(0.25),
    Wait(60),
    Done(),
    Done(answer="42"),
    Done(success=False, answer="no such field"),
    Done(success=False),
]


@pytest.mark.parametrize("action", ROUND_TRIP, ids=repr)
def test_round_trip_each_action(action) -> None:
    assert parse_browsergym(action_to_browsergym(action)) == [action]


def test_round_trip_a_sequence() -> None:
    actions = ROUND_TRIP[:-4] + [Done(answer="x")]
    assert parse_browsergym(actions_to_browsergym(actions)) == actions


def test_writes_browsergym_spelling() -> None:
    assert action_to_browsergym(Click(887, 68)) == "mouse_click(887, 68)"
    assert action_to_browsergym(Click(5, 236, button="right", count=2)) == "mouse_dblclick(5, 236, 'right')"
    assert action_to_browsergym(Scroll(1, 2, dy=-3)) == "mouse_move(1, 2)\nscroll(0, -300)"
    assert action_to_browsergym(Hotkey(("ctrl", "a"))) == "keyboard_press('Control+a')"
    assert action_to_browsergym(Wait(1.5)) == "noop(wait_ms=1500)"
    assert action_to_browsergym(Done(answer="1751")) == "send_msg_to_user('1751')"


@pytest.mark.parametrize("action", [Click(1, 2, count=3), Done(success=False, handoff=True)], ids=repr)
def test_unrepresentable_actions_raise(action) -> None:
    with pytest.raises(ActionError):
        action_to_browsergym(action)


BAD = [
    ("click('a51')", "bid"),
    ("fill('237', 'example value')", "bid"),
    ("goto('http://www.example.com')", "navigation"),
    ("new_tab()", "navigation"),
    ("scroll(0, 200)", "pointer"),
    ("scroll(0, 0)", "scrolls nothing"),
    ("mouse_click(887.2)", "missing a required argument"),
    ("mouse_click(1, 2, button='primary')", "button"),
    ("mouse_click(1, 2, 'left', 3)", "too many"),
    ("mouse_down(140.2, 580.1)", "still held"),
    ("keyboard_up('Shift')", "never pressed"),
    ("keyboard_down('Control+a')", "one key"),
    ("keyboard_press('AudioVolumeUp')", "invalid key"),
    ("keyboard_press('')", "key name"),
    ("keyboard_type('')", "non-empty"),
    ("noop(120000)", "wait"),
    ("mouse_click(-3, 4)", "negative"),
    ("mouse_click(x, 4)", "variable"),
    ("mouse_click(1, 2", "not valid Python"),
    ("send_msg_to_user('done')\nmouse_click(1, 2)", "after the episode"),
    ("x = mouse_click(1, 2)", "only function calls"),
    ("hover_at(1, 2)", "unknown BrowserGym action"),
    ("", "no action"),
]


@pytest.mark.parametrize(("code", "reason"), BAD)
def test_bad_actions_raise_with_raw(code: str, reason: str) -> None:
    with pytest.raises(ActionParseError) as info:
        parse_browsergym(code)
    assert info.value.raw == code
    assert reason in info.value.reason
