"""OSWorld's VS Code getter as our source (:mod:`gui_agent.checks.sources.code`).

``vscode_config`` runs a VS Code command from the command palette (Ctrl+Shift+P, its
``vscode_extension_command``, Enter) and returns the file it writes (``path``): the
``vscode_command_result`` source does the same on the episode's desktop.
"""

from __future__ import annotations

from typing import Any

from gui_agent.checks.osworld.config import home_path
from gui_agent.checks.osworld.getters.base import Getter, SourceSpec
from gui_agent.checks.osworld.metric import Files, kind_of
from gui_agent.errors import OsworldConfigError


def _vscode_config(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    command, path = spec.get("vscode_extension_command"), spec.get("path")
    if not isinstance(command, str) or not command.strip():
        raise OsworldConfigError(f"{where}.vscode_extension_command", f"expected the command to run, got {kind_of(command)}")
    if not isinstance(path, str) or not path.strip():
        raise OsworldConfigError(f"{where}.path", f"expected the file the command writes, got {kind_of(path)}")
    return {"vscode_command_result": {"command": command, "path": home_path(path)}}


#: OSWorld getter type -> its conversion to a source.
GETTERS: dict[str, Getter] = {"vscode_config": _vscode_config}
#: OSWorld getter type -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {}
