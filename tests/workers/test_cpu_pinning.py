"""Local workers pinned to a CPU each: the worker and what it starts (its browser) stay there."""

from __future__ import annotations

import os

from gui_agent.workers.local_pool import LocalPool, cpu_slots
from gui_agent.workers.work import Scheduler, WorkItem
from tests.workers.affinity_spec import AffinitySpec


def test_cpu_slots_pin_only_with_a_cpu_for_each_of_two_or_more_workers() -> None:
    assert cpu_slots(1, {0, 1}) == [None]
    assert cpu_slots(2, {0, 1}) == [0, 1]
    assert cpu_slots(2, {3, 5, 7}) == [3, 5]
    assert cpu_slots(3, {0, 1}) == [None, None, None]


def _run(workers: int, pin_cpus: bool) -> list[dict]:
    items = [WorkItem(key=f"t{i % 2}#{i}", task_file="-", task_id=f"t{i % 2}", repeat=i, seed=i, deadline_s=60.0) for i in range(6)]
    records: list[dict] = []
    LocalPool(AffinitySpec(), workers=workers, pin_cpus=pin_cpus).run(Scheduler(items), records.append)
    assert sorted(r["key"] for r in records) == sorted(i.key for i in items)
    return records


def test_two_workers_get_a_cpu_each_and_their_children_inherit_it() -> None:
    assert len(os.sched_getaffinity(0)) >= 2, "this machine is meant to have two CPUs"
    records = _run(2, pin_cpus=True)
    by_worker = {r["pid"]: r["own"] for r in records}
    assert len(by_worker) == 2, "both workers ran items"
    assert all(len(cpus) == 1 for cpus in by_worker.values())
    assert by_worker[min(by_worker)] != by_worker[max(by_worker)], "the two workers share a CPU"
    assert all(r["child"] == r["own"] for r in records), "a process the worker started left its CPU"


def test_unpinned_workers_and_a_single_worker_keep_every_cpu() -> None:
    everything = sorted(os.sched_getaffinity(0))
    for workers, pin in ((1, True), (2, False)):
        assert all(r["own"] == r["child"] == everything for r in _run(workers, pin_cpus=pin))
