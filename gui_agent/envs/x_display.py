"""Checking the X display a headed browser will be shown on, before anything starts.

A missing or wrong display is the user's setting, not a broken environment: checked
here, it is one clear line and exit 2 instead of an environment failure carrying
Chromium's stderr. Connecting once (python-xlib, no process started) is the check.
"""

from __future__ import annotations

import os

from gui_agent.errors import DisplayError


def check_display(display: str | None = None, *, option: str = "--headed", has_display_option: bool = True) -> str:
    """The X display to use (``display``, else ``$DISPLAY``), once an X server there accepted a connection.

    Args:
        display: the display the user named (``":99"``), or None for ``$DISPLAY``.
        option: the option that needs the display, for the message.
        has_display_option: the command has ``--display`` (else the message says to set ``DISPLAY``).

    Raises:
        DisplayError: no display is named, the name is malformed, or nothing answers there.
    """
    from Xlib import display as xdisplay
    from Xlib.error import DisplayError as XDisplayError

    name = display or os.environ.get("DISPLAY")
    if not name:
        how = "pass --display :N" if has_display_option else "set DISPLAY=:N"
        raise DisplayError(f"{option} needs an X display: $DISPLAY is not set; {how} "
                           "naming a running X server (e.g. one started with 'Xvfb :99')")
    where = f"--display {name}" if display else f"$DISPLAY ({name})"
    try:
        connection = xdisplay.Display(name)
    except XDisplayError as exc:
        raise DisplayError(f"{where}: no X server accepts a connection there ({exc}); "
                           "is it running, and may this user connect to it (XAUTHORITY)?") from None
    connection.close()
    return name
