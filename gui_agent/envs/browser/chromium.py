"""Start Debian's Chromium ourselves and own its process.

Playwright's ``chromium.launch`` hides the browser's PID behind its driver, so a browser
that dies or freezes cannot be told apart from a slow one, and one left behind cannot be
killed without killing "chromium" by name. Here the browser is a plain subprocess:

* it runs in its own session and process group (``start_new_session=True``), so one
  ``killpg`` reaches the browser, its zygotes, renderers and helpers and nothing else;
* it gets a fresh temporary ``--user-data-dir`` and ``--remote-debugging-port=0``; the
  port Chromium picked is read back from ``<user-data-dir>/DevToolsActivePort`` and the
  caller connects with Playwright's ``chromium.connect_over_cdp(cdp_url)``;
* the process is an :class:`~gui_agent.envs.owned_process.OwnedProcess` whose private
  folder is that temp dir: stopping it sends SIGTERM to the browser (which shuts its
  helpers down), waits a grace period, then SIGKILLs the process group and anything still
  in the browser's session or carrying the temp dir on its command line (the crashpad
  handler daemonises out of the session), reaps the main process and removes the temp
  dir. It never kills anything by name and is safe to call twice; a finalizer does the
  same if the object is dropped, ``setpriv --pdeathsig KILL`` covers a Python killed
  outright, and :func:`sweep_stale_temp_dirs` removes temp dirs such a death left behind.

This module does not import Playwright; :mod:`gui_agent.envs.browser.env` connects to it.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

from gui_agent.envs.owned_process import OwnedProcess, kill_leftovers_of, make_private_dir, sweep_stale_private_dirs
from gui_agent.envs.procfs import process_state
from gui_agent.errors import EnvError

#: Where Debian's ``chromium`` package puts its launcher (a shell script that ``exec``s
#: the real binary, so the PID we get is the browser's).
DEFAULT_EXECUTABLE = "/usr/bin/chromium"

#: What any Chromium needs on this kind of machine (root, no GPU, no network but ours):
#: also what tests and scripts pass when Playwright launches a person's browser.
ESSENTIAL_FLAGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)

#: Flags every browser we start gets (docs/environments.md).
BASE_FLAGS: tuple[str, ...] = (
    *ESSENTIAL_FLAGS,
    "--disable-quic",
    "--no-default-browser-check",
    # Screenshots: capture from a fresh surface (what Playwright's own launch enables;
    # faster captures), exact sRGB pixels, no paint holding.
    "--enable-features=CDPScreenshotNewSurface",
    "--disable-features=PaintHolding,Translate,MediaRouter,OptimizationHints",
    "--force-color-profile=srgb",
    # No back/forward cache: a page frozen in it can leave a pending CDP call (a screenshot
    # requested while a navigation commits) unanswered for ever.
    "--disable-back-forward-cache",
    # Wheel scrolls land in one step instead of an animation, so a scroll's effect
    # is visible in the next observation without a long settle wait.
    "--disable-smooth-scrolling",
    # Report a mouse (hover, fine pointer) like a desktop, not headless's "no pointer".
    "--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4",
    # Keep timers and rendering running for pages nobody is looking at.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    # No "page unresponsive" handling or input throttling of our own: we time calls ourselves.
    "--disable-hang-monitor",
    "--disable-ipc-flooding-protection",
    # Deterministic, quiet browser: no field trials, extensions, default apps or prompts.
    "--disable-field-trial-config",
    "--disable-extensions",
    "--disable-component-extensions-with-background-pages",
    "--disable-default-apps",
    "--disable-popup-blocking",
    "--disable-prompt-on-repost",
    "--disable-search-engine-choice-screen",
    "--metrics-recording-only",
    "--no-service-autorun",
    "--password-store=basic",
    "--use-mock-keychain",
    "--mute-audio",
    # Not --disable-crashpad-for-testing: it costs ~25 % of a core while idle. The crashpad
    # handler daemonises into its own session instead; BREAKPAD_DUMP_LOCATION points its
    # database into our temp dir, which is how stop() finds it (by PID, via /proc cmdline).
)

#: Prefix of our temp dirs (profile, stderr log, crash database), in tempfile.gettempdir().
TEMP_PREFIX = "gui-agent-chromium-"

_INSTALL_HINT = (
    "install Debian's Chromium with `sudo apt-get install chromium` "
    "(Playwright's own browser download cannot work here), or pass executable=... to use another Chromium binary"
)


def _shm_is_small(minimum_bytes: int = 1 << 30) -> bool:
    try:
        st = os.statvfs("/dev/shm")
    except OSError:
        return True
    return st.f_bavail * st.f_frsize < minimum_bytes


def sweep_stale_temp_dirs(min_age_s: float = 60.0) -> list[Path]:
    """Remove the temp dirs of browsers whose Python died without cleaning up (see
    :func:`~gui_agent.envs.owned_process.sweep_stale_private_dirs`). Returns the removed dirs."""
    return sweep_stale_private_dirs(TEMP_PREFIX, min_age_s)


def kill_orphaned_browsers(owner_pid: int) -> list[int]:
    """SIGKILL what is left of the browsers that a process, now gone, had started.

    For a worker that was killed outright (its browsers normally die with it through the
    parent-death signal, but a browser frozen by SIGSTOP leaves frozen helpers behind).
    Refuses to act while ``owner_pid`` is still running. Returns the PIDs signalled.
    """
    return kill_leftovers_of(owner_pid, TEMP_PREFIX)


class ChromiumProcess:
    """One Chromium browser process that we started and own.

    Args:
        executable: the Chromium binary or launcher.
        headless: run with ``--headless=new``; False shows a window on ``display``.
        display: X display for the child (``":99"``); sets ``DISPLAY`` in its environment.
        window_size: initial window size in pixels (the page viewport is set by the caller).
        extra_args: more command-line flags, appended last.
        start_timeout_s: how long to wait for the DevTools port before giving up.
        die_with_parent: start under ``setpriv --pdeathsig KILL`` (when setpriv exists)
            from the spawner thread (:mod:`gui_agent.envs.spawner`), so the browser is
            killed when this Python process dies, whichever thread started it.

    Example:
        >>> proc = ChromiumProcess()
        >>> cdp_url = proc.start()          # "ws://127.0.0.1:PORT/devtools/browser/..."
        >>> proc.stop()
    """

    def __init__(
        self,
        *,
        executable: str = DEFAULT_EXECUTABLE,
        headless: bool = True,
        display: str | None = None,
        window_size: tuple[int, int] | None = None,
        extra_args: tuple[str, ...] | list[str] = (),
        start_timeout_s: float = 30.0,
        die_with_parent: bool = True,
    ) -> None:
        self.executable = executable
        self.headless = headless
        self.display = display
        self.window_size = window_size
        self.extra_args = tuple(extra_args)
        self.start_timeout_s = start_timeout_s
        self.die_with_parent = die_with_parent
        self._process: OwnedProcess | None = None
        self._tmp: Path | None = None
        self._listen_deadline = 0.0
        self.cdp_url: str | None = None

    # ------------------------------------------------------------------ properties
    @property
    def pid(self) -> int | None:
        """The browser's PID (also its process group and session id), or None if not started."""
        return self._process.pid if self._process is not None else None

    @property
    def user_data_dir(self) -> Path | None:
        return self._tmp / "profile" if self._tmp is not None else None

    def is_alive(self) -> bool:
        """True while the browser's main process runs (a stopped, i.e. frozen, one counts as alive)."""
        return self._process is not None and self._process.is_alive()

    def is_stopped(self) -> bool:
        """True if the browser's main process is stopped by a signal (SIGSTOP/SIGTSTP)."""
        return self.pid is not None and process_state(self.pid) in ("T", "t")

    def wait(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for the main process to exit; True if it has."""
        return self._process is None or self._process.wait(timeout_s)

    def returncode(self) -> int | None:
        return self._process.returncode() if self._process is not None else None

    def stderr_tail(self, max_chars: int = 2000) -> str:
        """The last characters Chromium wrote to stderr (for error messages)."""
        return self._process.log_tail(max_chars) if self._process is not None and self._tmp is not None else ""

    # ------------------------------------------------------------------ lifecycle
    def command(self) -> list[str]:
        """The browser's command line (needs :attr:`user_data_dir`, so only after start)."""
        args = [self.executable]
        if self.headless:
            args.append("--headless=new")
        args += list(BASE_FLAGS)
        if _shm_is_small():
            args.append("--disable-dev-shm-usage")  # a small /dev/shm (Docker's 64 MB) crashes tabs
        if self.window_size is not None:
            args.append(f"--window-size={self.window_size[0]},{self.window_size[1]}")
        args += [
            f"--user-data-dir={self.user_data_dir}",
            "--remote-debugging-port=0",
            "--remote-debugging-address=127.0.0.1",
            # No initial tab: the caller opens its own pages in its own browser context.
            "--no-startup-window",
            *self.extra_args,
        ]
        return args

    def start(self) -> str:
        """Start the browser and return its CDP websocket URL (:meth:`launch`, then wait for the port).

        Raises:
            EnvError: Chromium is missing, needs a display that is not there, exits during
                start-up (the message carries its stderr tail) or does not open its
                DevTools port within ``start_timeout_s``.
        """
        self.launch()
        try:
            for delay in self._waits_until_listening():
                time.sleep(delay)
        except BaseException:
            self.stop()
            raise
        return self.cdp_url  # type: ignore[return-value]

    async def start_async(self) -> str:
        """:meth:`start` for an asyncio loop: the wait for the port yields to the loop.

        So a caller can start other things (Playwright's driver) while Chromium boots,
        instead of one after the other. A failed start stops the browser, as :meth:`start`
        does; a cancelled one leaves stopping it to the caller, whose thread may be
        tearing it down already.
        """
        import asyncio

        self.launch()
        try:
            for delay in self._waits_until_listening():
                await asyncio.sleep(delay)
        except Exception:
            self.stop()
            raise
        return self.cdp_url  # type: ignore[return-value]

    def launch(self) -> None:
        """Spawn the browser process and return at once; :meth:`poll_listening` says when it listens.

        Any thread may call it: the browser is forked by the spawner thread, so only the
        death of this Python process kills it (``--pdeathsig``).

        Raises:
            EnvError: Chromium is missing or cannot be spawned, or it needs a display
                that is not there.
        """
        if self._process is not None:
            raise RuntimeError("this ChromiumProcess was already started; make a new one")
        exe = shutil.which(self.executable) if os.sep not in self.executable else self.executable
        if exe is None or not os.path.isfile(exe) or not os.access(exe, os.X_OK):
            raise EnvError(f"Chromium not found at {self.executable!r}: {_INSTALL_HINT}")
        env = dict(os.environ)
        if self.display is not None:
            env["DISPLAY"] = self.display
        if not self.headless and not env.get("DISPLAY"):
            raise EnvError("headed Chromium needs an X display: pass display=':N' (e.g. an Xvfb) or set DISPLAY")
        sweep_stale_temp_dirs()
        self._tmp = make_private_dir(TEMP_PREFIX)
        self.user_data_dir.mkdir()  # type: ignore[union-attr]
        (self._tmp / "crash").mkdir()
        env["BREAKPAD_DUMP_LOCATION"] = str(self._tmp / "crash")  # never ~/.config/chromium
        # SIGTERM to the main process only: it shuts its helpers down and reaps them.
        # Signalling the whole group makes helpers outlive their parents, and orphans of a
        # container whose PID 1 does not reap stay zombies for ever.
        self._process = OwnedProcess(
            self.command(), name="Chromium", env=env, log_path=self._tmp / "stderr.log",
            die_with_parent=self.die_with_parent, install_hint=_INSTALL_HINT,
            private_dir=self._tmp, terminate_group=False,
        )
        try:
            self._process.start()
        except EnvError:
            self.stop()
            raise
        self._listen_deadline = time.monotonic() + self.start_timeout_s

    def poll_listening(self) -> str | None:
        """After :meth:`launch`: the CDP websocket URL once the browser listens (also kept as ``cdp_url``), else None.

        Raises:
            EnvError: the browser exited during start-up (with its stderr tail), or
                ``start_timeout_s`` passed since the launch. The caller stops it.
        """
        if self._process is None or self._tmp is None:
            raise RuntimeError("launch() the browser first")
        port_file = self._tmp / "profile" / "DevToolsActivePort"
        try:
            lines = port_file.read_text().split("\n")
            if len(lines) >= 2 and lines[0].strip().isdigit() and lines[1].strip():
                self.cdp_url = f"ws://127.0.0.1:{int(lines[0])}{lines[1].strip()}"
                return self.cdp_url
        except OSError:
            pass
        code = self._process.returncode()
        if code is not None:
            raise EnvError(
                f"Chromium exited with code {code} during start-up; its stderr ends with:\n"
                f"{self.stderr_tail() or '(nothing)'}"
            )
        if time.monotonic() > self._listen_deadline:
            raise EnvError(
                f"Chromium did not open its DevTools port within {self.start_timeout_s:.0f} s; "
                f"its stderr ends with:\n{self.stderr_tail() or '(nothing)'}"
            )
        return None

    def _waits_until_listening(self) -> Iterator[float]:
        """The pauses (5 ms, growing to 50 ms) between :meth:`poll_listening` calls until it gives the URL.

        The caller sleeps each one its own way (:meth:`start` blocks, :meth:`start_async` yields).
        """
        delay = 0.005
        while self.poll_listening() is None:
            yield delay
            delay = min(delay * 1.5, 0.05)

    def kill(self) -> None:
        """SIGKILL the whole browser at once (also works on a stopped/frozen one); no cleanup."""
        if self._process is not None:
            self._process.kill()

    def stop(self, grace_s: float = 3.0) -> None:
        """Terminate the browser (SIGTERM, then SIGKILL after ``grace_s``) and remove its files.

        Safe to call twice and after the browser died on its own.
        """
        if self._process is not None:
            self._process.stop(grace_s)
        if self._tmp is not None:  # the process removes it; this covers a process that never started
            shutil.rmtree(self._tmp, ignore_errors=True)
        self._tmp = None

    def __enter__(self) -> "ChromiumProcess":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "not started" if self._process is None else ("running" if self.is_alive() else "exited")
        return f"ChromiumProcess(pid={self.pid}, {state}, headless={self.headless})"
