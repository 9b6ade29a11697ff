"""VS Code as a desktop app (filled in by the OSWorld vscode work)."""

from __future__ import annotations

from gui_agent.envs.desktop.apps.spec import AppSpec

VSCODE = AppSpec(
    name="vscode",
    title="VS Code",
    command=("code-server",),
    window_title=r"Visual Studio Code|code-server",
    install_hint="scripts/setup.sh installs code-server from npm",
)
