"""The live task's API with a real desktop: the VNC websocket relays x11vnc, Discard drops
the attempt, Give up keeps it as a failure, and x11vnc listens on loopback only."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import requests
import websocket

from gui_agent.actions import Click
from gui_agent.episode import read_episode
from tests.station.station_server import SUM_COLUMN, running_station

pytestmark = pytest.mark.slow  # x11vnc, Xvfb and Calc: scripts/setup.sh installs them


def _listening_addresses(port: int) -> set[str]:
    """Local addresses with a TCP socket listening on ``port`` (from /proc/net/tcp and tcp6)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.rsplit(":", 1)
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


def _wait_for(read, ok, what: str, timeout_s: float = 10.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = read()
        if ok(value):
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}: {value}")


def test_vnc_relay_discard_and_give_up(tmp_path: Path) -> None:
    with running_station([SUM_COLUMN], tmp_path / "dataset", annotators=1) as server:
        auth = server.bearer("annotator1")
        item = server.items_of("annotator1")[0].item_id
        api = f"{server.url}/api/items/{item}"
        assert requests.post(api + "/take", headers=auth).status_code == 200
        live = server.station.live[item]
        assert _listening_addresses(live.vnc_port) == {"0100007F"}  # 127.0.0.1, nothing else
        ws = websocket.create_connection(server.url.replace("http", "ws") + f"/api/items/{item}/vnc", timeout=10,
                                         header=[f"Authorization: Bearer {server.token('annotator1')}"], subprotocols=["binary"])
        try:
            assert ws.recv().startswith(b"RFB 003.")
        finally:
            ws.close()

        episode = requests.post(api + "/start", headers=auth).json()["episode"]
        assert (server.station.queue.dataset / episode).is_dir()
        discarded = requests.post(api + "/discard", headers=auth)
        assert discarded.status_code == 200 and discarded.json()["item"]["status"] == "pending"
        assert not (server.station.queue.dataset / episode).exists() and item not in server.station.live
        assert requests.post(api + "/finish", headers=auth, json={"success": True}).status_code == 409

        assert requests.post(api + "/take", headers=auth).status_code == 200
        episode = requests.post(api + "/start", headers=auth).json()["episode"]
        env = server.station.live[item].env
        # Closing the last live view (the tab) pauses the recording; a new view resumes it.
        vnc_url = server.url.replace("http", "ws") + f"/api/items/{item}/vnc"
        header = [f"Authorization: Bearer {server.token('annotator1')}"]
        view = websocket.create_connection(vnc_url, timeout=10, header=header)
        assert view.recv().startswith(b"RFB ")
        view.close()
        paused = _wait_for(lambda: requests.get(api, headers=auth).json(), lambda d: d["paused"], "the pause")
        assert paused["paused_for_viewers"] is True
        env.step(Click(650, 550))  # while no one watches: not recorded
        view = websocket.create_connection(vnc_url, timeout=10, header=header)
        assert view.recv().startswith(b"RFB ")
        _wait_for(lambda: requests.get(api, headers=auth).json(), lambda d: not d["paused"], "the resume")
        view.close()
        _wait_for(lambda: requests.get(api, headers=auth).json(), lambda d: d["paused"], "the pause")
        # No Resume on a screen nobody sees: the button is refused until a view is back.
        refused = requests.post(api + "/pause", headers=auth)
        assert refused.status_code == 409 and "live view" in refused.json()["error"], refused.text
        view = websocket.create_connection(vnc_url, timeout=10, header=header)
        assert view.recv().startswith(b"RFB ")
        _wait_for(lambda: requests.get(api, headers=auth).json(), lambda d: not d["paused"], "the resume")
        assert requests.post(api + "/pause", headers=auth).json()["paused"] is True
        env.step(Click(700, 600))  # while paused: not recorded
        assert requests.post(api + "/pause", headers=auth).json()["paused"] is False
        env.step(Click(300, 400))
        time.sleep(1.0)
        gave_up = requests.post(api + "/give-up", headers=auth, json={"notes": "could not find the column"}).json()
        view.close()
        assert gave_up["item"]["status"] == "given_up" and gave_up["outcome"]["success"] is False
        meta = read_episode(server.station.queue.dataset / episode).meta
        assert meta.status == "complete" and meta.outcome.success is False
        assert meta.labels["annotator_verdict"] == {"success": False, "gave_up": True, "notes": "could not find the column"}
        clicks = [(s.action["x"], s.action["y"]) for s in read_episode(server.station.queue.dataset / episode).steps if s.action["kind"] == "click"]
        assert clicks == [(300, 400)]
        assert [a["result"] for a in server.station.queue.get(item).attempts] == ["discarded", "gave_up"]
        assert requests.post(api + "/take", headers=auth).status_code == 409  # closed: not offered again
        assert not server.station.live


