"""One monotonic clock for every stream the recorder keeps (frames, input, browser).

All times written by the recorder are seconds since :attr:`Clock.start` on
``time.monotonic()``, so a keyframe's time and an input event's time compare directly.
"""

from __future__ import annotations

import time


class Clock:
    """Seconds since the recording started, on the monotonic clock.

    Example:
        >>> clock = Clock()
        >>> t = clock.now()   # 0.000012
    """

    def __init__(self, start: float | None = None) -> None:
        self.start = time.monotonic() if start is None else start

    def now(self) -> float:
        return time.monotonic() - self.start

    def since_start(self, monotonic_t: float) -> float:
        """Convert a raw ``time.monotonic()`` reading to recording time."""
        return monotonic_t - self.start
