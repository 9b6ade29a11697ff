"""One interface for both recordings, the choice between them, and what decides success.

``gui-agent record`` records a desktop (:class:`~gui_agent.recorder.session.RecordingSession`: the
screen and input of an X display) or a page in a headed Chromium
(:class:`~gui_agent.recorder.browser.BrowserRecording`: the same, plus each action's target element,
and for a MiniWoB++ page the page's own verdict). Both are a :class:`Recording`, so the
command drives either without asking which: :func:`open_recording` picks it, and
:func:`decide_success` says whether the task succeeded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from gui_agent.recorder.session import RecordingSession, SessionConfig


class Recording(Protocol):
    """A recording, from start to the finished episode.

    The order: :meth:`start`, :meth:`run` (until a stop chord, a signal or the duration),
    :meth:`stop_capture`, :meth:`close`, then :meth:`verdict` and :meth:`finish`.
    Pausing, the stop and pause chords and the signals are the :attr:`session`'s.
    """

    @property
    def session(self) -> RecordingSession:
        """The session that captures the screen and input and writes the episode."""
        ...

    def start(self) -> Path:
        """Start capturing; returns the episode folder.

        Raises:
            RecorderError: the display or the browser cannot be recorded.
        """
        ...

    def run(self, duration_s: float | None = None) -> str:
        """Record until stopped, or ``duration_s``; returns why it stopped."""
        ...

    def stop_capture(self) -> None:
        """Stop capturing and write what is pending.

        Raises:
            RecorderError: the capture failed on the way; the episode is kept up to that point.
        """
        ...

    def close(self) -> None:
        """Close what the recording opened besides the capture (safe to call twice)."""
        ...

    def verdict(self) -> bool | None:
        """The task's own verdict, known once the capture stopped (a MiniWoB++ page's reward);
        None where nothing but the annotator judges the task."""
        ...

    def finish(self, *, success: bool | None, notes: str | None = None, reason: str | None = None) -> Path:
        """Mark the episode complete with its outcome; returns its folder."""
        ...


def open_recording(config: SessionConfig, *, url: str | None = None, seed: int | None = None) -> Recording:
    """The recording ``config`` asks for: of a page at ``url`` in a headed Chromium (``miniwob:TASK``:
    a MiniWoB++ task page started with ``seed``), or of the desktop when ``url`` is None.

    Raises:
        RecorderError: the X display cannot be recorded.
        ValueError: a ``seed`` without a MiniWoB++ page, no such MiniWoB++ task, a bad chord.
    """
    if url is None:
        if seed is not None:
            raise ValueError("--seed applies to MiniWoB++ pages only (--browser miniwob:TASK)")
        return RecordingSession(config)
    from gui_agent.recorder.browser import BrowserRecording

    return BrowserRecording(url, replace(config, env_kind="browser", app="chromium"), seed=seed)


def decide_success(*, marked: bool | None, verdict: bool | None, ask: Callable[[], bool | None] | None) -> bool | None:
    """Whether the recorded task succeeded.

    What the annotator marked beforehand (``--success``/``--failure``) wins; else the task's
    own verdict (:meth:`Recording.verdict`); else the annotator's answer when asked (``ask``
    is None when nobody should be: the capture failed). None: not known.
    """
    if marked is not None:
        return marked
    if verdict is not None:
        return verdict
    return ask() if ask is not None else None


__all__ = ["Recording", "decide_success", "open_recording"]
