"""The canonical action space: validation, serialisation, prompt text."""

from __future__ import annotations

import pytest

from gui_agent.actions import (
    ACTION_TYPES,
    Click,
    Done,
    Drag,
    Hotkey,
    Move,
    Scroll,
    Type,
    Wait,
    action_from_dict,
    action_space_prompt,
    action_to_dict,
    action_to_text,
    normalize_key,
)
from gui_agent.errors import ActionError

ALL_KINDS = [
    Click(10, 20),
    Click(5, 6, button="right", count=2),
    Move(1, 2),
    Drag(1, 2, 30, 40),
    Scroll(100, 100, dy=3),
    Scroll(100, 100, dx=-2),
    Type('say "hi"\n'),
    Hotkey(("ctrl", "shift", "t")),
    Hotkey(("enter",)),
    Wait(0.5),
    Done(),
    Done(success=False, answer="no", handoff=True),
]


@pytest.mark.parametrize("action", ALL_KINDS, ids=lambda a: action_to_text(a))
def test_dict_round_trip(action) -> None:
    assert action_from_dict(action_to_dict(action)) == action


def test_every_kind_is_covered_and_prompted() -> None:
    assert {type(a) for a in ALL_KINDS} == set(ACTION_TYPES)
    prompt = action_space_prompt()
    for cls in ACTION_TYPES:
        assert f"{cls.kind}(" in prompt


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: Click(-1, 5), "x must be >= 0"),
        (lambda: Click(1.5, 5), "integer pixel"),
        (lambda: Click(1, 5, button="back"), "button"),
        (lambda: Click(1, 5, count=4), "count"),
        (lambda: Scroll(1, 1), "both 0"),
        (lambda: Type(""), "non-empty"),
        (lambda: Hotkey(("ctrl", "hyper")), "unknown key 'hyper'"),
        (lambda: Hotkey("ctrl"), "sequence"),
        (lambda: Wait(120), "between 0 and 60"),
        (lambda: Done(success="yes"), "true or false"),
    ],
)
def test_invalid_actions_raise_with_reason(build, message) -> None:
    with pytest.raises(ActionError, match=message):
        build()


@pytest.mark.parametrize(
    "data, message",
    [
        ({"x": 1}, "kind"),
        ({"kind": "teleport"}, "unknown action kind"),
        ({"kind": "click", "x": 1, "y": 2, "z": 3}, "unknown field"),
        ({"kind": "click", "x": 1}, "click"),
    ],
)
def test_from_dict_rejects_bad_records(data, message) -> None:
    with pytest.raises(ActionError, match=message):
        action_from_dict(data)


@pytest.mark.parametrize(
    "raw, canonical",
    [("Control", "ctrl"), ("RETURN", "enter"), ("esc", "escape"), ("ArrowUp", "up"), ("cmd", "meta"),
     ("A", "A"), (" ", "space"), ("PgDn", "pagedown"), ("F5", "f5")],
)
def test_key_aliases(raw, canonical) -> None:
    assert normalize_key(raw) == canonical


def test_hotkey_normalises_on_construction() -> None:
    assert Hotkey(("Control", "C")).keys == ("ctrl", "C")  # a character keeps its case


def test_text_form() -> None:
    assert action_to_text(Click(3, 4, count=2)) == "click(3, 4, count=2)"
    assert action_to_text(Type("a\n")) == 'type("a\\n")'
    assert action_to_text(Hotkey(("ctrl", "c"))) == 'hotkey("ctrl", "c")'
