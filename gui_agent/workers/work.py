"""The units of an evaluation run, and which one a free worker takes next.

A :class:`WorkItem` is one episode to score: a task file, the repeat number and its seed.
The :class:`Scheduler` hands items to workers with task affinity: a worker keeps getting
episodes of the task whose environment it has open (a browser per task is started once,
not per episode); a worker with nothing left of its task gets a task nobody is working
on, so workers spread over tasks; only then does it join another worker's task.
"""

from __future__ import annotations

from collections import Counter, OrderedDict, deque
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class WorkItem:
    """One episode of an evaluation.

    Attributes:
        key: unique in the run: ``<task_id>#<repeat>``; the ledger is keyed by it.
        task_file: absolute path of the task file.
        task_id: the task's id.
        repeat: 0-based try number.
        seed: the environment seed of this try.
        deadline_s: longest the episode may take in a worker (all retries included)
            before the worker is presumed stuck and replaced.
    """

    key: str
    task_file: str
    task_id: str
    repeat: int
    seed: int
    deadline_s: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def item_key(task_id: str, repeat: int) -> str:
    return f"{task_id}#{repeat}"


class Scheduler:
    """Pending work grouped by task, handed out with task affinity (see the module doc)."""

    def __init__(self, items: Iterable[WorkItem] = ()) -> None:
        self._pending: OrderedDict[str, deque[WorkItem]] = OrderedDict()
        self._busy: Counter[str] = Counter()
        for item in items:
            self.add(item)

    def add(self, item: WorkItem, *, front: bool = False) -> None:
        """Queue ``item`` (``front``: ahead of its task's other items, for a retry)."""
        queue = self._pending.setdefault(item.task_id, deque())
        queue.appendleft(item) if front else queue.append(item)

    def __len__(self) -> int:
        return sum(len(q) for q in self._pending.values())

    def take(self, current_task: str | None) -> WorkItem | None:
        """The next item for a worker whose open environment is ``current_task``'s (or None)."""
        choice = None
        if current_task is not None and self._pending.get(current_task):
            choice = current_task
        else:
            open_tasks = [t for t, q in self._pending.items() if q]
            idle = [t for t in open_tasks if self._busy[t] == 0]
            if idle:
                choice = idle[0]
            elif open_tasks:
                choice = max(open_tasks, key=lambda t: len(self._pending[t]) / (1 + self._busy[t]))
        if choice is None:
            return None
        item = self._pending[choice].popleft()
        if not self._pending[choice]:
            del self._pending[choice]
        self._busy[item.task_id] += 1
        return item

    def done(self, item: WorkItem) -> None:
        """``item`` left its worker (finished, or given back with :meth:`add`)."""
        self._busy[item.task_id] -= 1

    def withdraw(self) -> int:
        """Drop every item not yet handed out (a budget is spent); returns how many.

        Items under way finish; the dropped ones stay unfinished, so a resumed run
        does them.
        """
        dropped = len(self)
        self._pending.clear()
        return dropped


class LostWork:
    """Accounting of items whose worker died (or got stuck) under them.

    An item is given back to the queue after a worker loss, up to ``limit`` losses; after
    that it is recorded as an environment failure (``fault: worker_lost``), never scored,
    so one poisonous episode cannot stall the run for ever.
    """

    def __init__(self, limit: int = 2) -> None:
        self.limit = limit
        self.losses: Counter[str] = Counter()

    def lost(self, item: WorkItem, why: str, worker: str) -> dict[str, Any] | None:
        """Count a loss; the record to write when the item is given up, else None (requeue it)."""
        self.losses[item.key] += 1
        if self.losses[item.key] <= self.limit:
            return None
        return {
            "key": item.key, "task_id": item.task_id, "task_file": item.task_file, "repeat": item.repeat,
            "seed": item.seed, "worker": worker, "success": None, "reward": 0.0, "steps": 0, "duration_s": 0.0,
            "termination": "env_error", "fault": "worker_lost",
            "reason": f"its worker was lost {self.losses[item.key]} times (last: {why})",
            "attempts": self.losses[item.key], "env_failures": [], "usage": {}, "guard_events": [], "episode": None,
        }
