"""Raw events -> canonical actions: every rule of recorder.reduce, on hand-made event lists."""

from __future__ import annotations

from gui_agent.actions import Click, Drag, Hotkey, Scroll, Type
from gui_agent.recorder.events import RawEvent
from gui_agent.recorder.reduce import ReduceConfig, Reducer, reduce_events


def down(t, x, y, b="left"):
    return RawEvent(t, "down", x=x, y=y, button=b)


def up(t, x, y, b="left"):
    return RawEvent(t, "up", x=x, y=y, button=b)


def move(t, x, y):
    return RawEvent(t, "move", x=x, y=y)


def kd(t, k, masked=False):
    return RawEvent(t, "key_down", key=k, masked=masked)


def ku(t, k):
    return RawEvent(t, "key_up", key=k)


def keys(t0, text, dt=0.05):
    out = []
    for i, ch in enumerate(text):
        out += [kd(t0 + i * dt, ch), ku(t0 + i * dt + 0.01, ch)]
    return out


def actions(events, **cfg):
    return [r.action for r in reduce_events(events, ReduceConfig(**cfg) if cfg else None)]


def test_single_double_triple_click_and_their_ranges():
    ev = [down(0.0, 10, 10), up(0.05, 10, 10),
          down(2.0, 50, 50), up(2.05, 50, 50), down(2.2, 51, 49), up(2.25, 51, 49),
          down(4.0, 90, 90), up(4.05, 90, 90), down(4.2, 90, 90), up(4.25, 90, 90), down(4.4, 90, 90), up(4.45, 90, 90)]
    red = reduce_events(ev)
    assert [r.action for r in red] == [Click(10, 10), Click(50, 50, count=2), Click(90, 90, count=3)]
    assert [(r.start, r.end) for r in red] == [(0, 2), (2, 6), (6, 12)]
    assert [r.t for r in red] == [0.0, 2.0, 4.0]


def test_slow_or_distant_second_click_is_a_new_click():
    ev = [down(0, 10, 10), up(0.05, 10, 10), down(0.7, 10, 10), up(0.75, 10, 10),
          down(1.0, 30, 10), up(1.05, 30, 10)]
    assert actions(ev) == [Click(10, 10), Click(10, 10), Click(30, 10)]


def test_fourth_click_starts_a_new_click_and_right_button_is_kept():
    ev = [down(0.1 * i, 5, 5) if i % 2 == 0 else up(0.1 * i, 5, 5) for i in range(8)]
    ev += [down(2, 7, 7, "right"), up(2.1, 7, 7, "right")]
    assert actions(ev) == [Click(5, 5, count=3), Click(5, 5), Click(7, 7, button="right")]


def test_drag_threshold():
    small = [down(0, 100, 100), move(0.1, 103, 102), up(0.2, 103, 102)]
    assert actions(small) == [Click(100, 100)]
    big = [down(0, 100, 100), move(0.1, 120, 100), move(0.2, 200, 150), up(0.3, 200, 150)]
    red = reduce_events(big)
    assert [r.action for r in red] == [Drag(100, 100, 200, 150)]
    assert (red[0].start, red[0].end) == (0, 4)
    # Went far and came back: still a drag (it selected something on the way).
    back = [down(0, 100, 100), move(0.1, 140, 100), up(0.3, 101, 100)]
    assert actions(back) == [Drag(100, 100, 101, 100)]
    assert actions(small, drag_px=3) == [Drag(100, 100, 103, 102)]


def test_scroll_bursts_merge_and_split_on_gap_and_direction():
    ev = [RawEvent(0.0 + 0.05 * i, "scroll", x=300, y=200, dy=1) for i in range(5)]
    ev += [RawEvent(2.0 + 0.05 * i, "scroll", x=310, y=210, dy=-1) for i in range(3)]
    ev += [RawEvent(2.2, "scroll", x=310, y=210, dy=1)]
    red = reduce_events(ev)
    assert [r.action for r in red] == [Scroll(300, 200, dy=5), Scroll(310, 210, dy=-3), Scroll(310, 210, dy=1)]
    assert [(r.start, r.end) for r in red] == [(0, 5), (5, 8), (8, 9)]


