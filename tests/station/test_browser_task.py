"""A browser task on the station: a headed Chromium alone on its own Xvfb, served over VNC,
clicked through XTEST as the annotator's VNC input would be, judged by the task's own
evaluator, and replayable with ``gui-agent replay`` (the page's place on the screen is kept)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from gui_agent.actions import Click, Type
from gui_agent.envs.desktop.xdotool_input import XdotoolInput
from gui_agent.episode import read_episode
from gui_agent.episode.format import EPISODE_FILE
from gui_agent.export.reward import read_reward_samples
from tests.paths import REPO, TASKS
from tests.station.test_live_api import _listening_addresses

pytestmark = pytest.mark.slow  # Xvfb, headed Chromium, x11vnc

CLICK_BUTTON = TASKS / "miniwob" / "click-button.yaml"
#: The button the page asks for, in page pixels (the page writes a new one per seed).
ASKED_BUTTON_JS = """(() => {
  const word = document.querySelector('#query').textContent.match(/"(.*)"/)[1];
  const b = [...document.querySelectorAll('#area button')].find(b => b.textContent.trim() === word);
  const r = b.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
})()"""


def _click_on_screen(display: str, x: float, y: float) -> None:
    xdotool = XdotoolInput(display)
    xdotool.start()
    try:
        xdotool.perform(Click(int(x), int(y)))
    finally:
        xdotool.stop()


def test_a_browser_task_is_recorded_judged_and_replayed(tmp_path: Path) -> None:
    from tests.station.station_server import running_station

    dataset = tmp_path / "dataset"
    with running_station([CLICK_BUTTON], dataset, annotators=1, repeats=2) as server:
        auth = server.bearer("annotator1")
        right, wrong = (item.item_id for item in server.items_of("annotator1"))

        # The right button: the evaluator agrees with the annotator.
        api = f"{server.url}/api/items/{right}"
        taken = requests.post(api + "/take", headers=auth)
        assert taken.status_code == 200, taken.text
        assert taken.json()["instruction"].startswith("Click on the")
        live = server.station.live[right]
        assert _listening_addresses(live.vnc_port) == {"0100007F"}
        origin = live.browser.page_origin
        assert origin[1] > 0  # the page sits under the browser's toolbar
        x, y = live.env.evaluate_js(ASKED_BUTTON_JS)
        assert requests.post(api + "/start", headers=auth).status_code == 200
        time.sleep(0.5)
        _click_on_screen(live.display, origin[0] + x, origin[1] + y)
        time.sleep(1.0)
        finished = requests.post(api + "/finish", json={"success": True}, headers=auth)
        assert finished.status_code == 200, finished.text
        assert finished.json()["outcome"]["success"] is True and finished.json()["outcome"]["disagreement"] is False
        episode_dir = dataset / finished.json()["item"]["episode"]
        episode = read_episode(episode_dir)
        assert episode.meta.env.kind == "browser" and episode.meta.env.app == "chromium"
        assert episode.meta.labels["page_origin"] == list(origin)
        clicks = [s.action for s in episode.steps if s.action["kind"] == "click"]
        assert len(clicks) == 1 and abs(clicks[0]["y"] - (origin[1] + y)) <= 1  # screen pixels, as recorded
        (click_step,) = [s for s in episode.steps if s.action["kind"] == "click"]
        assert click_step.target["tag"] == "button"  # the recorder's page script ran in the task's page

        # A wrong button, though the annotator says success: the evaluator marks it failed.
        api = f"{server.url}/api/items/{wrong}"
        assert requests.post(api + "/take", headers=auth).status_code == 200
        live = server.station.live[wrong]
        assert requests.post(api + "/start", headers=auth).status_code == 200
        time.sleep(0.5)
        _click_on_screen(live.display, live.browser.page_origin[0] + 80, live.browser.page_origin[1] + 20)  # the instruction bar
        time.sleep(1.0)
        outcome = requests.post(api + "/finish", json={"success": True}, headers=auth).json()["outcome"]
        assert outcome["success"] is False and outcome["disagreement"] is True
    assert not server.station.live  # every desktop was closed

    # The replayer moves the recorded screen points into page pixels with the kept origin.
    replays = tmp_path / "replays"
    replayed = subprocess.run([sys.executable, "-m", "gui_agent", "replay", str(episode_dir), "--out", str(replays), "--quiet"],
                              cwd=REPO, capture_output=True, text=True, timeout=180)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    (replay_dir,) = [p.parent for p in replays.rglob(EPISODE_FILE)]
    assert read_episode(replay_dir).meta.outcome.success is True

    # And it is source data for the reward model, as a runner episode is.
    reward_data = tmp_path / "reward-data"
    made = subprocess.run([sys.executable, "-m", "gui_agent", "make-reward-data", str(episode_dir), "--out", str(reward_data),
                           "--kinds", "click_offset_small", "--quiet"], cwd=REPO, capture_output=True, text=True, timeout=240)
    assert made.returncode == 0, made.stdout + made.stderr
    samples = list(read_reward_samples(reward_data))
    replayed_steps = [s for s in samples if s.sample_id.endswith(f"/replay/{s.step_index}")]
    assert replayed_steps and all(s.source == "replay" and s.label for s in replayed_steps)


def test_an_idle_recording_pauses_until_resumed(tmp_path: Path) -> None:
    """No input for ``idle_pause_s``: the recording pauses by itself, input meanwhile is not
    recorded, and only Resume ends the pause."""
    from tests.station.station_server import running_station

    with running_station([CLICK_BUTTON], tmp_path / "dataset", annotators=1, idle_pause_s=1.0) as server:
        auth = server.bearer("annotator1")
        item = server.items_of("annotator1")[0].item_id
        api = f"{server.url}/api/items/{item}"
        assert requests.post(api + "/take", headers=auth).status_code == 200
        assert requests.post(api + "/start", headers=auth).status_code == 200
        live = server.station.live[item]
        ox, oy = live.browser.page_origin
        deadline = time.monotonic() + 10
        while not requests.get(api, headers=auth).json()["paused"]:
            assert time.monotonic() < deadline, "the idle recording never paused"
            time.sleep(0.2)
        shown = requests.get(api, headers=auth).json()
        assert shown["pause_reason"] == "idle" and shown["live"] == "recording"
        _click_on_screen(live.display, ox + 150, oy + 200)  # while paused: not recorded, and no resume
        time.sleep(0.5)
        assert requests.get(api, headers=auth).json()["paused"] is True
        resumed = requests.post(api + "/pause", headers=auth).json()
        assert resumed["paused"] is False and resumed["item"]["pause_reason"] is None
        _click_on_screen(live.display, ox + 10, oy + 205)
        time.sleep(0.3)
        finished = requests.post(api + "/finish", json={"success": False}, headers=auth)
        assert finished.status_code == 200, finished.text
        episode = read_episode(tmp_path / "dataset" / finished.json()["item"]["episode"])
    clicks = [(s.action["x"], s.action["y"]) for s in episode.steps if s.action["kind"] == "click"]
    assert clicks == [(ox + 10, oy + 205)]


#: A page whose title the recorder's title mask does not match: only the password field's
#: focus masks the keys.
FORM_PAGE = """<!doctype html><title>Account form</title>
<p>Fill in the form.</p><input id="user" placeholder="user name"><br><input id="pass" type="password">"""
FORM_TASK = """id: station.account-form
instruction: Type visible-name as the user name and a password.
environment: {kind: browser, url: "PAGE", viewport: {width: 400, height: 200}}
evaluator:
  element_value: {selector: "#user", equals: visible-name}
