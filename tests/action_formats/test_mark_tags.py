"""Marks in OSWorld's pyautogui code: ``pyautogui.click(tag_12)`` is ``click(mark=12)`` and back;
a tag anywhere else is refused with what to write."""

from __future__ import annotations

import pytest

from gui_agent.action_formats.pyautogui import action_to_pyautogui, parse_pyautogui
from gui_agent.actions import Click, Move, Type
from gui_agent.errors import ActionParseError


@pytest.mark.parametrize(("code", "action"), [
    ("pyautogui.click(tag_12)", Click(mark=12)),
    ("pyautogui.doubleClick(tag_3)", Click(mark=3, count=2)),
    ("pyautogui.click(tag_2, button='right')", Click(mark=2, button="right")),
])
def test_a_tag_click_is_a_mark_click_and_writes_back_the_same(code: str, action: Click) -> None:
    assert parse_pyautogui(code) == [action]
    assert parse_pyautogui(action_to_pyautogui(action)) == [action]


def test_tags_mix_with_points_in_one_block() -> None:
    code = "pyautogui.moveTo(300, 20)\npyautogui.click(tag_4)\npyautogui.write('hi')"
    assert parse_pyautogui(code) == [Move(300, 20), Click(mark=4), Type("hi")]


@pytest.mark.parametrize(("code", "message"), [
    ("pyautogui.moveTo(tag_3)", "in a click only"),
    ("pyautogui.click(tag_3, 4)", "stands alone"),
    ("pyautogui.click(tag_0)", "is a variable"),
    ("pyautogui.click(target)", "is a variable"),
    ("pyautogui.click(tag_4)\npyautogui.click()", "pointer position is unknown"),
])
def test_a_tag_anywhere_else_is_refused(code: str, message: str) -> None:
    with pytest.raises(ActionParseError, match=message):
        parse_pyautogui(code)
