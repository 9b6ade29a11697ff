"""The apps a desktop task can name, and how each is prepared and launched.

A task lists the apps it needs (``environment.apps: [calc]``); the environment checks
they are installed when it starts (a clear error with the apt package otherwise),
prepares their settings in the episode's fresh home folder, and setup steps launch them
(``launch: {app: calc}``) or open files in them (``open_file: {path: ..., app: calc}``).
Each app's module says how; this one lists them.
"""

from __future__ import annotations

from typing import Literal

from gui_agent.envs.desktop.apps.chrome import CHROME
from gui_agent.envs.desktop.apps.file_manager import FILE_MANAGER
from gui_agent.envs.desktop.apps.gimp import GIMP
from gui_agent.envs.desktop.apps.impress import IMPRESS
from gui_agent.envs.desktop.apps.libreoffice import CALC
from gui_agent.envs.desktop.apps.spec import AppContext, AppSpec
from gui_agent.envs.desktop.apps.terminal import TERMINAL
from gui_agent.envs.desktop.apps.text_editor import TEXT_EDITOR
from gui_agent.envs.desktop.apps.thunderbird import THUNDERBIRD
from gui_agent.envs.desktop.apps.vlc import VLC
from gui_agent.envs.desktop.apps.vscode import VSCODE
from gui_agent.envs.desktop.apps.writer import WRITER
from gui_agent.errors import EnvError

#: Every app by name (the names task files may use).
APPS: dict[str, AppSpec] = {
    spec.name: spec for spec in (CALC, WRITER, IMPRESS, THUNDERBIRD, CHROME, GIMP, VLC, VSCODE, TERMINAL, FILE_MANAGER,
                                  TEXT_EDITOR)
}
#: The same names as a type, for the task-file schema (``environment.apps``, ``launch: {app}``);
#: a test keeps the two equal.
DesktopApp = Literal["calc", "writer", "impress", "thunderbird", "chrome", "gimp", "vlc", "vscode", "terminal",
                     "file_manager", "text_editor"]


def get_app(name: str) -> AppSpec:
    """The app called ``name``; unknown names raise :class:`EnvError` listing the known ones."""
    try:
        return APPS[name]
    except KeyError:
        raise EnvError(f"unknown app {name!r}; known apps: {', '.join(sorted(APPS))}") from None


__all__ = ["APPS", "AppContext", "AppSpec", "DesktopApp", "get_app"]
