"""OSWorld computer_13 action dicts <-> canonical actions."""

from __future__ import annotations

import json

import pytest

from gui_agent.action_formats.computer13 import (
    action_to_computer13,
    actions_to_computer13,
    key_to_computer13,
    parse_computer13,
)
from gui_agent.action_formats.pyautogui import OSWORLD_WAIT_SECONDS
from gui_agent.actions import Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError, ActionParseError

# Actions as agents return them. Sources: OSWorld desktop_env/actions.py (nested form),
# OSWorld-style prompts listing the flat form ({"action_type": "CLICK", "x": int, ...}),
# benchmark task lists using MOVE_TO + CLICK, a UI-TARS -> computer_13 adapter emitting
# MOVE_TO + DRAG_TO, and the bare strings OSWorld agents return.
REAL_ACTIONS = [
    (
        [
            {"action_type": "MOVE_TO", "parameters": {"x": 50, "y": 50}},
            {"action_type": "CLICK", "parameters": {"button": "left"}},
        ],
        [Click(50, 50)],
    ),
    ({"action_type": "TYPING", "parameters": {"text": "Hello NuwaClaw"}}, [Type("Hello NuwaClaw")]),
    ({"action_type": "PRESS", "parameters": {"key": "enter"}}, [Hotkey(("enter",))]),
    ({"action_type": "CLICK", "x": 960, "y": 540, "button": "left"}, [Click(960, 540)]),
    ({"action_type": "DOUBLE_CLICK", "x": 10, "y": 20}, [Click(10, 20, count=2)]),
    ({"action_type": "RIGHT_CLICK", "x": 10, "y": 20}, [Click(10, 20, button="right")]),
    ({"action_type": "TYPING", "text": "string"}, [Type("string")]),
    ({"action_type": "HOTKEY", "keys": ["ctrl", "s"]}, [Hotkey(("ctrl", "s"))]),
    ({"action_type": "MOVE_TO", "x": 1319.11, "y": 65.06}, [Move(1319, 65)]),
    (
        [{"action_type": "MOVE_TO", "x": 600, "y": 500}, {"action_type": "SCROLL", "dx": 0, "dy": -3}],
        [Scroll(600, 500, dy=3)],
    ),
    ([{"action_type": "MOVE_TO", "x": 600, "y": 500}, "DONE"], [Move(600, 500), Done()]),
    (
        [
            {"action_type": "MOVE_TO", "parameters": {"x": 10, "y": 20}},
            {"action_type": "DRAG_TO", "parameters": {"x": 30, "y": 40}},
        ],
        [Drag(10, 20, 30, 40)],
    ),
    (
        {"action_type": "CLICK", "parameters": {"button": "left", "x": 5, "y": 6, "num_clicks": 2}},
        [Click(5, 6, count=2)],
    ),
    ({"action_type": "CLICK", "parameters": {"button": "middle", "x": 5, "y": 6}}, [Click(5, 6, button="middle")]),
    ({"action_type": "PRESS", "parameters": {"key": " "}}, [Hotkey(("space",))]),
    ({"action_type": "HOTKEY", "parameters": {"keys": ["ctrl", "alt", "t"]}}, [Hotkey(("ctrl", "alt", "t"))]),
    (
        [
            {"action_type": "KEY_DOWN", "parameters": {"key": "ctrl"}},
            {"action_type": "PRESS", "parameters": {"key": "c"}},
            {"action_type": "KEY_UP", "parameters": {"key": "ctrl"}},
        ],
        [Hotkey(("ctrl", "c"))],
    ),
    (
        [
            {"action_type": "MOVE_TO", "parameters": {"x": 100, "y": 100}},
            {"action_type": "MOUSE_DOWN", "parameters": {"button": "left"}},
            {"action_type": "MOVE_TO", "parameters": {"x": 300, "y": 120}},
            {"action_type": "MOUSE_UP", "parameters": {"button": "left"}},
        ],
        [Drag(100, 100, 300, 120)],
    ),
    ("WAIT", [Wait(OSWORLD_WAIT_SECONDS)]),
    ({"action_type": "WAIT"}, [Wait(OSWORLD_WAIT_SECONDS)]),
    ({"action_type": "DONE"}, [Done()]),
    ({"action_type": "FAIL"}, [Done(success=False)]),
    ("FAIL", [Done(success=False)]),
]


@pytest.mark.parametrize(("actions", "expected"), REAL_ACTIONS)
def test_real_actions_parse_to_expected(actions, expected) -> None:
    assert parse_computer13(actions) == expected


