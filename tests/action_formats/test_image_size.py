"""smart_resize (Qwen2.5-VL's resize, as UI-TARS computes it) and the image-size rules of formats."""

from __future__ import annotations

import itertools

import pytest

from gui_agent.action_formats.image_size import (
    QWEN25_MAX_PIXELS,
    QWEN25_MIN_PIXELS,
    UITARS_MIN_PIXELS,
    ScreenPixels,
    SmartResize,
    smart_resize,
)


def test_smart_resize_known_values() -> None:
    assert smart_resize(1080, 1920) == (1092, 1932)
    assert smart_resize(720, 1280) == (728, 1288)
    assert smart_resize(768, 1366) == (756, 1372)
    assert smart_resize(100, 100) == (280, 280)  # below UITARS_MIN_PIXELS: scaled up
    assert smart_resize(2880, 5120) == (2688, 4760)  # above QWEN25_MAX_PIXELS: scaled down
    assert smart_resize(10, 10, min_pixels=1) == (28, 28)
    with pytest.raises(ValueError):
        smart_resize(10, 3000)  # aspect ratio above 200
    with pytest.raises(ValueError):
        smart_resize(0, 100)


@pytest.mark.parametrize(
    ("height", "width"), list(itertools.product([240, 600, 1080, 1440, 2160, 4320], [320, 800, 1920, 3440, 7680]))
)
def test_smart_resize_invariants(height: int, width: int) -> None:
    h, w = smart_resize(height, width)
    assert h % 28 == 0 and w % 28 == 0
    assert UITARS_MIN_PIXELS <= h * w <= QWEN25_MAX_PIXELS
    assert abs(w / h - width / height) / (width / height) < 0.1


def test_the_rules_size_a_screenshot() -> None:
    assert ScreenPixels().size(1920, 1080) == (1920, 1080)
    assert SmartResize(UITARS_MIN_PIXELS, QWEN25_MAX_PIXELS).size(1920, 1080) == (1932, 1092)
    # Qwen's own lower bound lets a small screen stay small; UI-TARS' scales it up.
    assert SmartResize(QWEN25_MIN_PIXELS, QWEN25_MAX_PIXELS).size(160, 210) == (168, 224)
    assert SmartResize(UITARS_MIN_PIXELS, QWEN25_MAX_PIXELS).size(160, 210) == (252, 336)
