"""Instruction tokens, the copy span and the policy's memory: the pieces training and inference share."""

from __future__ import annotations

from gui_agent.actions import Click, Hotkey, Scroll, Type
from gui_agent.models.pixel.history import KINDS, PREVIOUS_OTHER, History, action_kind
from gui_agent.models.pixel.text import MAX_CHARS, encode_tokens, find_span, span_text, tokenize


def test_typed_text_is_found_as_a_token_span_and_cut_back_exactly() -> None:
    instruction = 'Enter the username "riley" and the password "VWd-B7" into the text fields.'
    tokens = tokenize(instruction)
    span = find_span(instruction, tokens, "VWd-B7")
    assert span is not None and span[1] - span[0] == 2  # VWd, -, B7
    assert span_text(instruction, tokens, *span) == "VWd-B7"
    assert find_span(instruction, tokens, "RILEY") is None  # changed case is not a copy


def test_any_script_encodes_without_a_vocabulary() -> None:
    tokens = tokenize('Click on the "取消" button.')
    chars, words = encode_tokens(tokens)
    assert [t.text for t in tokens][4] == "取消"
    assert all(len(row) == MAX_CHARS for row in chars) and all(w > 0 for w in words)
    assert chars[4][:2] != [0, 0]


def test_history_remembers_kinds_clicks_and_typed_tokens() -> None:
    history = History()
    history.record(Click(10, 20))
    history.record(Type("riley"), span=(3, 3))
    history.record(Type("riley"), span=(3, 3))
    assert history.clicks == [(10, 20)]
    assert history.previous_kind == KINDS.index("type") + 1
    assert history.typed_counts(5) == [0, 0, 0, 2, 0]
    history.record(Scroll(1, 1, dy=1))
    assert history.previous_kind == PREVIOUS_OTHER and history.step_id() == 4


def test_only_actions_the_network_can_produce_have_a_kind() -> None:
    assert action_kind(Click(1, 1)) == "click"
    assert action_kind(Click(1, 1, button="right")) is None
    assert action_kind(Hotkey(("enter",))) == "enter"
    assert action_kind(Hotkey(("ctrl", "c"))) is None
