"""One desktop recording: screen + input -> an episode folder, crash-safe as it goes.

Threads: pynput's listeners call :meth:`RecordingSession._sink`, which numbers each event,
keeps a reference to the keyframe (the frame just before it) for events that can start an
action, and queues it. The screen thread grabs frames. The session's own loop
(:meth:`run`, on the caller's thread) drains the queue every ``tick_s``: appends the
events to ``events.jsonl`` (flushed; fsync once a second), feeds the reducer and writes each
finished action as a step with its keyframe through :class:`EpisodeWriter`. So a SIGKILL
loses at most one tick of events; actions still pending (typing in progress) are rebuilt
from ``events.jsonl`` by :func:`gui_agent.recorder.recovery.recover_recording`.

Control: the pause and stop chords (default ctrl+alt+p / ctrl+alt+s) are consumed, never
recorded; SIGUSR1 toggles pause; SIGINT/SIGTERM stop. While paused nothing is captured,
neither frames nor input (only modifier releases, so shortcuts stay consistent).
"""

from __future__ import annotations

import collections
import getpass
import os
import shutil
import signal
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gui_agent.episode.format import (
    EVENTS_FILE,
    ActorInfo,
    EnvInfo,
    FrameFormat,
    Outcome,
    ScreenSize,
    TaskInfo,
)
from gui_agent.episode.labels import EVENTS, KEYFRAME_STALENESS, NOTES, RECORDER, SCREEN_GRABS, VIDEO
from gui_agent.episode.writer import EpisodeWriter
from gui_agent.recorder.clock import Clock
from gui_agent.recorder.display import check_display
from gui_agent.recorder.errors import RecorderError, ScreenError
from gui_agent.recorder.events import MODIFIERS, RawEvent
from gui_agent.recorder.input_events import InputCapture
from gui_agent.recorder.privacy import DEFAULT_MASK_PATTERN, TitleMask
from gui_agent.recorder.reduce import ReduceConfig, Reduced, Reducer
from gui_agent.recorder.screen import Frame, ScreenCapture, monitor_at

#: Event kinds whose keyframe is kept (they can begin an action).
_ANCHOR_KINDS = ("down", "scroll", "key_down")


def parse_chord(text: str) -> tuple[frozenset[str], str]:
    """``"ctrl+alt+p"`` -> ({"ctrl", "alt"}, "p")."""
    parts = [p.strip().lower() for p in text.split("+") if p.strip()]
    if not parts or parts[-1] in MODIFIERS:
        raise ValueError(f"a control chord needs a final non-modifier key, got {text!r}")
    bad = [p for p in parts[:-1] if p not in MODIFIERS]
    if bad:
        raise ValueError(f"{text!r}: {bad} are not modifiers {MODIFIERS}")
    return frozenset(parts[:-1]), parts[-1]


@dataclass
class SessionConfig:
    task: str
    out_dir: Path = Path("recordings")
    task_id: str | None = None
    display: str | None = None
    fps: float = 40.0
    annotator: str = field(default_factory=getpass.getuser)
    app: str | None = None
    pause_chord: str = "ctrl+alt+p"
    stop_chord: str = "ctrl+alt+s"
    mask_pattern: str | None = DEFAULT_MASK_PATTERN
    reduce: ReduceConfig = field(default_factory=ReduceConfig)
    tick_s: float = 0.1
    env_kind: str = "desktop"
    video_fps: float = 0.0  # > 0: also write screen.mp4 at this rate (recorder.video)
    #: Keyframe files, both lossless; WebP keeps a 1080p session under 5 MB a minute.
    frame_format: FrameFormat = "webp"
    #: Extra episode labels written at start (e.g. ``seed`` of a MiniWoB++ page).
    labels: dict[str, Any] = field(default_factory=dict)
    #: Pause by itself after this many seconds without mouse or keyboard input (None: never),
    #: so a person who walked away leaves no long idle stretch in the episode. Only a resume
    #: (chord, signal, the station's button) ends such a pause: the input that would end it
    #: might land on a screen not captured meanwhile.
    idle_pause_s: float | None = None
    #: The recorded desktop's accessibility bus (``unix:path=...``): each step gets its target
    #: element and keys typed into a focused password field are masked
    #: (:mod:`gui_agent.recorder.desktop_targets`). None: pixels only.
    a11y_address: str | None = None


