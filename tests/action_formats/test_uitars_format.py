"""UI-TARS replies (v1 relative, 1.5 smart_resize absolute) <-> canonical actions."""

from __future__ import annotations

import itertools
import math

import pytest

from gui_agent.action_formats.uitars import (
    SCROLL_CLICKS,
    WAIT_SECONDS,
    UITarsReply,
    coordinate_frame,
    format_uitars,
    parse_uitars,
)
from gui_agent.actions import Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError, ActionParseError

FHD = dict(screen_width=1920, screen_height=1080)
# 1920x1080 -> smart_resize -> 1932x1092 (see test_smart_resize_known_values).


def v15(mx: float, my: float) -> tuple[int, int]:
    """Where a 1.5 model point lands on a 1920x1080 screen (round half up)."""
    return math.floor(mx * 1920 / 1932 + 0.5), math.floor(my * 1080 / 1092 + 0.5)


# Replies as the models write them. Sources: bytedance/UI-TARS README_coordinates.md and
# codes/tests/action_parser_test.py; UI-TARS issues #131 (1.5 loop log), #183 (1.5 grounding
# output), #718 (vLLM output), #78 (malformed box); the COMPUTER_USE_DOUBAO prompt
# (codes/ui_tars/prompt.py); OSWorld's uitars_agent prompts (v1 box tokens, call_user);
# the reflection and Action_Summary prompt forms.
REAL_REPLIES = [
    ("Thought: xxx\nAction: click(start_box='(197,525)')", "1.5", "xxx", [Click(*v15(197, 525))]),
    ("Thought: test\nAction: click(point='<point>200 300</point>')", "1.5", "test", [Click(*v15(200, 300))]),
    (
        "Thought: test\nAction: click(start_box='<|box_start|>(112,224)<|box_end|>')",
        "1.5",
        "test",
        [Click(*v15(112, 224))],
    ),
    (
        "Thought: I see a search button at the top of the page, it's the magnifying glass icon in the upper "
        "right corner. To find information about Apple Pencil, I need to click this search button to open "
        "the search box.\nAction: click(start_box='(1099,64)')",
        "1.5",
        "I see a search button at the top of the page, it's the magnifying glass icon in the upper right corner. "
        "To find information about Apple Pencil, I need to click this search button to open the search box.",
        [Click(1092, 63)],
    ),
    ("Action: click(start_box='<|box_start|>(1327,864)<|box_end|>')", "1.5", None, [Click(*v15(1327, 864))]),
    ("Action: click(start_box='(660,1059)')", "1.5", None, [Click(*v15(660, 1059))]),
    (
        "Thought: The search box is in the middle.\nAction: click(start_box='<|box_start|>(500,500)<|box_end|>')",
        "v1",
        "The search box is in the middle.",
        [Click(960, 540)],
    ),
    ("Action: left_double(start_box='<|box_start|>(100,200)<|box_end|>')", "v1", None, [Click(192, 216, count=2)]),
    ("Action: right_single(start_box='[100, 200, 300, 400]')", "v1", None, [Click(384, 324, button="right")]),
    (
        "Thought: Drag the file to the folder.\nAction: drag(start_box='<|box_start|>(100,200)<|box_end|>', "
        "end_box='<|box_start|>(300,400)<|box_end|>')",
        "v1",
        "Drag the file to the folder.",
        [Drag(192, 216, 576, 432)],
    ),
    (
        "Thought: Drag.\nAction: drag(start_point='<point>100 200</point>', end_point='<point>300 400</point>')",
        "1.5",
        "Drag.",
        [Drag(*v15(100, 200), *v15(300, 400))],
    ),
    ("Thought: Copy it.\nAction: hotkey(key='ctrl c')", "1.5", "Copy it.", [Hotkey(("ctrl", "c"))]),
    ("Action: hotkey(key='arrowdown')", "v1", None, [Hotkey(("down",))]),
    ("Action: hotkey(hotkey='ctrl v')", "v1", None, [Hotkey(("ctrl", "v"))]),
    ("Action: press(key='enter')", "v1", None, [Hotkey(("enter",))]),
    ("Action: keydown(key='shift')\n\nhotkey(key='tab')\n\nkeyup(key='shift')", "v1", None, [Hotkey(("shift", "tab"))]),
    (
        "Thought: Type the query.\nAction: type(content='UI-TARS paper\\n')",
        "v1",
        "Type the query.",
        [Type("UI-TARS paper\n")],
    ),
    ("Action: type(content='It\\'s a \\\"test\\\"')", "v1", None, [Type('It\'s a "test"')]),
    ("Action: type(content='line one\nline two')", "v1", None, [Type("line one\nline two")]),  # raw newline
    (
        "Thought: Scroll to see more.\nAction: scroll(start_box='<|box_start|>(500,500)<|box_end|>', direction='down')",
        "v1",
        "Scroll to see more.",
        [Scroll(960, 540, dy=SCROLL_CLICKS)],
    ),
    (
        "Action: scroll(point='<point>966 546</point>', direction='up')",
        "1.5",
        None,
        [Scroll(*v15(966, 546), dy=-SCROLL_CLICKS)],
    ),
    ("Action: scroll(start_box='(500,500)', direction='left')", "v1", None, [Scroll(960, 540, dx=-SCROLL_CLICKS)]),
    ("Thought: The page is loading.\nAction: wait()", "v1", "The page is loading.", [Wait(WAIT_SECONDS)]),
    (
        "Thought: Done.\nAction: finished(content='The answer is 42.')",
        "1.5",
        "Done.",
        [Done(answer="The answer is 42.")],
    ),
    ("Action: finished()", "v1", None, [Done()]),
    (
        "Thought: I need the password.\nAction: call_user()",
        "v1",
        "I need the password.",
        [Done(success=False, handoff=True)],
    ),
    (
        "Action_Summary: 点击搜索框\nAction: click(start_box='<bbox>100 200 300 400</bbox>')",
        "v1",
        "点击搜索框",
        [Click(384, 324)],
    ),
    (
        "Thought: Open the menu, then choose Save.\nAction: click(start_box='(10,20)')\n\nclick(start_box='(30,40)')",
        "v1",
        "Open the menu, then choose Save.",
        [Click(19, 22), Click(58, 43)],
    ),
    (
        "Thought: Two actions.\nAction: click(start_box='(10,20)')\nhover(start_box='(30,40)')",
        "v1",
        "Two actions.",
        [Click(19, 22), Move(58, 43)],
    ),
    ("Thought: Done\nAction: finished(content='ok')[EOS]", "v1", "Done", [Done(answer="ok")]),
]


