"""The one interface of both recordings: which one a command gets, and what decides success."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.recorder.browser import BrowserRecording
from gui_agent.recorder.miniwob_page import MiniWobPage, is_miniwob_url
from gui_agent.recorder.recording import decide_success, open_recording
from gui_agent.recorder.session import RecordingSession, SessionConfig


def test_what_the_annotator_marked_wins_then_the_tasks_own_verdict_then_the_answer() -> None:
    asked: list[bool] = []

    def ask() -> bool | None:
        asked.append(True)
        return True

    assert decide_success(marked=False, verdict=True, ask=ask) is False
    assert decide_success(marked=None, verdict=False, ask=ask) is False
    assert not asked  # a verdict known, nobody is asked
    assert decide_success(marked=None, verdict=None, ask=ask) is True and asked
    assert decide_success(marked=None, verdict=None, ask=None) is None  # the capture failed: not asked, not known


def test_a_miniwob_page_says_solved_when_done_with_a_positive_reward() -> None:
    assert MiniWobPage.solved({"done": True, "raw_reward": 1.0, "reason": None})
    assert not MiniWobPage.solved({"done": True, "raw_reward": -1.0})
    assert not MiniWobPage.solved({"done": False, "raw_reward": 1.0})
    assert not MiniWobPage.solved({"done": True, "raw_reward": None})
    assert is_miniwob_url("miniwob:click-button") and not is_miniwob_url("https://example.org") and not is_miniwob_url(None)


def test_the_desktop_or_the_browser_is_recorded_as_asked(xvfb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from Xlib import display as xdisplay

    monkeypatch.setenv("DISPLAY", xvfb.display)  # a session sets it for pynput and mss; put back afterwards
    # Xvfb resets when its last client leaves, and refuses connections meanwhile: keep one open.
    keeper = xdisplay.Display(xvfb.display)
    try:
        _open_both(xvfb.display, tmp_path)
    finally:
        keeper.close()


def _open_both(display: str, tmp_path: Path) -> None:
    config = SessionConfig(task="do it", out_dir=tmp_path, display=display)
    desktop = open_recording(config)
    try:
        assert isinstance(desktop, RecordingSession) and desktop.session is desktop and desktop.verdict() is None
        assert desktop.session.config.env_kind == "desktop" and desktop.session.config.app is None
    finally:
        desktop.session.mask.close()
    browser = open_recording(config, url="miniwob:click-button", seed=3)
    try:
        assert isinstance(browser, BrowserRecording) and browser.miniwob == MiniWobPage(task="click-button", seed=3)
        assert browser.session.config.env_kind == "browser" and browser.session.config.app == "chromium"
        assert browser.verdict() is None  # nothing read before the capture stops
    finally:
        browser.close()
        browser.session.mask.close()
    assert config.env_kind == "desktop"  # the caller's settings are left as they were
    with pytest.raises(ValueError, match="--seed applies to MiniWoB"):
        open_recording(config, seed=3)
    with pytest.raises(ValueError, match="--seed applies to MiniWoB"):
        open_recording(config, url="https://example.org", seed=3)
