"""LibreOffice: a fresh, quiet profile per episode, and its apps (Calc here; Writer and
Impress in :mod:`.writer` and :mod:`.impress`, made with :func:`libreoffice_app`).

Settings are chosen so a run is reproducible and not interrupted by first-run noise; they
are listed below, with why.
"""

from __future__ import annotations

import hashlib
import os
import re
import urllib.parse
from pathlib import Path

from gui_agent.envs.desktop.apps.spec import AppContext, AppSpec

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


_LIBREOFFICE_FLAGS = ("--norestore", "--nologo", "--nolockcheck")


def libreoffice_app(*, name: str, module: str, title: str, package: str, library: str) -> AppSpec:
    """One LibreOffice app: the shared quiet profile, ``soffice --<module>``, its main window.

    All of them are one LibreOffice process per episode (a later launch or an opened file
    is handed to the running instance), so they share :func:`prepare_libreoffice` and the
    leftover IPC socket. ``library``: the app's module in LibreOffice's program folder,
    present only when its Debian ``package`` is installed.
    """
    return AppSpec(
        name=name,
        title=title,
        command=("soffice", f"--{module}", *_LIBREOFFICE_FLAGS),
        window_title=re.escape(title),
        install_hint=f"install it with `apt-get install --no-install-recommends {package}`",
        required_files=(LIBREOFFICE_PROGRAM / library,),
        prepare=prepare_libreoffice,
        open_command=lambda path: ["soffice", *_LIBREOFFICE_FLAGS, path],
        leftovers=_libreoffice_leftovers,
        # Its launcher looks for a Java runtime at every start; none is installed, nor needed.
        chatter=(r"\bjavaldx\b",),
    )


CALC = libreoffice_app(name="calc", module="calc", title="LibreOffice Calc", package="libreoffice-calc", library="libsclo.so")


__all__ = [
    "CALC", "LIBREOFFICE_PROFILE", "LIBREOFFICE_SETTINGS", "libreoffice_app", "libreoffice_ipc_socket", "prepare_libreoffice",
]
