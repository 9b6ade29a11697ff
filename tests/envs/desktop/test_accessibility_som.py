"""Set-of-marks on a real desktop: Chromium shows a local page with buttons, the
observation numbers them, a ``click(mark=N)`` presses button N (the page's own script says
which one was pressed), and a mark that does not exist is the action's error."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from gui_agent.actions import Click, Wait, action_from_dict, action_to_dict, action_to_text, off_screen_error
from gui_agent.envs.desktop.env import DesktopEnv
from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep
from gui_agent.envs.marks import draw_marks, marks_table

NAMES = ("Alpha", "Bravo", "Charlie", "Delta")
PAGE = ("data:text/html,<title>Marks</title>"
        + "".join(f"<button onclick=\"document.title='Pressed {n}'\" style='margin:40px;padding:12px'>{n}</button>"
                  for n in NAMES))
COMMAND = ["chromium", "--no-sandbox", "--test-type", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
           "--force-renderer-accessibility", "--user-data-dir=chrome-profile", "--password-store=basic", PAGE]


def test_a_click_on_a_mark_is_written_and_read_as_such() -> None:
    assert action_to_text(Click(mark=12)) == "click(mark=12)"
    assert action_from_dict({"kind": "click", "mark": 12}) == Click(mark=12)
    assert "mark" not in action_to_text(Click(3, 4)) and "mark" not in action_to_dict(Click(3, 4))
    assert "no marks" in (off_screen_error(Click(mark=3), 640, 480) or "")  # an environment without marks refuses it


@pytest.mark.slow
def test_a_click_on_mark_n_presses_element_n() -> None:
    env = DesktopEnv(screen=(1280, 800), observe_a11y_tree=True, step_timeout_s=20)
    try:
        env.reset(options={"setup": [LaunchStep(launch=LaunchArgs(command=COMMAND, window="Marks"))]})
        obs, *_ = env.step(Wait(1.0))
        marks = {mark.name: mark for mark in obs.marks or [] if mark.role == "push-button"}
        assert set(NAMES) <= set(marks), marks_table(obs.marks or [])
        numbers = [mark.number for mark in obs.marks or []]
        assert numbers == list(range(1, len(numbers) + 1))
        tagged = draw_marks(obs.screenshot, obs.marks or [])
        bravo = marks["Bravo"]
        assert tuple(tagged[bravo.y, bravo.x + bravo.width // 2]) == (255, 0, 0)  # its box's top edge, in red
        assert not np.array_equal(tagged, obs.screenshot)

        obs, *_ = env.step(Click(mark=10_000))
        assert obs.last_action_error and "no such mark" in obs.last_action_error
        obs, *_ = env.step(Wait(0.3))
        assert obs.window_title and obs.window_title.startswith("Marks")  # nothing was pressed

        for name in ("Charlie", "Bravo"):
            marks = {mark.name: mark for mark in obs.marks or [] if mark.role == "push-button"}
            obs, _, _, _, info = env.step(Click(mark=marks[name].number))
            assert obs.last_action_error is None
            assert info["resolved_action"] == {"kind": "click", "x": marks[name].center[0], "y": marks[name].center[1],
                                               "button": "left", "count": 1, "mark": marks[name].number}
            obs, *_ = env.step(Wait(0.5))
            assert obs.window_title and obs.window_title.startswith(f"Pressed {name}"), obs.window_title
    finally:
        env.close()


MARK_POLICY = '''
from gui_agent.actions import Click, Done, Wait
from gui_agent.policy import PolicyOutput


class MarkClicker:
    """Clicks the mark of the button named Bravo, waits, then answers the window's title."""

    name = "mark-clicker"

    def reset(self, task):
        self.turn = 0

    def act(self, observation):
        self.turn += 1
        if self.turn == 1:
            mark = next(m for m in observation.marks if m.role == "push-button" and m.name == "Bravo")
            return PolicyOutput(actions=[Click(mark=mark.number)])
        if self.turn == 2:
            return PolicyOutput(actions=[Wait(0.5)])
        return PolicyOutput(actions=[Done(success=True, answer=observation.window_title)])
'''

MARK_TASK = """
id: desktop.click-a-mark
instruction: Press Bravo.
environment:
  kind: desktop
  screen: {width: 1280, height: 800}
setup:
  - launch: {command: COMMAND, window: Marks}
limits: {max_steps: 5}
"""


@pytest.mark.slow
def test_run_with_a_scripted_policy_that_clicks_a_mark(tmp_path: Path) -> None:
    import json

    from tests.envs.desktop.test_accessibility_cli import _cli
    from tests.paths import REPO

    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "markpolicy.py").write_text(MARK_POLICY)
    page = tmp_path / "page.html"
    page.write_text(PAGE.removeprefix("data:text/html,"))
    task = tmp_path / "task.yaml"
    task.write_text(MARK_TASK.replace("COMMAND", json.dumps([*COMMAND[:-1], page.as_uri()])))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)])}
    out = tmp_path / "out"
    result = _cli("run", task, "--policy", "py:markpolicy:MarkClicker", "--observe", "a11y_tree", "--out", out,
                  cwd=tmp_path, env=env)
    assert 'done(answer="Pressed Bravo' in result.stdout, result.stdout + result.stderr
    (steps,) = out.rglob("steps.jsonl")
    first = json.loads(steps.read_text().splitlines()[0])
    assert first["action"]["kind"] == "click" and first["action"]["mark"] >= 1 and "error" not in first
    # The record keeps what the policy saw and where the mark click landed.
    marks = {m["number"]: m for m in first["info"]["observed"]["marks"]}
    named = marks[first["action"]["mark"]]
    assert named["name"] == "Bravo"
    x, y = first["info"]["resolved_action"]["x"], first["info"]["resolved_action"]["y"]
    assert named["x"] <= x <= named["x"] + named["width"] and named["y"] <= y <= named["y"] + named["height"]
