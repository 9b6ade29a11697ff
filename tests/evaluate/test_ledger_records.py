"""Ledger records are typed when read: old ledgers read the same, odd lines read leniently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gui_agent.evaluate.ledger import Ledger, LedgerRecord, read_ledger, read_records
from gui_agent.evaluate.report import summarize, to_markdown
from gui_agent.workers.work import LostWork, WorkItem, item_key
from tests.paths import REPO

LEDGERS = REPO / "tests" / "fixtures" / "ledgers"


@pytest.mark.parametrize("name", ["before-typed-records", "with-cost-and-judge"])
def test_a_ledger_written_before_the_records_had_a_type_gives_the_same_results(name: str) -> None:
    # The .results.json and .results.md beside each ledger were written by the report code
    # that read the lines as plain dicts (.get(...) or 0), before LedgerRecord existed. The
    # ledgers hold what older workers wrote: usage without cached tokens or cost, nulls
    # where numbers belong, a lost worker's line without finished_at, a key written twice,
    # a line torn by a kill, and a key no version of this code knows.
    records = read_records(LEDGERS / f"{name}.jsonl")
    results = summarize(records.values(), k=3, run={"policy": "fixture", "suite": [name]})
    results.pop("groups")  # per-group lines came later (tests/evaluate/test_task_groups.py)
    assert json.dumps(results, indent=1) + "\n" == (LEDGERS / f"{name}.results.json").read_text(encoding="utf-8")
    assert to_markdown(results) == (LEDGERS / f"{name}.results.md").read_text(encoding="utf-8")


def test_missing_fields_and_nulls_read_as_defaults_and_unknown_keys_are_kept() -> None:
    record = LedgerRecord.parse({"key": "t#0", "task_id": "t", "success": None, "reward": None, "steps": None, "usage": None,
                                 "env_failures": None, "guard_events": None, "from_a_newer_version": {"x": 1}})
    assert (record.reward, record.steps, record.duration_s, record.attempts) == (0.0, 0, 0.0, 1)
    assert record.usage.input_tokens == 0 and record.usage.cost_usd is None and record.cost_usd == 0.0
    assert record.env_failures == () and record.guard_events == ()
    assert not record.scored and record.given_up and not record.service_failed
    assert record.model_extra == {"from_a_newer_version": {"x": 1}}
    service = LedgerRecord.parse({"key": "t#1", "task_id": "t", "success": None, "termination": "service_error",
                                  "usage": {"input_tokens": 5, "cost_usd": 0.25}})
    assert service.service_failed and not service.given_up and service.cost_usd == 0.25


def test_the_records_the_workers_write_read_back_and_the_lines_stay_as_written(tmp_path: Path) -> None:
    item = WorkItem(key=item_key("miniwob/click-test", 2), task_file="click-test.yaml", task_id="miniwob/click-test", repeat=2, seed=7, deadline_s=60.0)
    lost = LostWork(limit=0).lost(item, "exit -9", "host:42")
    assert lost is not None
    judged = {**lost, "key": "miniwob/click-test#3", "success": True, "fault": None, "judge": {"score": 0.9}, "finished_at": "2025-01-01T00:00:00+00:00"}
    with Ledger(tmp_path / "ledger.jsonl") as ledger:
        ledger.append(lost)
        ledger.append(judged)
    assert read_ledger(tmp_path / "ledger.jsonl") == {lost["key"]: lost, judged["key"]: judged}  # the file format is unchanged
    records = read_records(tmp_path / "ledger.jsonl")
    given_up = records[lost["key"]]
    assert (given_up.task_id, given_up.repeat, given_up.seed, given_up.fault, given_up.attempts) == ("miniwob/click-test", 2, 7, "worker_lost", 1)
    assert given_up.given_up and given_up.finished_at is None and given_up.model_extra == {}
    assert records["miniwob/click-test#3"].judge == {"score": 0.9} and records["miniwob/click-test#3"].scored


def test_a_line_that_is_not_a_record_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    path.write_text('{"key": "a#0", "task_id": "a", "success": true}\n{"key": "b#0", "success": true}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"ledger.jsonl: the record of 'b#0' is not a ledger record: \('task_id',\)"):
        read_records(path)