"""


def test_a_password_typed_into_a_browser_task_is_never_written(tmp_path: Path) -> None:
    from tests.station.station_server import running_station

    page = tmp_path / "form.html"
    page.write_text(FORM_PAGE)
    task_file = tmp_path / "form.yaml"
    task_file.write_text(FORM_TASK.replace("PAGE", page.as_uri()))
    dataset = tmp_path / "dataset"
    with running_station([task_file], dataset, annotators=1) as server:
        auth = server.bearer("annotator1")
        item = server.items_of("annotator1")[0].item_id
        api = f"{server.url}/api/items/{item}"
        assert requests.post(api + "/take", headers=auth).status_code == 200
        live = server.station.live[item]
        ox, oy = live.browser.page_origin
        user, password = (live.env.evaluate_js(f"document.querySelector('#{name}').getBoundingClientRect().toJSON()")
                          for name in ("user", "pass"))
        assert requests.post(api + "/start", headers=auth).status_code == 200
        xdotool = XdotoolInput(live.display)
        xdotool.start()
        try:
            for box, text in ((password, "Sw0rdfish"), (user, "visible-name")):
                xdotool.perform(Click(int(ox + box["x"] + box["width"] / 2), int(oy + box["y"] + box["height"] / 2)))
                time.sleep(0.4)
                xdotool.perform(Type(text))
                time.sleep(0.4)
        finally:
            xdotool.stop()
        assert live.env.evaluate_js("document.querySelector('#pass').value") == "Sw0rdfish"  # it reached the page
        finished = requests.post(api + "/finish", json={"success": True}, headers=auth)
        assert finished.status_code == 200, finished.text
        assert finished.json()["outcome"]["success"] is True
    folder = dataset / finished.json()["item"]["episode"]
    written = b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.suffix in (".json", ".jsonl"))
    assert b"visible-name" in written  # the user name is kept as typed once the focus left the password
    assert b"Sw0rdfish" not in written and b"Sw0rdfis" not in written
