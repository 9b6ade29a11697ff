"""What a worker pool runs: plain data that builds a worker in the process that runs it.

The pools (:mod:`.local_pool`, :mod:`.ray_pool`) know nothing of the job. The
evaluation's spec is :class:`gui_agent.evaluate.worker.WorkerConfig`; reward-data
building brings :class:`gui_agent.replay.reward_worker.RewardWorkerSpec`.
"""

from __future__ import annotations

from typing import Any, Protocol


class PoolWorker(Protocol):
    """What a pool's worker process or Ray actor holds: ``run`` one item, then ``close``."""

    def run(self, item: Any) -> dict[str, Any]:
        """The record for ``item`` (a :class:`~gui_agent.workers.work.WorkItem`), with its ``key``."""

    def close(self) -> None:
        """Release what the worker holds (browsers, displays)."""


class WorkerSpec(Protocol):
    """Picklable plain data a pool sends to each worker process or Ray actor, which calls
    ``build()`` there. The evaluation's is
    :class:`~gui_agent.evaluate.worker.WorkerConfig`; other jobs (reward-data
    building, :mod:`gui_agent.replay.reward_worker`) bring their own and reuse the pools as they are."""

    def build(self) -> PoolWorker:
        """The worker, built in the process that will run it."""


__all__ = ["PoolWorker", "WorkerSpec"]