def _pids_named(pids: list[int], command: str) -> list[int]:
    found = []
    for pid in pids:
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() == command:
                found.append(pid)
        except OSError:
            continue
    return found


# The recorder's pynput threads die on the broken X connection of the killed desktop.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_the_app_killed_mid_task_keeps_the_attempt_and_offers_a_fresh_desktop(tmp_path: Path) -> None:
    import os
    import signal

    with running_station([SUM_COLUMN], tmp_path / "dataset", annotators=1) as server:
        auth = server.bearer("annotator1")
        item = server.items_of("annotator1")[0].item_id
        api = f"{server.url}/api/items/{item}"
        assert requests.post(api + "/take", headers=auth).status_code == 200
        episode = requests.post(api + "/start", headers=auth).json()["episode"]
        live = server.station.live[item]
        office = _pids_named(live.env.pids(), "soffice.bin")  # among this desktop's own PIDs only
        assert office, live.env.pids()
        for pid in office:
            os.kill(pid, signal.SIGKILL)
        time.sleep(1.0)
        finished = requests.post(api + "/finish", headers=auth, json={"success": True})
        assert finished.status_code == 200, finished.text
        body = finished.json()
        assert body["outcome"]["termination"] == "env_error" and "crashed" in body["outcome"]["reason"]
        assert body["item"]["status"] == "pending" and body["item"]["attempts"][-1]["result"] == "env_failed"
        meta = read_episode(server.station.queue.dataset / episode).meta
        assert meta.status == "complete" and meta.outcome.termination == "env_error"
        assert not server.station.live
        # A fresh desktop for the same task.
        again = requests.post(api + "/take", headers=auth)
        assert again.status_code == 200 and server.station.live[item].env.pids()
        assert requests.post(api + "/discard", headers=auth).status_code == 200


def test_a_live_view_whose_x11vnc_died_comes_back_on_the_next_connection(tmp_path: Path) -> None:
    """x11vnc killed under a recording: the view closes, and a reload (a new websocket)
    starts x11vnc again on the same desktop instead of leaving it dead (issue 27, item 1)."""
    import os
    import signal

    from gui_agent.envs.procfs import process_state
    from tests.paths import TASKS
    from tests.station.rfb_view import RfbView

    with running_station([TASKS / "miniwob" / "click-button.yaml"], tmp_path / "dataset", annotators=1) as server:
        auth = server.bearer("annotator1")
        item = server.items_of("annotator1")[0].item_id
        api = f"{server.url}/api/items/{item}"
        assert requests.post(api + "/take", headers=auth).status_code == 200
        assert requests.post(api + "/start", headers=auth).status_code == 200
        live = server.station.live[item]
        view = RfbView(server, "annotator1", item)
        try:
            assert view.frame_arrives()
            killed = live.vnc.pid
            os.kill(killed, signal.SIGKILL)
            _wait_for(view.frame_arrives, lambda ok: not ok, "the view to close")
        finally:
            view.close()
        _wait_for(lambda: requests.get(api, headers=auth).json(), lambda d: d["paused_for_viewers"], "the pause")
        view = RfbView(server, "annotator1", item)  # the page reloaded
        try:
            assert view.frame_arrives()
            assert live.vnc.pid != killed and live.vnc.is_alive()
            assert process_state(killed) != "Z"  # the dead one was reaped, not left a zombie
            _wait_for(lambda: requests.get(api, headers=auth).json(), lambda d: not d["paused"], "the resume")
        finally:
            view.close()
        restarted = live.vnc.pid
        assert requests.post(api + "/give-up", headers=auth).status_code == 200
        assert process_state(restarted) is None  # stopped and reaped with the desktop
