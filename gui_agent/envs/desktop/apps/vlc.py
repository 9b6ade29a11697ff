"""VLC as a desktop app (filled in by the OSWorld vlc work)."""

from __future__ import annotations

from gui_agent.envs.desktop.apps.spec import AppSpec

VLC = AppSpec(
    name="vlc",
    title="VLC",
    command=("vlc",),
    window_title=r"VLC media player",
    install_hint="install Debian's vlc (scripts/setup.sh does)",
    control_port=True,
)
