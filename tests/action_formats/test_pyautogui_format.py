"""pyautogui code (OSWorld) <-> canonical actions."""

from __future__ import annotations

import pytest

from gui_agent.action_formats.pyautogui import (
    OSWORLD_WAIT_SECONDS,
    action_to_pyautogui,
    key_from_pyautogui,
    key_to_pyautogui,
    parse_pyautogui,
)
from gui_agent.actions import Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError, ActionParseError

# Code as it appears in the wild. Sources: OSWorld's PythonController.execute_action (how it
# renders computer_13 actions as pyautogui), UI-TARS' parsing_response_to_pyautogui_code
# and its tests (codes/tests/action_parser_test.py), OSWorld's pyautogui agent prompt.
REAL_CODE = [
    ("pyautogui.click(100, 200)", [Click(100, 200)]),
    ("pyautogui.click(button='left', x=1000, y=300, clicks=2)", [Click(1000, 300, count=2)]),
    ("pyautogui.click(button='right', x=640, y=360)", [Click(640, 360, button="right")]),
    ("pyautogui.rightClick(x=300, y=400)", [Click(300, 400, button="right")]),
    ("pyautogui.doubleClick(x=85, y=214)", [Click(85, 214, count=2)]),
    ("pyautogui.moveTo(1319.11, 65.06, 0.73, pyautogui.easeInQuad)", [Move(1319, 65)]),
    (
        "pyautogui.moveTo(100, 100)\npyautogui.dragTo(400, 100, duration=1.0, button='left', mouseDownUp=True)",
        [Drag(100, 100, 400, 100)],
    ),
    ("pyautogui.typewrite('Hello World!')", [Type("Hello World!")]),
    ("pyautogui.hotkey('ctrl', 'alt', 't')", [Hotkey(("ctrl", "alt", "t"))]),
    ("pyautogui.press('enter')", [Hotkey(("enter",))]),
    # UI-TARS' generated code: header docstring, float coordinates, sleeps between actions.
    (
        "import pyautogui\nimport time\n'''\nObservation:\n\n\nThought:\nClick the search box\n'''\n"
        "\npyautogui.click(1157.0, 393.504, button='left')",
        [Click(1157, 394)],
    ),
    ("import pyautogui\nimport time\n\npyautogui.scroll(-5, x=960.0, y=540.0)", [Scroll(960, 540, dy=5)]),
    ("import pyautogui\nimport time\n\npyautogui.scroll(5, x=960.0, y=540.0)", [Scroll(960, 540, dy=-5)]),
    (
        "\npyautogui.moveTo(897.0, 1208.0)\n\npyautogui.dragTo(244.0, 1208.0, duration=1.0)\n",
        [Drag(897, 1208, 244, 1208)],
    ),
    ("\npyautogui.doubleClick(500.0, 300.0, button='left')", [Click(500, 300, count=2)]),
    ("\npyautogui.hotkey('ctrl', 'v')", [Hotkey(("ctrl", "v"))]),
    ("\npyautogui.keyDown('ctrl')\npyautogui.keyUp('ctrl')", [Hotkey(("ctrl",))]),
    (
        "import pyautogui\nimport time\n\nimport pyperclip\npyperclip.copy('hello world')\n"
        "pyautogui.hotkey('ctrl', 'v')\ntime.sleep(0.5)\n\npyautogui.press('enter')",
        [Type("hello world"), Wait(0.5), Hotkey(("enter",))],
    ),
    ("\npyautogui.write('hello', interval=0.1)\ntime.sleep(0.5)\n", [Type("hello"), Wait(0.5)]),
    (
        "pyautogui.click(960, 540)\ntime.sleep(0.5)\npyautogui.typewrite('cat /etc/hosts\\n', interval=0.05)",
        [Click(960, 540), Wait(0.5), Type("cat /etc/hosts\n")],
    ),
    ("WAIT", [Wait(OSWORLD_WAIT_SECONDS)]),
    ("DONE", [Done()]),
    ("FAIL", [Done(success=False)]),
    ("```WAIT```", [Wait(OSWORLD_WAIT_SECONDS)]),
    ("```python\nimport pyautogui\npyautogui.tripleClick(120, 45)\n```", [Click(120, 45, count=3)]),
    ("pyautogui.press(['down', 'down', 'enter'])", [Hotkey(("down",)), Hotkey(("down",)), Hotkey(("enter",))]),
    ("pyautogui.press('tab', presses=2)", [Hotkey(("tab",)), Hotkey(("tab",))]),
    ("pyautogui.typewrite(['a', 'left', '\\n'])", [Hotkey(("a",)), Hotkey(("left",)), Hotkey(("enter",))]),
    ("pyautogui.hotkey(['ctrl', 'shift', 'esc'])", [Hotkey(("ctrl", "shift", "escape"))]),
    (
        "pyautogui.keyDown('shift')\npyautogui.press('tab')\npyautogui.keyUp('shift')",
        [Hotkey(("shift", "tab"))],
    ),
    ("pyautogui.middleClick(10, 20)", [Click(10, 20, button="middle")]),
    ("pyautogui.click((33, 44))", [Click(33, 44)]),
    ("pyautogui.moveTo(10, 20)\npyautogui.moveTo(30, 40)", [Move(10, 20), Move(30, 40)]),
    ("pyautogui.moveTo(10, 20)\ntime.sleep(1)\npyautogui.click(10, 20)", [Move(10, 20), Wait(1), Click(10, 20)]),
    ("pyautogui.moveTo(500, 300)\npyautogui.scroll(-3)", [Scroll(500, 300, dy=3)]),
    ("pyautogui.moveTo(500, 300)\npyautogui.click()", [Click(500, 300)]),
    (
        "pyautogui.mouseDown(200, 300)\ntime.sleep(0.2)\npyautogui.moveTo(600, 300, duration=1)\npyautogui.mouseUp()",
        [Drag(200, 300, 600, 300)],
    ),
    (
        "pyautogui.mouseDown(200, 300, button='right')\npyautogui.mouseUp(button='right')",
        [Click(200, 300, button="right")],
    ),
]


