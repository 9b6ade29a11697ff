"""The file manager: PCManFM, standing in for Ubuntu's Files (Nautilus).

OSWorld's os tasks open a folder (``xdg-open ~/project``) and leave the agent to work
from there. PCManFM shows a folder's files, opens them, copies, renames and deletes them
(to the trash in ``~/.local/share/Trash``, as Nautilus does), and opens a terminal in the
folder shown (Tools > Open Current Folder in Terminal, F4): :func:`_prepare` makes that
terminal the desktop's terminal app, so checks can read its screen.

What differs from Nautilus: the look and menus; no ``trash://`` view and no network
places (both come from GVfs daemons talking over the session bus, which desktop sessions
do not have: files put in the trash are restored from ``~/.local/share/Trash``, e.g. in a
terminal); the window's title is the folder's name alone.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from gui_agent.envs.desktop.apps.spec import AppContext, AppSpec
from gui_agent.envs.desktop.apps.terminal import BASE_COMMAND as TERMINAL_COMMAND

#: libfm's settings (shared by PCManFM's windows), relative to the episode's home.
LIBFM_CONF = Path(".config/libfm/libfm.conf")


def _prepare(context: AppContext) -> None:
    """libfm's settings as Debian ships them, but its terminal is the desktop's terminal app
    (xterm runs the user's shell there, in the folder shown)."""
    conf = context.home / LIBFM_CONF
    conf.parent.mkdir(parents=True, exist_ok=True)
    conf.write_text(
        "[config]\nsingle_click=0\nuse_trash=1\nconfirm_del=1\n"
        f"terminal={shlex.join(TERMINAL_COMMAND)}\nthumbnail_local=1\n",
        encoding="utf-8",
    )


FILE_MANAGER = AppSpec(
    name="file_manager",
    title="File manager",
    command=("pcmanfm",),
    window_title=r"^home$",  # the home folder's name: the episode's home is .../home
    install_hint="install Debian's pcmanfm (scripts/setup.sh does)",
    prepare=_prepare,
    chatter=(r"WARNING \*\*", r"Gdk-WARNING", r"^\s*$"),
)
