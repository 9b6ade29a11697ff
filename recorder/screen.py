"""The screen through mss: a capture thread keeping the last few frames, and keyframe choice.

The thread grabs the whole virtual screen (all monitors, mss ``monitors[0]``) ``fps``
times a second into a small ring; nothing is encoded until a frame becomes a keyframe.
:meth:`ScreenCapture.frame_before` answers "what did the screen show just before time t":
the newest frame whose grab started at or before ``t``, so an action's own result (which
the app paints after it received the input) is not in it. Only finished grabs count: a
grab still running when the input arrives may already show the
result, since an app like Chromium repaints within that time. Memory is the ring (a few raw
frames) plus the keyframes the session still holds.

Every ``layout_check_s`` the monitor layout is read again; if it changed, :attr:`error`
says so and the session stops (coordinates would silently mean something else).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from gui_agent.recorder.clock import Clock
from gui_agent.recorder.errors import ScreenError


@dataclass(frozen=True)
class Frame:
    t: float
    width: int
    height: int
    bgra: bytes | None  # None: a blanked frame (privacy)

    def rgb(self) -> np.ndarray:
        if self.bgra is None:
            return np.zeros((self.height, self.width, 3), np.uint8)
        return np.frombuffer(self.bgra, np.uint8).reshape(self.height, self.width, 4)[..., 2::-1]


def open_mss() -> Any:
    import mss

    factory = getattr(mss, "MSS", None) or mss.mss
    return factory()


def screen_layout(sct: Any) -> list[dict[str, int]]:
    """The monitors (``[0]`` is their union), as plain dicts."""
    return [{k: int(m[k]) for k in ("left", "top", "width", "height")} for m in sct.monitors]


def monitor_at(monitors: list[dict[str, int]], x: int, y: int) -> int | None:
    """Index into ``monitors`` (without the union) of the monitor showing point (x, y) of the
    recorded image, or None for a point no monitor shows. With several monitors this is what
    lets a step be cropped to the screen the annotator was looking at."""
    for index, m in enumerate(monitors):
        if m["left"] <= x < m["left"] + m["width"] and m["top"] <= y < m["top"] + m["height"]:
            return index
    return None


class ScreenCapture:
    """A thread grabbing the whole screen into a ring of recent frames.

    Args:
        clock: the recording clock (frame times).
        fps: grabs per second; the keyframe staleness is at most about ``1/fps``.
        blank: called per grab; True stores a blank frame instead (privacy masking).
        paused: called per grab; True skips grabbing.
    """

    def __init__(self, clock: Clock, *, fps: float = 40.0, ring: int = 4, layout_check_s: float = 2.0,
                 blank: Callable[[], bool] | None = None, paused: Callable[[], bool] | None = None):
        self.clock = clock
        self.interval = 1.0 / fps
        self.layout_check_s = layout_check_s
        self.blank = blank or (lambda: False)
        self.paused = paused or (lambda: False)
        self._ring: deque[Frame] = deque(maxlen=ring)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self.error: str | None = None
        self.layout: list[dict[str, int]] = []
        self.grabs = 0
        #: Grab cadence, for the episode's labels: the longest time between two grabs and how
        #: many came over twice the interval late. A keyframe's staleness is bounded by the gap
        #: its action fell into, so these say whether a stale keyframe was the machine's doing
        #: (this thread, or the X server, not scheduled in time) or the grab rate's.
        self.max_gap_s = 0.0
        self.late_grabs = 0

    def start(self, timeout_s: float = 10.0) -> None:
        self._thread = threading.Thread(target=self._run, name="screen-capture", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout_s):
            raise ScreenError(f"no screen frame within {timeout_s:.0f} s")
        if self.error:
            raise ScreenError(self.error)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)

    def latest(self) -> Frame | None:
        return self._ring[-1] if self._ring else None

    def frame_before(self, t: float) -> Frame | None:
        """The newest frame grabbed at or before ``t`` (else the oldest one kept)."""
        frames = list(self._ring)
        for frame in reversed(frames):
            if frame.t <= t:
                return frame
        return frames[0] if frames else None

    def _layout_changed(self) -> bool:
        """Read the monitor layout again; on a change set :attr:`error` and return True."""
        try:
            with open_mss() as fresh:
                layout = screen_layout(fresh)
        except Exception:  # noqa: BLE001 - cannot tell
            return False
        if layout == self.layout:
            return False
        self.error = f"the screen layout changed during recording: {self.layout} -> {layout}"
        return True

    def _run(self) -> None:
        try:
            sct = open_mss()
            self.layout = screen_layout(sct)
        except Exception as exc:  # noqa: BLE001 - reported to the starting thread
            self.error = f"cannot capture the screen: {exc}"
            self._ready.set()
            return
        area = self.layout[0]
        next_check = time.monotonic() + self.layout_check_s
        last_t: float | None = None
        try:
            while not self._stop.is_set():
                started = time.monotonic()
                if self.paused():
                    last_t = None
                else:
                    t = self.clock.now()
                    if last_t is not None:
                        gap = t - last_t
                        self.max_gap_s = max(self.max_gap_s, gap)
                        self.late_grabs += gap > 2 * self.interval
                    last_t = t
                    if self.blank():
                        frame = Frame(t, area["width"], area["height"], None)
                    else:
                        shot = sct.grab(area)
                        frame = Frame(t, shot.width, shot.height, bytes(shot.raw))
                    self._ring.append(frame)
                    self.grabs += 1
                    self._ready.set()
                if started >= next_check:
                    next_check = started + self.layout_check_s
                    if self._layout_changed():
                        return
                self._stop.wait(max(0.0, self.interval - (time.monotonic() - started)))
        except Exception as exc:  # noqa: BLE001
            # A grab of the old area fails as soon as the screen shrinks: say why if that is it.
            if not self._layout_changed():
                self.error = f"screen capture failed: {(str(exc).splitlines() or [type(exc).__name__])[0]}"
        finally:
            self._ready.set()
            try:
                sct.close()
            except Exception:  # noqa: BLE001 - the X server is gone (the desktop died): nothing to close
                pass
