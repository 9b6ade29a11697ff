"""Screenshots of an X display with mss, and waiting for the screen to settle.

mss 10 captures through XCB (MIT-SHM when the server has it), cheaply enough to grab every
step. XCB reports a lost connection as an error instead of calling ``exit()``
like libX11's default I/O error handler, so a display that dies mid-capture surfaces as
an exception we turn into :class:`~gui_agent.errors.EnvDiedError`.

A desktop app handles an input event and repaints some time after it received it, and
nothing tells us when it is done (see :mod:`gui_agent.envs.desktop.app_activity`).
:meth:`ScreenCapture.settle` therefore polls the screen and the apps' CPU time until both
are quiet, so the observation shows the action's effect without a long fixed sleep on
every step. In LibreOffice Calc (typing "abc" + Enter) the typed text shows first, the
committed cell and the moved cursor only after a timer (the app idle in between), the
toolbar's undo button later still; the default quiet period outlasts that timer (see
:class:`gui_agent.envs.desktop.env.DesktopEnv`; the figures are in docs/benchmarks.md).

Use one instance from one thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from gui_agent.errors import EnvDiedError, EnvError

#: Seconds between the polls (screen grab + app CPU time) that decide whether it settled.
POLL_S = 0.01
#: Pixels a blinking text cursor changes at most (a 2 x 30 bar, with room); fewer changed
#: pixels are not a change of what the screen shows.
CARET_PIXELS = 120
#: Share of one CPU the apps may use and still count as idle (a caret blink, timers).
BUSY_SHARE = 0.1


class ScreenCapture:
    """Grabs the whole screen of one display as an RGB array.

    Args:
        display_name: ``":3"``.
        width, height: the expected screen size (a mismatch is an error).
    """

    def __init__(self, display_name: str, *, width: int, height: int) -> None:
        import mss

        self.display_name = display_name
        self.width = width
        self.height = height
        try:
            self._mss = mss.MSS(display=display_name) if hasattr(mss, "MSS") else mss.mss(display=display_name)
            monitor = self._mss.monitors[0]
        except Exception as exc:  # noqa: BLE001 - ScreenShotError and XCB connection errors
            raise EnvDiedError(f"cannot capture X display {display_name}: {exc}") from None
        self._region = {"left": 0, "top": 0, "width": width, "height": height}
        if (monitor["width"], monitor["height"]) != (width, height):
            raise EnvError(f"display {display_name} is {monitor['width']}x{monitor['height']}, expected {width}x{height}")

    def grab_raw(self) -> Any:
        """One capture as mss's BGRA screenshot object."""
        try:
            return self._mss.grab(self._region)
        except Exception as exc:  # noqa: BLE001
            raise EnvDiedError(f"capturing X display {self.display_name} failed (display gone?): {exc or type(exc).__name__}") from None

    @staticmethod
    def to_rgb(shot: Any) -> np.ndarray:
        """mss BGRA pixels as a contiguous (height, width, 3) uint8 RGB array."""
        bgra = np.frombuffer(shot.raw, dtype=np.uint8).reshape(shot.height, shot.width, 4)
        return np.ascontiguousarray(bgra[:, :, 2::-1])

    def grab(self) -> np.ndarray:
        """The screen now, as RGB."""
        return self.to_rgb(self.grab_raw())

    @staticmethod
    def changed(before: Any, after: Any) -> bool:
        """Whether the screen changed between two raw grabs by more than a blinking text
        cursor (:data:`CARET_PIXELS` pixels): Writer's caret blinks for ever, and a screen
        that never stops changing would never count as settled."""
        if before.raw == after.raw:
            return False
        a = np.frombuffer(before.raw, dtype=np.uint32)
        b = np.frombuffer(after.raw, dtype=np.uint32)
        return a.shape != b.shape or int(np.count_nonzero(a != b)) > CARET_PIXELS

    def settle(
        self,
        *,
        min_s: float,
        quiet_s: float,
        max_s: float,
        deadline: float | None = None,
        cpu_ns: Callable[[], int] | None = None,
    ) -> np.ndarray:
        """Wait until the screen and the apps have been quiet for ``quiet_s``.

        Pauses ``min_s`` (the apps wake up for the input), then grabs every
        :data:`POLL_S`; any change of the screen, or (with ``cpu_ns``, the apps' total
        CPU time) more than :data:`BUSY_SHARE` of a CPU used since the last poll,
        restarts the quiet period. Gives up waiting after ``max_s`` (an animation, a busy
        app) or at ``deadline`` (a ``time.monotonic()`` value) and returns the last grab.
        ``quiet_s=0`` returns the first grab after ``min_s``.
        """
        start = time.monotonic()
        if min_s > 0:
            time.sleep(min_s)
        previous = self.grab_raw()
        if quiet_s <= 0:
            return self.to_rgb(previous)
        limit = start + max(min_s, max_s)
        if deadline is not None:
            limit = min(limit, deadline)
        used = cpu_ns() if cpu_ns is not None else 0
        polled = last_change = time.monotonic()
        while polled < limit and polled - last_change < quiet_s:
            time.sleep(POLL_S)
            current = self.grab_raw()
            now = time.monotonic()
            busy = False
            if cpu_ns is not None:
                total = cpu_ns()
                busy = (total - used) > BUSY_SHARE * (now - polled) * 1e9
                used = total
            if busy or self.changed(previous, current):
                last_change = now
            previous, polled = current, now
        return self.to_rgb(previous)

    def close(self) -> None:
        try:
            self._mss.close()
        except Exception:  # noqa: BLE001 - the display may be gone already
            pass
