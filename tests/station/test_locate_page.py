"""Finding a browser task's page on its display from the page's own screenshot."""

from __future__ import annotations

import numpy as np

from gui_agent.station.browser_task import locate_page

TOOLBAR = 87


def _screen(page: np.ndarray, size: tuple[int, int] = (640, 350)) -> np.ndarray:
    """A window at (0, 0): a toolbar with a border line, the page under it, blank below."""
    screen = np.zeros((size[1], size[0], 3), np.uint8)
    screen[:TOOLBAR] = 220
    screen[TOOLBAR - 1] = 120
    screen[TOOLBAR:TOOLBAR + page.shape[0], :page.shape[1]] = page
    return screen


def test_a_page_is_found_under_the_toolbar() -> None:
    page = np.random.default_rng(0).integers(0, 255, (210, 160, 3), dtype=np.uint8)
    assert locate_page(_screen(page), page) == (0, TOOLBAR)


def test_a_few_changed_pixels_still_match_and_a_plain_page_sits_right_under_the_toolbar() -> None:
    page = np.random.default_rng(1).integers(0, 255, (210, 160, 3), dtype=np.uint8)
    screen = _screen(page)
    screen[TOOLBAR + 50:TOOLBAR + 70, 30:32] = 0  # a caret that blinked between the two grabs
    assert locate_page(screen, page) == (0, TOOLBAR)
    white = np.full((210, 160, 3), 255, np.uint8)
    screen = _screen(white)
    screen[TOOLBAR + 210:, :160] = 255  # the window's content area goes on below the page
    assert locate_page(screen, white) == (0, TOOLBAR)


def test_a_page_that_is_not_there_is_none() -> None:
    page = np.random.default_rng(2).integers(0, 255, (210, 160, 3), dtype=np.uint8)
    assert locate_page(np.zeros((350, 640, 3), np.uint8), page) is None
    covered = _screen(page)
    covered[TOOLBAR:TOOLBAR + 100] = 40  # a dialog over half the page
    assert locate_page(covered, page) is None
