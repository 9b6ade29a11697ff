"""One episode's desktop: its folder, display, window manager, apps and mail server.

A :class:`DesktopSession` owns everything an episode runs and stops all of it by PID in
:meth:`DesktopSession.stop`, in reverse order of starting (apps, window manager, Xvfb,
SMTP server), then removes its folder. The folder::

    gui-agent-desktop-XXXX/
      owner        PID of the Python process that made it (for sweeping after a crash)
      home/        $HOME of every app; task paths are relative to it
      private/     runtime dir, logs, window-manager config, received mail

Apps get a clean environment pointing into the folder: ``HOME``, the XDG folders,
``TMPDIR``, no D-Bus session bus and no accessibility bus (either would start daemons
outside our process groups). With ``accessibility=True`` the session starts a private bus
and the AT-SPI registry of its own (:mod:`gui_agent.envs.desktop.accessibility.bus`,
stopped after the apps), and the apps start with their accessibility on, so
:meth:`DesktopSession.accessibility_tree` can read their element trees.

Not thread-safe: the desktop environment calls it from its one worker thread, except
:meth:`kill` and :meth:`stop`, which are safe from any thread.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gui_agent.envs.desktop.accessibility.bus import AccessibilityBus, accessibility_environment
from gui_agent.envs.desktop.accessibility.osworld_xml import to_xml
from gui_agent.envs.desktop.accessibility.reader import Scope, TreeReader
from gui_agent.envs.desktop.apps.catalogue import APPS, AppContext, AppSpec, get_app
from gui_agent.envs.desktop.mail_server import SmtpServer
from gui_agent.envs.desktop.paths import strip_home
from gui_agent.envs.desktop.screen_capture import ScreenCapture
from gui_agent.envs.desktop.window_manager import start_window_manager
from gui_agent.envs.desktop.x11_windows import X11Windows
from gui_agent.envs.desktop.xdotool_input import XdotoolInput
from gui_agent.envs.desktop.xvfb import XvfbDisplay
from gui_agent.envs.loopback import free_loopback_port
from gui_agent.envs.procfs import with_descendants
from gui_agent.envs.owned_process import OwnedProcess, describe_exit, make_private_dir, sweep_stale_private_dirs
from gui_agent.errors import EnvDiedError, EnvError

#: Prefix of session folders in the system temp dir.
TEMP_PREFIX = "gui-agent-desktop-"


@dataclass
class LaunchedApp:
    """A program a step started: which app (or command) and its process."""

    label: str
    process: OwnedProcess
    launcher_only: bool = False  # hands its work to a running instance and exits (soffice FILE)


#: The usual folders of a home (xdg-user-dirs), made empty in every episode's home.
HOME_FOLDERS = ("Desktop", "Documents", "Downloads")


def sweep_stale_sessions(min_age_s: float = 60.0) -> list[Path]:
    """Remove session folders whose owning Python process is gone (it was killed), and
    what their apps left outside them."""
    removed = sweep_stale_private_dirs(TEMP_PREFIX, min_age_s)
    for root in removed:
        _remove_app_leftovers(root / "home", APPS.values())
    return removed


def _remove_app_leftovers(home: Path, specs: Iterable[AppSpec]) -> None:
    for spec in specs:
        for path in spec.leftovers(home) if spec.leftovers is not None else ():
            path.unlink(missing_ok=True)


class DesktopSession:
    """Everything one desktop episode runs.

    Args:
        width, height: screen size.
        apps: names of the apps the task uses (checked and prepared at start).
        window_manager: ``"openbox"`` or ``"none"``.
        mail: the user's mail identity (``{"address": ..., "name": ...}``) or None for
            no mail server.
        start_timeout_s: limit for Xvfb and the window manager to come up.
        accessibility: start the accessibility bus and launch apps with accessibility on.
    """

    def __init__(
        self,
        *,
        width: int,
        height: int,
        apps: tuple[str, ...] = (),
        window_manager: str = "openbox",
        mail: dict[str, str] | None = None,
        start_timeout_s: float = 30.0,
        accessibility: bool = False,
    ) -> None:
        self.width = width
        self.height = height
        self.app_specs: dict[str, AppSpec] = {name: get_app(name) for name in apps}
        self.window_manager = window_manager
        self.mail_settings = dict(mail) if mail is not None else None
        self.start_timeout_s = start_timeout_s
        self.root: Path | None = None
        self.xvfb: XvfbDisplay | None = None
        self.wm: OwnedProcess | None = None
        self.windows: X11Windows | None = None
        self.input: XdotoolInput | None = None
        self.capture: ScreenCapture | None = None
        self.smtp: SmtpServer | None = None
        self.launched: list[LaunchedApp] = []
        self.env: dict[str, str] = {}
        self.mail_state: dict[str, Any] = {}  # for the mail client's set-up (inbox, ports)
        self.app_ports: dict[str, int] = {}  # app name -> its reserved control port
        self.accessibility = accessibility
        self.a11y_bus: AccessibilityBus | None = None
        self._a11y_reader: TreeReader | None = None

    # ------------------------------------------------------------------ folders
    @property
    def home(self) -> Path:
        if self.root is None:
            raise RuntimeError("the desktop session is not started")
        return self.root / "home"

    @property
    def private(self) -> Path:
        if self.root is None:
            raise RuntimeError("the desktop session is not started")
        return self.root / "private"

    def resolve(self, path: str) -> Path:
        """A task path (relative to home, ``~/`` allowed) as an absolute path."""
        return self.home / strip_home(path)

    @property
    def display(self) -> str:
        if self.xvfb is None:
            raise RuntimeError("the desktop session is not started")
        return self.xvfb.name

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Check the apps, make the folder, start Xvfb, the window manager and mail.

        Raises:
            EnvError: an app or program is missing, or something did not come up.
        """
        for spec in self.app_specs.values():
            spec.check_installed()
        sweep_stale_sessions()
        self.root = make_private_dir(TEMP_PREFIX)
        for sub in ("home", "private/runtime", "private/logs", "private/tmp", "private/mail"):
            (self.root / sub).mkdir(parents=True)
        for folder in HOME_FOLDERS:  # a person's home has them; tasks save "on the Desktop"
            (self.home / folder).mkdir()
        os.chmod(self.private / "runtime", 0o700)
        self.xvfb = XvfbDisplay(
            width=self.width, height=self.height, start_timeout_s=self.start_timeout_s,
            log_path=self.private / "logs" / "xvfb.log",
        )
        display = self.xvfb.start()
        self.env = self._app_environment(display)
        if self.accessibility:
            self._start_accessibility()
        self.windows = X11Windows(display)
        self.wm = start_window_manager(
            self.window_manager, display=display, env=self.env, config_dir=self.private / "wm",
            windows=self.windows, timeout_s=self.start_timeout_s, terminal=self._terminal_command(),
        )
        self.input = XdotoolInput(display, env=self.env, log_path=self.private / "logs" / "xdotool.log")
        self.input.start()
        self.capture = ScreenCapture(display, width=self.width, height=self.height)
        if self.mail_settings is not None:
            self.smtp = SmtpServer(store_dir=self.private / "mail" / "received")
            self.mail_state["smtp_port"] = self.smtp.start()
        settings = self._app_settings()
        for name, spec in self.app_specs.items():
            if spec.control_port:
                self.app_ports[name] = free_loopback_port()
            if spec.prepare is not None:
                spec.prepare(AppContext(home=self.home, private_dir=self.private, env=self.env, settings=settings,
                                        port=self.app_ports.get(name)))

    def _terminal_command(self) -> list[str] | None:
        """What Ctrl+Alt+T opens: the terminal app, when it is installed."""
        terminal = APPS["terminal"]
        try:
            terminal.check_installed(self.env.get("PATH"))
        except EnvError:
            return None
        return terminal.launch_argv(home=self.home)

    def _app_environment(self, display: str) -> dict[str, str]:
        keep = ("PATH", "LANG", "LC_ALL", "TZ", "USER", "LOGNAME", "SHELL")
        env = {k: os.environ[k] for k in keep if k in os.environ}
        env.setdefault("LANG", "C.UTF-8")
        home = str(self.home)
        env.update(
            DISPLAY=display,
            HOME=home,
            XDG_CONFIG_HOME=f"{home}/.config",
            XDG_CACHE_HOME=f"{home}/.cache",
            XDG_DATA_HOME=f"{home}/.local/share",
            XDG_RUNTIME_DIR=str(self.private / "runtime"),
            TMPDIR=str(self.private / "tmp"),
            DBUS_SESSION_BUS_ADDRESS="disabled:",  # no autolaunched dbus-daemon outside our groups
            NO_AT_BRIDGE="1",  # no at-spi bus launcher either
            SAL_USE_VCLPLUGIN="gen",  # LibreOffice draws with plain X11
            MOZ_CRASHREPORTER_DISABLE="1",
        )
        return env

    def _start_accessibility(self) -> None:
        """Start the accessibility bus and turn the apps' accessibility on."""
        self.a11y_bus = AccessibilityBus(self.private, env=self.env, timeout_s=self.start_timeout_s)
        self.a11y_bus.start()
        self.env.pop("NO_AT_BRIDGE", None)
        self.env.update(accessibility_environment(self.a11y_bus.address))

    def accessibility_tree(self, *, scope: Scope = "screen", complete: bool = False, timeout_s: float = 5.0) -> str:
        """The apps' element tree in OSWorld's XML form (see
        :mod:`gui_agent.envs.desktop.accessibility`).

        Raises:
            RuntimeError: the session was started without accessibility.
            EnvHungError: an app did not answer within ``timeout_s``.
            EnvDiedError: the accessibility bus died.
        """
        if self.a11y_bus is None:
            raise RuntimeError("this desktop runs without accessibility (start it with accessibility on)")
        self.a11y_bus.check_alive()
        if self._a11y_reader is None:
            self._a11y_reader = TreeReader(self.a11y_bus.address, screen=(self.width, self.height))
        return to_xml(self._a11y_reader.read(scope=scope, complete=complete, timeout_s=timeout_s))

    def _app_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = {}
        if self.mail_settings is not None:
            settings["mail"] = {**self.mail_settings, **self.mail_state}
        return settings

    def launch(self, argv: list[str], *, label: str, launcher_only: bool = False, stdout: Path | None = None) -> OwnedProcess:
        """Start a program on the display with the apps' environment, in the home folder.

        ``stdout``: a file for its output instead of the session's log (a command's result).
        """
        safe = "".join(c if c.isalnum() else "-" for c in label.lower())
        proc = OwnedProcess(
            argv, name=label, env=self.env, cwd=self.home,
            log_path=stdout if stdout is not None else self.private / "logs" / f"{safe}.log",
        )
        proc.start()
        self.launched.append(LaunchedApp(label=label, process=proc, launcher_only=launcher_only))
        return proc

    # ------------------------------------------------------------------ health
    def check_alive(self) -> None:
        """Raise :class:`EnvDiedError` if the display or an app died abnormally.

        An app that exits with status 0 was closed (perhaps by the agent): that is a
        state of the desktop, not a failure. A non-zero status or a signal is a crash.
        """
        if self.xvfb is None or not self.xvfb.is_alive():
            how = self.xvfb.exit_description() if self.xvfb is not None else "not started"
            raise EnvDiedError(f"the X server (Xvfb) died ({how})")
        if self.wm is not None and not self.wm.is_alive():
            if self.xvfb.wait(0.5):  # it went with its display: name the cause (see below)
                raise EnvDiedError(f"the X server (Xvfb) died ({self.xvfb.exit_description()})")
            raise EnvDiedError(f"the window manager died ({describe_exit(self.wm.returncode())}): {self.wm.log_tail()}")
        if self.a11y_bus is not None:
            self.a11y_bus.check_alive()
        for app in self.launched:
            code = app.process.returncode()
            if code is not None and code != 0:
                # An X client notices a killed server (its socket closes) a moment before
                # the server can be reaped: give the server that moment, so the cause is named.
                if self.xvfb.wait(0.5):
                    raise EnvDiedError(f"the X server (Xvfb) died ({self.xvfb.exit_description()})")
                tail = app.process.log_tail(1200)
                spec = next((s for s in APPS.values() if s.title == app.label), None)
                tail = (spec.without_chatter(tail) if spec is not None else tail)[-600:]
                raise EnvDiedError(f"{app.label} crashed ({describe_exit(code)})" + (f"; its output ends with: {tail}" if tail else ""))

    def app_pids(self) -> list[int]:
        """Live PIDs of the apps' sessions and what they started (not Xvfb, the window
        manager or xdotool): an app whose launcher starts its parts in sessions of their own
        (VS Code's server and window) counts whole when a step waits for it to go idle."""
        return with_descendants(pid for app in self.launched for pid in app.process.members())

    def is_frozen(self) -> bool:
        """True if Xvfb is stopped by a signal (everything drawing waits on it)."""
        return self.xvfb is not None and self.xvfb.is_stopped()

    def pids(self) -> list[int]:
        """PIDs of every live process the session started (for tests and diagnostics)."""
        found: list[int] = []
        for proc in [self.wm, *(a.process for a in self.launched)]:
            if proc is not None:
                found += proc.members()
        if self.xvfb is not None and self.xvfb.is_alive() and self.xvfb.pid is not None:
            found.append(self.xvfb.pid)
        if self.input is not None and self.input.pid is not None:
            found.append(self.input.pid)
        if self.a11y_bus is not None:
            found += self.a11y_bus.pids()
        return sorted(set(found))

    def kill(self) -> None:
        """SIGKILL everything at once, from any thread (a hang); :meth:`stop` still cleans up."""
        for app in self.launched:
            app.process.kill()
        if self.wm is not None:
            self.wm.kill()
        if self.a11y_bus is not None:
            self.a11y_bus.kill()
        if self.xvfb is not None:
            self.xvfb.kill()

    def stop(self, *, close_clients: bool = True) -> None:
        """Stop everything (apps, accessibility bus, window manager, input, Xvfb, SMTP) and
        remove the folder.

        ``close_clients=False`` leaves our own X connections (screen capture, window
        queries) to the garbage collector: after a hang the worker thread may still be
        inside one of them, and closing it under its feet could crash the interpreter.
        """
        for app in reversed(self.launched):
            app.process.stop(grace_s=1.0)
        if self.root is not None:
            _remove_app_leftovers(self.home, self.app_specs.values())
        if self.input is not None:
            self.input.stop()
        if self._a11y_reader is not None and close_clients:
            self._a11y_reader.close()
        self._a11y_reader = None
        if self.a11y_bus is not None:
            self.a11y_bus.stop()
        if close_clients:
            if self.capture is not None:
                self.capture.close()
            if self.windows is not None:
                self.windows.close_connection()
        self.capture = None
        self.windows = None
        if self.wm is not None:
            self.wm.stop(grace_s=0.5)
        if self.xvfb is not None:
            self.xvfb.stop()
        if self.smtp is not None:
            self.smtp.stop()
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
        self.root = None