def test_typing_with_shift_space_backspace_and_enter():
    ev = [kd(0, "shift"), kd(0.01, "H"), ku(0.02, "H"), ku(0.03, "shift")]
    ev += keys(0.1, "elp")
    ev += [kd(0.4, "backspace"), ku(0.41, "backspace"), kd(0.5, "l"), kd(0.6, "o"), kd(0.7, "space"),
           kd(0.8, "x"), kd(0.9, "backspace"), kd(1.0, "!"), kd(1.1, "enter"), ku(1.12, "enter")]
    red = reduce_events(ev)
    assert [r.action for r in red] == [Type("Hello !\n")]
    assert (red[0].start, red[0].t) == (1, 0.01)  # from the first printable key, not the shift


def test_backspace_on_nothing_typed_is_a_key_and_erased_text_is_no_action():
    assert actions([kd(0, "backspace")]) == [Hotkey(("backspace",))]
    assert actions([kd(0, "a"), kd(0.1, "backspace")]) == []
    assert actions([kd(0, "a"), kd(0.1, "backspace"), kd(0.2, "backspace")]) == [Hotkey(("backspace",))]


def test_hotkeys_end_typing_and_keep_modifier_order():
    ev = keys(0, "ab") + [kd(0.5, "ctrl"), kd(0.55, "shift"), kd(0.6, "T"), ku(0.7, "T"), ku(0.7, "shift"), ku(0.7, "ctrl")]
    ev += [kd(1.0, "tab"), kd(1.1, "alt"), kd(1.2, "f4"), ku(1.3, "alt"), kd(1.5, "enter")]
    red = reduce_events(ev)
    assert [r.action for r in red] == [Type("ab"), Hotkey(("ctrl", "shift", "t")), Hotkey(("tab",)),
                                      Hotkey(("alt", "f4")), Hotkey(("enter",))]
    assert (red[1].start, red[1].end) == (4, 7)  # from ctrl down to T down
    assert red[1].t == 0.6


def test_lone_modifiers_and_unknown_keys_are_no_action():
    assert actions([kd(0, "ctrl"), ku(0.1, "ctrl"), kd(0.2, "?XF86AudioMute"), kd(0.3, "shift")]) == []


def test_typing_pause_splits_and_click_interrupts():
    ev = keys(0, "abc") + keys(5.0, "de") + [down(5.5, 1, 1), up(5.6, 1, 1)] + keys(5.7, "f")
    assert actions(ev) == [Type("abc"), Type("de"), Click(1, 1), Type("f")]


def test_masked_keys_are_typed_as_stars_and_flagged():
    ev = [kd(0, "*", masked=True), kd(0.1, "*", masked=True), kd(0.2, "enter")]
    red = reduce_events(ev)
    assert red[0].action == Type("**\n") and red[0].info == {"masked": True}


def test_modifier_click_keeps_modifiers_in_info():
    red = reduce_events([kd(0, "ctrl"), down(0.1, 4, 4), up(0.2, 4, 4), ku(0.3, "ctrl")])
    assert red[0].action == Click(4, 4) and red[0].info == {"modifiers": ["ctrl"]}


def test_streaming_equals_batch_and_flush_respects_timeouts():
    ev = keys(0, "hi") + [down(1, 3, 3), up(1.1, 3, 3), RawEvent(3, "scroll", x=1, y=1, dy=2)] + keys(4, "yo")
    r = Reducer()
    got = []
    for e in ev:
        got += r.feed(e)
        got += r.flush(e.t + 0.01)  # the session flushes between events, never past them
    assert r.flush(4.1 + 1.0) == []  # "yo" is younger than type_idle_s
    assert r.pending_start() == 7
    got += r.flush(4.1 + 2.5)
    assert [x.action for x in got] == actions(ev) == [Type("hi"), Click(3, 3), Scroll(1, 1, dy=2), Type("yo")]
    ranges = [(x.start, x.end) for x in got]
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in zip(ranges, ranges[1:]))
