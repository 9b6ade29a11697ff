"""OpenCUA replies (## Thought / ## Action / pyautogui code, smart_resize pixels) <-> canonical actions."""

from __future__ import annotations

import hashlib
import itertools
import math

import pytest

from gui_agent.action_formats import (
    OpenCUAReply,
    format_opencua,
    opencua_frame,
    opencua_instruction,
    opencua_system_prompt,
    parse_opencua,
)
from gui_agent.action_formats.opencua import GROUNDING_SYSTEM_PROMPT
from gui_agent.actions import Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError, ActionParseError

FHD = dict(screen_width=1920, screen_height=1080)  # qwen25 frame: 1932x1092
WXGA = dict(screen_width=1280, screen_height=800)  # qwen25 frame: 1288x812


def fhd(mx: float, my: float) -> tuple[int, int]:
    """An OpenCUA-7B/32B point on a 1920x1080 screen (frame 1932x1092), rounded half up."""
    return math.floor(mx * 1920 / 1932 + 0.5), math.floor(my * 1080 / 1092 + 0.5)


def code(body: str, thought: str | None = None) -> str:
    head = "" if thought is None else f"## Thought:\n{thought}\n\n## Action:\nDo it.\n\n"
    return f"{head}## Code:\n```python\n{body}\n```"


# -- frames and prompts ------------------------------------------------------------------------------


def test_frames() -> None:
    assert opencua_frame(**FHD) == (1932, 1092)
    assert opencua_frame(**WXGA) == (1288, 812)
    assert opencua_frame(coordinates="relative", **FHD) == (1, 1)
    assert opencua_frame(coordinates="absolute", **WXGA) == (1280, 800)
    with pytest.raises(ValueError):
        opencua_frame(coordinates="relative1000", **FHD)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        opencua_frame(screen_width=0, screen_height=10)


# sha256 of OpenCUA's L1/L2/L3_SYSTEM_PROMPTS (xlang-ai/OpenCUA evaluation/agentnetbench/agent/opencua.py,
# trailing whitespace stripped), checked character for character when this was written.
PROMPT_SHA256 = {
    "l1": "e6b5db753395aa1d0694fcde74f6530facb07f62075a4b7361741ad5ff745143",
    "l2": "2df3ec939b1f95c9f0eae31639cd48685c751ca6d62a5c498587a2c459261031",
    "l3": "1680229d769fcb65cb964c49cb2baf9d435ee8d2a53a08adfed3b9b5a3150579",
}


@pytest.mark.parametrize("level", ["l1", "l2", "l3"])
def test_system_prompts_are_opencuas(level: str) -> None:
    prompt = opencua_system_prompt(level)  # type: ignore[arg-type]
    assert hashlib.sha256(prompt.encode()).hexdigest() == PROMPT_SHA256[level]
    assert prompt.startswith(GROUNDING_SYSTEM_PROMPT + "\n\nFor each step, provide your response in this format:\n\n")
    assert ("\nObservation:\n" in prompt) == (level == "l3")
    assert ("\nThought:\n" in prompt) == (level != "l1")
    assert '"name": "computer.triple_click"' in prompt and '"name": "computer.terminate"' in prompt
    assert prompt.endswith('"required": ["status"]}}')


def test_prompt_options() -> None:
    assert opencua_system_prompt() == opencua_system_prompt("l2")
    with_password = opencua_system_prompt("l2", password="osworld-public-evaluation")
    assert with_password.startswith(
        GROUNDING_SYSTEM_PROMPT + ' The password of the computer is "osworld-public-evaluation". If the task is '
        "not possible to do, output the action computer.terminate(status='failure').\n\n"
    )
    with pytest.raises(ValueError):
        opencua_system_prompt("l4")  # type: ignore[arg-type]
    assert opencua_instruction("Open the file.") == (
        "# Task Instruction:\nOpen the file.\n\nPlease generate the next move according to the screenshot, "
        "task instruction and previous steps (if provided).\n"
    )


# -- replies as the models write them ----------------------------------------------------------------------

