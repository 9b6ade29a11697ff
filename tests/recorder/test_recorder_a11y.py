"""Desktop recordings with accessibility: real apps on a real AT-SPI bus, real X input.

The desktop is a :class:`DesktopEnv` started with its accessibility bus; the recorder
runs in this process on that display with the bus's address; xdotool (the env's own
clicks, or ``xvfb``-style ``xdotool`` calls) plays the human. Each step's target is checked
against the tree read independently, and the password check reads every file of the
episode (gzip files unpacked).
"""

from __future__ import annotations

import gzip
import re
import time
from pathlib import Path

import pytest
from lxml import etree

from gui_agent.actions import Click, Wait
from gui_agent.envs.desktop.accessibility.linearize import rows
from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep
from gui_agent.episode import read_episode
from gui_agent.recorder.privacy import DEFAULT_MASK_PATTERN
from tests.recorder.a11y_desktop import CP, DIALOG, Recorder, center_of, close_env, episode_files, open_env, xdotool

pytestmark = pytest.mark.slow

def test_recorded_calc_steps_carry_the_cell_and_the_button_under_the_click(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = open_env(("calc",), [LaunchStep(launch=LaunchArgs(app="calc"))])
    try:
        cell = None
        for _ in range(6):  # Calc settles its layout (toolbars) after its window shows
            obs, *_ = env.step(Wait(1.0))
            previous, cell = cell, center_of(obs.a11y_tree or "", "table-cell", "C5")
            if cell == previous:
                break
        bold = center_of(obs.a11y_tree or "", "toggle-button", "Bold")
        rec = Recorder(env, tmp_path / "rec", monkeypatch)
        obs, *_ = env.step(Click(*cell))  # type: ignore[misc]
        focused = [e.get("name") for e in etree.fromstring((obs.a11y_tree or "").encode()).iter("table-cell")
                   if e.get("{https://accessibility.ubuntu.example.org/ns/state}focused") == "true"]
        time.sleep(0.8)
        env.step(Click(*bold))
        path = rec.stop()
    finally:
        close_env(env)
    assert focused == ["C5"]  # Calc itself put its cursor on the cell the click was aimed at
    episode = read_episode(path)
    clicks = [s for s in episode.steps if s.action["kind"] == "click"]
    assert [(s.action["x"], s.action["y"]) for s in clicks] == [cell, bold]
    first, second = (s.target for s in clicks)
    kept = etree.fromstring(gzip.decompress((path / clicks[0].info["a11y_tree"]).read_bytes()))
    cells = {n.get("name"): (n.get(CP + "screencoord"), n.get(CP + "size")) for n in kept.iter("table-cell")
             if n.get("name") in ("C4", "C5")}
    assert first is not None and first["role"] == "table cell" and first["name"] == "C5", (clicks[0].t, first, cells)
    assert second is not None and second["role"] == "toggle button" and second["name"] == "Bold"
    assert first["window"] and "Calc" in first["window"] and first["app"]
    x, y, w, h = second["bbox_screen"]
    assert x <= bold[0] < x + w and y <= bold[1] < y + h
    # the step's stored tree is the keyframe's: the same element is at the point in it
    tree = etree.fromstring(gzip.decompress((path / clicks[0].info["a11y_tree"]).read_bytes()))
    assert [r.name for r in rows(tree) if r.tag == "table-cell" and r.x <= cell[0] < r.x + r.width
            and r.y <= cell[1] < r.y + r.height] == ["C5"]


def test_password_typed_in_an_untitled_password_field_is_in_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "dialog.py"
    script.write_text(DIALOG)
    assert not re.search(DEFAULT_MASK_PATTERN, "Mail account", re.IGNORECASE)  # the title mask alone would not mask
    env = open_env((), [LaunchStep(launch=LaunchArgs(command=["/usr/bin/python3", str(script)], window="Mail account"))])
    try:
        obs, *_ = env.step(Wait(1.0))
        user = center_of(obs.a11y_tree or "", "text", "User name")
        secret = center_of(obs.a11y_tree or "", "password-text", "Password")
        rec = Recorder(env, tmp_path / "rec", monkeypatch)
        xdotool(env, "mousemove", str(user[0]), str(user[1]), "click", "1")
        time.sleep(0.8)
        xdotool(env, "type", "--delay", "60", "alice.w")
        time.sleep(1.5)
        xdotool(env, "mousemove", str(secret[0]), str(secret[1]), "click", "1")
        time.sleep(0.15)  # typing starts as soon as a quick person would: the click's own check masks it
        xdotool(env, "type", "--delay", "60", "s3cretPW")
        time.sleep(1.5)
        typed = env.accessibility_tree()  # the app really got both
        path = rec.stop()
    finally:
        close_env(env)
    names = {n.get("name"): n for n in etree.fromstring(typed.encode()).iter() if isinstance(n.tag, str)}
    assert (names["User name"].text or "") == "alice.w"
    assert len(names["Password"].text or "") == len("s3cretPW")  # 8 characters reached the field
    files = episode_files(path)
    assert any(b"alice.w" in data for _, data in files)  # the user name is recorded
    assert not [f for f, data in files if b"s3cretPW" in data or b"s3cret" in data]
    episode = read_episode(path)
    clicks = [s for s in episode.steps if s.action["kind"] == "click"]
    assert [s.target["role"] for s in clicks] == ["text", "password text"]  # type: ignore[index]
    assert clicks[1].target["window"] == "Mail account"  # type: ignore[index]
    typing = [s.action["text"] for s in episode.steps if s.action["kind"] == "type"]
    assert typing == ["alice.w", "********"]
