"""Where in a re-found element a replayed click goes: where it was in the recorded element.

A recorded target carries its element's box (``bbox``: page pixels of a browser viewport;
``bbox_screen``: screen pixels, the desktop's and the browser's whole-screen box). A click
near a button's edge stays near that edge when the button moved or grew, so a locator that
re-finds the element (:mod:`gui_agent.replay.selector`, :mod:`gui_agent.replay.element`)
places the click at the same fraction of the live element's box; without a usable box, at
its centre.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def relative_point(target: dict[str, Any], click: tuple[int, int] | None) -> tuple[float, float]:
    """Where in the element the click was (0-1 each way), else its centre. The click is in
    page pixels (``bbox``) once the replayer moved it there, screen pixels otherwise."""
    for box in (target.get("bbox"), target.get("bbox_screen")):
        if click is None or not box or len(box) != 4 or box[2] <= 0 or box[3] <= 0:
            continue
        fx, fy = (click[0] - box[0]) / box[2], (click[1] - box[1]) / box[3]
        if 0.0 <= fx <= 1.0 and 0.0 <= fy <= 1.0:
            return fx, fy
    return 0.5, 0.5


def point_in(box: Sequence[float], fraction: tuple[float, float]) -> tuple[int, int]:
    """The pixel at ``fraction`` of ``box`` (``[left, top, width, height]``), inside it."""
    left, top, width, height = box
    x = int(left + fraction[0] * width)
    y = int(top + fraction[1] * height)
    return min(x, int(left + width) - 1) if width >= 1 else x, min(y, int(top + height) - 1) if height >= 1 else y


__all__ = ["point_in", "relative_point"]
