"""The task queue: tasks x repeats assigned to annotators, kept in DATASET, resumed at restart."""

from __future__ import annotations

import json
from pathlib import Path

import requests

from gui_agent.station.queue import PROGRESS_FILE, TaskQueue
from tests.station.station_server import CALC_SUITE, running_station

TASKS = [(Path("/t/a.yaml"), "a", "do a"), (Path("/t/b.yaml"), "b", "do b")]


def test_repeats_go_to_different_annotators(tmp_path: Path) -> None:
    queue = TaskQueue.open(tmp_path, TASKS, ["ann", "bob"], repeats=2)
    items = queue.items()
    assert len(items) == 4 and len({i.item_id for i in items}) == 4
    for task_file in ("/t/a.yaml", "/t/b.yaml"):
        assert sorted(i.annotator for i in items if i.task_file == task_file) == ["ann", "bob"]
    assert {i.seed for i in items} == {0, 1}
    assert json.loads((tmp_path / PROGRESS_FILE).read_text())["version"] == 1


def test_a_restart_resumes_and_nothing_is_done_twice(tmp_path: Path) -> None:
    queue = TaskQueue.open(tmp_path, TASKS, ["ann", "bob"])
    done, taken = queue.items()
    queue.take(done.item_id)
    queue.add_attempt(done.item_id, "episode-1")
    queue.close_attempt(done.item_id, "finished", status="done", outcome={"success": True})
    queue.take(taken.item_id)
    queue.add_attempt(taken.item_id, "episode-2")  # the station is killed here

    again = TaskQueue.open(tmp_path, TASKS, ["ann", "bob"])
    assert [i.item_id for i in again.items()] == [done.item_id, taken.item_id]
    first, second = again.items()
    assert first.status == "done" and first.episode == "episode-1" and first.outcome == {"success": True}
    assert second.status == "pending" and second.attempts[-1]["result"] == "interrupted"
    try:
        again.take(first.item_id)
    except ValueError as exc:
        assert "already done" in str(exc)
    else:
        raise AssertionError("a done item was taken again")
    # More repeats later add only what is missing, with new ids.
    more = TaskQueue.open(tmp_path, TASKS, ["ann", "bob"], repeats=2)
    assert len(more.items()) == 4 and {i.item_id for i in more.items()} >= {done.item_id, taken.item_id}


def test_the_server_resumes_after_a_restart(tmp_path: Path) -> None:
    with running_station([CALC_SUITE], tmp_path, annotators=1) as first:
        items = requests.get(first.url + "/api/items", headers=first.bearer("annotator1")).json()["items"]
        item = items[0]["item_id"]
        first.station.queue.take(item)
        first.station.queue.add_attempt(item, "some-episode")
        first.station.queue.close_attempt(item, "finished", status="done")
    with running_station([CALC_SUITE], tmp_path, annotators=1) as second:
        again = requests.get(second.url + "/api/items", headers=second.bearer("annotator1")).json()["items"]
        assert [i["item_id"] for i in again] == [i["item_id"] for i in items]
        assert next(i for i in again if i["item_id"] == item)["status"] == "done"
        assert requests.post(f"{second.url}/api/items/{item}/take", headers=second.bearer("annotator1")).status_code == 409
