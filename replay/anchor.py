"""Re-finding a click target on a screen whose layout moved: OpenCV template matching.

The target patch is cut from the recorded keyframe around the recorded click point. It is
searched for in the live screen with normalised cross-correlation
(``cv2.TM_CCOEFF_NORMED``) at several scales (a zoomed page, another DPI) and, when the
small patch is ambiguous (a grid of look-alike cells, two identical buttons), again with
more context around it. A match is *confident* only when its score is high
(:data:`MIN_SCORE`) and no other place scores nearly as well (:data:`MIN_MARGIN`);
otherwise :func:`locate` says why and the replayer refuses to click blind.

When the patch is still where it was (the common case), no search runs. A patch without
contrast (a click on blank space) is searched with more context around it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Lowest normalised correlation accepted as "the same target".
MIN_SCORE = 0.92
#: How much better than the best *other* place the match must be.
MIN_MARGIN = 0.04
#: Patch half-sizes tried, smallest first: more context when smaller ones are ambiguous.
HALF_SIZES = (20, 40, 80)
#: Scales of the patch tried (1.0 first).
SCALES = (1.0, 0.9, 1.1, 0.8, 1.25, 0.67, 1.5)
#: A patch at the same place counts as unchanged above this correlation.
IN_PLACE_SCORE = 0.97
#: ... or when its pixels differ by at most this on average (0-255): unchanged, even if blank.
IN_PLACE_MAX_DIFF = 1.0
#: A patch with less contrast than this (grey-level standard deviation) cannot be anchored.
MIN_PATCH_STD = 4.0


@dataclass(frozen=True)
class Anchor:
    """Where the recorded target is on the live screen, or why it could not be placed.

    ``x``/``y`` are the new click point (None when not confident); ``method`` is
    ``in_place`` or ``template``; ``score`` the match's correlation, ``runner_up`` the best
    other place's, ``scale`` the patch scale that matched.
    """

    x: int | None
    y: int | None
    confident: bool
    method: str
    score: float
    runner_up: float = 0.0
    scale: float = 1.0
    reason: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def _patch(frame: np.ndarray, x: int, y: int, half: int) -> tuple[np.ndarray, int, int]:
    """The patch around (x, y), clipped to the frame, and the point's offset inside it."""
    height, width = frame.shape[:2]
    left, top = max(0, x - half), max(0, y - half)
    right, bottom = min(width, x + half + 1), min(height, y + half + 1)
    return frame[top:bottom, left:right], x - left, y - top


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Normalised cross-correlation of two same-sized patches; 0 when either is flat
    (OpenCV's own answer for a flat patch is 1, which would call a blank area a match)."""
    if a.shape != b.shape or a.size == 0:
        return 0.0
    x = a.astype(np.float64).ravel() - a.mean()
    y = b.astype(np.float64).ravel() - b.mean()
    denominator = float(np.sqrt((x * x).sum() * (y * y).sum()))
    return float((x * y).sum() / denominator) if denominator > 1e-6 else 0.0


def _best_two(result: np.ndarray, size: tuple[int, int]) -> tuple[float, tuple[int, int], float]:
    """Best score and place, and the best score outside that place's neighbourhood."""
    _, best, _, loc = cv2.minMaxLoc(result)
    th, tw = size
    masked = result.copy()
    y0, x0 = max(0, loc[1] - th // 2), max(0, loc[0] - tw // 2)
    masked[y0 : loc[1] + th // 2 + 1, x0 : loc[0] + tw // 2 + 1] = -1.0
    second = float(masked.max()) if masked.size else -1.0
    return float(best), loc, max(second, 0.0)


def locate(recorded: np.ndarray, x: int, y: int, live: np.ndarray) -> Anchor:
    """Find the recorded frame's target around (x, y) in ``live`` (both RGB arrays).

    Returns an :class:`Anchor`; ``confident`` False carries the reason in words.
    """
    rec = np.ascontiguousarray(recorded)
    cur = np.ascontiguousarray(live)
    if rec.shape == cur.shape:
        patch, _, _ = _patch(rec, x, y, HALF_SIZES[0])
        same, _, _ = _patch(cur, x, y, HALF_SIZES[0])
        score = _correlation(patch, same)
        unchanged = float(np.abs(patch.astype(np.int16) - same.astype(np.int16)).mean()) <= IN_PLACE_MAX_DIFF
        if score >= IN_PLACE_SCORE or unchanged:  # (a blank spot that is still blank counts too)
            return Anchor(x, y, True, "in_place", max(score, 1.0 if unchanged else 0.0))
    last: Anchor | None = None
    for half in HALF_SIZES:
        patch, px, py = _patch(rec, x, y, half)
        if float(cv2.cvtColor(patch, cv2.COLOR_RGB2GRAY).std()) < MIN_PATCH_STD:
            continue  # nothing to match yet: try with more context
        found = _search(patch, px, py, cur)
        if found is None:
            break
        if found.confident:
            return found
        last = found
        if found.score < MIN_SCORE:
            break  # more context will not make a missing target appear
    if last is None:
        return Anchor(None, None, False, "template", 0.0,
                      reason=f"the recorded target around ({x}, {y}) is a featureless area and it changed; nothing to match it by")
    return last


def _search(patch: np.ndarray, px: int, py: int, live: np.ndarray) -> Anchor | None:
    best: tuple[float, float, tuple[int, int], float] | None = None  # score, runner-up, loc, scale
    for scale in SCALES:
        template = patch if scale == 1.0 else cv2.resize(
            patch, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        th, tw = template.shape[:2]
        if th > live.shape[0] or tw > live.shape[1] or th < 5 or tw < 5:
            continue
        result = cv2.matchTemplate(live, template, cv2.TM_CCOEFF_NORMED)
        result = np.nan_to_num(result, nan=-1.0)
        score, loc, second = _best_two(result, (th, tw))
        if best is None or score > best[0]:
            best = (score, second, loc, scale)
        if score >= 0.99 and score - second >= MIN_MARGIN:
            break  # an exact match: other scales cannot do better
    if best is None:
        return None
    score, second, loc, scale = best
    nx, ny = round(loc[0] + px * scale), round(loc[1] + py * scale)
    if score < MIN_SCORE:
        return Anchor(None, None, False, "template", score, second, scale,
                      reason=f"the recorded target is not on the screen (best match {score:.2f} < {MIN_SCORE})")
    if score - second < MIN_MARGIN:
        return Anchor(None, None, False, "template", score, second, scale,
                      reason=f"the recorded target is ambiguous: two places match almost equally ({score:.2f} and {second:.2f})")
    return Anchor(nx, ny, True, "template", score, second, scale)
