"""GIMP as a desktop app (filled in by the OSWorld gimp work)."""

from __future__ import annotations

from gui_agent.envs.desktop.apps.spec import AppSpec

GIMP = AppSpec(
    name="gimp",
    title="GIMP",
    command=("gimp",),
    window_title=r"GNU Image Manipulation Program",
    install_hint="install Debian's gimp (scripts/setup.sh does)",
)
