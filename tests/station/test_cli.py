"""``gui-agent annotate`` as a process: it serves, and after a SIGKILL mid-recording the next
start recovers the episode and offers the task again.

The station runs under ``setsid`` in its own session; it is stopped by its PID (and its
desktop dies with it: every process of the desktop has a parent-death signal) in a
``finally``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from gui_agent.episode import read_meta
from gui_agent.station.queue import PROGRESS_FILE
from tests.paths import REPO
from tests.station.station_server import SUM_COLUMN

TOKEN = "a" * 32


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(dataset: Path, tokens: Path, port: int, log: Path) -> subprocess.Popen:
    with open(log, "ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "gui_agent", "annotate", str(SUM_COLUMN), "--out", str(dataset),
             "--tokens-file", str(tokens), "--port", str(port)],
            cwd=REPO, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )


def _wait_up(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the station exited {proc.returncode}: {log.read_text()}")
        try:
            requests.get(url + "/signin", timeout=1)
            return
        except requests.ConnectionError:
            time.sleep(0.2)
    raise AssertionError(f"the station did not come up: {log.read_text()}")


def _stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, sig)  # its own session, started above: this PID's group only
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def test_bad_input_exits_2(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "gui_agent", "annotate", str(tmp_path / "nope.yaml"), "--out", str(tmp_path / "d")],
                         cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "not a task file" in run.stderr
    bad = tmp_path / "tokens.txt"
    bad.write_text("alice short\n")
    run = subprocess.run([sys.executable, "-m", "gui_agent", "annotate", str(SUM_COLUMN), "--out", str(tmp_path / "d"),
                          "--tokens-file", str(bad)], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "shorter" in run.stderr
    run = subprocess.run([sys.executable, "-m", "gui_agent", "annotate", str(SUM_COLUMN), "--out", str(tmp_path / "d-idle"),
                          "--idle-pause", "nan"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--idle-pause" in run.stderr
    assert not (tmp_path / "d-idle").exists()  # refused before anything was written


@pytest.mark.slow
def test_a_killed_station_recovers_the_recording_at_restart(tmp_path: Path) -> None:
    dataset, tokens, log = tmp_path / "dataset", tmp_path / "tokens.txt", tmp_path / "station.log"
    tokens.write_text(f"alice {TOKEN}\n")
    port = _free_port()
    url, auth = f"http://127.0.0.1:{port}", {"Authorization": f"Bearer {TOKEN}"}
    proc = _start(dataset, tokens, port, log)
    try:
        _wait_up(url, proc, log)
        item = requests.get(url + "/api/items", headers=auth).json()["items"][0]["item_id"]
        assert requests.post(f"{url}/api/items/{item}/take", headers=auth, timeout=120).status_code == 200
        started = requests.post(f"{url}/api/items/{item}/start", headers=auth, timeout=60).json()
        episode = dataset / started["episode"]
        assert read_meta(episode).status == "recording"
        time.sleep(1)
        _stop(proc, signal.SIGKILL)
        assert read_meta(episode).status == "recording"

        proc = _start(dataset, tokens, port, log)
        _wait_up(url, proc, log)
        assert read_meta(episode).status == "recovered"
        again = requests.get(f"{url}/api/items/{item}", headers=auth).json()
        assert again["status"] == "pending" and again["attempts"][-1]["result"] == "interrupted"
        assert again["attempts"][-1]["episode"] == episode.name
        assert f"recovered {episode}" in log.read_text()
        _stop(proc)
        assert proc.returncode is not None
        assert '"interrupted"' in (dataset / PROGRESS_FILE).read_text()
    finally:
        _stop(proc, signal.SIGKILL)


def _descendants(pid: int) -> list[int]:
    """PIDs below ``pid`` (children, theirs, ...), from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""  # it ended meanwhile


@pytest.mark.slow
def test_sigterm_stops_the_station_with_status_0_and_no_tracebacks(tmp_path: Path) -> None:
    """SIGTERM mid-recording, after the desktop's X server died under the recorder (the
    recorder's input listeners and screen capture lose their X connections): the station
    closes its desktops and exits 0, as its --help says, and prints no thread's traceback."""
    dataset, tokens, log, errors = tmp_path / "dataset", tmp_path / "tokens.txt", tmp_path / "out.log", tmp_path / "err.log"
    tokens.write_text(f"alice {TOKEN}\n")
    port = _free_port()
    url, auth = f"http://127.0.0.1:{port}", {"Authorization": f"Bearer {TOKEN}"}
    with open(log, "wb") as out, open(errors, "wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gui_agent", "annotate", str(SUM_COLUMN), "--out", str(dataset),
             "--tokens-file", str(tokens), "--port", str(port)],
            cwd=REPO, stdout=out, stderr=err, start_new_session=True,
        )
    try:
        _wait_up(url, proc, log)
        item = requests.get(url + "/api/items", headers=auth).json()["items"][0]["item_id"]
        assert requests.post(f"{url}/api/items/{item}/take", headers=auth, timeout=120).status_code == 200
        episode = dataset / requests.post(f"{url}/api/items/{item}/start", headers=auth, timeout=60).json()["episode"]
        xvfb = [pid for pid in _descendants(proc.pid) if _command(pid) == "Xvfb"]
        assert len(xvfb) == 1, xvfb
        os.kill(xvfb[0], signal.SIGKILL)
        time.sleep(2)  # the recorder's threads meet the dead display
        os.kill(proc.pid, signal.SIGTERM)  # the station's PID only, as `kill PID` or a service manager sends it
        proc.wait(timeout=60)
        assert proc.returncode == 0, errors.read_text()
        assert "Traceback" not in errors.read_text() and "Exception in thread" not in errors.read_text(), errors.read_text()
        assert "station stopped" in log.read_text()
        assert read_meta(episode).status in ("recording", "recovered", "complete")  # kept, for the next start to recover
    finally:
        _stop(proc, signal.SIGKILL)
