"""VLC (Debian's VLC 3, ``/usr/bin/vlc``) as a desktop app, with its HTTP interface on loopback.

What an episode gets:

* VLC's Qt interface, plus its HTTP interface (``--extraintf http``) on the loopback port
  the session reserves for it (``control_port``): the media checks read what it plays
  (``/requests/status.xml``) there, as OSWorld's ``vlc_playing_info`` getter does on its VM.
* A fresh ``~/.config/vlc/vlcrc`` in the episode's home, as VLC leaves it once someone
  answered its first-start question: ``qt-privacy-ask=0`` (no "Privacy and Network Access
  Policy" dialog). Debian builds VLC without its update checker, so there is no update
  setting to turn off. Everything else keeps VLC's defaults, so OSWorld's settings tasks
  (the recordings folder, the volume slider, the maximum volume...) start where theirs do.
* Options that only fit this desktop go on the command line, never into ``vlcrc``: VLC
  keeps command-line options as variables of its instance, so saving the preferences
  does not write them (a test checks that it does not). They are the HTTP interface, no
  D-Bus (the session has no bus; VLC would show an error dialog) and ALSA's ``null``
  device as the sound card (the desktop has none: VLC would show an "audio output failed"
  dialog; ``null`` plays at the real pace and keeps VLC's volume control at 100 %, where
  VLC's own ``adummy`` output shows it at 0 %).

The HTTP password: VLC 3 refuses its HTTP interface without one. The checks learn only the
port from the probe, so the password is a fixed word the media sources share
(:data:`HTTP_PASSWORD`, equal to :data:`gui_agent.checks.sources.media.VLC_HTTP_PASSWORD`,
which a test keeps equal: ``checks`` and ``envs`` may not import each other). It is on
VLC's command line only, never in the home folder. It guards nothing a person at the
desktop could not do: the interface listens on loopback, and whoever drives it changes
VLC's real state, which is what the checks read.

Root: Debian's ``vlc`` binary refuses to run as root ("VLC is not supposed to be run as
root. Sorry."; a compile-time check in its 14 kB launcher, not in libvlc). When this
Python runs as root (containers), VLC starts in a user namespace of its own where it is
uid/gid 1000 (``unshare --user --map-user=1000 --map-group=1000``): the kernel still sees
root, so the files it writes in the home folder belong to the same user as everything
else, while the launcher sees a non-zero uid. Nothing else changes (same display, same
loopback network, same files).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from gui_agent.envs.desktop.apps.spec import AppContext, AppSpec
from gui_agent.errors import EnvError

#: The HTTP interface's password (see the module docstring for why a fixed one).
HTTP_PASSWORD = "gui-agent-vlc"
#: VLC's settings file, relative to the episode's home.
VLCRC = Path(".config/vlc/vlcrc")
#: The uid and gid VLC sees when started as root (any non-zero id does).
NAMESPACE_ID = 1000

#: The settings a fresh vlcrc holds, by module section.
FIRST_START_SETTINGS: dict[str, dict[str, str]] = {
    "qt": {"qt-privacy-ask": "0"},
}


def vlcrc_path(home: Path) -> Path:
    return home / VLCRC


def prepare_settings(ctx: AppContext) -> None:
    """Write the episode's ``vlcrc`` (unless a setup step already placed one)."""
    path = vlcrc_path(ctx.home)
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# VLC media player settings (first-start answers only; the rest are VLC's defaults)"]
    for section, settings in FIRST_START_SETTINGS.items():
        lines += ["", f"[{section}]", *(f"{key}={value}" for key, value in settings.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def not_as_root(home: Path, argv: list[str]) -> list[str]:
    """``argv`` as it must start here: inside a user namespace of its own when we are root."""
    if os.geteuid() != 0:
        return argv
    unshare = shutil.which("unshare")
    if unshare is None:
        raise EnvError("VLC refuses to run as root, and util-linux's unshare (to run it as another uid) is missing")
    return [unshare, "--user", f"--map-user={NAMESPACE_ID}", f"--map-group={NAMESPACE_ID}", "--", *argv]


VLC = AppSpec(
    name="vlc",
    title="VLC",
    launch_idle_max_s=3.0,  # a playing video keeps the screen changing: its window is the sign it is up
    command=(
        "vlc", "--no-dbus", "--aout=alsa", "--alsa-audio-device=null",
        "--extraintf=http", "--http-host=127.0.0.1", "--http-port={port}", f"--http-password={HTTP_PASSWORD}",
    ),
    window_title=r"VLC media player",
    install_hint="install Debian's vlc (scripts/setup.sh does)",
    prepare=prepare_settings,
    adapt_command=not_as_root,
    chatter=(  # what VLC prints at every start on this desktop
        r"lua interface: Lua HTTP interface$", r"main libvlc: Running vlc with the default interface",
        r"dbus_screensaver inhibit error: cannot connect to session bus", r"gl gl: Initialized libplacebo",
        r"^Failed to open VDPAU backend", r"^ALSA lib ", r"^QStandardPaths: ", r"^libva (info|error): ",
    ),
    control_port=True,
)

__all__ = ["HTTP_PASSWORD", "VLC", "VLCRC", "not_as_root", "prepare_settings", "vlcrc_path"]
