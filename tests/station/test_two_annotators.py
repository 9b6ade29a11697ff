"""Two annotators at once on one station: each has their own desktop, x11vnc and recorder,
and each episode holds only its own annotator's input, at its own screen size (a Calc
desktop beside a browser task's smaller one)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from PIL import Image

from gui_agent.actions import Click
from gui_agent.envs.desktop.xdotool_input import XdotoolInput
from gui_agent.episode import read_episode
from tests.paths import TASKS
from tests.station.rfb_view import RfbView
from tests.station.station_server import SUM_COLUMN, running_station

CLICK_BUTTON = TASKS / "miniwob" / "click-button.yaml"

pytestmark = pytest.mark.slow  # x11vnc, Xvfb and Calc: scripts/setup.sh installs them


def test_two_annotators_record_at_once_each_on_their_own_desktop(tmp_path: Path) -> None:
    with running_station([SUM_COLUMN, CLICK_BUTTON], tmp_path / "dataset", annotators=2) as server:
        people = {name: server.items_of(name)[0].item_id for name in ("annotator1", "annotator2")}

        def take(name: str) -> int:
            return requests.post(f"{server.url}/api/items/{people[name]}/take", headers=server.bearer(name), timeout=180).status_code

        with ThreadPoolExecutor(2) as pool:
            assert list(pool.map(take, people)) == [200, 200]
        lives = {name: server.station.live[item] for name, item in people.items()}
        displays = {name: live.display for name, live in lives.items()}
        assert len(set(displays.values())) == 2
        assert len({live.vnc_port for live in lives.values()}) == 2
        episodes = {name: requests.post(f"{server.url}/api/items/{item}/start", headers=server.bearer(name)).json()["episode"]
                    for name, item in people.items()}
        sizes = {"annotator1": (1280, 800), "annotator2": (640, 350)}  # Calc; the browser's window
        assert {name: server.station.live[item].task.environment.kind for name, item in people.items()} == {
            "annotator1": "desktop", "annotator2": "browser"}
        points = {"annotator1": (300, 400), "annotator2": (500, 300)}
        for name, live in lives.items():  # XTEST on each display, as each one's VNC input arrives
            xdotool = XdotoolInput(live.display)
            xdotool.start()
            try:
                xdotool.perform(Click(*points[name]))
            finally:
                xdotool.stop()
        time.sleep(1.0)
        for name, item in people.items():
            done = requests.post(f"{server.url}/api/items/{item}/give-up", headers=server.bearer(name))
            assert done.status_code == 200, done.text
        for name, episode in episodes.items():
            recorded = read_episode(server.station.queue.dataset / episode)
            clicks = [(s.action["x"], s.action["y"]) for s in recorded.steps if s.action["kind"] == "click"]
            assert clicks == [points[name]], (name, clicks)
            assert recorded.meta.actor.name == name
            assert recorded.meta.labels["recorder"]["display"] == displays[name]
            size = (recorded.meta.env.screen.width, recorded.meta.env.screen.height)
            assert size == sizes[name]
            assert Image.open(recorded.path / recorded.steps[0].frame_before).size == size
        assert not server.station.live


def _idle_timeout_s() -> float:
    """How long AnyIO lets a worker thread sit idle before it retires it (and the thread ends)."""
    from anyio._backends._asyncio import WorkerThread

    return float(WorkerThread.MAX_IDLE_TIME)


def test_both_live_views_outlive_the_other_annotators_actions_and_idle_worker_threads(tmp_path: Path) -> None:
    """Each desktop is opened on its own station worker thread; AnyIO retires a thread that sat
    idle longer than its timeout when the next action comes. The desktops, their x11vnc and
    their views must not die with the thread that started them (issue 27, item 1)."""
    gap_s = _idle_timeout_s() + 2.0
    with running_station([SUM_COLUMN, CLICK_BUTTON], tmp_path / "dataset", annotators=2) as server:
        people = {name: server.items_of(name)[0].item_id for name in ("annotator1", "annotator2")}

        def act(name: str, what: str) -> requests.Response:
            return requests.post(f"{server.url}/api/items/{people[name]}/{what}", headers=server.bearer(name),
                                 json={"success": True}, timeout=300)

        with ThreadPoolExecutor(2) as pool:  # both Open desktop at once: two worker threads
            assert [r.status_code for r in pool.map(lambda name: act(name, "take"), people)] == [200, 200]
        lives = {name: server.station.live[item] for name, item in people.items()}
        x11vnc = {name: live.vnc.pid for name, live in lives.items()}
        views = {}
        try:
            for name in people:
                views[name] = RfbView(server, name, people[name])

            def all_alive(names: tuple[str, ...]) -> dict[str, bool]:
                return {name: views[name].frame_arrives() and lives[name].vnc.is_alive() for name in names}

            both = ("annotator1", "annotator2")
            assert all_alive(both) == {"annotator1": True, "annotator2": True}
            time.sleep(gap_s)
            assert act("annotator1", "start").status_code == 200
            assert all_alive(both) == {"annotator1": True, "annotator2": True}
            time.sleep(gap_s)
            assert act("annotator2", "start").status_code == 200
            assert all_alive(both) == {"annotator1": True, "annotator2": True}
            time.sleep(gap_s)
            done = act("annotator1", "give-up")
            assert done.status_code == 200, done.text
            assert all_alive(("annotator2",)) == {"annotator2": True}
            assert {name: live.vnc.pid for name, live in lives.items()} == x11vnc  # never restarted
            done = act("annotator2", "finish")
            assert done.status_code == 200 and done.json()["outcome"]["termination"] != "env_error", done.text
        finally:
            for view in views.values():
                view.close()
        assert not server.station.live
