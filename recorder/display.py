"""Checking, before anything is recorded, that the X display can be recorded at all."""

from __future__ import annotations

import os

from gui_agent.recorder.errors import RecorderError


def check_display(display: str | None = None) -> str:
    """Return the usable display name, or raise :class:`RecorderError` saying what is wrong.

    Checks: a display is named, the X server accepts a connection, and it offers the
    RECORD extension (how input is observed) — so a recording never starts empty.
    """
    name = display or os.environ.get("DISPLAY")
    if not name:
        raise RecorderError("no X display: set DISPLAY or pass --display :N (on a VM, start Xvfb first)")
    try:
        from Xlib import display as xdisplay
        from Xlib.error import DisplayError

        try:
            conn = xdisplay.Display(name)
        except DisplayError as exc:
            raise RecorderError(f"cannot open X display {name!r}: {exc}; is the X server (Xvfb) running, "
                                f"and may this user connect to it (xhost/XAUTHORITY)?") from None
    except ImportError as exc:  # pragma: no cover - dependency missing
        raise RecorderError(f"python-xlib is missing ({exc}); pip install python-xlib") from None
    try:
        if not conn.has_extension("RECORD"):
            raise RecorderError(f"X display {name!r} lacks the RECORD extension, so input cannot be recorded; "
                                "start Xvfb with +extension RECORD")
    finally:
        conn.close()
    return name