@pytest.mark.parametrize(("code", "expected"), REAL_CODE)
def test_real_code_parses_to_expected_actions(code: str, expected: list) -> None:
    assert parse_pyautogui(code) == expected


def test_scroll_sign_convention() -> None:
    # pyautogui.scroll(+n) scrolls UP; canonical dy > 0 scrolls DOWN. hscroll(+n) scrolls right.
    assert parse_pyautogui("pyautogui.scroll(3, x=1, y=2)") == [Scroll(1, 2, dy=-3)]
    assert parse_pyautogui("pyautogui.vscroll(-2, x=1, y=2)") == [Scroll(1, 2, dy=2)]
    assert parse_pyautogui("pyautogui.hscroll(4, x=1, y=2)") == [Scroll(1, 2, dx=4)]
    assert action_to_pyautogui(Scroll(1, 2, dy=3)) == "pyautogui.scroll(-3, x=1, y=2)"
    assert action_to_pyautogui(Scroll(1, 2, dx=-2)) == "pyautogui.hscroll(-2, x=1, y=2)"


def test_pointer_argument_places_actions_without_coordinates() -> None:
    assert parse_pyautogui("pyautogui.scroll(-5)", pointer=(640, 360)) == [Scroll(640, 360, dy=5)]
    assert parse_pyautogui("pyautogui.click()", pointer=(5, 6)) == [Click(5, 6)]
    assert parse_pyautogui("pyautogui.dragTo(50, 60)", pointer=(5, 6)) == [Drag(5, 6, 50, 60)]
    assert parse_pyautogui("pyautogui.moveRel(10, -5)", pointer=(100, 100)) == [Move(110, 95)]
    assert parse_pyautogui("pyautogui.drag(30, 0, duration=0.5)", pointer=(100, 100)) == [Drag(100, 100, 130, 100)]
    # A move in the same code wins over the given pointer.
    assert parse_pyautogui("pyautogui.moveTo(1, 2)\npyautogui.scroll(1)", pointer=(9, 9)) == [Scroll(1, 2, dy=-1)]


def test_float_coordinates_round_half_up() -> None:
    assert parse_pyautogui("pyautogui.click(10.5, 20.49)") == [Click(11, 20)]
    assert parse_pyautogui("pyautogui.click(0.4, 0.5)") == [Click(0, 1)]


ROUND_TRIP = [
    Click(100, 200),
    Click(100, 200, count=2),
    Click(100, 200, count=3),
    Click(100, 200, button="right"),
    Click(100, 200, button="middle", count=2),
    Move(0, 0),
    Drag(10, 20, 300, 400),
    Drag(10, 20, 10, 20),
    Drag(10, 20, 30, 40, button="right"),
    Scroll(640, 360, dy=3),
    Scroll(640, 360, dy=-7),
    Scroll(640, 360, dx=2),
    Scroll(640, 360, dx=-1, dy=4),
    Type("hello world\n"),
    Type("quotes ' \" and \\ backslash\ttab"),
    Type("ünïcödé ✓"),
    Hotkey(("enter",)),
    Hotkey(("ctrl", "shift", "t")),
    Hotkey(("meta",)),
    Hotkey(("menu",)),
    Hotkey(("space",)),
    Hotkey(("/",)),
    Wait(OSWORLD_WAIT_SECONDS),
    Wait(0.5),
    Wait(1),
    Wait(60),
    Done(),
    Done(success=False),
]


