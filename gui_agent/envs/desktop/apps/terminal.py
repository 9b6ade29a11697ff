"""Terminal as a desktop app (filled in by the OSWorld terminal work)."""

from __future__ import annotations

from gui_agent.envs.desktop.apps.spec import AppSpec

TERMINAL = AppSpec(
    name="terminal",
    title="Terminal",
    command=("xterm",),
    window_title=r"xterm|Terminal",
    install_hint="install Debian's xterm (scripts/setup.sh does)",
)
