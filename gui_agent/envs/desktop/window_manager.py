"""The window manager of a desktop environment: openbox, or none.

Why openbox: a desktop app expects a window manager for focus (a new dialog gets the
keyboard), window titles and the list of windows (EWMH ``_NET_ACTIVE_WINDOW`` and
``_NET_CLIENT_LIST``, which :mod:`gui_agent.envs.desktop.x11_windows` reads), and "activate" /
"close" requests. openbox does all of that in one small process that starts at once,
has no compositor, panel or session daemons (nothing to stop besides its own PID), and
is configured entirely by one XML file we write. xfwm4 or GNOME's mutter pull in a
session; evilwm and matchbox lack parts of EWMH.

The configuration written here makes every run look the same: normal windows open
maximized (so screen coordinates of an app's widgets do not depend on where it was
placed), click-to-focus, new windows get focus, one desktop, and only three key
bindings of its own (Alt+Tab, Alt+F4, and Ctrl+Alt+T opening a terminal as on Ubuntu's
desktop, which OSWorld's tasks expect) so every other key reaches the apps. Mouse
bindings exist only where openbox replays the click to the app (the ``Client`` context)
or on its own decorations: a plain button binding on the ``Frame`` context would
swallow every click inside the windows.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from gui_agent.envs.desktop.x11_windows import X11Windows
from gui_agent.envs.owned_process import OwnedProcess, describe_exit
from gui_agent.errors import EnvError
from gui_agent.polling import poll

WINDOW_MANAGERS = ("openbox", "none")

_INSTALL_HINT = "install it with `apt-get install openbox` (or use window_manager: none)"

OPENBOX_RC = """<?xml version="1.0" encoding="UTF-8"?>
<openbox_config xmlns="http://openbox.org/3.4/rc">
  <resistance><strength>0</strength><screen_edge_strength>0</screen_edge_strength></resistance>
  <focus><focusNew>yes</focusNew><followMouse>no</followMouse></focus>
  <placement><policy>Smart</policy><center>yes</center></placement>
  <desktops><number>1</number><popupTime>0</popupTime></desktops>
  <theme><name>Clearlooks</name><titleLayout>NLIMC</titleLayout><animateIconify>no</animateIconify></theme>
  <keyboard>
    <keybind key="A-Tab"><action name="NextWindow"><dialog>none</dialog></action></keybind>
    <keybind key="A-F4"><action name="Close"/></keybind>
    {terminal_binding}
  </keyboard>
  <mouse>
    <dragThreshold>4</dragThreshold>
    <doubleClickTime>400</doubleClickTime>
    <context name="Client">
      <mousebind button="Left" action="Press"><action name="Focus"/><action name="Raise"/></mousebind>
      <mousebind button="Middle" action="Press"><action name="Focus"/><action name="Raise"/></mousebind>
      <mousebind button="Right" action="Press"><action name="Focus"/><action name="Raise"/></mousebind>
    </context>
    <context name="Titlebar">
      <mousebind button="Left" action="Press"><action name="Focus"/><action name="Raise"/></mousebind>
      <mousebind button="Left" action="Drag"><action name="Move"/></mousebind>
      <mousebind button="Left" action="DoubleClick"><action name="ToggleMaximize"/></mousebind>
    </context>
    <context name="Close">
      <mousebind button="Left" action="Press"><action name="Focus"/><action name="Raise"/></mousebind>
      <mousebind button="Left" action="Click"><action name="Close"/></mousebind>
    </context>
    <context name="Maximize">
      <mousebind button="Left" action="Click"><action name="ToggleMaximize"/></mousebind>
    </context>
    <context name="Iconify">
      <mousebind button="Left" action="Click"><action name="Iconify"/></mousebind>
    </context>
  </mouse>
  <applications>
    <application type="normal"><maximized>yes</maximized><focus>yes</focus></application>
  </applications>
</openbox_config>
"""


def _terminal_binding(config_dir: Path, terminal: Sequence[str] | None) -> str:
    """The Ctrl+Alt+T binding running ``terminal`` (through a script, so its arguments need
    no quoting in openbox's XML), or nothing without a terminal."""
    if not terminal:
        return ""
    script = config_dir / "open-terminal"
    script.write_text("#!/bin/sh\ncd \"$HOME\" && exec " + shlex.join(terminal) + "\n", encoding="utf-8")
    script.chmod(0o700)
    return f'<keybind key="C-A-t"><action name="Execute"><command>{escape(str(script))}</command></action></keybind>'


def start_window_manager(
    kind: str, *, display: str, env: dict[str, str], config_dir: Path, windows: X11Windows, timeout_s: float = 10.0,
    terminal: Sequence[str] | None = None,
) -> OwnedProcess | None:
    """Start the window manager ``kind`` on ``display`` and wait until it manages windows.

    ``terminal``: the command Ctrl+Alt+T runs (None: no such key). Returns the process
    (None for ``"none"``).

    Raises:
        EnvError: unknown kind, openbox missing, or not ready within ``timeout_s``.
    """
    if kind == "none":
        return None
    if kind != "openbox":
        raise EnvError(f"unknown window manager {kind!r}; expected one of {', '.join(WINDOW_MANAGERS)}")
    config_dir.mkdir(parents=True, exist_ok=True)
    rc = config_dir / "openbox-rc.xml"
    rc.write_text(OPENBOX_RC.replace("{terminal_binding}", _terminal_binding(config_dir, terminal)), encoding="utf-8")
    proc = OwnedProcess(
        ["openbox", "--config-file", str(rc), "--sm-disable"],
        name="openbox",
        env={**env, "DISPLAY": display},
        log_path=config_dir / "openbox.log",
        install_hint=_INSTALL_HINT,
    )
    proc.start()
    deadline = time.monotonic() + timeout_s

    def took_over() -> bool:
        if windows.has_window_manager():
            return True
        if not proc.is_alive():
            raise EnvError(f"openbox exited during start-up ({describe_exit(proc.returncode())}): {proc.log_tail() or '(no output)'}")
        return False

    if not poll(took_over, timeout_s=timeout_s, interval_s=0.01):
        proc.stop()
        raise EnvError(f"openbox did not take over the display within {timeout_s:.0f} s: {proc.log_tail() or '(no output)'}")
    if not windows.wait_until_managing(max(0.5, deadline - time.monotonic())):
        proc.stop()
        raise EnvError(f"openbox did not manage a new window within {timeout_s:.0f} s: {proc.log_tail() or '(no output)'}")
    return proc