L2_REPLY = (
    "## Thought:\nThe Save dialog is open. I need to type the file name into the name field, which already "
    "has focus.\n\n## Action:\nType \"report.txt\" into the file name field.\n\n"
    "## Code:\n```python\npyautogui.write(message='report.txt')\n```"
)
L3_REPLY = (
    "# Step 2:\n## Observation:\nA browser with a search page.\n\n## Thought:\nClick the search box first.\n\n"
    "## Action:\nClick the search box.\n\n## Code:\n```python\npyautogui.click(x=966, y=140)\n```<|im_end|>"
)
REAL_REPLIES = [
    # model/README.md's grounding examples: only the code block
    ("```python\npyautogui.click(x=1443, y=343)\n```", None, None, [Click(*fhd(1443, 343))]),
    ("```python\npyautogui.click(x=960, y=324)\n```", None, None, [Click(*fhd(960, 324))]),
    (L2_REPLY, "The Save dialog is open. I need to type the file name into the name field, which already has focus.",
     'Type "report.txt" into the file name field.', [Type("report.txt")]),
    (L3_REPLY, "Click the search box first.", "Click the search box.", [Click(*fhd(966, 140))]),
    # L1 (action only), computer.* functions in a ```code block
    ("## Action:\nThe task is done.\n\n## Code:\n```code\ncomputer.terminate(status='success')\n```",
     None, "The task is done.", [Done()]),
    ("## Action:\nIt cannot be done.\n\n## Code:\n```code\ncomputer.terminate(status=\"failure\")\n```",
     None, "It cannot be done.", [Done(success=False)]),
    ("```code\ncomputer.terminate(status='fail')\n```", None, None, [Done(success=False)]),
    ("```code\ncomputer.terminate(status='success', answer='''42 files''')\n```", None, None, [Done(answer="42 files")]),
    ("```code\ncomputer.wait()\n```", None, None, [Wait(2.0)]),
    ("```python\ncomputer.triple_click(x=966, y=546)\n```", None, None, [Click(960, 540, count=3)]),
    # AgentNet's own code style (hotkey(keys=[...]), press(keys=[...]), write(message=...), moveTo + scroll)
    (code("pyautogui.hotkey(keys=['ctrl', 'c'])"), None, None, [Hotkey(("ctrl", "c"))]),
    (code("pyautogui.press(keys=['enter'])"), None, None, [Hotkey(("enter",))]),
    (code("pyautogui.moveTo(x=966, y=546)\npyautogui.scroll(-5)"), None, None, [Scroll(960, 540, dy=5)]),
    (code("pyautogui.moveTo(x=100, y=100)\npyautogui.dragTo(x=966, y=546, button='left')"), None, None,
     [Drag(*fhd(100, 100), 960, 540)]),
    (code("pyautogui.click(966, 546, button='right')"), None, None, [Click(960, 540, button="right")]),
    (code("pyautogui.doubleClick(x=966, y=546)"), None, None, [Click(960, 540, count=2)]),
    (code("pyautogui.click(x=966, y=546)\npyautogui.write(message='hi')\npyautogui.press('enter')"), None, None,
     [Click(960, 540), Type("hi"), Hotkey(("enter",))]),
    (code("pyautogui.click(x=966, y=546)\ncomputer.terminate(status='success')"), None, None,
     [Click(960, 540), Done()]),
    (code("import pyautogui\npyautogui.scroll(3, x=966, y=546)"), None, None, [Scroll(960, 540, dy=-3)]),
    (code("import pyautogui\ncomputer.terminate(status='success')"), None, None, [Done()]),
    # no fence: the Code section, else the pyautogui lines
    ("## Thought:\nGo.\n\n## Action:\nClick.\n\n## Code:\npyautogui.click(x=966, y=546)", "Go.", "Click.",
     [Click(960, 540)]),
    ("I will click OK.\npyautogui.click(x=966, y=546)", None, None, [Click(960, 540)]),
    ("```python\nWAIT\n```", None, None, [Wait(2.0)]),
]


@pytest.mark.parametrize(("text", "thought", "instruction", "expected"), REAL_REPLIES)
def test_real_replies(text: str, thought, instruction, expected) -> None:
    reply = parse_opencua(text, **FHD)
    assert reply.actions == tuple(expected)
    assert reply.thought == thought and reply.instruction == instruction and reply.raw == text


