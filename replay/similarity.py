"""How alike the live screen and the recorded keyframe are: one number in [0, 1].

A structural-similarity (SSIM) score on grey, downscaled images, averaged over the windows
that have structure in either image: robust to the few pixels a caret or a cursor
changes, falling quickly when the layout moves or a dialog opens, and not diluted by
large blank areas.
Both images are brought to the recorded frame's size first (a live screen of another
size still compares, and scores low when its layout differs).
"""

from __future__ import annotations

import cv2
import numpy as np

#: The longer side images are reduced to before comparing (speed; SSIM needs no more).
COMPARE_SIDE = 160
#: Below this score the live screen is taken to have parted from the recording.
DIVERGENCE_THRESHOLD = 0.80

_C1 = (0.01 * 255) ** 2
_C2 = (0.03 * 255) ** 2
#: Local grey-level variance below which a window is "flat" in an image.
_MIN_VARIANCE = 25.0


def _grey(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    grey = cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_RGB2GRAY) if image.ndim == 3 else image
    if (grey.shape[1], grey.shape[0]) != size:
        grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return grey.astype(np.float32)


def screen_similarity(live: np.ndarray, recorded: np.ndarray) -> float:
    """Mean SSIM of ``live`` against ``recorded`` (RGB arrays), 1.0 for identical screens."""
    height, width = recorded.shape[:2]
    scale = min(1.0, COMPARE_SIDE / max(height, width))
    size = (max(8, round(width * scale)), max(8, round(height * scale)))
    a, b = _grey(live, size), _grey(recorded, size)
    blur = lambda img: cv2.GaussianBlur(img, (7, 7), 1.5)
    mu_a, mu_b = blur(a), blur(b)
    var_a = blur(a * a) - mu_a * mu_a
    var_b = blur(b * b) - mu_b * mu_b
    cov = blur(a * b) - mu_a * mu_b
    ssim = ((2 * mu_a * mu_b + _C1) * (2 * cov + _C2)) / ((mu_a**2 + mu_b**2 + _C1) * (var_a + var_b + _C2))
    # Only windows with structure in either image count: a button that moved across a
    # blank page must not be outvoted by the blank page agreeing with itself.
    structured = (var_a + var_b) > _MIN_VARIANCE
    if not structured.any():
        return float(1.0 - np.abs(a - b).mean() / 255.0)
    return float(np.clip(ssim[structured].mean(), 0.0, 1.0))
