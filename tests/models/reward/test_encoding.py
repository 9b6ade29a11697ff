"""What the reward networks read of an action's text: its relation to the instruction, never the literal string."""

from __future__ import annotations

import pytest

from gui_agent.actions import Click, Hotkey, Type
from gui_agent.models.reward.encoding import (
    ACTION_DIMS,
    action_text,
    action_vector,
    typed_text_near_miss,
    typed_text_overlap,
)
from gui_agent.models.reward.transitions import encode_transition

INSTRUCTION = 'Enter the password "yA" into both text fields and press submit.'


@pytest.mark.parametrize(("typed", "expected"), [
    ("yA", 1.0),  # quoted in the instruction: a trigram overlap padded with spaces scored this 0
    ("ya", 1.0),  # case does not matter
    (" yA ", 1.0),  # nor surrounding spaces
    ("qA", 0.5),  # a typo of it: one character of two still found
    ("password", 1.0),
    ("passwqrd", 5 / 8),  # the longest piece found is "passw"
    ("zzzz", 0.0),
    ("", 0.0),
])
def test_typed_text_overlap_is_the_longest_piece_found_in_the_instruction(typed: str, expected: float) -> None:
    assert typed_text_overlap(typed, INSTRUCTION) == pytest.approx(expected)


@pytest.mark.parametrize(("typed", "instruction", "expected"), [
    ("qA", INSTRUCTION, 1.0),  # one character off the quoted password
    ("yA", INSTRUCTION, 0.0),  # exactly it: no slip
    ("passwqrd", INSTRUCTION, 1.0),  # one character off a word of the instruction
    ("Bob Smitx", 'Enter "Bob Smith" in the box.', 1.0),  # several words, one character off
    ("Bob Smith", 'Enter "Bob Smith" in the box.', 0.0),
    ("42", "Solve: 3 + 39 =", 0.0),  # an answer the instruction does not contain is no near miss of what it does
    ("zzzz", INSTRUCTION, 0.0),
    ("", INSTRUCTION, 0.0),
])
def test_typed_text_near_miss_flags_a_typo_of_what_the_instruction_offers(typed: str, instruction: str, expected: float) -> None:
    assert typed_text_near_miss(typed, instruction) == expected


def test_action_vector_carries_the_overlap_length_and_near_miss_of_typed_text() -> None:
    right = action_vector(Type("yA"), 160, 210, INSTRUCTION)
    typo = action_vector(Type("qA"), 160, 210, INSTRUCTION)
    assert right.shape == typo.shape == (ACTION_DIMS,)
    assert right[-3] == 1.0 and typo[-3] == 0.5
    assert right[-2] == typo[-2] == pytest.approx(2 / 40)
    assert right[-1] == 0.0 and typo[-1] == 1.0


def test_typed_characters_never_reach_the_text_encoder() -> None:
    assert action_text(Type("yA")) == action_text(Type("6gH")) == ""
    assert action_text(Type("yA\n")) == "enter"
    assert action_text(Hotkey(("ctrl", "a"))) == "ctrl+a"
    assert action_text(Click(3, 4)) == ""


def test_two_passwords_encode_alike_when_both_are_the_instructions() -> None:
    """The same screens with different (right) values typed give the same network input but for the length."""
    import numpy as np

    screen = np.full((210, 160, 3), 255, dtype=np.uint8)
    after = screen.copy()
    after[100:110, 20:40] = 0
    one = encode_transition(screen, Type("yA"), after, 'Enter the password "yA" into both fields.')
    two = encode_transition(screen, Type("Qz"), after, 'Enter the password "Qz" into both fields.')
    assert (one.action_text == two.action_text).all()
    assert (one.action == two.action).all()
