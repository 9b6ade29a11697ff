"""Suites, the task-affine scheduler and lost-worker accounting (no browser needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.evaluate.ledger import Ledger, read_ledger
from gui_agent.evaluate.suite import resolve_suite
from gui_agent.workers.work import LostWork, Scheduler, WorkItem, item_key
from tests.paths import MINIWOB_TASKS as MINIWOB


def _items(tasks: str, repeats: int) -> list[WorkItem]:
    return [WorkItem(item_key(t, r), f"/{t}.yaml", t, r, r, 60.0) for t in tasks for r in range(repeats)]


def test_named_suite_folder_and_files_resolve_in_order_without_duplicates(tmp_path: Path) -> None:
    named = resolve_suite(["miniwob"])
    assert len(named) == 76 and named == sorted(named) and all(p.suffix == ".yaml" for p in named)
    assert resolve_suite([str(MINIWOB)]) == named
    one = str(MINIWOB / "click-test.yaml")
    assert resolve_suite([one, "miniwob"])[0].name == "click-test.yaml" and len(resolve_suite([one, "miniwob"])) == 76
    with pytest.raises(ValueError, match="named suites: desktop, miniwob"):
        resolve_suite(["no-such-suite"])
    with pytest.raises(ValueError, match="no task files"):
        resolve_suite([str(tmp_path)])
    with pytest.raises(ValueError, match="not a task file"):
        resolve_suite(["../miniwob"])  # a name never leaves datasets/tasks/


def test_suites_and_folders_are_searched_into_subfolders_as_validate_searches_them(tmp_path: Path) -> None:
    """`gui-agent eval desktop` used to say "the suite has no tasks": its task files are in desktop/calc/, desktop/mail/..."""
    desktop = resolve_suite(["desktop"])
    expected = sorted(p.resolve() for p in (MINIWOB.parent / "desktop").rglob("*.yaml"))
    assert desktop == expected and len({p.parent.name for p in desktop}) >= 4  # calc, impress, mail, writer
    assert resolve_suite(["desktop/calc"]) == [p for p in desktop if p.parent.name == "calc"]
    nested = tmp_path / "my-tasks" / "forms"
    nested.mkdir(parents=True)
    (nested / "a.yml").write_text("id: a\n")
    (tmp_path / "my-tasks" / "b.yaml").write_text("id: b\n")
    (tmp_path / "my-tasks" / "notes.txt").write_text("not a task")
    assert [p.name for p in resolve_suite([str(tmp_path / "my-tasks")])] == ["b.yaml", "a.yml"]


def test_scheduler_keeps_workers_on_their_task_and_spreads_idle_ones() -> None:
    scheduler = Scheduler(_items("abc", 3))
    a0, b0 = scheduler.take(None), scheduler.take(None)
    assert (a0.key, b0.key) == ("a#0", "b#0")          # new workers spread over tasks
    scheduler.done(a0)
    a1 = scheduler.take("a")
    assert a1.key == "a#1"                              # affinity: the task whose browser is open
    c0 = scheduler.take(None)
    assert c0.key == "c#0"                              # a third worker: the task nobody is on
    scheduler.done(a1)
    a2 = scheduler.take("a")
    scheduler.done(b0)
    assert (a2.key, scheduler.take("b").key) == ("a#2", "b#1")
    scheduler.done(a2)
    c1 = scheduler.take("a")                            # a is used up: c has most work per worker
    assert c1.key == "c#1"
    scheduler.done(c1)
    scheduler.add(c1, front=True)                       # an item whose worker died comes back first
    assert scheduler.take("c") == c1
    assert len(scheduler) == 2 and {scheduler.take(None).key, scheduler.take(None).key} == {"b#2", "c#2"}
    assert scheduler.take(None) is None


def test_lost_work_is_retried_then_recorded_as_an_unscored_failure() -> None:
    [item] = _items("a", 1)
    lost = LostWork(limit=2)
    assert lost.lost(item, "exit code -9", "w1") is None
    assert lost.lost(item, "exit code -9", "w2") is None
    record = lost.lost(item, "stuck", "w3")
    assert record["success"] is None and record["fault"] == "worker_lost" and "3 times" in record["reason"]


def test_ledger_survives_a_partial_last_line(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    with Ledger(path) as ledger:
        ledger.append({"key": "a#0", "success": True})
    with open(path, "a") as handle:
        handle.write('{"key": "a#1", "succ')
    assert set(read_ledger(path)) == {"a#0"}
    with Ledger(path) as ledger:  # the torn line is cut before appending
        ledger.append({"key": "a#1", "success": False})
    assert read_ledger(path) == {"a#0": {"key": "a#0", "success": True}, "a#1": {"key": "a#1", "success": False}}
    assert path.read_text().count("\n") == 2