def test_reply_sections() -> None:
    reply = parse_opencua(L3_REPLY, **FHD)
    assert reply == OpenCUAReply(
        thought="Click the search box first.", actions=(Click(*fhd(966, 140)),), raw=L3_REPLY,
        observation="A browser with a search page.", instruction="Click the search box.",
        code="pyautogui.click(x=966, y=140)",
    )


def test_agentnet_relative_trajectory() -> None:
    # evaluation/agentnetbench/sample_data: AgentNet steps in 0..1 coordinates (OpenCUA-Qwen2-7B's frame)
    text = code(
        "pyautogui.moveTo(x=0.328, y=0.4697)\npyautogui.dragTo(x=0.5025, y=0.6039, button='left')\n"
        "pyautogui.hotkey(keys=['ctrl', 'c'])\npyautogui.click(x=0.7007, y=0.9438)"
    )
    assert parse_opencua(text, coordinates="relative", **FHD).actions == (
        Drag(630, 507, 965, 652), Hotkey(("ctrl", "c")), Click(1345, 1019),
    )
    with pytest.raises(ActionParseError, match="outside"):
        parse_opencua(code("pyautogui.click(x=328, y=0.5)"), coordinates="relative", **FHD)


def test_coordinates_on_two_screens() -> None:
    assert parse_opencua(code("pyautogui.click(x=644, y=406)"), **WXGA).actions == (Click(640, 400),)
    assert parse_opencua(code("pyautogui.click(x=1288, y=812)"), **WXGA).actions == (Click(1279, 799),)
    assert parse_opencua(code("pyautogui.click(x=1932, y=1092)"), **FHD).actions == (Click(1919, 1079),)
    assert parse_opencua(code("pyautogui.click(x=0.5, y=0.5)"), **FHD).actions == (Click(0, 0),)  # a pixel, no guess
    assert parse_opencua(code("pyautogui.click(x=0.5, y=0.5)"), coordinates="relative", **WXGA).actions == (
        Click(640, 400),
    )
    assert parse_opencua(code("pyautogui.click(x=640, y=400)"), coordinates="absolute", **WXGA).actions == (
        Click(640, 400),
    )
    assert parse_opencua(code("pyautogui.click((966, 546))"), **FHD).actions == (Click(960, 540),)
    # a relative move scales as a length
    assert parse_opencua(code("pyautogui.moveRel(193.2, 109.2)"), pointer=(10, 10), **FHD).actions == (
        Move(202, 118),
    )


# -- every action, both ways -------------------------------------------------------------------------------