@pytest.mark.parametrize(("text", "version", "thought", "expected"), REAL_REPLIES)
def test_real_replies(text: str, version: str, thought, expected) -> None:
    reply = parse_uitars(text, version=version, **FHD)
    assert reply == UITarsReply(thought=thought, actions=tuple(expected), raw=text)


def test_reflection_form() -> None:
    text = (
        "Reflection: The click missed the button.\nAction_Summary: Click the Save button instead.\n"
        "Action: click(start_box='<|box_start|>(900,40)<|box_end|>')"
    )
    reply = parse_uitars(text, version="v1", **FHD)
    assert reply.reflection == "The click missed the button."
    assert reply.thought == "Click the Save button instead."
    assert reply.actions == (Click(1728, 43),)


def test_scroll_without_coordinates_needs_the_pointer() -> None:
    text = "Action: scroll(direction='down')"
    assert parse_uitars(text, version="v1", pointer=(5, 6), **FHD).actions == (Scroll(5, 6, dy=SCROLL_CLICKS),)
    with pytest.raises(ActionParseError) as info:
        parse_uitars(text, version="v1", **FHD)
    assert "pointer" in info.value.reason and info.value.raw == text


def test_coordinate_frame() -> None:
    assert coordinate_frame(version="v1", **FHD) == (1000, 1000)
    assert coordinate_frame(version="1.5", **FHD) == (1932, 1092)
    with pytest.raises(ValueError):
        coordinate_frame(version="2.0", **FHD)  # type: ignore[arg-type]


SCREENS = [(1920, 1080), (1280, 720), (1366, 768), (2560, 1440), (3840, 2160), (5120, 2880), (800, 600)]


def max_error(screen_side: int, frame_side: int) -> int:
    """The documented bound: floor(0.5 + screen / (2 * frame)) pixels per axis."""
    return math.floor(0.5 + screen_side / (2 * frame_side))


