"""GIMP 2.10 (Debian's ``gimp``) as a desktop app, set up like OSWorld's VM.

Each episode's home gets a fresh GIMP profile in ``~/.config/GIMP/2.10`` (GIMP reads
``$XDG_CONFIG_HOME/GIMP/2.10``, which the session points into the home). GIMP makes its
profile itself ("user install") only when that folder does not exist, so writing settings
there means making what its user install makes too: the data folders (GIMP refuses to
save a gradient or a palette into a missing one) and ``menurc``. What else is in it, and why:

* ``sessionrc``: GIMP's own default session (``/etc/gimp/2.0/sessionrc``: single-window
  mode, as on OSWorld's VM, whose tasks hide "the dock on the left side of the screen";
  docks shown) with the image window maximized, so it fills the screen whatever its size
  (GIMP's default is a 1024x768 window). OSWorld's tasks read this file after GIMP quits
  (``hide-docks``), and GIMP rewrites it whole on exit;
* ``gimprc``: only ``(check-updates no)``: no network request for a newer version (the
  About box would otherwise differ from run to run). Everything else keeps GIMP's
  defaults (theme ``Dark``, 5 undo levels, new layers named ``Layer``), which OSWorld's
  tasks start from and check against (``theme``, ``undo-levels``, ``layer-new-name``).

GIMP starts without its splash (``--no-splash``; the splash is a window of its own that
would only delay the main one) and shows no tip or welcome dialog in 2.10, so the first
start is quiet. It cannot reach a running GIMP without a D-Bus session bus (the desktop
has none), so every launch is an instance of its own; OSWorld's tasks launch it once.

Its main window's title is "GNU Image Manipulation Program" without an image and
``[name] (imported)-1.0 (RGB color 8-bit ...) WxH – GIMP`` with one: the file's name
without its extension, so an ``open_file`` step of an image names its ``window``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from gui_agent.envs.desktop.apps.spec import AppContext, AppSpec

#: GIMP's profile folder, relative to the episode's home.
PROFILE = Path(".config/GIMP/2.10")
#: The session GIMP starts from when its profile has none (its install's default).
SYSTEM_SESSIONRC = Path("/etc/gimp/2.0/sessionrc")
#: Settings written to the fresh ``gimprc``.
QUIET_GIMPRC = "(check-updates no)\n"
#: The folders GIMP 2.10's user install makes in a new profile (app/core/gimpuserinstall.c).
USER_INSTALL_FOLDERS = (
    "brushes", "dynamics", "fonts", "gradients", "palettes", "patterns", "tool-presets", "plug-ins", "modules",
    "interpreters", "environ", "scripts", "templates", "themes", "icons", "tmp", "curves", "levels", "filters",
    "fractalexplorer", "gfig", "gflare", "gimpressionist",
)
#: The file its user install copies from the system's configuration.
SYSTEM_MENURC = Path("/etc/gimp/2.0/menurc")


def profile_dir(home: Path) -> Path:
    return home / PROFILE


def maximized_session(text: str) -> str:
    """GIMP's session text with its image windows maximized (``(maximized "yes")``)."""
    return re.sub(r'\(maximized "no"\)', '(maximized "yes")', text)


def prepare_profile(ctx: AppContext) -> None:
    """Write the fresh profile: what GIMP's user install makes, GIMP's default session
    (maximized) and the quiet ``gimprc``."""
    profile = profile_dir(ctx.home)
    for folder in USER_INSTALL_FOLDERS:
        (profile / folder).mkdir(parents=True, exist_ok=True)
    if SYSTEM_MENURC.is_file():
        shutil.copyfile(SYSTEM_MENURC, profile / "menurc")
    (profile / "gimprc").write_text(QUIET_GIMPRC, encoding="utf-8")
    if SYSTEM_SESSIONRC.is_file():
        session = SYSTEM_SESSIONRC.read_text(encoding="utf-8", errors="replace")
        (profile / "sessionrc").write_text(maximized_session(session), encoding="utf-8")


GIMP = AppSpec(
    name="gimp",
    title="GIMP",
    command=("gimp", "--no-splash"),
    window_title=r"GNU Image Manipulation Program|[–-] GIMP$",
    install_hint="install Debian's gimp (`apt-get install --no-install-recommends gimp`; scripts/setup.sh does)",
    prepare=prepare_profile,
    # GIMP titles an opened image "[berry] (imported)-1.0 (RGB color 8-bit gamma integer, ...)".
    file_window_title=lambda name: r"^\[" + re.escape(name.rsplit(".", 1)[0]) + r"\]",
    chatter=(
        # Debian's GTK 2 lacks the pixmap engine GIMP's themes name: a line per widget class
        # and plug-in (a cut log may start in the middle of one), each after a blank line.
        r'_path: "pixmap",?$',
        r"^\s*$",
        # The first start in a fresh profile has no tag cache yet.
        r"Failed to parse tag cache: No such file or directory",
        # The desktop has no D-Bus session bus (on purpose): GIMP says so at every start.
        r"Unknown or unsupported transport .disabled. for address .disabled:.",
        r"gui_dbus_name_lost: connection to the bus cannot be established",
    ),
)
