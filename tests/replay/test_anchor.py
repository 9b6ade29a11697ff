"""Re-anchoring by template matching and the screen similarity, on synthetic pictures."""

from __future__ import annotations

import cv2
import numpy as np

from gui_agent.replay.anchor import locate
from gui_agent.replay.similarity import screen_similarity


def _screen(width: int = 320, height: int = 240, *, at: tuple[int, int] = (100, 80), label: str = "OK") -> np.ndarray:
    """A light screen with a dark framed button carrying a label at ``at`` (top-left)."""
    image = np.full((height, width, 3), 235, np.uint8)
    x, y = at
    cv2.rectangle(image, (x, y), (x + 60, y + 24), (40, 60, 160), -1)
    cv2.rectangle(image, (x, y), (x + 60, y + 24), (0, 0, 0), 1)
    cv2.putText(image, label, (x + 8, y + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1)
    cv2.putText(image, "some text", (10, 220), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1)
    return image


def test_unchanged_target_is_kept_in_place() -> None:
    screen = _screen()
    anchor = locate(screen, 130, 92, screen.copy())
    assert anchor.confident and anchor.method == "in_place" and (anchor.x, anchor.y) == (130, 92)


def test_moved_target_is_found_where_it_went() -> None:
    recorded, live = _screen(at=(100, 80)), _screen(360, 300, at=(157, 141))
    anchor = locate(recorded, 130, 92, live)
    assert anchor.confident and anchor.method == "template"
    assert (anchor.x, anchor.y) == (187, 153)


def test_zoomed_target_is_found_at_another_scale() -> None:
    recorded = _screen(at=(100, 80))
    live = cv2.resize(recorded, None, fx=1.25, fy=1.25, interpolation=cv2.INTER_LINEAR)
    anchor = locate(recorded, 130, 92, live)
    assert anchor.confident and anchor.scale == 1.25
    assert abs(anchor.x - 162) <= 2 and abs(anchor.y - 115) <= 2


def test_missing_target_is_refused_with_the_reason() -> None:
    recorded = _screen(at=(100, 80))
    live = np.full_like(recorded, 235)
    anchor = locate(recorded, 130, 92, live)
    assert not anchor.confident and anchor.x is None
    assert "not on the screen" in (anchor.reason or "")


def test_two_identical_targets_are_refused_as_ambiguous() -> None:
    recorded = _screen(at=(100, 80))
    live = np.full((420, 500, 3), 235, np.uint8)
    for x, y in ((120, 120), (320, 260)):  # the same button twice, with the same blank context
        live[y - 1 : y + 26, x - 1 : x + 62] = _screen(at=(100, 80))[79:106, 99:162]
    anchor = locate(recorded, 130, 92, live)
    assert not anchor.confident and anchor.x is None
    assert "ambiguous" in (anchor.reason or "")


def test_a_blank_spot_is_kept_when_unchanged_and_found_by_its_context_when_moved() -> None:
    recorded = _screen()
    kept = locate(recorded, 230, 40, recorded.copy())  # blank around the point, nothing changed
    assert kept.confident and kept.method == "in_place" and (kept.x, kept.y) == (230, 40)
    moved = locate(recorded, 150, 140, _screen(360, 300, at=(140, 120)))  # blank near, the button in reach
    assert moved.confident and moved.method == "template" and (moved.x, moved.y) == (190, 180)


def test_a_featureless_target_that_changed_cannot_be_anchored() -> None:
    blank = np.full((240, 320, 3), 235, np.uint8)
    anchor = locate(blank, 280, 40, _screen(360, 300, at=(10, 10)))  # another layout: no in-place check
    assert not anchor.confident and "featureless" in (anchor.reason or "")


def test_similarity_is_one_for_equal_screens_and_drops_when_the_layout_moves() -> None:
    recorded = _screen()
    assert screen_similarity(recorded, recorded.copy()) == 1.0
    caret = recorded.copy()
    caret[100:112, 5] = 0  # a blinking caret barely matters
    assert screen_similarity(caret, recorded) > 0.9
    moved = _screen(at=(200, 150))
    assert screen_similarity(moved, recorded) < 0.5
    assert screen_similarity(_screen(400, 300), recorded) < 1.0  # other sizes compare too

