"""``gui-agent export --format grounding`` on a desktop recorded with its accessibility tree.

A GTK dialog on a real bus is recorded (real X input); the export is loaded back with
``datasets.load_dataset(DIR, "grounding")`` and each row is checked against the tree the
step kept, not trusted: its point lies in its box, the element at that point of the
keyframe's tree is the row's element, and the keyframe's pixels in the box are not blank.
"""

from __future__ import annotations

import gzip
import time
from pathlib import Path

import datasets
import numpy as np
import pytest
from lxml import etree

from gui_agent.actions import Wait
from gui_agent.cli import main
from gui_agent.envs.desktop.accessibility.locate import element_at
from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep
from gui_agent.episode import read_episode
from tests.recorder.a11y_desktop import DIALOG, Recorder, center_of, close_env, open_env, xdotool

pytestmark = pytest.mark.slow


def _record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    script = tmp_path / "dialog.py"
    script.write_text(DIALOG)
    env = open_env((), [LaunchStep(launch=LaunchArgs(command=["/usr/bin/python3", str(script)], window="Mail account"))])
    try:
        obs, *_ = env.step(Wait(1.0))
        user = center_of(obs.a11y_tree or "", "text", "User name")
        button = center_of(obs.a11y_tree or "", "push-button", "Continue")
        rec = Recorder(env, tmp_path / "rec", monkeypatch)
        xdotool(env, "mousemove", str(user[0]), str(user[1]), "click", "1")
        time.sleep(0.8)
        xdotool(env, "mousemove", str(button[0] + 3), str(button[1] + 2), "click", "1")
        return rec.stop()
    finally:
        close_env(env)


def test_grounding_rows_point_inside_the_element_the_keyframe_shows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    episode_path = _record(tmp_path, monkeypatch)
    out = tmp_path / "export"
    assert main(["export", str(episode_path), "--out", str(out), "--format", "grounding"]) == 0
    rows = datasets.load_dataset(str(out), "grounding", split="train", cache_dir=str(tmp_path / "cache"))
    assert set(rows.column_names) >= {"image", "instruction", "bbox", "point", "source", "data_type", "data_source"}
    episode = read_episode(episode_path)
    by_source: dict[str, list[dict]] = {"step": [], "element": []}
    for row in rows:
        by_source[row["source"]].append(row)
        x1, y1, x2, y2 = row["bbox"]
        px, py = row["point"]
        assert x1 <= px < x2 and y1 <= py < y2
        step = episode.steps[row["step_index"]]
        tree = etree.fromstring(gzip.decompress((episode_path / step.info["a11y_tree"]).read_bytes()))
        hit = element_at(tree, px, py)
        assert hit is not None
        # the element at the point is the row's element, or lies inside it (a button's label)
        chain = [hit, *hit.iterancestors()]
        assert any(n.get("name") == row["name"] and n.tag.replace("-", " ") == row["role"] for n in chain), row["instruction"]
        pixels = np.asarray(row["image"].convert("L"))[y1:y2, x1:x2]
        assert pixels.std() > 1.0  # the keyframe shows something there (text, a frame), not a blank
    steps = {(r["role"], r["name"]): r for r in by_source["step"]}
    assert set(steps) == {("text", "User name"), ("push button", "Continue")}
    assert steps[("push button", "Continue")]["instruction"] == 'click the push button "Continue"'
    assert steps[("push button", "Continue")]["task"] == "fill the form"
    described = {r["instruction"] for r in by_source["element"]}
    assert {'text "User name"', 'password text "Password"', 'push button "Continue"'} <= described
    card = (out / "README.md").read_text()
    assert "config_name: grounding" in card and "grounding rows" in card
