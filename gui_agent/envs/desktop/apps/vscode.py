"""VS Code as a desktop app: code-server (VS Code 1.100, built from the npm registry by
``scripts/install_code_server.sh`` into ``.tools/code-server``) shown in a Chromium app window.

Why code-server: Microsoft's desktop VS Code is not in any package registry this project
may use; code-server is the same workbench (VS Code's own source, served to a browser)
and installs from npm. The app is two processes, so its command is a small launcher
(:mod:`.vscode_launcher`) that starts both, opens what it is given, and stops both.

Where things are, per episode (its fresh home), as OSWorld's checks expect them:

* user data ``~/.config/Code`` (``--user-data-dir``): the user's ``User/settings.json``
  and ``User/keybindings.json`` are where VS Code desktop keeps them on Linux;
* extensions ``~/.vscode/extensions`` (``--extensions-dir``), VS Code's default;
* ``code``: VS Code's command line for the episode (``code --list-extensions``, ``code
  --install-extension FILE.vsix``, ``code PATH``), a script in the session's private
  folder put first on the session's ``PATH`` (the apps, setup commands and checks see it);
* code-server's own config ``~/.config/code-server/config.yaml``: bound to 127.0.0.1 on
  the port the session reserved for the episode, no password (below).

Why no password: code-server listens on the loopback interface only, on a port reserved
for this one episode, and the episode's desktop is the only client (no port is forwarded
anywhere). A password would only stand between the agent and the editor: the browser
window would open on a login page. Whoever can reach 127.0.0.1 on this machine can
already run any program as this user.

What differs from VS Code desktop (the OSWorld VM's):

* the window is a browser window: the title bar and menus are the workbench's own (a
  hamburger menu at the top left instead of a menu bar), and a few browser shortcuts win
  over VS Code's (``ctrl+w``, ``ctrl+n``, ``ctrl+shift+w`` act on the browser window);
* File > Open Folder and Save As use VS Code's own "simple" file dialog (a path box
  with a list), not the GTK dialog;
* no extension marketplace (there is no internet here): extensions install from a
  ``.vsix`` file (Extensions view > ... > Install from VSIX, or ``code
  --install-extension FILE``); a task that needs the marketplace cannot be done;
* its window title ends with "Visual Studio Code" as the desktop's does, from a default
  that code-server's window takes once VS Code has registered its extensions (before,
  it ends with "code-server" and the command palette lists no command), so a launch
  is over when VS Code can be used; it starts without a welcome page, with the
  desktop's default theme (defaults from a built-in extension, so the user's
  ``settings.json`` holds only what the user set); telemetry, update checks and
  workspace trust are off;
* the launcher's two processes run in sessions of their own (every process here is an
  OwnedProcess), so a desktop session's "apps are idle" test does not count their CPU.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

from gui_agent.envs.desktop.apps.spec import AppContext, AppSpec

#: The repository root (the install script puts code-server in its ``.tools``).
REPO = Path(__file__).resolve().parents[4]
#: code-server's entry point, as scripts/install_code_server.sh installs it.
CODE_SERVER = REPO / ".tools" / "code-server" / "node_modules" / "code-server" / "out" / "node" / "entry.js"
#: VS Code's user data folder, relative to the episode's home (``User/settings.json`` is in it).
USER_DATA = Path(".config/Code")
#: The extensions folder, relative to the episode's home.
EXTENSIONS = Path(".vscode/extensions")
#: code-server's own config file, relative to the episode's home.
SERVER_CONFIG = Path(".config/code-server/config.yaml")
#: The launcher module (the app's command).
LAUNCHER = "gui_agent.envs.desktop.apps.vscode_launcher"
#: What its window titles end with once it can be used (see the module docstring).
TITLE = "Visual Studio Code$"
#: Settings of the machine (code-server's "Remote" settings, ``~/.config/Code/Machine``), not
#: the user's: VS Code starts without its welcome page and walkthrough, as on a desktop
#: that was used before. The user's own settings.json stays empty until the user sets
#: something (tasks compare it). Remote settings rank above the user's, so only settings
#: that no task asks the user to change belong here.
MACHINE_SETTINGS: dict[str, object] = {
    "workbench.startupEditor": "none",
    "workbench.welcomePage.walkthroughs.openOnInstall": False,
    "workbench.tips.enabled": False,
}
#: Flags of code-server's command line that manage extensions or print facts, not open a window.
CLI_FLAGS = ("--list-extensions", "--install-extension", "--uninstall-extension", "--show-versions",
             "--version", "-v", "--help", "-h")


def cli_argv(home: Path, args: list[str]) -> list[str]:
    """code-server's command line on the episode's folders (``code ARGS`` for CLI flags)."""
    return ["node", str(CODE_SERVER), "--user-data-dir", str(home / USER_DATA),
            "--extensions-dir", str(home / EXTENSIONS), *args]


def code_script() -> str:
    """The ``code`` command: CLI flags go to code-server's command line, paths to the launcher
    (which opens them in the running window, or starts VS Code with them)."""
    flags = "|".join(f'*" {flag} "*' for flag in CLI_FLAGS)
    return (
        "#!/bin/sh\n"
        "# VS Code's `code` command for this episode (gui_agent/envs/desktop/apps/vscode.py).\n"
        f'case " $* " in\n  {flags})\n'
        f'    exec node {shlex.quote(str(CODE_SERVER))} --user-data-dir "$HOME/{USER_DATA}" '
        f'--extensions-dir "$HOME/{EXTENSIONS}" "$@" ;;\nesac\n'
        f'exec {shlex.quote(sys.executable)} -m {LAUNCHER} "$@"\n'
    )


def prepare(ctx: AppContext) -> None:
    """The episode's VS Code folders, code-server's config on the reserved port, and ``code``
    first on the session's ``PATH``."""
    if ctx.port is None:
        raise ValueError("VS Code needs its reserved port (control_port)")
    (ctx.home / USER_DATA / "User").mkdir(parents=True, exist_ok=True)
    machine = ctx.home / USER_DATA / "Machine" / "settings.json"
    machine.parent.mkdir(parents=True, exist_ok=True)
    machine.write_text(json.dumps(MACHINE_SETTINGS, indent=4) + "\n", encoding="utf-8")
    (ctx.home / EXTENSIONS).mkdir(parents=True, exist_ok=True)
    config = ctx.home / SERVER_CONFIG
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f"bind-addr: 127.0.0.1:{ctx.port}\nauth: none\ncert: false\n", encoding="utf-8")
    bin_dir = ctx.private_dir / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    script = bin_dir / "code"
    script.write_text(code_script(), encoding="utf-8")
    script.chmod(0o755)
    path = ctx.env.get("PATH", "")
    if not path.startswith(f"{bin_dir}:"):
        ctx.env["PATH"] = f"{bin_dir}:{path}" if path else str(bin_dir)


def open_argv(path: str) -> list[str]:
    """Opening a file or folder: the launcher opens it in the running window (or starts VS Code)."""
    return [sys.executable, "-m", LAUNCHER, path]


VSCODE = AppSpec(
    name="vscode",
    title="VS Code",
    command=(sys.executable, "-m", LAUNCHER),
    window_title=TITLE,
    install_hint="run scripts/install_code_server.sh (code-server from npm, into .tools/code-server)",
    required_files=(CODE_SERVER, Path(shutil.which("chromium") or "/usr/bin/chromium")),
    prepare=prepare,
    open_command=open_argv,
    control_port=True,
    # Its window is titled "... Visual Studio Code" only once the workbench has loaded its
    # extensions (the launcher waits for that); code-server keeps indexing long after.
    launch_idle_max_s=2.0,
)
