"""The VS Code app's one command: starts code-server and a Chromium app window onto it,
opens what it is given, and stops both when it is stopped or the window is closed.

``python -m gui_agent.envs.desktop.apps.vscode_launcher [PATH...]`` runs in the
episode's environment (``HOME`` is the episode's home; :func:`.vscode.prepare` wrote
code-server's config there, with the reserved port). Like ``code PATH``:

* a folder opens as the window's folder, a ``.code-workspace`` file as its workspace, a
  file in the window (no folder), as VS Code desktop does;
* when VS Code already runs in this episode, the paths open in its window and the
  launcher exits at once (``open_file`` steps, ``code FILE`` in a terminal).

Otherwise it stays up as long as the app: it exits 0 when the window is closed (the app
was closed, not crashed) or when it is stopped (SIGTERM, SIGINT, SIGHUP), and non-zero
when code-server or the window dies on its own, printing the end of the dead one's log
(the session shows that in its crash message). Both programs are
:class:`~gui_agent.envs.owned_process.OwnedProcess` children, which die with the
launcher even if it is killed outright.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import FrameType
from urllib.parse import quote

from gui_agent.envs.desktop.apps.vscode import CODE_SERVER, EXTENSIONS, SERVER_CONFIG, USER_DATA, cli_argv
from gui_agent.envs.owned_process import OwnedProcess, make_private_dir
from gui_agent.errors import EnvError

#: How long code-server may take to answer, and a started window to take a path.
START_TIMEOUT_S = 60.0
#: Chromium's flags for the window (see gui_agent/envs/desktop/apps/chrome.py for why each).
WINDOW_FLAGS = (
    "--no-sandbox", "--test-type", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
    "--disable-sync", "--disable-background-networking", "--disable-component-update",
    "--disable-breakpad", "--password-store=basic", "--start-maximized", "--class=Code",
    "--disable-features=Translate,MediaRouter",
)


def server_port(home: Path) -> int:
    """The port code-server's config (written by the app's prepare) binds."""
    config = home / SERVER_CONFIG
    found = re.search(r"^bind-addr:\s*127\.0\.0\.1:(\d+)\s*$", config.read_text(encoding="utf-8"), re.M) if config.is_file() else None
    if found is None:
        raise EnvError(f"{config} names no loopback port (the vscode app prepares it)")
    return int(found.group(1))


def serving(port: int) -> bool:
    """Whether code-server answers on ``port``."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2.0) as reply:
            return bool(reply.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def window_query(paths: list[Path]) -> tuple[str, list[Path]]:
    """The window's address query for the first path, and the files to open in it after."""
    if paths and paths[0].is_dir():
        return f"?folder={quote(str(paths[0]))}", paths[1:]
    if paths and paths[0].suffix == ".code-workspace" and paths[0].is_file():
        return f"?workspace={quote(str(paths[0]))}", paths[1:]
    return "?ew=true", paths  # an empty window (not the last folder), files opened in it


def open_in_window(home: Path, paths: list[Path], timeout_s: float) -> None:
    """Open ``paths`` in the running window (``code-server --reuse-window``), retrying until
    the window is connected.

    Raises:
        EnvError: it did not take a path in time.
    """
    for path in paths:
        deadline = time.monotonic() + timeout_s
        while True:
            opener = OwnedProcess(cli_argv(home, ["--reuse-window", str(path)]), name="code-server --reuse-window",
                                  env=dict(os.environ), cwd=home)
            opener.start()
            finished = opener.wait(max(1.0, deadline - time.monotonic()))
            code = opener.returncode()
            opener.stop(grace_s=0.0)
            if finished and code == 0:
                break
            if time.monotonic() >= deadline:
                raise EnvError(f"VS Code's window did not open {path} within {timeout_s:g} s")
            time.sleep(0.5)


def start_server(home: Path, port: int, logs: Path) -> OwnedProcess:
    """code-server on the episode's folders; returns once it answers.

    Raises:
        EnvError: it exited or did not answer in time.
    """
    (home / EXTENSIONS).mkdir(parents=True, exist_ok=True)
    argv = ["node", str(CODE_SERVER), "--config", str(home / SERVER_CONFIG), "--user-data-dir", str(home / USER_DATA),
            "--extensions-dir", str(home / EXTENSIONS), "--disable-telemetry", "--disable-update-check",
            "--disable-workspace-trust", "--disable-getting-started-override"]
    server = OwnedProcess(argv, name="code-server", env=dict(os.environ), cwd=home, log_path=logs / "code-server.log",
                          install_hint="run scripts/install_code_server.sh")
    server.start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not serving(port):
        if server.returncode() is not None or time.monotonic() > deadline:
            tail = server.log_tail(800)
            server.stop(grace_s=0.5)
            raise EnvError(f"code-server did not start on 127.0.0.1:{port}: {tail or '(no output)'}")
        time.sleep(0.2)
    return server


def start_window(port: int, query: str, logs: Path) -> OwnedProcess:
    """A Chromium app window onto code-server, with a profile of its own (removed at stop)."""
    profile = make_private_dir("gui-agent-vscode-window-")
    argv = ["chromium", *WINDOW_FLAGS, f"--user-data-dir={profile}", f"--app=http://127.0.0.1:{port}/{query}"]
    window = OwnedProcess(argv, name="VS Code window (Chromium)", env=dict(os.environ), log_path=logs / "window.log",
                          private_dir=profile, terminate_group=False,
                          install_hint="install Debian's chromium (scripts/setup.sh does)")
    window.start()
    return window


def supervise(server: OwnedProcess, window: OwnedProcess, stop: threading.Event) -> int:
    """Wait until stopped (0), the window closes (0), or either dies (1, its log printed)."""
    while not stop.wait(0.2):
        for proc, label in ((server, "code-server"), (window, "the VS Code window")):
            code = proc.returncode()
            if code is None:
                continue
            if proc is window and code == 0:
                return 0
            print(f"vscode: {label} exited ({code}): {proc.log_tail(1200) or '(no output)'}", file=sys.stderr, flush=True)
            return 1
    return 0


def run(paths: list[Path], stop: threading.Event) -> int:
    """Open ``paths`` in the running VS Code, or start it with them and keep it up (see the module)."""
    home = Path(os.environ.get("HOME") or os.path.expanduser("~"))
    port = server_port(home)
    if serving(port):
        open_in_window(home, paths, START_TIMEOUT_S)
        return 0
    logs = make_private_dir("gui-agent-vscode-logs-")
    server = window = None
    try:
        server = start_server(home, port, logs)
        query, files = window_query(paths)
        window = start_window(port, query, logs)
        if files:
            open_in_window(home, files, START_TIMEOUT_S)
        return supervise(server, window, stop)
    finally:
        for proc in (window, server):
            if proc is not None:
                proc.stop(grace_s=2.0)
        shutil.rmtree(logs, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="vscode", description="VS Code (code-server in a Chromium app window)")
    parser.add_argument("paths", nargs="*", help="files, folders or .code-workspace files to open")
    args = parser.parse_args(argv)
    stop = threading.Event()

    def stopping(signum: int, frame: FrameType | None) -> None:
        stop.set()

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, stopping)
    try:
        return run([Path(p).absolute() for p in args.paths], stop)
    except EnvError as exc:
        print(f"vscode: {exc}", file=sys.stderr, flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main())
