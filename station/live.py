"""One taken task, live: its desktop, the VNC server on that display, the recorder, the evaluator.

:class:`LiveDesktop` builds the task's environment from its task file
(:func:`gui_agent.envs.factory.make_env`, reset with the task's setup steps, so the
desktop has its own Xvfb, app and files), then starts Debian's ``x11vnc`` on that display,
listening on 127.0.0.1 only. The station relays the browser's websocket to that port
under its own sign-in (:mod:`gui_agent.station.routes.vnc`); nothing else listens. Each new live view
asks :meth:`LiveDesktop.vnc_port_for_viewer` for the port, which starts x11vnc afresh if
it has died, so a page that reconnects (or is reloaded) gets its view back.

:meth:`start_recording` runs the existing recorder (:class:`gui_agent.recorder.session.RecordingSession`)
on the display with the task file's instruction. :meth:`finish` stops it, runs the task's
post steps and evaluator on the final state with the runner's own code
(:func:`gui_agent.runner._evaluated`), and writes the evaluator's outcome into the episode
beside the annotator's verdict (``labels.annotator_verdict``); ``labels.disagreement`` is
True when they differ. The episode names its task file (``task.source``) and seed
(``labels.seed``), as ``gui-agent replay`` expects.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Any

from gui_agent.envs.loopback import free_loopback_port
from gui_agent.envs.owned_process import OwnedProcess
from gui_agent.episode.labels import (
    ANNOTATOR_VERDICT,
    DISAGREEMENT,
    EVALUATOR_SUCCESS,
    PAGE_ORIGIN,
    RECORDER_ERROR,
    SEED,
    STATION,
    TASK_FILE,
)
from gui_agent.errors import EnvError
from gui_agent.task import Task
from gui_agent.station.errors import LiveError

#: The recorder reads ``$DISPLAY`` while it connects: one session connects at a time.
_RECORDER_START = threading.Lock()

X11VNC_HINT = "install Debian's x11vnc (scripts/setup.sh does)"
#: The pause reason while no live view of a recording is open.
NO_VIEWER = "no one is watching the desktop"


def start_x11vnc(display: str, *, log_path: Path, timeout_s: float = 15.0) -> tuple[OwnedProcess, int]:
    """``x11vnc`` serving ``display`` on a free 127.0.0.1 port, without a password (only the
    station connects to it). Returns the process and its port once it accepts connections.

    Raises:
        EnvError: x11vnc is missing or did not come up.
    """
    for _ in range(3):
        port = free_loopback_port()
        proc = OwnedProcess(
            ["x11vnc", "-display", display, "-localhost", "-rfbport", str(port), "-noipv6", "-nopw",
             "-forever", "-shared", "-noxdamage", "-xkb", "-quiet"],
            name="x11vnc", log_path=log_path, install_hint=X11VNC_HINT,
        )
        proc.start()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and proc.is_alive():
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                    if sock.recv(12).startswith(b"RFB "):
                        return proc, port
            except OSError:
                time.sleep(0.1)
        proc.stop()  # the port was taken meanwhile, or it failed: try another
    raise EnvError(f"x11vnc did not start on {display}: {proc.log_tail()}")


class LiveDesktop:
    """A taken item's desktop. Blocking methods: call them from a worker thread."""

    def __init__(self, *, item_id: str, task: Task, task_file: Path, seed: int, annotator: str, repeat: int, dataset: Path,
                 idle_pause_s: float | None = None):
        self.item_id = item_id
        self.task = task
        self.task_file = Path(task_file)
        self.seed = seed
        self.annotator = annotator
        self.repeat = repeat
        self.dataset = Path(dataset)
        self.idle_pause_s = idle_pause_s
        self.env: Any = None
        self.browser: Any = None  # a browser task's BrowserDesktop (its Xvfb and headed Chromium)
        self.vnc: OwnedProcess | None = None
        self.vnc_port: int | None = None
        self._vnc_log: Path | None = None
        self._vnc_lock = threading.Lock()  # one x11vnc (re)start or stop at a time; never the one Finish holds
        self._vnc_closed = False
        self.instruction = task.instruction or ""
        self.session: Any = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.state = "new"  # new -> ready -> recording -> closed
        self.viewers = 0  # live views (websockets) connected now
        self._viewer_lock = threading.Lock()

    # ------------------------------------------------------------------ desktop
    @property
    def kind(self) -> str:
        """``desktop`` or ``browser``: the task file's environment kind."""
        return str(getattr(self.task.environment, "kind", ""))

    def open(self) -> None:
        """Build and set up the task's environment, then serve its display over VNC."""
        from gui_agent.envs.factory import make_env

        try:
            if self.kind == "browser":
                from gui_agent.station.browser_task import open_browser_task

                self.browser = open_browser_task(self.task, seed=self.seed)
                self.env = self.browser.env
                obs, log = self.browser.obs, None
            elif self.kind == "desktop":
                self.env = make_env(self.task)
                obs, info = self.env.reset(seed=self.seed, options={"setup": list(self.task.setup), "instruction": self.instruction})
                log = Path(info["home"]).parent / "private" / "logs" / "x11vnc.log"
            else:
                raise LiveError(f"task {self.task.id}: the station cannot show a {self.kind!r} environment")
            self.instruction = self.task.instruction or obs.instruction
            self._vnc_log = log if log is not None and log.parent.is_dir() else None
            self.vnc, self.vnc_port = start_x11vnc(self.display, log_path=self._vnc_log)  # type: ignore[arg-type]
        except BaseException:
            self.close()
            raise
        self.state = "ready"

    @property
    def display(self) -> str | None:
        if self.browser is not None:
            return self.browser.display
        return getattr(self.env, "display", None)

    def vnc_port_for_viewer(self) -> int:
        """The port of this desktop's x11vnc for a new live view, after starting x11vnc
        again if it has died (a view that dropped comes back on the next connection).

        Blocking: call it from a worker thread.

        Raises:
            LiveError: the desktop is not open (not yet, or closed), or x11vnc did not
                start again.
        """
        with self._vnc_lock:
            if self._vnc_closed or self.state not in ("ready", "recording") or self.vnc is None or self.vnc_port is None:
                raise LiveError(f"no live view: the task is {self.state}")
            if not self.vnc.is_alive():  # is_alive reaps it: no zombie is left
                self.vnc.stop()
                try:
                    self.vnc, self.vnc_port = start_x11vnc(self.display, log_path=self._vnc_log)  # type: ignore[arg-type]
                except EnvError as exc:
                    raise LiveError(f"the live view cannot come back: {exc}") from None
            return self.vnc_port

    # ------------------------------------------------------------------ recording
    def start_recording(self) -> Path:
        """Start the recorder on this desktop; returns the episode folder."""
        from gui_agent.recorder.session import RecordingSession, SessionConfig

        with self._lock:
            if self.state != "ready":
                raise LiveError(f"cannot start: the task is {self.state}")
            labels: dict[str, Any] = {}
            SEED.set(labels, self.seed)
            TASK_FILE.set(labels, str(self.task_file))
            STATION.set(labels, {"item": self.item_id, "repeat": self.repeat})
            if self.browser is not None:
                PAGE_ORIGIN.set(labels, list(self.browser.page_origin))
            app = "chromium" if self.kind == "browser" else ",".join(getattr(self.task.environment, "apps", ())) or None
            config = SessionConfig(
                task=self.instruction, out_dir=self.dataset, task_id=self.task.id, display=self.display,
                annotator=self.annotator, env_kind=self.kind, app=app, labels=labels, idle_pause_s=self.idle_pause_s,
                a11y_address=self._a11y_address(),
            )
            with _RECORDER_START:
                session = RecordingSession(config)
                if self.browser is not None:
                    self.browser.attach(session)  # targets and the password mask from the page
                path = session.start()
            self.session = session
            self._thread = threading.Thread(target=session.run, name=f"station-recorder-{self.item_id}", daemon=True)
            self._thread.start()
            self.state = "recording"
            return path

    def _a11y_address(self) -> str | None:
        """The desktop's accessibility bus when its task asked for the tree (``observe:
        {a11y_tree: true}``): the recording then gives each step its target element and masks
        keys typed into password fields (:mod:`gui_agent.recorder.desktop_targets`)."""
        if self.browser is not None:
            return None  # a page's own script reports its targets
        bus = getattr(getattr(self.env, "_session", None), "a11y_bus", None)
        return bus.address if bus is not None else None

    def viewer_joined(self) -> None:
        """A live view connected: resume a recording that its last viewer's leaving paused.

        Called on the event loop: takes only the viewers' own lock, never the one Finish holds.
        """
        with self._viewer_lock:
            self.viewers += 1
            if self.paused_for_viewers:
                self.session.set_paused(False)

    def viewer_left(self) -> None:
        """A live view went (tab closed, network gone): with none left, pause the recording."""
        with self._viewer_lock:
            self.viewers = max(0, self.viewers - 1)
            if self.viewers == 0 and self.state == "recording":
                self.session.set_paused(True, NO_VIEWER)

    def toggle_pause(self) -> bool:
        """Pause or resume the recorder (as its pause chord does); True when now paused."""
        with self._lock:
            if self.state != "recording":
                raise LiveError(f"cannot pause: the task is {self.state}")
            if self.paused_for_viewers and self.viewers == 0:  # no Resume on a screen nobody sees
                raise LiveError("the live view is closed: the recording resumes when the page shows the desktop again")
            self.session.toggle_pause("by the annotator")
            return bool(self.session.paused)

    @property
    def paused(self) -> bool:
        return bool(getattr(self.session, "paused", False)) and self.state == "recording"

    @property
    def paused_for_viewers(self) -> bool:
        """Paused because no live view is open (a view coming back resumes it)."""
        return self.paused and self.session.pause_reason == NO_VIEWER

    @property
    def pause_reason(self) -> str | None:
        """Why the recording is paused (``idle``, ``by the annotator``, ...); None when it is not."""
        return self.session.pause_reason if self.paused else None

    @property
    def episode_path(self) -> Path | None:
        writer = getattr(self.session, "writer", None)
        return writer.path if writer is not None else None

    def _stop_capture(self, reason: str) -> str | None:
        """Stop the recorder's loop and capture; the error that cut it short, if any."""
        from gui_agent.recorder.errors import RecorderError

        session = self.session
        session.request_stop(reason)
        if self._thread is not None:
            self._thread.join(timeout=10)
        try:
            session.stop_capture()
        except RecorderError as exc:
            return str(exc)
        return None

    def _name_task_file(self) -> None:
        from gui_agent.episode.format import TaskInfo

        writer = self.session.writer
        task = writer.meta.task
        writer.meta = writer.meta.model_copy(update={"task": TaskInfo(id=task.id, instruction=task.instruction, source=str(self.task_file))})

    def finish(self, *, success: bool, notes: str | None = None) -> dict[str, Any]:
        """Stop recording, run the task's evaluator on the final state, keep both verdicts.

        Returns the episode's outcome with ``annotator_success`` and ``disagreement``.
        """
        from gui_agent.episode.format import Outcome
        from gui_agent.runner import _env_failure, _evaluated

        with self._lock:
            if self.state != "recording":
                raise LiveError(f"cannot finish: the task is {self.state}")
            self.state = "finishing"
            error = self._stop_capture("finish")
            try:
                self.env.observe()  # raises if the desktop or its app died: then nothing is judged
            except EnvError as exc:
                outcome = _env_failure(exc)
            else:
                outcome = _evaluated(self.task, self.env, None, Outcome(termination="done", reason="the annotator finished"))
            evaluated = outcome.success
            disagreement = evaluated is not None and bool(evaluated) != bool(success)
            labels: dict[str, Any] = {}
            ANNOTATOR_VERDICT.set(labels, {"success": bool(success), "notes": notes})
            EVALUATOR_SUCCESS.set(labels, evaluated)
            DISAGREEMENT.set(labels, disagreement)
            if error:
                RECORDER_ERROR.set(labels, error)
            self._name_task_file()
            # The recorder writes its own labels (events, grabs, staleness) and the annotator's
            # verdict; the outcome that stays is the evaluator's.
            self.session.finish(success=success, notes=notes, reason=error or "finished", labels=labels)
            self.session.writer.finalize(outcome)
            self.state = "finished"
            return {"success": evaluated, "reward": outcome.reward, "termination": outcome.termination,
                    "reason": outcome.reason, "annotator_success": bool(success), "disagreement": disagreement}

    def give_up(self, *, notes: str | None = None) -> dict[str, Any]:
        """Stop recording; the episode is kept as a failure the annotator reported."""
        from gui_agent.episode.format import Outcome

        with self._lock:
            if self.state != "recording":
                raise LiveError(f"cannot give up: the task is {self.state}")
            self.state = "finishing"
            error = self._stop_capture("gave up")
            self._name_task_file()
            self.session.finish(success=False, notes=notes, reason="the annotator gave up",
                                labels=ANNOTATOR_VERDICT.item({"success": False, "gave_up": True, "notes": notes}))
            self.session.writer.finalize(Outcome(success=False, reward=0.0, termination="stopped", reason=error or "the annotator gave up"))
            self.state = "finished"
            return {"success": False, "termination": "stopped", "reason": "the annotator gave up", "annotator_success": False,
                    "disagreement": False}

    def discard(self) -> None:
        """Stop recording and delete this attempt's episode (the folder the recorder made)."""
        with self._lock:
            if self.state == "recording":
                self._stop_capture("discarded")
                path = self.episode_path
                self.session.finish(success=None, reason="discarded")
                if path is not None and path.parent.resolve() == self.dataset.resolve():
                    shutil.rmtree(path, ignore_errors=True)
            self.state = "discarded"

    # ------------------------------------------------------------------ teardown
    def _wake_listeners(self) -> None:
        """Move the pointer and tap shift so the recorder's stopped pynput threads see an event and end.

        pynput's X listener only notices that it was stopped when its next event arrives; a
        desktop closed before that leaves the thread to die on a broken X connection. The
        events go through XTEST on the display (a browser env's own input never reaches X).
        """
        from gui_agent.actions import Hotkey, Move
        from gui_agent.envs.desktop.xdotool_input import XdotoolInput

        if self.display is None:
            return
        xdotool = XdotoolInput(self.display, timeout_s=5.0)
        try:
            xdotool.start()
            for action in (Move(1, 1), Move(2, 2), Hotkey(("shift",))):  # one event for each listener
                xdotool.perform(action)
        except Exception:  # noqa: BLE001 - a broken desktop is closed anyway
            return
        finally:
            xdotool.stop()
        listeners = [getattr(self.session.input, name, None) for name in ("_mouse", "_keyboard")]
        for listener in listeners:
            if isinstance(listener, threading.Thread) and listener.is_alive():
                listener.join(timeout=1.0)

    def close(self) -> None:
        """Stop everything this task started, by PID: the recorder, x11vnc, the desktop."""
        if self.state == "recording" and self.session is not None:
            try:
                self._stop_capture("station closed")
            except Exception:  # noqa: BLE001 - closing must go on; the episode stays recoverable
                pass
        if self.session is not None and self.env is not None:
            self._wake_listeners()
        with self._vnc_lock:  # after a restart under way, and no restart after it
            self._vnc_closed = True
            if self.vnc is not None:
                self.vnc.stop()
        if self.browser is not None:
            self.browser.close()  # the browser, then its Xvfb
        elif self.env is not None:
            self.env.close()
        self.state = "closed"
