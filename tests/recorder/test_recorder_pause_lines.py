"""``gui-agent record`` says in the terminal when the recording pauses and resumes."""

from __future__ import annotations

import signal

from gui_agent.polling import poll


def _wait_for(rec, text: str, after: int, timeout: float = 20.0) -> int:  # type: ignore[no-untyped-def]
    """The index of the first output line from ``after`` on that holds ``text``."""

    def found() -> list[int] | None:  # in a list: line 0 is a find too
        return next(([index] for index, line in enumerate(rec.lines[after:], after) if text in line), None)

    hit = poll(found, timeout_s=timeout, interval_s=0.1)
    if hit is None:
        raise AssertionError(f"no {text!r} after line {after}:\n{rec.output()}")
    return hit[0]


def test_pause_and_resume_print_a_line_each(xvfb, recorder_factory):
    rec = recorder_factory(xvfb.display, "--task", "pause lines", "--failure", "--notes", "", "--stop-key", "ctrl+alt+q")
    try:
        rec.wait_ready()
        x = xvfb.xdotool
        x("key", "ctrl+alt+p")  # the chord
        paused = _wait_for(rec, "paused: nothing is captured; resume: ctrl+alt+p (or SIGUSR1), stop: ctrl+alt+q", 0)
        x("key", "ctrl+alt+p")
        resumed = _wait_for(rec, "resumed: recording again", paused + 1)
        rec.proc.send_signal(signal.SIGUSR1)  # the signal
        again = _wait_for(rec, "paused: nothing is captured", resumed + 1)
        rec.proc.send_signal(signal.SIGUSR1)
        _wait_for(rec, "resumed", again + 1)
        x("key", "ctrl+alt+q")
        assert rec.proc.wait(20) == 0, rec.output()
    finally:
        rec.kill()