class RecordingSession:
    """Start with :meth:`start`, loop with :meth:`run` (until stopped), close with :meth:`finish`."""

    def __init__(self, config: SessionConfig):
        self.config = config
        self.clock = Clock()
        self.display = check_display(config.display)
        os.environ["DISPLAY"] = self.display  # pynput and mss read it when they connect
        self.mask = TitleMask(config.mask_pattern, display_name=self.display)
        self._pause_chord = parse_chord(config.pause_chord)
        self._stop_chord = parse_chord(config.stop_chord)
        self._queue: collections.deque[tuple[int, RawEvent]] = collections.deque()
        self._index_lock = threading.Lock()
        self._next_index = 0
        self._held: set[str] = set()
        self._anchor_frames: dict[int, Frame | None] = {}
        self._typing_run_t: float | None = None
        self.paused = False
        #: Why the recording is paused: "idle" when :attr:`SessionConfig.idle_pause_s` paused it.
        self.pause_reason: str | None = None
        # Pausing comes from several threads (chord, signal, idle check, the station): each
        # check-then-set happens under this lock. Re-entrant: a signal handler may run on a
        # thread that holds it.
        self._pause_lock = threading.RLock()
        self.last_input = time.monotonic()
        #: Recording-clock time of the last input that can move the focus (a click, a key
        #: other than a character); :mod:`gui_agent.recorder.desktop_targets` reads it.
        self.last_focus_event_t = 0.0
        self.stop_requested = threading.Event()
        self.stop_reason: str | None = None
        self.reducer = Reducer(config.reduce)
        self.screen = ScreenCapture(self.clock, fps=config.fps, blank=self.mask.masked, paused=lambda: self.paused)
        self.input = InputCapture(self.clock, self._sink, mask_keys=self.mask.masked)
        self.writer: EpisodeWriter | None = None
        self.video: Any = None
        self._events_file: Any = None
        self._last_fsync = 0.0
        self.n_events = 0
        self.staleness: list[float] = []
        self.on_step: Any = None  # optional callback(Reduced, StepRecord) for live display / browser targets
        #: Optional callback(paused, reason) when the recording pauses or resumes, called from
        #: the thread that runs :meth:`process` (never from a signal handler or a listener).
        self.on_pause: Any = None
        self._pause_shown = False
        self.target_for: Any = None  # optional callback(Reduced) -> target dict (browser recording)
        self.a11y: Any = None  # the DesktopTargets of a desktop recorded with its accessibility bus

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> Path:
        """Check the screen, create the episode, start the listeners. Returns the episode folder."""
        try:
            self.screen.start()
        except ScreenError as exc:
            raise RecorderError(f"cannot record display {self.display!r}: {exc}") from None
        frame = self.screen.latest()
        layout = self.screen.layout
        if frame is None or frame.width <= 0:
            self.screen.stop()
            raise RecorderError(f"display {self.display!r} gave no usable frame")
        cfg = self.config
        task_id = cfg.task_id or "recorded"
        labels: dict[str, Any] = {}
        RECORDER.set(labels, {"pid": os.getpid(), "host": socket.gethostname(), "display": self.display, "monitors": layout[1:],
                              "origin": [layout[0]["left"], layout[0]["top"]], "fps": cfg.fps, "pause_chord": cfg.pause_chord,
                              "stop_chord": cfg.stop_chord, "mask_pattern": cfg.mask_pattern, "video_fps": cfg.video_fps})
        labels.update(cfg.labels)
        self.writer = EpisodeWriter.create(
            cfg.out_dir,
            task=TaskInfo(id=task_id, instruction=cfg.task, source="human"),
            env=EnvInfo(kind=cfg.env_kind, app=cfg.app, screen=ScreenSize(width=layout[0]["width"], height=layout[0]["height"]), scale=1.0),  # type: ignore[arg-type]
            actor=ActorInfo(type="human", name=cfg.annotator),
            frame_format=cfg.frame_format,
            labels=labels,
        )
        self._events_file = open(self.writer.path / EVENTS_FILE, "a", encoding="utf-8")
        try:
            if cfg.a11y_address and self.target_for is None:
                from gui_agent.recorder.desktop_targets import DesktopTargets

                self.a11y = DesktopTargets(self, cfg.a11y_address, screen=(layout[0]["width"], layout[0]["height"])).attach()
            self.input.start()
            if cfg.video_fps > 0:
                from gui_agent.recorder.video import VideoRecorder

                self.video = VideoRecorder(self.writer.path, self.screen, fps=cfg.video_fps)
                self.video.start()
        except Exception as exc:
            self.input.stop()
            self.screen.stop()
            self._close_a11y()
            # Nothing was recorded yet: leave no empty episode behind.
            self._close_events()
            self.writer.__exit__(None)
            shutil.rmtree(self.writer.path, ignore_errors=True)
            raise RecorderError(f"cannot record on {self.display!r}: {exc}") from None
        return self.writer.path

    def install_signal_handlers(self) -> None:
        """SIGINT/SIGTERM stop, SIGUSR1 toggles pause (call from the main thread)."""
        signal.signal(signal.SIGINT, lambda *_: self.request_stop("signal"))
        signal.signal(signal.SIGTERM, lambda *_: self.request_stop("signal"))
        signal.signal(signal.SIGUSR1, lambda *_: self.toggle_pause())

    def request_stop(self, reason: str) -> None:
        self.stop_reason = self.stop_reason or reason
        self.stop_requested.set()

    def toggle_pause(self, reason: str = "paused") -> None:
        with self._pause_lock:
            self.set_paused(not self.paused, reason)

    def set_paused(self, paused: bool, reason: str = "paused") -> bool:
        """Pause (for ``reason``) or resume; True when this call changed the state (a pause
        already on keeps its first reason)."""
        with self._pause_lock:
            if paused == self.paused:
                return False
            self.paused = paused
            self.pause_reason = reason if paused else None
            if not paused:
                self.last_input = time.monotonic()  # the idle clock starts again at a resume
            return True

    def pause_if_idle(self) -> bool:
        """Pause when no input came for ``idle_pause_s``; True when this call paused."""
        limit = self.config.idle_pause_s
        with self._pause_lock:
            if self.paused or not limit or time.monotonic() - self.last_input < limit:
                return False
            return self.set_paused(True, "idle")

    def run(self, duration_s: float | None = None) -> str:
        """Process input until stopped (chord, signal, ``duration_s``, or a screen error)."""
        end = None if duration_s is None else time.monotonic() + duration_s
        while not self.stop_requested.is_set():
            self.stop_requested.wait(self.config.tick_s)
            self.process()
            self.pause_if_idle()
            if self.screen.error:
                self.request_stop("screen")
            if end is not None and time.monotonic() >= end:
                self.request_stop("duration")
        return self.stop_reason or "stopped"

    def stop_capture(self) -> None:
        """Stop listening and grabbing; write what is pending and the final frame."""
        self.input.stop()
        self.process()
        self._write_steps(self.reducer.flush())
        final = self.screen.latest()
        if self.video is not None:
            self.video.stop()
        self.screen.stop()
        if final is not None and self.writer is not None:
            self.writer.add_final_frame(final.rgb())
        self._close_events()
        self._close_a11y()
        self.mask.close()
        if self.screen.error and self.stop_reason == "screen":
            raise RecorderError(self.screen.error + "; the episode is kept up to this point")

    def finish(self, *, success: bool | None, notes: str | None = None, reason: str | None = None,
               labels: dict[str, Any] | None = None) -> Path:
        """Mark the episode complete with the annotator's verdict (``labels``: more episode labels)."""
        assert self.writer is not None
        labels = dict(labels or {})
        EVENTS.set(labels, self.n_events)
        SCREEN_GRABS.set(labels, {"count": self.screen.grabs, "late": self.screen.late_grabs, "max_gap_s": round(self.screen.max_gap_s, 4)})
        if self.video is not None:
            VIDEO.set(labels, {"frames": len(self.video.times), "fps": self.video.fps, "error": self.video.error})
        if notes:
            NOTES.set(labels, notes)
        if self.staleness:
            KEYFRAME_STALENESS.set(labels, {"max": round(max(self.staleness), 4), "mean": round(sum(self.staleness) / len(self.staleness), 4)})
        self.writer.finalize(Outcome(success=success, termination="stopped", reason=reason or self.stop_reason), labels=labels)
        return self.writer.path

    # ------------------------------------------------------------------ as a Recording
    @property
    def session(self) -> RecordingSession:
        """Itself: a desktop recording is its session (a browser recording holds one); see
        :class:`gui_agent.recorder.recording.Recording`."""
        return self

    def verdict(self) -> bool | None:
        """None: nothing on a desktop judges the task (the annotator says)."""
        return None

    def close(self) -> None:
        """Nothing is left to close after :meth:`stop_capture` (a browser recording closes its browser)."""

    # ------------------------------------------------------------------ listener side
    def _sink(self, event: RawEvent) -> None:
        self.last_input = time.monotonic()
        if event.kind not in ("move", "up") and not (event.kind in ("key_down", "key_up") and event.key and len(event.key) == 1):
            self.last_focus_event_t = event.t
        if event.kind in ("key_down", "key_up") and event.key:
            if event.key in MODIFIERS:
                (self._held.add if event.kind == "key_down" else self._held.discard)(event.key)
            elif event.kind == "key_down" and self._control(event.key) or event.kind == "key_up" and self._is_chord_key(event.key):
                return
        if self.paused and not (event.kind == "key_up" and event.key in MODIFIERS):
            return
        frame = self._keyframe_for(event)
        with self._index_lock:
            index = self._next_index
            self._next_index += 1
            if frame is not False:
                self._anchor_frames[index] = frame  # type: ignore[assignment]
            self._queue.append((index, event))

    def _control(self, key: str) -> bool:
        key = key.lower()
        held = frozenset(self._held)
        if (held, key) == self._stop_chord:
            self.request_stop("hotkey")
            return True
        if (held, key) == self._pause_chord:
            self.toggle_pause()
            return True
        return False

    def _is_chord_key(self, key: str) -> bool:
        return key.lower() in (self._stop_chord[1], self._pause_chord[1]) and bool(self._held)

    def _keyframe_for(self, event: RawEvent) -> Frame | None | bool:
        """The frame to keep for this event, or False if it cannot start an action.

        It is the newest grab *finished* when the event reached us. Not a grab still running
        then, though it started before: taking that one (tried, to cut staleness)
        put the click's own result in Chromium keyframes, which repaint within a 1080p grab.

        A key that continues a run of typing keeps none (the run's first key holds it):
        otherwise a long text would pin one raw frame per keystroke in memory.
        """
        if event.kind not in _ANCHOR_KINDS or (event.kind == "key_down" and event.key in MODIFIERS):
            return False
        if event.kind == "key_down" and event.key is not None and (len(event.key) == 1 or event.key in ("space", "backspace")):
            run_t, self._typing_run_t = self._typing_run_t, event.t
            if run_t is not None and event.t - run_t <= self.config.reduce.type_idle_s and not (self._held - {"shift"}):
                return False
        else:
            self._typing_run_t = None
        return self.screen.frame_before(event.t)

    # ------------------------------------------------------------------ loop side
    def process(self) -> None:
        """Drain queued events to events.jsonl and the reducer; write finished steps."""
        batch = []
        while self._queue:
            batch.append(self._queue.popleft())
        if batch and self._events_file is not None:
            self._events_file.write("".join(event.to_json() + "\n" for _, event in batch))
            self._events_file.flush()
            now = time.monotonic()
            if now - self._last_fsync >= 1.0:
                os.fsync(self._events_file.fileno())
                self._last_fsync = now
        done: list[Reduced] = []
        for index, event in batch:
            assert index == self.reducer.n_events, "events reach the reducer in index order"
            done.extend(self.reducer.feed(event))
        self.n_events += len(batch)
        # Events still in flight from the listener threads are at most a tick old.
        done.extend(self.reducer.flush(self.clock.now() - 2 * self.config.tick_s))
        self._write_steps(done)
        self._report_pause()

    def _report_pause(self) -> None:
        """Tell :attr:`on_pause` about a pause or resume since the last call (several, netted)."""
        paused = self.paused
        if paused != self._pause_shown:
            self._pause_shown = paused
            if self.on_pause is not None:
                self.on_pause(paused, self.pause_reason)

    def _write_steps(self, done: list[Reduced]) -> None:
        assert self.writer is not None
        for r in done:
            frame = self._pick_frame(r)
            timings = {}
            if frame is not None:
                timings["keyframe_staleness_s"] = round(r.t - frame.t, 4)
                self.staleness.append(r.t - frame.t)
            target = self.target_for(r) if self.target_for is not None else None
            info = {**r.info, **({"masked_frame": True} if frame is not None and frame.bgra is None else {}), **self._monitors_of(r)}
            record = self.writer.add_step(
                r.action, frame_before=frame.rgb() if frame is not None else None, t=max(0.0, r.t),
                events=(r.start, r.end), timings=timings, target=target, info=info,
            )
            if self.on_step is not None:
                self.on_step(r, record)
        keep_from = self.reducer.pending_start()
        if keep_from is None:
            keep_from = self.reducer.n_events
        with self._index_lock:
            for index in [i for i in self._anchor_frames if i < keep_from]:
                del self._anchor_frames[index]

    def _monitors_of(self, r: Reduced) -> dict[str, int]:
        """``{"monitor": i}`` (and ``"monitor_end"`` for a drag that ends on another) when
        there are several monitors: indices into episode.json's ``labels.recorder.monitors``."""
        monitors = self.screen.layout[1:]
        if len(monitors) < 2:
            return {}
        origin_x, origin_y = self.screen.layout[0]["left"], self.screen.layout[0]["top"]
        action = r.action
        points = [(getattr(action, "x", None), getattr(action, "y", None)), (getattr(action, "x2", None), getattr(action, "y2", None))]
        if hasattr(action, "x1"):
            points[0] = (action.x1, action.y1)  # type: ignore[attr-defined]
        found: dict[str, int] = {}
        for key, (x, y) in zip(("monitor", "monitor_end"), points):
            index = None if x is None or y is None else monitor_at(monitors, x + origin_x, y + origin_y)
            if index is not None:
                found[key] = index
        if found.get("monitor_end") == found.get("monitor"):
            found.pop("monitor_end", None)
        return found

    def _pick_frame(self, r: Reduced) -> Frame | None:
        with self._index_lock:
            if r.anchor in self._anchor_frames:
                return self._anchor_frames[r.anchor]
            earlier = [i for i in self._anchor_frames if i <= r.anchor]
            if earlier:
                return self._anchor_frames[max(earlier)]
        return self.screen.frame_before(r.t)

    def _close_a11y(self) -> None:
        if self.a11y is not None:
            self.mask.probes.clear()
            self.a11y.close()

    def _close_events(self) -> None:
        if self._events_file is not None:
            self._events_file.flush()
            os.fsync(self._events_file.fileno())
            self._events_file.close()
            self._events_file = None
