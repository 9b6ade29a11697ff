"""How much CPU the apps of a desktop used: the signal that they finished handling input.

An app handles an input event some time after the X server delivered it, then repaints;
nothing in X tells an observer when it is done. EWMH's ``_NET_WM_PING`` looks like a
barrier but is not one: on LibreOffice, the answer to a ping sent after a typed formula
comes back while the formula has not been entered yet (VCL answers
client messages as it reads them and handles key events later). So a step watches the
apps instead: it is settled when their threads stopped running *and* the screen stopped
changing (see :meth:`gui_agent.envs.desktop.screen_capture.ScreenCapture.settle`).

CPU time comes from ``/proc/PID/task/TID/schedstat`` (nanoseconds on the CPU, exact),
not from ``/proc/PID/stat`` (10 ms ticks: a keystroke often costs less than one).
"""

from __future__ import annotations

import os
from collections.abc import Iterable


def cpu_time_ns(pids: Iterable[int]) -> int:
    """Total nanoseconds all threads of ``pids`` have spent on a CPU (gone ones count 0)."""
    total = 0
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as fh:
                    total += int(fh.read().split(b" ", 1)[0])
            except (OSError, ValueError):
                continue
    return total
