"""The apps a desktop task can name, and how each is prepared and launched.

A task lists the apps it needs (``environment.apps: [calc]``); the environment checks
they are installed when it starts (a clear error with the apt package otherwise),
prepares their settings in the episode's fresh home folder, and setup steps launch them
(``launch: {app: calc}``) or open files in them (``open_file: {path: ..., app: calc}``).

Settings are chosen so a run is reproducible and not interrupted by first-run noise; they
are listed per app below, with why.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gui_agent.errors import EnvError

#: LibreOffice settings written into a fresh profile before its first start
#: (``registrymodifications.xcu``; LibreOffice merges its own defaults in):
#:
#: * no "Tip of the Day" dialog, "What's new"/"Get involved"/"Donate" bars on first start;
#: * ``WarnAlienFormat`` off: Ctrl+S on an .xlsx file saves it as .xlsx without the
#:   "Use Excel 2007-365! / Use ODF Format!" question (OSWorld's post-step presses Ctrl+S);
#: * no auto-save or crash-recovery files, no recovery dialog after a killed run;
#: * Calc's AutoInput off: typing "No" under "North" must enter "No", not complete it;
#: * LibreOffice's own file dialogs (there is no desktop portal here) and no macros.
LIBREOFFICE_SETTINGS: tuple[tuple[str, str, str], ...] = (
    ("/org.openoffice.Office.Common/Misc", "ShowTipOfTheDay", "false"),
    ("/org.openoffice.Office.Common/Misc", "FirstRun", "false"),
    ("/org.openoffice.Office.Common/Misc", "UseSystemFileDialog", "false"),
    ("/org.openoffice.Office.Common/Save/Document", "WarnAlienFormat", "false"),
    ("/org.openoffice.Office.Common/Security/Scripting", "MacroSecurityLevel", "3"),
    ("/org.openoffice.Office.Recovery/AutoSave", "Enabled", "false"),
    ("/org.openoffice.Office.Recovery/RecoveryInfo", "Enabled", "false"),
    ("/org.openoffice.Office.Calc/Input", "AutoInput", "false"),
    ("/org.openoffice.Setup/Product", "ooSetupLastVersion", "99.0"),
    ("/org.openoffice.Setup/Product", "LastTimeDonateShown", "4102444800"),
    ("/org.openoffice.Setup/Product", "LastTimeGetInvolvedShown", "4102444800"),
    ("/org.openoffice.Setup/Office", "ooSetupInstCompleted", "true"),
)

#: Where LibreOffice keeps its profile under ``$HOME``.
LIBREOFFICE_PROFILE = Path(".config/libreoffice/4/user")
LIBREOFFICE_PROGRAM = Path("/usr/lib/libreoffice/program")


@dataclass(frozen=True)
class AppContext:
    """What an app's hooks may use: the episode's home, its private folder, settings."""

    home: Path
    private_dir: Path
    env: dict[str, str]
    settings: dict[str, Any] = field(default_factory=dict)


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

    def check_installed(self, path_env: str | None = None) -> None:
        """Raise :class:`EnvError` naming the package to install if the app is missing."""
        if shutil.which(self.command[0], path=path_env or os.environ.get("PATH", os.defpath)) is None:
            raise EnvError(f"{self.title} is not installed ({self.command[0]!r} not found on PATH): {self.install_hint}")
        for required in self.required_files:
            if not required.exists():
                raise EnvError(f"{self.title} is not installed ({required} is missing): {self.install_hint}")

    def launch_argv(self, args: Sequence[str] = (), *, home: Path | None = None) -> list[str]:
        """The launch command; ``{home}`` in it becomes the episode's home folder."""
        return [part.format(home=home) if "{home}" in part else part for part in self.command] + list(args)

    def open_argv(self, path: str, *, home: Path | None = None) -> list[str]:
        if self.open_command is None:
            return [*self.launch_argv(home=home), path]
        return list(self.open_command(path))


def _xcu(settings: tuple[tuple[str, str, str], ...]) -> str:
    items = "\n".join(
        f'<item oor:path="{path}"><prop oor:name="{name}" oor:op="fuse"><value>{value}</value></prop></item>'
        for path, name, value in settings
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        f"{items}\n</oor:items>\n"
    )


def prepare_libreoffice(ctx: AppContext) -> None:
    """Write :data:`LIBREOFFICE_SETTINGS` into ``$HOME/.config/libreoffice/4/user``."""
    profile = ctx.home / LIBREOFFICE_PROFILE
    profile.mkdir(parents=True, exist_ok=True)
    target = profile / "registrymodifications.xcu"
    if not target.exists():
        target.write_text(_xcu(LIBREOFFICE_SETTINGS), encoding="utf-8")


def libreoffice_ipc_socket(user_installation: Path) -> Path:
    """The socket a LibreOffice instance listens on so later launches hand it their files.

    LibreOffice puts it in ``/tmp`` whatever ``TMPDIR`` says, names it after an MD5 of its
    ``UserInstallation`` URL (each byte in hex without zero padding, as
    ``desktop/source/app/officeipcthread.cxx`` writes it) and removes it only on a clean
    exit: every instance stopped by a signal leaves one behind.
    """
    url = "file://" + urllib.parse.quote(str(user_installation.resolve()))
    digest = hashlib.md5(url.encode("utf-16-le"), usedforsecurity=False).digest()
    return Path("/tmp") / f"OSL_PIPE_{os.getuid()}_SingleOfficeIPC_{''.join(format(b, 'x') for b in digest)}"


def _libreoffice_leftovers(home: Path) -> list[Path]:
    return [libreoffice_ipc_socket(home / LIBREOFFICE_PROFILE.parent)]


_LIBREOFFICE_FLAGS = ("--norestore", "--nologo", "--nolockcheck", "--nodefault")

CALC = AppSpec(
    name="calc",
    title="LibreOffice Calc",
    command=("soffice", "--calc", *_LIBREOFFICE_FLAGS[:3]),
    window_title=r"LibreOffice Calc",
    install_hint="install it with `apt-get install --no-install-recommends libreoffice-calc`",
    required_files=(LIBREOFFICE_PROGRAM / "libsclo.so",),
    prepare=prepare_libreoffice,
    open_command=lambda path: ["soffice", *_LIBREOFFICE_FLAGS[:3], path],
    leftovers=_libreoffice_leftovers,
)

def _prepare_thunderbird(ctx: AppContext) -> None:
    from gui_agent.envs.thunderbird import prepare_profile

    prepare_profile(ctx)


THUNDERBIRD = AppSpec(
    name="thunderbird",
    title="Thunderbird",
    command=("thunderbird", "--no-remote", "--profile", "{home}/.thunderbird/gui-agent.default"),
    window_title=r"Mozilla Thunderbird",
    install_hint="install it with `apt-get install --no-install-recommends thunderbird`",
    prepare=_prepare_thunderbird,
)

#: Every app by name (the names task files may use).
APPS: dict[str, AppSpec] = {spec.name: spec for spec in (CALC, THUNDERBIRD)}


def get_app(name: str) -> AppSpec:
    """The app called ``name``; unknown names raise :class:`EnvError` listing the known ones."""
    try:
        return APPS[name]
    except KeyError:
        raise EnvError(f"unknown app {name!r}; known apps: {', '.join(sorted(APPS))}") from None
