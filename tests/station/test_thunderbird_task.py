"""A Thunderbird task on the station: the desktop comes up with the task's mailbox (its
local mail server and delivered messages), a scripted person sends the email through
Thunderbird's own window by XTEST, and the task's evaluator finds it on the mail server."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import requests

from gui_agent.actions import Done, Wait
from gui_agent.episode import read_episode
from gui_agent.policy import TaskContext
from gui_agent.models.policies.desktop_oracle.policy import DesktopOraclePolicy
from tests.paths import TASKS
from tests.station.station_server import running_station

pytestmark = pytest.mark.slow  # Xvfb, Thunderbird, x11vnc

COMPOSE_SEND = TASKS / "desktop" / "mail" / "compose-send.yaml"


def _do_the_task(live, *, timeout_s: float = 180.0) -> None:
    """Play the desktop oracle's script on the live desktop, as a person at the VNC view would."""
    oracle = DesktopOraclePolicy()
    oracle.reset(TaskContext(task_id=live.task.id, instruction=live.instruction, seed=live.seed))
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        (action,) = oracle.act(live.env.observe()).actions
        if isinstance(action, Done):
            assert action.success, "the oracle's script failed on the station's desktop"
            return
        if isinstance(action, Wait):
            time.sleep(action.seconds)
        else:
            live.env.step(action)
    raise AssertionError("the scripted person did not finish in time")


def test_a_thunderbird_task_is_recorded_and_verified(tmp_path: Path) -> None:
    dataset = tmp_path / "dataset"
    with running_station([COMPOSE_SEND], dataset, annotators=1) as server:
        auth = server.bearer("annotator1")
        item = server.items_of("annotator1")[0].item_id
        api = f"{server.url}/api/items/{item}"
        taken = requests.post(api + "/take", headers=auth, timeout=240)
        assert taken.status_code == 200, taken.text
        assert requests.post(api + "/start", headers=auth).status_code == 200
        _do_the_task(server.station.live[item])
        time.sleep(1.0)
        finished = requests.post(api + "/finish", json={"success": True}, headers=auth, timeout=120)
        assert finished.status_code == 200, finished.text
        outcome = finished.json()["outcome"]
        assert outcome["success"] is True and outcome["disagreement"] is False, outcome
    episode = read_episode(dataset / finished.json()["item"]["episode"])
    assert episode.meta.env.app == "thunderbird" and episode.meta.task.source == str(COMPOSE_SEND)
    typed = "".join(s.action.get("text", "") for s in episode.steps if s.action["kind"] == "type")
    assert "Lunch on Friday" in typed and "dana@example.test" in typed
    assert episode.meta.outcome.detail["check"] == "email_received"
