"""What the desktop needs to know of an app: how to check, prepare, launch and clean it up.

Each app module (:mod:`.libreoffice`, :mod:`.thunderbird`) defines its :class:`AppSpec`;
:mod:`.catalogue` lists them by the names task files use.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gui_agent.errors import EnvError


@dataclass(frozen=True)
class AppContext:
    """What an app's hooks may use: the episode's home, its private folder, settings."""

    home: Path
    private_dir: Path
    env: dict[str, str]
    settings: dict[str, Any] = field(default_factory=dict)
    #: The loopback port reserved for the app's control interface (None: it has none).
    port: int | None = None


@dataclass(frozen=True)
class AppSpec:
    """One app a task can use.

    Attributes:
        name: the name task files use (``calc``).
        title: what people call it, for messages.
        command: the launch command (``argv[0]`` looked up on PATH) before extra args;
            ``{home}`` stands for the episode's home folder.
        window_title: a regex matching the app's main window title once it is up.
        install_hint: how to install it.
        required_files: files that must exist besides the executable (an app module).
        prepare: writes the app's settings into a fresh home folder before any launch.
        open_command: the command opening a file (gets the absolute path).
        leftovers: files the app leaves outside the episode's folder even when stopped
            (given the home folder), removed after it stops.
        adapt_command: adjusts the launch command to what the home folder holds at launch
            time (given the home and the command), e.g. a profile a setup step unpacked.
        chatter: regexes of lines the app prints at every start, which say nothing about
            why it crashed; they are left out of the crash message's output.
        launch_idle_max_s: how long launch and open_file wait, after the app's window
            shows, for the screen and the app's CPU to go idle (None: until the step's
            deadline). A player showing a video never goes idle; an app that says itself
            when it is ready (VS Code's window title) needs only a moment more.
        file_window_title: the title regex of the window showing a file the app opened
            (given the file's name); by default the name itself.
        control_port: the app serves a control interface on loopback (Chromium's DevTools,
            VLC's HTTP interface) that checks read its state through. The session reserves
            a free port for it per episode; ``{port}`` in :attr:`command` stands for it,
            and checks ask the probe's ``app_port(name)``.
    """

    name: str
    title: str
    command: tuple[str, ...]
    window_title: str
    install_hint: str
    required_files: tuple[Path, ...] = ()
    prepare: Callable[[AppContext], None] | None = None
    open_command: Callable[[str], Sequence[str]] | None = None
    leftovers: Callable[[Path], Sequence[Path]] | None = None
    adapt_command: Callable[[Path, list[str]], list[str]] | None = None
    chatter: tuple[str, ...] = ()
    control_port: bool = False
    file_window_title: Callable[[str], str] | None = None
    launch_idle_max_s: float | None = None

    def window_for_file(self, name: str) -> str:
        """The title regex of the window showing the file ``name`` once the app opened it."""
        return self.file_window_title(name) if self.file_window_title is not None else re.escape(name)

    def without_chatter(self, output: str) -> str:
        """``output`` less the lines that match :attr:`chatter`."""
        if not self.chatter:
            return output
        pattern = re.compile("|".join(f"(?:{c})" for c in self.chatter))
        return "\n".join(line for line in output.splitlines() if not pattern.search(line)).strip()

    def check_installed(self, path_env: str | None = None) -> None:
        """Raise :class:`EnvError` naming the package to install if the app is missing."""
        if shutil.which(self.command[0], path=path_env or os.environ.get("PATH", os.defpath)) is None:
            raise EnvError(f"{self.title} is not installed ({self.command[0]!r} not found on PATH): {self.install_hint}")
        for required in self.required_files:
            if not required.exists():
                raise EnvError(f"{self.title} is not installed ({required} is missing): {self.install_hint}")

    def launch_argv(self, args: Sequence[str] = (), *, home: Path | None = None, port: int | None = None) -> list[str]:
        """The launch command; ``{home}`` in it becomes the episode's home folder, ``{port}``
        the app's control port."""
        argv = [_fill(part, home=home, port=port) for part in self.command] + list(args)
        if self.adapt_command is not None and home is not None:
            argv = self.adapt_command(home, argv)
        return argv

    def open_argv(self, path: str, *, home: Path | None = None, port: int | None = None) -> list[str]:
        if self.open_command is None:
            return [*self.launch_argv(home=home, port=port), path]
        return list(self.open_command(path))


def _fill(part: str, *, home: Path | None, port: int | None) -> str:
    """One word of a launch command with ``{home}`` and ``{port}`` filled in."""
    if "{home}" in part:
        part = part.replace("{home}", str(home))
    if "{port}" in part:
        if port is None:
            raise EnvError(f"the launch command {part!r} needs the app's control port, and none was reserved")
        part = part.replace("{port}", str(port))
    return part


__all__ = ["AppContext", "AppSpec"]
