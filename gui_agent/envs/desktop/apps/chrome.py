"""Chromium as a desktop app (filled in by the OSWorld chrome work)."""

from __future__ import annotations

from gui_agent.envs.desktop.apps.spec import AppSpec

CHROME = AppSpec(
    name="chrome",
    title="Chromium",
    command=("chromium", "--remote-debugging-port={port}"),
    window_title=r"Chromium",
    install_hint="install Debian's chromium (scripts/setup.sh does)",
    control_port=True,
)