# (action, code for qwen25 on 1920x1080, qwen25 on 1280x800, relative on 1920x1080)
TABLE = [
    (Click(640, 400), "pyautogui.click(x=644, y=404)", "pyautogui.click(x=644, y=406)",
     "pyautogui.click(x=0.3333, y=0.3704)"),
    (Click(0, 0, button="right"), "pyautogui.rightClick(x=0, y=0)", "pyautogui.rightClick(x=0, y=0)",
     "pyautogui.rightClick(x=0.0, y=0.0)"),
    (Click(1279, 799, button="middle"), "pyautogui.middleClick(x=1287, y=808)", "pyautogui.middleClick(x=1287, y=811)",
     "pyautogui.middleClick(x=0.6661, y=0.7398)"),
    (Click(320, 200, count=2), "pyautogui.doubleClick(x=322, y=202)", "pyautogui.doubleClick(x=322, y=203)",
     "pyautogui.doubleClick(x=0.1667, y=0.1852)"),
    (Click(640, 400, count=3), "computer.triple_click(x=644, y=404)", "computer.triple_click(x=644, y=406)",
     "computer.triple_click(x=0.3333, y=0.3704)"),
    (Click(5, 6, button="right", count=2), "pyautogui.click(x=5, y=6, clicks=2, button='right')",
     "pyautogui.click(x=5, y=6, clicks=2, button='right')",
     "pyautogui.click(x=0.0026, y=0.0056, clicks=2, button='right')"),
    (Move(100, 50), "pyautogui.moveTo(x=101, y=51)", "pyautogui.moveTo(x=101, y=51)",
     "pyautogui.moveTo(x=0.0521, y=0.0463)"),
    (Drag(100, 100, 600, 400), "pyautogui.moveTo(x=101, y=101)\npyautogui.dragTo(x=604, y=404, button='left')",
     "pyautogui.moveTo(x=101, y=102)\npyautogui.dragTo(x=604, y=406, button='left')",
     "pyautogui.moveTo(x=0.0521, y=0.0926)\npyautogui.dragTo(x=0.3125, y=0.3704, button='left')"),
    (Drag(10, 10, 20, 20, button="right"), "pyautogui.moveTo(x=10, y=10)\npyautogui.dragTo(x=20, y=20, button='right')",
     None, None),
    (Scroll(640, 400, dy=5), "pyautogui.moveTo(x=644, y=404)\npyautogui.scroll(-5)",
     "pyautogui.moveTo(x=644, y=406)\npyautogui.scroll(-5)", "pyautogui.moveTo(x=0.3333, y=0.3704)\npyautogui.scroll(-5)"),
    (Scroll(640, 400, dy=-3), "pyautogui.moveTo(x=644, y=404)\npyautogui.scroll(3)",
     "pyautogui.moveTo(x=644, y=406)\npyautogui.scroll(3)", "pyautogui.moveTo(x=0.3333, y=0.3704)\npyautogui.scroll(3)"),
    (Scroll(640, 400, dx=2), "pyautogui.moveTo(x=644, y=404)\npyautogui.hscroll(2)",
     "pyautogui.moveTo(x=644, y=406)\npyautogui.hscroll(2)", "pyautogui.moveTo(x=0.3333, y=0.3704)\npyautogui.hscroll(2)"),
    (Scroll(640, 400, dx=-1, dy=2), "pyautogui.moveTo(x=644, y=404)\npyautogui.scroll(-2)\npyautogui.hscroll(-1)",
     "pyautogui.moveTo(x=644, y=406)\npyautogui.scroll(-2)\npyautogui.hscroll(-1)",
     "pyautogui.moveTo(x=0.3333, y=0.3704)\npyautogui.scroll(-2)\npyautogui.hscroll(-1)"),
    (Type("hello world\n"), *["pyautogui.write(message='hello world\\n')"] * 3),
    (Type('it\'s "q" 中文'), *["pyautogui.write(message='it\\'s \"q\" 中文')"] * 3),
    (Hotkey(("ctrl", "c")), *["pyautogui.hotkey(keys=['ctrl', 'c'])"] * 3),
    (Hotkey(("enter",)), *["pyautogui.press(keys=['enter'])"] * 3),
    (Hotkey(("meta",)), *["pyautogui.press(keys=['win'])"] * 3),
    (Wait(2.0), *["computer.wait()"] * 3),
    (Wait(0.5), *["time.sleep(0.5)"] * 3),
    (Done(), *["computer.terminate(status='success')"] * 3),
    (Done(success=False), *["computer.terminate(status='failure')"] * 3),
    (Done(answer="42"), *["computer.terminate(status='success', answer='42')"] * 3),
]
SETTINGS = [("qwen25", FHD), ("qwen25", WXGA), ("relative", FHD)]
CASES = [
    pytest.param(row[0], coordinates, screen, row[1 + i], id=f"{row[0]!r}-{coordinates}-{screen['screen_width']}")
    for row in TABLE
    for i, (coordinates, screen) in enumerate(SETTINGS)
    if row[1 + i] is not None
]


@pytest.mark.parametrize(("action", "coordinates", "screen", "expected"), CASES)
def test_every_action_both_ways(action, coordinates: str, screen: dict, expected: str) -> None:
    text = format_opencua([action], "Why.", instruction="Act.", coordinates=coordinates, **screen)
    fence = "code" if expected.startswith("computer.") else "python"
    assert text == f"## Thought:\nWhy.\n\n## Action:\nAct.\n\n## Code:\n```{fence}\n{expected}\n```"
    reply = parse_opencua(text, coordinates=coordinates, **screen)
    assert reply.actions == (action,) and reply.thought == "Why." and reply.instruction == "Act."
    assert reply.code == expected