@pytest.mark.parametrize("action", ROUND_TRIP, ids=repr)
def test_round_trip_each_action(action) -> None:
    assert parse_pyautogui(action_to_pyautogui(action)) == [action]


def test_round_trip_a_sequence_as_one_block() -> None:
    actions = [
        Click(5, 5),
        Move(7, 8),
        Drag(1, 2, 3, 4),
        Scroll(10, 10, dy=2),
        Type("a"),
        Scroll(10, 10, dy=-1),
        Hotkey(("ctrl", "a")),
        Wait(0.25),
        Scroll(20, 20, dx=1, dy=1),
        Click(1, 1, button="right"),
    ]
    code = "\n".join(action_to_pyautogui(a) for a in actions)
    assert parse_pyautogui(code) == actions


def test_orthogonal_scrolls_back_to_back_fold_into_one_diagonal_scroll() -> None:
    # pyautogui needs two calls for a diagonal scroll, so two back-to-back calls on different
    # axes at one point read as one scroll; two scrolls on the same axis stay two.
    code = "pyautogui.scroll(-3, x=5, y=5)\npyautogui.hscroll(2, x=5, y=5)"
    assert parse_pyautogui(code) == [Scroll(5, 5, dx=2, dy=3)]
    code = "pyautogui.scroll(-3, x=5, y=5)\npyautogui.scroll(-3, x=5, y=5)"
    assert parse_pyautogui(code) == [Scroll(5, 5, dy=3), Scroll(5, 5, dy=3)]


def test_handoff_becomes_fail_like_osworlds_call_user() -> None:
    assert action_to_pyautogui(Done(success=False, handoff=True)) == "FAIL"


def test_done_with_answer_cannot_be_written() -> None:
    with pytest.raises(ActionError):
        action_to_pyautogui(Done(answer="42"))


def test_key_names() -> None:
    assert key_from_pyautogui("ctrlleft") == "ctrl"
    assert key_from_pyautogui("win") == "meta"
    assert key_from_pyautogui("\n") == "enter"
    assert key_from_pyautogui("Return") == "enter"
    assert key_from_pyautogui("A") == "A"
    assert key_to_pyautogui("meta") == "win"
    assert key_to_pyautogui("menu") == "apps"
    with pytest.raises(ActionError):
        key_from_pyautogui("volumeup")


BAD_CODE = [
    ("x = 1", "only function calls"),
    ("import os\nos.system('ls')", "import not allowed"),
    ("pyautogui.click(x, y)", "variable"),
    ("pyautogui.click(100, 200", "not valid Python"),
    ("pyautogui.scroll(-5)", "pointer"),
    ("pyautogui.click()", "pointer"),
    ("pyautogui.mouseDown(10, 10)", "still held"),
    ("pyautogui.keyDown('shift')", "still held"),
    ("pyautogui.mouseUp(10, 10)", "never pressed"),
    ("pyautogui.keyUp('shift')", "never pressed"),
    ("pyautogui.locateCenterOnScreen('button.png')", "unsupported"),
    ("pyautogui.press('volumeup')", "invalid key"),
    ("pyautogui.click(-5, 10)", "negative"),
    ("pyautogui.click(100, 200, clicks=4)", "count"),
    ("pyautogui.click(100, 200, buton='left')", "buton"),
    ("pyautogui.click(100, 200, button='fourth')", "button"),
    ("pyautogui.click(100)", "both x and y"),
    ("time.sleep(120)", "wait"),
    ("pyperclip.copy('x')", "pyperclip"),
    ("pyperclip.copy('x')\npyautogui.press('enter')", "pyperclip"),
    ("", "empty"),
    ("pyautogui.keyDown('ctrl')\npyautogui.click(10, 20)\npyautogui.keyUp('ctrl')", "holding ctrl"),
    ("pyautogui.keyDown('shift')\npyautogui.write('abc')\npyautogui.keyUp('shift')", "holding shift"),
    ("pyautogui.scroll(0, x=1, y=1)", "scrolls nothing"),
    ("pyautogui.scroll(1.5, x=1, y=1)", "whole number"),
    ("pyautogui.write('')", "non-empty"),
    ("DONE\npyautogui.click(1, 2)", "only function calls"),
    ("for i in range(3):\n    pyautogui.press('down')", "only function calls"),
    ("pyautogui.click(**{'x': 1, 'y': 2})", "**arguments"),
    ("print('hello')", "unknown function"),
    ("subprocess.run(['ls'])", "unknown function"),
]


@pytest.mark.parametrize(("code", "reason"), BAD_CODE)
def test_bad_code_raises_with_raw(code: str, reason: str) -> None:
    with pytest.raises(ActionParseError) as info:
        parse_pyautogui(code)
    assert info.value.raw == code
    assert reason in info.value.reason