def test_scroll_signs_follow_pyautogui() -> None:
    # dy > 0 scrolls up in computer_13 (pyautogui.vscroll), down is dy > 0 canonically.
    assert parse_computer13({"action_type": "SCROLL", "dx": 0, "dy": 2}, pointer=(1, 1)) == [Scroll(1, 1, dy=-2)]
    assert parse_computer13({"action_type": "SCROLL", "dx": 3, "dy": 0}, pointer=(1, 1)) == [Scroll(1, 1, dx=3)]
    assert parse_computer13({"action_type": "SCROLL", "dy": -1}, pointer=(1, 1)) == [Scroll(1, 1, dy=1)]
    assert action_to_computer13(Scroll(7, 8, dx=-1, dy=4)) == [
        {"action_type": "MOVE_TO", "parameters": {"x": 7, "y": 8}},
        {"action_type": "SCROLL", "parameters": {"dx": -1, "dy": -4}},
    ]


def test_click_without_position_uses_pointer() -> None:
    assert parse_computer13({"action_type": "CLICK"}, pointer=(3, 4)) == [Click(3, 4)]
    assert parse_computer13({"action_type": "RIGHT_CLICK"}, pointer=(3, 4)) == [Click(3, 4, button="right")]


ROUND_TRIP = [
    Click(100, 200),
    Click(100, 200, button="right", count=3),
    Click(0, 0, button="middle"),
    Move(50, 60),
    Drag(10, 20, 300, 400),
    Drag(10, 20, 300, 400, button="right"),
    Drag(10, 20, 10, 20),
    Scroll(640, 360, dy=3),
    Scroll(640, 360, dx=-2, dy=-1),
    Type("hello 'world'\n"),
    Hotkey(("enter",)),
    Hotkey(("space",)),
    Hotkey(("ctrl", "meta", "t")),
    Hotkey(("menu",)),
    Wait(OSWORLD_WAIT_SECONDS),
    Done(),
    Done(success=False),
]


@pytest.mark.parametrize("action", ROUND_TRIP, ids=repr)
def test_round_trip_each_action(action) -> None:
    assert parse_computer13(action_to_computer13(action)) == [action]


def test_round_trip_a_sequence() -> None:
    actions = ROUND_TRIP[:-2] + [Move(1, 1), Scroll(1, 1, dy=1), Move(2, 2), Done()]
    items = actions_to_computer13(actions)
    assert parse_computer13(json.loads(json.dumps(items))) == actions


def test_space_key_is_written_as_osworld_spells_it() -> None:
    assert key_to_computer13("space") == " "
    assert key_to_computer13("meta") == "win"
    assert action_to_computer13(Hotkey(("space",))) == [{"action_type": "PRESS", "parameters": {"key": " "}}]


@pytest.mark.parametrize("action", [Wait(1.0), Wait(5), Done(answer="42")], ids=repr)
def test_unrepresentable_actions_raise(action) -> None:
    with pytest.raises(ActionError):
        action_to_computer13(action)


BAD = [
    ({"action_type": "MOUSE_MOVE", "x": 1319.11, "y": 65.06}, "unknown action_type"),
    ({"action_type": "CLICK", "click_type": "LEFT"}, "unknown ['click_type']"),
    ({"action_type": "KEY", "key": "ctrl+c"}, "unknown action_type"),
    ({"action_type": "CLICK", "x": 5}, "x and y together"),
    ({"action_type": "SCROLL", "dx": 0, "dy": -3}, "pointer"),
    ({"action_type": "SCROLL", "dx": 0, "dy": 0}, "scrolls nothing"),
    ({"action_type": "SCROLL", "dy": 1.5}, "whole number"),
    ({"action_type": "SCROLL"}, "needs dx or dy"),
    ([{"action_type": "MOVE_TO", "x": 1, "y": 1}, {"action_type": "MOUSE_DOWN"}], "still held"),
    ({"action_type": "MOUSE_UP"}, "never pressed"),
    ({"action_type": "TYPING"}, "missing ['text']"),
    ({"action_type": "TYPING", "text": 5}, "must be a string"),
    ({"action_type": "PRESS", "key": "volumeup"}, "invalid key"),
    ({"action_type": "HOTKEY", "keys": "ctrl+c"}, "non-empty list"),
    ({"action_type": "CLICK", "x": 1, "y": 2, "button": "LEFT"}, "button"),
    ({"action_type": "CLICK", "x": 1, "y": 2, "num_clicks": 5}, "count"),
    ({"action_type": "CLICK", "x": -1, "y": 2}, "negative"),
    ({"action_type": "CLICK", "x": "10", "y": 2}, "must be a number"),
    ("STOP", "unknown action string"),
    ({"x": 1, "y": 2}, "action_type"),
    ([{"action_type": "DONE"}, {"action_type": "CLICK", "x": 1, "y": 2}], "after the episode"),
    ({"action_type": "CLICK", "parameters": {"x": 1, "y": 2}, "x": 3}, "only other field"),
    ([], "no action"),
]


@pytest.mark.parametrize(("actions", "reason"), BAD)
def test_bad_actions_raise_with_raw(actions, reason: str) -> None:
    with pytest.raises(ActionParseError) as info:
        parse_computer13(actions)
    expected_raw = actions if isinstance(actions, str) else json.dumps(actions, ensure_ascii=False)
    assert info.value.raw == expected_raw
    assert reason in info.value.reason
