"""A virtual desktop environment: Xvfb + openbox + real apps, XTEST input, mss screenshots.

Same contract as the browser environment (:mod:`gui_agent.envs.browser.env`): Gymnasium's
``reset``/``step``/``close``, a failed action is ``Observation.last_action_error``, and
only a broken desktop raises :class:`~gui_agent.errors.EnvError`.

Design, faults first:

* **Every episode gets a fresh desktop** (:class:`~gui_agent.envs.desktop.session.DesktopSession`):
  its own Xvfb on a free display number, window manager, home folder, app profiles and
  mail server. ``reset`` stops the previous one first, so nothing leaks between
  episodes (an open dialog, a modified file, a running app).
* **One worker thread per environment does all X work** (screen capture, window queries,
  input, setup steps) and every public call waits on it with a deadline. A call that
  misses it (Xvfb stopped by SIGSTOP, an X call that never returns) is a hang: everything
  is SIGKILLed by PID (the blocked X call then fails and frees the thread), and
  :class:`~gui_agent.errors.EnvHungError` is raised.
* **Death**: Xvfb, the window manager or an app exiting abnormally (a signal or a
  non-zero status) is :class:`~gui_agent.errors.EnvDiedError`; everything else is then
  stopped. An app that exits with status 0 was closed (perhaps by the agent) and is just
  part of the desktop's state.
* After either, the environment is broken until the next ``reset`` (or ``close``).
* **Clean-up**: every process is ours by PID and process group (never killed by name);
  ``close`` stops them all and removes the session folder; a killed Python takes Xvfb
  with it (parent-death signal), and X apps exit when their display goes.

Observation: the whole screen as RGB (mss), the focused window's
title and every window's title (EWMH, through python-xlib); with ``observe_a11y_tree`` also
the apps' element tree in OSWorld's XML form (:mod:`gui_agent.envs.desktop.accessibility`),
read after the screen settled, within the step's deadline, and its numbered marks
(:mod:`gui_agent.envs.marks`): a ``click(mark=N)`` of the next step clicks mark N's centre. After acting, a step waits
``settle_s``, then until the screen has not changed and the apps have not used CPU
(:mod:`gui_agent.envs.desktop.app_activity`) for ``settle_quiet_s``, at most ``settle_max_s``:
apps handle input and repaint some time after the X server delivered it (LibreOffice
partly behind a timer), and nothing else says when.

Files: task paths are relative to the episode's home folder; :attr:`DesktopEnv.home`
and :meth:`DesktopEnv.resolve_path` expose it (evaluators, the protected-path guard).

Use one environment from one thread at a time.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from email.message import EmailMessage
from pathlib import Path
from typing import Any, TypeVar

from gui_agent.actions import (
    Action,
    Click,
    Done,
    Wait,
    action_to_dict,
    action_to_text,
    off_screen_error,
)
from gui_agent.envs.base import Env, Observation, StepResult
from gui_agent.envs.desktop.accessibility.reader import Scope
from gui_agent.envs.desktop.accessibility.som import desktop_marks
from gui_agent.envs.marks import Mark, mark_point
from gui_agent.envs.desktop.app_activity import cpu_time_ns
from gui_agent.envs.desktop.paths import home_relative, strip_home
from gui_agent.envs.desktop.session import DesktopSession
from gui_agent.envs.owned_process import OwnedProcess
from gui_agent.envs.desktop.step_runner import (
    DesktopStepError,
    run_step,
    shipped_file,
    step_timeout,
)
from gui_agent.episode.format import EnvInfo, ScreenSize
from gui_agent.errors import EnvDiedError, EnvError, EnvHungError, XdotoolDiedError

T = TypeVar("T")

#: Default pause after an action before the screen and the apps are checked for activity
#: (the apps wake up for the input within it).
DEFAULT_SETTLE_S = 0.02
#: Default time the screen and the apps must stay quiet for a step to count as settled.
DEFAULT_SETTLE_QUIET_S = 0.15
#: Default longest wait for the screen and the apps to settle after an action; an app
#: busier than that is observed busy (a state the agent can see and wait out).
DEFAULT_SETTLE_MAX_S = 2.0
#: Longest read of the accessibility tree (an observation's, or a check's).
A11Y_TIMEOUT_S = 5.0
#: Extra seconds a setup step may take beyond its own timeout before it counts as a hang.
_STEP_MARGIN_S = 10.0


class DesktopEnv(Env):
    """A desktop with real apps an agent drives with canonical actions, observed as pixels.

    Args:
        screen: (width, height) of the virtual screen; screenshots have this size and
            action coordinates are its pixels.
        apps: names of the apps the task uses (``calc``, ``thunderbird``): checked
            installed and prepared in each episode's home folder.
        window_manager: ``"openbox"`` (default) or ``"none"``.
        mail: the user's mail identity ``{"address": ..., "name": ...}``; with it each
            episode runs a loopback SMTP server (see :meth:`received_mail`).
        task_dir: folder the task's shipped files are relative to (``place_file: {from:}``).
        step_timeout_s: deadline of one step (act, settle, observe) and other calls.
        settle_s / settle_quiet_s / settle_max_s: see the module docstring;
            ``settle_quiet_s=0`` observes right after ``settle_s`` (raw act + screenshot).
        start_timeout_s: deadline for Xvfb and the window manager to start.
        accessibility: start the accessibility bus and the apps with accessibility on,
            so :meth:`accessibility_tree` can read their trees (checks that read the tree
            need it). Off, nothing of it runs.
        observe_a11y_tree: put the tree in every observation (``Observation.a11y_tree``),
            and its set-of-marks (``Observation.marks``, which ``click(mark=N)`` names);
            implies ``accessibility``.

    Example:
        >>> with DesktopEnv(screen=(1280, 800), apps=("calc",)) as env:
        ...     obs, info = env.reset(options={"setup": task.setup})
        ...     obs, reward, terminated, truncated, info = env.step(Click(100, 200))
    """

    def __init__(
        self,
        *,
        screen: tuple[int, int] = (1280, 800),
        apps: Sequence[str] = (),
        window_manager: str = "openbox",
        mail: dict[str, str] | None = None,
        task_dir: str | Path | None = None,
        step_timeout_s: float = 10.0,
        settle_s: float = DEFAULT_SETTLE_S,
        settle_quiet_s: float = DEFAULT_SETTLE_QUIET_S,
        settle_max_s: float = DEFAULT_SETTLE_MAX_S,
        start_timeout_s: float = 30.0,
        accessibility: bool = False,
        observe_a11y_tree: bool = False,
    ) -> None:
        width, height = screen
        for name, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"screen {name} must be a positive integer, got {value!r}")
        if step_timeout_s <= 0 or start_timeout_s <= 0 or min(settle_s, settle_quiet_s, settle_max_s) < 0:
            raise ValueError("step_timeout_s and start_timeout_s must be > 0, the settle times >= 0")
        from gui_agent.envs.desktop.apps.catalogue import get_app

        for name in apps:
            get_app(name)  # unknown names fail here, not at the first reset
        self.screen = (width, height)
        self.apps = tuple(apps)
        self.window_manager = window_manager
        self.mail = dict(mail) if mail is not None else None
        self.task_dir = Path(task_dir) if task_dir is not None else None
        self.step_timeout_s = float(step_timeout_s)
        self.settle_s = float(settle_s)
        self.settle_quiet_s = float(settle_quiet_s)
        self.settle_max_s = float(settle_max_s)
        self.start_timeout_s = float(start_timeout_s)
        self.observe_a11y_tree = bool(observe_a11y_tree)
        self.accessibility = bool(accessibility) or self.observe_a11y_tree
        self._session: DesktopSession | None = None
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._failure: EnvError | None = None
        self._marks: list[Mark] | None = None
        self._episode_open = False
        self._instruction = ""
        self._done: dict[str, Any] | None = None

    # ================================================================== public API
    @property
    def pid(self) -> int | None:
        """PID of the episode's Xvfb, or None when no desktop is running."""
        session = self._session
        return session.xvfb.pid if session is not None and session.xvfb is not None and session.xvfb.is_alive() else None

    @property
    def display(self) -> str | None:
        """The episode's ``DISPLAY`` (``":3"``), or None when no desktop is running."""
        session = self._session
        return session.display if session is not None and session.xvfb is not None else None

    @property
    def home(self) -> Path:
        """The episode's home folder: the root every task path is relative to.

        Raises:
            RuntimeError: no episode has been started.
        """
        if self._session is None or self._session.root is None:
            raise RuntimeError("no desktop is running: call reset() first")
        return self._session.home

    #: The file-system root of the episode, for guards (``protected_paths`` are relative to it).
    fs_root = home

    def resolve_path(self, path: str) -> Path:
        """A task path (``report.xlsx``, ``~/Documents/a.txt``) as an absolute path in :attr:`home`."""
        home_relative(path)  # absolute paths and '..' are refused
        return self.home / strip_home(path)

    def task_file(self, path: str) -> Path:
        """A file shipped in the task's folder (``expected`` files of checks)."""
        return shipped_file(self.task_dir, path)

    def received_mail(self) -> list[Any]:
        """Messages the episode's SMTP server received (:class:`~gui_agent.envs.desktop.mail_server.ReceivedMail`)."""
        session = self._session
        if session is None or session.smtp is None:
            raise RuntimeError("this desktop runs no mail server (the task's environment has no 'mail')")
        return session.smtp.received()

    def reported_done(self) -> dict[str, Any] | None:
        """How the agent ended this episode (``{"success", "answer"}`` of its ``done``), or None.

        The evaluator reads it for ``infeasible_reported``: an infeasible task is done right
        only by saying so, which no file shows.
        """
        return dict(self._done) if self._done is not None else None

    def app_port(self, app: str) -> int:
        """The loopback port of ``app``'s control interface (DevTools, VLC's HTTP interface).

        Raises:
            RuntimeError: no episode runs, or the app serves no control interface here.
        """
        session = self._session
        if session is None or app not in session.app_ports:
            raise RuntimeError(f"the app {app!r} has no control port in this episode (is it in environment.apps?)")
        return session.app_ports[app]

    def run_command(self, argv: Sequence[str], *, timeout_s: float = 30.0) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` on the episode's desktop (its display, home folder and environment)
        and return what it printed: OSWorld's checks read state the apps keep outside files
        (the clipboard, window sizes, settings) through commands like this.

        Raises:
            RuntimeError: no episode runs.
            subprocess.TimeoutExpired: the command ran past ``timeout_s`` (it is killed).
        """
        session = self._session
        if session is None or session.root is None:
            raise RuntimeError("no desktop is running: call reset() first")
        with tempfile.TemporaryDirectory(dir=session.private / "tmp") as folder:
            out, err = Path(folder) / "stdout", Path(folder) / "stderr"
            # sh sends the command's error output to its own file, so the two stay apart.
            proc = OwnedProcess(["sh", "-c", 'exec "$@" 2>"$0"', str(err), *argv], name=f"command {argv[0]}",
                                env=session.env, cwd=session.home, log_path=out)
            proc.start()
            finished = proc.wait(timeout_s)
            proc.stop(grace_s=0.0)  # whatever it left running goes too
            if not finished:
                raise subprocess.TimeoutExpired(list(argv), timeout_s)
            read = lambda path: path.read_text(errors="replace") if path.exists() else ""  # noqa: E731
            return subprocess.CompletedProcess(list(argv), proc.returncode() or 0, read(out), read(err))

    def accessibility_tree(self, *, scope: Scope = "screen", complete: bool = True,
                           timeout_s: float = A11Y_TIMEOUT_S) -> str:
        """The apps' element tree now, in OSWorld's XML form (what its ``accessibility_tree``
        getter returns): every app (``scope="screen"``) or the focused window's.

        ``complete=True`` (the default here, for checks) reads every element, shown or
        not, as OSWorld does; ``False`` only what is on the screen (what observations hold).

        Raises:
            RuntimeError: no episode runs, or the environment was made without ``accessibility``.
            EnvHungError: an app did not answer within ``timeout_s`` (the desktop is then
                stopped, as for any hang).
        """
        self._require_session()
        session = self._session
        assert session is not None
        if not self.accessibility:
            raise RuntimeError("this desktop runs without accessibility: make it with accessibility=True")
        return self._call(lambda: session.accessibility_tree(scope=scope, complete=complete, timeout_s=timeout_s),
                          timeout_s=timeout_s + _STEP_MARGIN_S, what="reading the accessibility tree")

    def mail_messages(self) -> list[EmailMessage]:
        return [r.message for r in self.received_mail()]

    def pids(self) -> list[int]:
        """Every live process of the running desktop (Xvfb, window manager, apps, xdotool)."""
        return self._session.pids() if self._session is not None else []

    def env_info(self) -> EnvInfo:
        return EnvInfo(
            kind="desktop", app=",".join(self.apps) or None, screen=ScreenSize(width=self.screen[0], height=self.screen[1])
        )

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Start a fresh desktop (stopping the previous one), run the setup steps, observe.

        Options:
            setup: the task's typed setup steps (see :mod:`gui_agent.envs.desktop.steps`).
            instruction: text to put in ``Observation.instruction``.

        ``seed`` is accepted for the Gymnasium contract; a desktop has nothing to seed.

        Raises:
            EnvError: the desktop could not start (a program or app is missing, ...).
            DesktopStepError: a setup step could not be done (a PageError: the runner
                reports it as an environment failure).
        """
        options = dict(options or {})
        unknown = set(options) - {"instruction", "setup"}
        if unknown:
            raise ValueError(f"unknown reset option(s) {sorted(unknown)}; expected 'instruction' and/or 'setup'")
        self._instruction = str(options.get("instruction", ""))
        self._episode_open = False
        self._done = None
        self._teardown(orderly=True)
        self._failure = None
        self._worker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"gui-agent-desktop-{id(self):x}")
        session = DesktopSession(
            width=self.screen[0], height=self.screen[1], apps=self.apps, window_manager=self.window_manager,
            mail=self.mail, start_timeout_s=self.start_timeout_s, accessibility=self.accessibility,
        )
        self._session = session
        self._call(session.start, timeout_s=self.start_timeout_s * 2 + self.step_timeout_s, what="starting the desktop")
        self.run_steps(options.get("setup") or ())
        self._episode_open = True
        obs = self.observe()
        return obs, {"display": session.display, "home": str(session.home), "pid": self.pid, "seed": seed}

    def run_steps(self, steps: Sequence[Any]) -> None:
        """Run typed desktop steps (setup, or post steps before evaluation), in order.

        Raises:
            DesktopStepError: a step could not be done. EnvError: the desktop broke.
        """
        self._require_session()
        session = self._session
        assert session is not None
        for index, step in enumerate(steps):
            name = getattr(step, "name", type(step).__name__)
            try:
                self._call(
                    lambda step=step: run_step(session, step, task_dir=self.task_dir),
                    timeout_s=step_timeout(step) + _STEP_MARGIN_S,
                    what=f"step {index} ({name})",
                )
            except DesktopStepError as exc:
                raise DesktopStepError(f"step {index} ({name}): {exc}") from None

    def step(self, action: Action) -> StepResult:
        """Perform one canonical action through XTEST, let the screen settle, observe.

        Returns ``(obs, 0.0, terminated, False, info)``: the task's evaluator decides
        success; ``terminated`` is True after ``done``. A click on a mark clicks the mark's
        centre in the last observation; ``info["resolved_action"]`` is that click with its point.
        """
        self._require_episode()
        named, (action, error) = action, self._resolve_mark(action)
        error = error or self._check_in_screen(action)
        timeout = self.step_timeout_s + (float(action.seconds) if isinstance(action, Wait) else 0.0)
        session = self._session
        assert session is not None

        def work() -> Observation:
            t0 = time.perf_counter()
            deadline = time.monotonic() + 0.8 * timeout
            failure = error
            if failure is None and not isinstance(action, (Wait, Done)):
                assert session.input is not None
                try:
                    session.input.perform(action, timeout_s=0.5 * timeout)
                except XdotoolDiedError as exc:
                    session.check_alive()  # the display died: that is the failure
                    failure = f"{action.kind} failed: {exc}"  # an X error killed xdotool; the next action restarts it
            elif isinstance(action, Wait) and failure is None:
                time.sleep(action.seconds)
            t1 = time.perf_counter()
            assert session.capture is not None and session.windows is not None
            if isinstance(action, (Wait, Done)) or failure is not None:
                pixels = session.capture.grab()
            else:
                pids = session.app_pids()
                pixels = session.capture.settle(
                    min_s=self.settle_s, quiet_s=self.settle_quiet_s, max_s=self.settle_max_s, deadline=deadline,
                    cpu_ns=lambda: cpu_time_ns(pids),
                )
            t2 = time.perf_counter()
            session.check_alive()
            obs = self._observation(session, pixels, failure, deadline=deadline)
            t3 = time.perf_counter()
            obs.timings = {"act_s": t1 - t0, "settle_s": t2 - t1, "observe_s": t3 - t2, **obs.timings}
            return obs

        obs = self._call(work, timeout_s=timeout, what=f"step {action_to_text(action)}")
        info: dict[str, Any] = {}
        if named is not action:  # a click on a mark: the record may keep the point it clicked, and the mark
            assert isinstance(named, Click) and isinstance(action, Click)
            info["resolved_action"] = action_to_dict(dataclasses.replace(named, x=action.x, y=action.y))
        terminated = isinstance(action, Done)
        if terminated:
            assert isinstance(action, Done)
            info["done"] = {"success": action.success, "answer": action.answer, "handoff": action.handoff}
            self._done = {"success": action.success, "answer": action.answer}
            self._episode_open = False
        return obs, 0.0, terminated, False, info

    def observe(self) -> Observation:
        """A fresh observation without acting."""
        self._require_session()
        session = self._session
        assert session is not None

        def work() -> Observation:
            t0 = time.perf_counter()
            assert session.capture is not None
            session.check_alive()
            obs = self._observation(session, session.capture.grab(), None, deadline=t0 + 0.8 * self.step_timeout_s)
            obs.timings = {"act_s": 0.0, "settle_s": 0.0, "observe_s": time.perf_counter() - t0, **obs.timings}
            return obs

        return self._call(work, what="observing the screen")

    def close(self) -> None:
        """Stop every process of the desktop and remove its folder. Safe to call twice."""
        self._episode_open = False
        self._teardown(orderly=True)

    # ================================================================== internals
    def _observation(self, session: DesktopSession, pixels: Any, error: str | None, *, deadline: float) -> Observation:
        assert session.windows is not None
        active = session.windows.active()
        obs = Observation(
            screenshot=pixels,
            instruction=self._instruction,
            window_title=active.title if active is not None else None,
            windows=[w.title for w in session.windows.windows()],
            last_action_error=error,
        )
        if self.observe_a11y_tree:
            t0 = time.perf_counter()
            # What is left of the step's deadline, at least a second: a late tree is a hang.
            limit = max(1.0, min(A11Y_TIMEOUT_S, deadline - time.monotonic()))
            obs.a11y_tree = session.accessibility_tree(scope="screen", complete=False, timeout_s=limit)
            t1 = time.perf_counter()
            obs.marks = desktop_marks(obs.a11y_tree, pixels)
            obs.timings = {"a11y_s": t1 - t0, "marks_s": time.perf_counter() - t1}
        self._marks = obs.marks  # what a click(mark=N) of the next step names
        return obs

    def _resolve_mark(self, action: Action) -> tuple[Action, str | None]:
        """A click on a mark as a click on the mark's centre, or why it cannot be resolved."""
        if not isinstance(action, Click) or action.mark is None:
            return action, None
        try:
            x, y = mark_point(self._marks, action.mark)
        except KeyError as exc:
            return action, f"click: {exc.args[0]}"
        return dataclasses.replace(action, x=x, y=y, mark=None), None

    def _check_in_screen(self, action: Action) -> str | None:
        return off_screen_error(action, *self.screen)

    def _require_session(self) -> None:
        if self._failure is not None:
            raise type(self._failure)(f"{self._failure} (reset() starts a new desktop)")
        if self._session is None or self._worker is None:
            raise RuntimeError("the desktop is not running: call reset() first")

    def _require_episode(self) -> None:
        self._require_session()
        if not self._episode_open:
            raise RuntimeError("no episode is running: call reset() first (and again after done)")

    def _call(self, fn: Callable[[], T], *, timeout_s: float | None = None, what: str) -> T:
        """Run ``fn`` on the worker thread with a deadline; hangs and deaths become EnvErrors."""
        if self._failure is not None:
            raise type(self._failure)(f"{self._failure} (reset() starts a new desktop)")
        assert self._worker is not None and self._session is not None
        session = self._session
        limit = self.step_timeout_s if timeout_s is None else timeout_s
        future = self._worker.submit(fn)
        try:
            return future.result(timeout=limit)
        except concurrent.futures.TimeoutError:
            why = " (the X server is stopped by a signal)" if session.is_frozen() else ""
            self._fail(EnvHungError(f"the desktop did not answer within {limit:.1f} s during {what}{why}; it was killed"), hung=True)
        except DesktopStepError:
            self._check_health(what)
            raise
        except EnvHungError as exc:
            self._fail(exc, hung=True)
        except EnvError as exc:
            self._fail(self._explain_death(exc, what))
        except Exception as exc:  # noqa: BLE001 - whatever else broke is the environment's fault
            self._check_health(what)
            self._fail(EnvError(f"{what} failed unexpectedly: {type(exc).__name__}: {exc}"))
        raise AssertionError("unreachable")  # pragma: no cover

    def _check_health(self, what: str) -> None:
        """After a step error: if the desktop itself died meanwhile, that is the failure."""
        session = self._session
        if session is None:
            return
        try:
            session.check_alive()
        except EnvDiedError as exc:
            self._fail(EnvDiedError(f"{exc} (during {what})"))

    def _explain_death(self, exc: EnvError, what: str) -> EnvError:
        """A lost X connection is reported as what caused it (Xvfb or an app died) when known."""
        session = self._session
        if session is not None and isinstance(exc, EnvDiedError):
            try:
                session.check_alive()
            except EnvDiedError as cause:
                return EnvDiedError(f"{cause} (during {what})")
            # The X connection can close a moment before a killed server is reaped (longer
            # on a loaded machine): give it that moment, so the cause is named.
            if session.xvfb is not None and session.xvfb.wait(1.0):
                return EnvDiedError(f"the X server (Xvfb) died ({session.xvfb.exit_description()}) (during {what})")
        return exc if what in str(exc) else type(exc)(f"{exc} (during {what})")

    def _fail(self, error: EnvError, *, hung: bool = False) -> None:
        """Record the failure, kill and clean up everything, raise ``error``."""
        self._failure = error
        self._episode_open = False
        self._teardown(orderly=not hung)
        raise error

    def _teardown(self, *, orderly: bool) -> None:
        """Stop the session's processes and the worker; never blocks for long."""
        session, worker = self._session, self._worker
        self._session = self._worker = None
        if session is not None:
            if not orderly:
                session.kill()  # a frozen X server cannot answer anything polite
            # Orderly: the worker is idle (calls are synchronous), so our X connections can
            # be closed; after a hang it may still be inside one of them.
            session.stop(close_clients=orderly)
        if worker is not None:
            worker.shutdown(wait=orderly, cancel_futures=True)