@pytest.mark.parametrize("version", ["v1", "1.5"])
@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_coordinate_round_trip_error_is_bounded(version: str, width: int, height: int) -> None:
    screen = dict(screen_width=width, screen_height=height)
    frame_w, frame_h = coordinate_frame(version=version, **screen)
    bound_x, bound_y = max_error(width, frame_w), max_error(height, frame_h)
    xs = sorted({0, 1, width // 3, width // 2, width - 2, width - 1, *range(0, width, 37)})
    ys = sorted({0, 1, height // 3, height // 2, height - 2, height - 1, *range(0, height, 41)})
    worst_x = worst_y = 0
    for x, y in zip(xs, itertools.cycle(ys)):
        for style in ("box", "point"):
            text = format_uitars([Click(x, y)], version=version, style=style, **screen)
            (click,) = parse_uitars(text, version=version, **screen).actions
            worst_x, worst_y = max(worst_x, abs(click.x - x)), max(worst_y, abs(click.y - y))
            assert 0 <= click.x < width and 0 <= click.y < height
    assert worst_x <= bound_x and worst_y <= bound_y


def test_rounding_bounds_on_full_hd() -> None:
    # v1: 0..1000 over 1920 px -> at most 1 px off; 1.5: frame 1932x1092 >= screen -> exact.
    assert max_error(1920, 1000) == 1 and max_error(1080, 1000) == 1
    assert max_error(1920, 1932) == 0 and max_error(1080, 1092) == 0
    for x in range(0, 1920, 7):
        text = format_uitars([Click(x, 1079 - x * 1079 // 1919)], version="1.5", **FHD)
        assert parse_uitars(text, version="1.5", **FHD).actions == (Click(x, 1079 - x * 1079 // 1919),)


ROUND_TRIP = [
    Click(0, 0),
    Click(1919, 1079),
    Click(960, 540, count=2),
    Click(10, 700, button="right"),
    Move(300, 301),
    Drag(100, 100, 900, 500),
    Scroll(960, 540, dy=SCROLL_CLICKS),
    Scroll(960, 540, dy=-SCROLL_CLICKS),
    Scroll(960, 540, dx=SCROLL_CLICKS),
    Scroll(960, 540, dx=-SCROLL_CLICKS),
    Type("hello world\n"),
    Type('It\'s "quoted", with \\ backslash,\ttab and\nnewline'),
    Type("Action: not an action"),
    Hotkey(("ctrl", "c")),
    Hotkey(("enter",)),
    Hotkey(("meta", "space")),
    Hotkey(("ctrl", "shift", "escape")),
    Wait(WAIT_SECONDS),
    Done(),
    Done(answer="The answer is 'yes'.\nSecond line."),
    Done(success=False, handoff=True),
]


@pytest.mark.parametrize("style", ["box", "point"])
@pytest.mark.parametrize("action", ROUND_TRIP, ids=repr)
def test_round_trip_each_action_exact_on_1_5(action, style: str) -> None:
    text = format_uitars([action], "Doing it.", version="1.5", style=style, **FHD)
    reply = parse_uitars(text, version="1.5", **FHD)
    assert reply.thought == "Doing it."
    assert reply.actions == (action,)


@pytest.mark.parametrize("action", ROUND_TRIP, ids=repr)
def test_round_trip_each_action_v1_within_one_pixel(action) -> None:
    (back,) = parse_uitars(format_uitars([action], version="v1", **FHD), version="v1", **FHD).actions
    assert type(back) is type(action)
    for name in ("x", "y", "x1", "y1", "x2", "y2"):
        if hasattr(action, name):
            assert abs(getattr(back, name) - getattr(action, name)) <= 1
    for name in ("button", "count", "dx", "dy", "text", "keys", "seconds", "success", "answer", "handoff"):
        if hasattr(action, name):
            assert getattr(back, name) == getattr(action, name)


def test_round_trip_several_actions_in_one_reply() -> None:
    actions = [a for a in ROUND_TRIP if not isinstance(a, Done)] + [Done(answer="ok")]
    text = format_uitars(actions, "Plan: many steps.", version="1.5", **FHD)
    assert text.startswith("Thought: Plan: many steps.\nAction: click(start_box='<|box_start|>(0,0)<|box_end|>')\n\n")
    assert parse_uitars(text, version="1.5", **FHD).actions == tuple(actions)


def test_written_text_matches_the_prompt_forms() -> None:
    assert format_uitars([Click(960, 540)], "t", version="v1", **FHD) == (
        "Thought: t\nAction: click(start_box='<|box_start|>(500,500)<|box_end|>')"
    )
    assert format_uitars([Click(960, 540)], version="1.5", style="point", **FHD) == (
        "Action: click(point='<point>966 546</point>')"
    )
    assert format_uitars([Type("a'b\n")], version="v1", **FHD) == "Action: type(content='a\\'b\\n')"
    assert format_uitars([Hotkey(("ctrl", "c"))], version="v1", **FHD) == "Action: hotkey(key='ctrl c')"
    assert format_uitars([Done(success=False)], version="v1", **FHD) == "Action: call_user()"


@pytest.mark.parametrize(
    "action",
    [
        Click(1, 2, button="middle"),
        Click(1, 2, count=3),
        Click(1, 2, button="right", count=2),
        Drag(1, 2, 3, 4, button="right"),
        Scroll(1, 2, dx=5, dy=5),
        Scroll(1, 2, dy=3),
        Wait(1.0),
        Done(success=False, answer="why"),
    ],
    ids=repr,
)
def test_unrepresentable_actions_raise(action) -> None:
    with pytest.raises(ActionError):
        format_uitars([action], version="1.5", **FHD)


def test_inexact_amounts_allowed_when_asked() -> None:
    text = format_uitars([Scroll(1, 2, dy=2), Wait(1.0)], version="1.5", exact=False, **FHD)
    assert parse_uitars(text, version="1.5", **FHD).actions == (Scroll(1, 2, dy=SCROLL_CLICKS), Wait(WAIT_SECONDS))


def test_format_refuses_a_thought_that_would_not_read_back() -> None:
    with pytest.raises(ActionError):
        format_uitars([Done()], "first\nAction: fake()", version="v1", **FHD)
    with pytest.raises(ActionError):
        format_uitars([], "x", version="v1", **FHD)


BAD_REPLIES = [
    ("Thought: I will click the button.", "no 'Action:'"),
    ("Action: click(start_box='=')", "cannot read coordinates"),
    ("Action: click()", "missing start_box or point"),
    ("Action: click(start_box='(1,2,3)')", "cannot read coordinates"),
    ("Action: click(start_box='(abc,def)')", "cannot read coordinates"),
    ("Action: click(start_box='(1200,500)')", "outside"),
    ("Action: click(start_box=(100,200))", "quoted string"),
    ("Action: click(start_box='(100,200)', point='<point>1 2</point>')", "only one of"),
    ("Action: click(start_box='(100,200)', button='left')", "unknown argument"),
    ("Action: tap(start_box='(100,200)')", "unknown UI-TARS action"),
    ("Action: long_press(start_box='(100,200)', time='')", "unknown UI-TARS action"),
    ("Action: open_app(app_name='Chrome')", "unknown UI-TARS action"),
    ("Action: type(content='It's broken')", "unbalanced quotes"),
    ("Action: type(content='unterminated)", "unbalanced quotes"),
    ("Action: click(start_box='(1,2)'", "unbalanced parentheses"),
    ("Action: click(start_box='(1,2)') and then more", "expected '('"),
    ("Action: ", "no action"),
    ("Action: 42", "expected an action call"),
    ("Action: hotkey(key='')", "no key"),
    ("Action: hotkey(key='ctrl hyper')", "invalid key"),
    ("Action: press(key='ctrl c')", "one key"),
    ("Action: keydown(key='shift')", "still held"),
    ("Action: scroll(start_box='(1,2)', direction='sideways')", "direction"),
    ("Action: scroll(start_box='(1,2)')", "missing direction"),
    ("Action: drag(start_box='(1,2)')", "missing end_box or end_point"),
    ("Action: type(content='')", "non-empty"),
    ("Action: finished(content='x')\n\nclick(start_box='(1,2)')", "after the episode"),
    ("Action: click('(100,200)')", "must be named"),
    ("Action: click(start_box=f'{x}')", "not a literal"),
]


@pytest.mark.parametrize(("text", "reason"), BAD_REPLIES)
def test_bad_replies_raise_with_raw(text: str, reason: str) -> None:
    with pytest.raises(ActionParseError) as info:
        parse_uitars(text, version="v1", **FHD)
    assert info.value.raw == text
    assert reason in info.value.reason


def test_1_5_coordinates_beyond_the_resized_image_are_rejected() -> None:
    with pytest.raises(ActionParseError, match="outside"):
        parse_uitars("Action: click(start_box='(1933,10)')", version="1.5", **FHD)
    # The frame's edge itself is on screen (clamped to the last pixel).
    assert parse_uitars("Action: click(start_box='(1932,1092)')", version="1.5", **FHD).actions == (Click(1919, 1079),)


def test_bad_arguments_are_caller_errors() -> None:
    with pytest.raises(ValueError):
        parse_uitars("Action: wait()", version="v1", screen_width=0, screen_height=1080)
    with pytest.raises(ValueError):
        parse_uitars("Action: wait()", version="2", **FHD)  # type: ignore[arg-type]
