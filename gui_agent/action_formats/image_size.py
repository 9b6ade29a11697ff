"""The size a screenshot is shown to a model at: the screen's own, or Qwen's ``smart_resize``.

A reply format declares one of two rules (:class:`ScreenPixels`, :class:`SmartResize`), so
whoever prompts the model resizes the screenshot once, to the frame the model's pixel
coordinates live in, and the parser maps them back through the same arithmetic.

Every Qwen2-VL/Qwen2.5-VL based model here resizes with :func:`smart_resize` (both sides a
multiple of 28, the area within ``[min_pixels, max_pixels]``). The bounds are defined once:

* :data:`QWEN25_MIN_PIXELS` / :data:`QWEN25_MAX_PIXELS` -- the Qwen2.5-VL processor's
  defaults (56*56 and 16384*28*28), which Qwen's cookbooks and OpenCUA's README and OSWorld
  agent use;
* :data:`UITARS_MIN_PIXELS` -- UI-TARS' own lower bound (100*28*28, the official parser's
  ``MIN_PIXELS``); its upper bound is Qwen2.5-VL's.

Only the standard library is used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Both sides of a resized image are multiples of this (14 px patches, merged 2x2).
IMAGE_FACTOR = 28
#: The widest aspect ratio smart_resize accepts.
MAX_RATIO = 200
#: The Qwen2.5-VL processor's smart_resize lower bound (56*56).
QWEN25_MIN_PIXELS = 56 * 56
#: Its upper bound (16384*28*28 = 12845056), UI-TARS' too.
QWEN25_MAX_PIXELS = 16384 * 28 * 28
#: UI-TARS' lower bound (100*28*28), higher than the processor's default.
UITARS_MIN_PIXELS = 100 * 28 * 28


def _round_by_factor(number: float, factor: int) -> int:
    return round(number / factor) * factor


def _ceil_by_factor(number: float, factor: int) -> int:
    return math.ceil(number / factor) * factor


def _floor_by_factor(number: float, factor: int) -> int:
    return math.floor(number / factor) * factor


def smart_resize(
    height: int,
    width: int,
    *,
    factor: int = IMAGE_FACTOR,
    min_pixels: int = UITARS_MIN_PIXELS,
    max_pixels: int = QWEN25_MAX_PIXELS,
) -> tuple[int, int]:
    """The (height, width) Qwen2.5-VL resizes an image to, exactly as UI-TARS computes it.

    Both sides become multiples of ``factor``, the area lands in
    [``min_pixels``, ``max_pixels``], the aspect ratio is kept as closely as possible.
    UI-TARS-1.5 answers in pixels of this resized image, so mapping its coordinates back
    needs the very same arithmetic (including Python's half-to-even ``round``). The default
    bounds are UI-TARS'.

    Raises:
        ValueError: non-positive size, or an aspect ratio above ``MAX_RATIO`` (200).
    """
    if height <= 0 or width <= 0:
        raise ValueError(f"image size must be positive, got {width}x{height}")
    if max(height, width) / min(height, width) > MAX_RATIO:
        raise ValueError(
            f"absolute aspect ratio must be smaller than {MAX_RATIO}, got {max(height, width) / min(height, width)}"
        )
    h_bar = max(factor, _round_by_factor(height, factor))
    w_bar = max(factor, _round_by_factor(width, factor))
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = _floor_by_factor(height / beta, factor)
        w_bar = _floor_by_factor(width / beta, factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = _ceil_by_factor(height * beta, factor)
        w_bar = _ceil_by_factor(width * beta, factor)
    return h_bar, w_bar


@dataclass(frozen=True)
class ScreenPixels:
    """The model sees the screenshot as it is (its coordinates may still be relative)."""

    def size(self, width: int, height: int) -> tuple[int, int]:
        """(width, height) of the image the model is shown for a ``width`` x ``height`` screenshot."""
        return width, height


@dataclass(frozen=True)
class SmartResize:
    """The model sees the screenshot after :func:`smart_resize` with these bounds.

    A server's processor resizes with its own bounds; the format's are its model's defaults,
    and a policy that knows the server's (``min_pixels=``/``max_pixels=``) uses those.
    """

    min_pixels: int
    max_pixels: int

    def size(self, width: int, height: int) -> tuple[int, int]:
        """(width, height) of the image the model is shown for a ``width`` x ``height`` screenshot."""
        resized_height, resized_width = smart_resize(height, width, min_pixels=self.min_pixels, max_pixels=self.max_pixels)
        return resized_width, resized_height


#: How a format's screenshot is sized for its model.
ImageSize = ScreenPixels | SmartResize

__all__ = [
    "IMAGE_FACTOR",
    "MAX_RATIO",
    "QWEN25_MAX_PIXELS",
    "QWEN25_MIN_PIXELS",
    "UITARS_MIN_PIXELS",
    "ImageSize",
    "ScreenPixels",
    "SmartResize",
    "smart_resize",
]