def grid(width: int, height: int) -> list[tuple[int, int]]:
    xs = sorted({0, 1, width // 3, width // 2, width - 2, width - 1, *range(0, width, 37)})
    ys = sorted({0, 1, height // 3, height // 2, height - 2, height - 1, *range(0, height, 41)})
    return list(zip(xs, itertools.cycle(ys)))


@pytest.mark.parametrize("coordinates", ["qwen25", "relative", "absolute"])
@pytest.mark.parametrize("screen", [FHD, WXGA, dict(screen_width=3840, screen_height=2160)], ids=lambda s: str(s))
def test_round_trip_exact(coordinates: str, screen: dict) -> None:
    for x, y in grid(screen["screen_width"], screen["screen_height"]):
        for action in (Click(x, y), Move(x, y), Scroll(x, y, dy=-2), Click(x, y, count=3)):
            text = format_opencua([action], coordinates=coordinates, **screen)
            assert parse_opencua(text, coordinates=coordinates, **screen).actions == (action,)


def test_round_trip_several_actions_and_sections() -> None:
    actions = [
        Click(1, 2), Move(3, 4), Drag(5, 6, 700, 800), Scroll(9, 10, dx=1, dy=-1), Type("x\ny"),
        Hotkey(("ctrl", "shift", "s")), Wait(2.0), Wait(7), Click(99, 98, count=3), Done(success=False, answer="no"),
    ]
    text = format_opencua(actions, "Think.", instruction="Do.", observation="See.", **FHD)
    assert text.startswith("## Observation:\nSee.\n\n## Thought:\nThink.\n\n## Action:\nDo.\n\n## Code:\n```python\n")
    assert parse_opencua(text, **FHD) == OpenCUAReply(
        thought="Think.", actions=tuple(actions), raw=text, observation="See.", instruction="Do.",
        code=text.split("```python\n")[1].removesuffix("\n```"),
    )
    assert format_opencua([Click(960, 540)], **FHD) == "## Code:\n```python\npyautogui.click(x=966, y=546)\n```"


# -- errors ------------------------------------------------------------------------------------------------

BAD_REPLIES = [
    ("## Thought:\nI will click the button.", "no code"),
    (code("pyautogui.click(x=966, y="), "not valid Python"),
    (code("pyautogui.click(x=1933, y=10)"), "outside"),
    (code("pyautogui.click(x=-1, y=10)"), "outside"),
    (code("computer.triple_click(x=2000, y=10)"), "outside"),
    (code("computer.open_app(name='Chrome')"), "unknown OpenCUA function"),
    (code("browser.select_option(x=1, y=2)"), "unknown function"),
    (code("computer.terminate(status='maybe')"), "status must be"),
    (code("computer.terminate()"), "missing"),
    (code("computer.terminate(status='success', answer=5)"), "answer must be a string"),
    (code("computer.wait(5)"), "too many"),
    (code("computer.triple_click(x='a', y=2)"), "numeric x and y"),
    (code("computer.terminate(status='success')\npyautogui.click(x=1, y=2)"), "after computer.terminate"),
    (code("computer.terminate(status='success')\ncomputer.wait()"), "after computer.terminate"),
    (code("pyautogui.scroll(-3)"), "pointer"),
    (code("pyautogui.keyDown('shift')"), "still held"),
    (code("pyautogui.click(x=foo, y=2)"), "variable"),
    (code("x = 5"), "only function calls"),
    (code("import pyautogui"), "no action"),
    (code("import os\ncomputer.wait()"), "import not allowed"),
    (42, "must be a string"),
]


@pytest.mark.parametrize(("text", "reason"), BAD_REPLIES)
def test_bad_replies_raise_with_raw(text, reason: str) -> None:
    with pytest.raises(ActionParseError) as info:
        parse_opencua(text, **FHD)
    assert reason in info.value.reason
    assert info.value.raw == (text if isinstance(text, str) else repr(text))


def test_writer_refusals() -> None:
    with pytest.raises(ActionError):
        format_opencua([], **FHD)
    with pytest.raises(ActionError):
        format_opencua([Done(success=False, handoff=True)], **FHD)
    with pytest.raises(ActionError):
        format_opencua([Done()], "see ```code```", **FHD)
    with pytest.raises(ActionError):
        format_opencua([Done()], "first\n## Code:\nsecond", **FHD)
    with pytest.raises(ActionError):
        format_opencua([Click(1920, 5)], **FHD)
