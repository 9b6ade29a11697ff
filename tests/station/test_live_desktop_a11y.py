"""The station's desktop recording of a task that asks for the tree: each step gets its target.

A real :class:`LiveDesktop` (its task's desktop with the accessibility bus, x11vnc, the
recorder) records a click on a GTK dialog's button, made with real X input; the recorded
step names that button, as the desktop's tree does.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from gui_agent.episode import read_episode
from gui_agent.station.live import LiveDesktop
from gui_agent.task import load_task
from tests.envs.desktop.desktop_helpers import wait_gone
from tests.recorder.a11y_desktop import DIALOG, center_of, xdotool

pytestmark = pytest.mark.slow

TASK = """\
id: station/a11y-dialog
instruction: Press Continue in the mail account dialog
environment:
  kind: desktop
  screen: {width: 800, height: 600}
  observe: {a11y_tree: true}
setup:
  - launch: {command: [/usr/bin/python3, DIALOG], window: Mail account}
limits: {max_steps: 10}
"""


def test_station_desktop_recording_gives_each_step_its_target(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "dialog.py").write_text(DIALOG)
    task_file = tmp_path / "task.yaml"
    task_file.write_text(TASK.replace("DIALOG", str(tmp_path / "dialog.py")))
    monkeypatch.setenv("DISPLAY", ":0")  # the recorder sets it; restored after the test
    live = LiveDesktop(item_id="item-1", task=load_task(task_file), task_file=task_file, seed=0, annotator="ann",
                       repeat=0, dataset=tmp_path / "dataset")
    pids: list[int] = []
    try:
        live.open()
        pids = live.env.pids()
        button = center_of(live.env.accessibility_tree(), "push-button", "Continue")
        live.start_recording()
        time.sleep(1.0)
        xdotool(live.env, "mousemove", str(button[0] + 2), str(button[1] + 1), "click", "1")
        time.sleep(1.5)
        live.finish(success=True)
        path = live.episode_path
    finally:
        live.close()
    assert wait_gone(pids) == []
    assert path is not None
    (click,) = [s for s in read_episode(path).steps if s.action["kind"] == "click"]
    assert click.target is not None
    assert (click.target["role"], click.target["name"], click.target["window"]) == ("push button", "Continue", "Mail account")
    assert (path / click.info["a11y_tree"]).is_file()
