"""Which rollout a free worker runs next: groups of one task and seed, with the newest weights.

The worker pools (:class:`~gui_agent.workers.local_pool.LocalPool`,
:class:`~gui_agent.workers.ray_pool.RayPool`) run whatever a scheduler hands out until
it has nothing left. :class:`RolloutScheduler` never runs out while training goes on:
when a worker asks and nothing is queued, it opens a new *group* -- ``group_size``
rollouts of one task on one seed, the unit of the learner's baseline -- so actors keep
collecting while the learner updates. Two bounds keep the policy lag small:

* at most ``max_groups_out`` groups are open (queued, running, or finished but not yet
  consumed by the learner); a worker that asks beyond that gets nothing for now;
* every item is stamped, when it is handed out, with the newest published weights, so
  a rollout is never older than the weights of the moment it started.

The pool runs in a thread of the learner's process; the learner calls :meth:`publish`,
:meth:`observe`, :meth:`group_closed` and :meth:`close` from its own, so the state sits
behind one lock.
"""

from __future__ import annotations

import math
import random
import threading
from collections import deque
from dataclasses import dataclass, replace

from gui_agent.workers.work import WorkItem


@dataclass(frozen=True)
class RolloutItem(WorkItem):
    """One rollout: a :class:`WorkItem` (``repeat`` is the member's index in its group) and
    what the worker needs to sample it.

    Attributes:
        group: the group's number in the run (groups share a task and a seed).
        version: the weights to act with, published in ``weights``.
        sample_seed: seeds the policy's sampling, so a run is repeatable given its weights.
        keep_frames: keep the episode's frames (``--keep-frames-every``); without them
            the episode is still an episode, its steps without screens.
    """

    group: int = 0
    version: int = 0
    weights: str = ""
    sample_seed: int = 0
    keep_frames: bool = True


@dataclass(frozen=True)
class TaskRef:
    """A task rollouts are drawn from."""

    task_file: str
    task_id: str
    deadline_s: float


class RolloutScheduler:
    """Hands out rollout groups without end until :meth:`close` (see the module doc).

    Args:
        tasks: the tasks to train on.
        group_size: rollouts per group (same task, same seed).
        max_groups_out: groups open at once (the bound on how far actors run ahead).
        seed: the run's seed: which task each group gets, and the sampling seeds.
        seed_base: environment seed of group 0; group g uses ``seed_base + g``.
        next_group: number of the next group (a resumed run continues its count).
        keep_frames_every: keep the frames of every Nth rollout (1: all, 0: none).
    """

    def __init__(self, tasks: list[TaskRef], *, group_size: int, max_groups_out: int, seed: int = 0,
                 seed_base: int = 100_000, next_group: int = 0, keep_frames_every: int = 1) -> None:
        if not tasks or group_size < 1 or max_groups_out < 1:
            raise ValueError("a rollout scheduler needs tasks, group_size >= 1 and max_groups_out >= 1")
        self.tasks = list(tasks)
        self.group_size = group_size
        self.max_groups_out = max_groups_out
        self.seed = seed
        self.seed_base = seed_base
        self.keep_frames_every = keep_frames_every
        self._lock = threading.Lock()
        self._pending: deque[RolloutItem] = deque()
        self._open: set[int] = set()
        self._next_group = next_group
        self._version, self._weights = 0, ""
        self._success: dict[str, float] = {}
        self._closed = self._aborted = False

    # -- the learner's side ----------------------------------------------------------

    def publish(self, version: int, weights: str) -> None:
        """Items handed out from now on act with ``version`` (weights file ``weights``)."""
        with self._lock:
            self._version, self._weights = version, weights

    def observe(self, task_id: str, success: bool, rate: float = 0.1) -> None:
        """Update the running success estimate of ``task_id`` (which tasks need practice)."""
        with self._lock:
            old = self._success.get(task_id, 0.5)
            self._success[task_id] = (1 - rate) * old + rate * float(success)

    def group_closed(self, group: int) -> None:
        """The learner is done with ``group`` (used, or dropped): room for a new one."""
        with self._lock:
            self._open.discard(group)
            self._pending = deque(item for item in self._pending if item.group != group)

    @property
    def next_group(self) -> int:
        with self._lock:
            return self._next_group

    def open_groups(self) -> int:
        with self._lock:
            return len(self._open)

    def close(self) -> None:
        """Hand out nothing more; the pool ends once the rollouts under way are back."""
        with self._lock:
            self._closed = True
            self._pending.clear()

    def abort(self) -> None:
        """End the pool now: it stops its workers, rollouts under way are lost."""
        with self._lock:
            self._closed = self._aborted = True
            self._pending.clear()

    # -- the pool's side (gui_agent.workers.work.Scheduler's interface) ---------------

    def __len__(self) -> int:
        """1 while training goes on (the pool keeps running), 0 once closed."""
        with self._lock:
            if self._aborted:
                raise RuntimeError("rollouts stopped by the learner")
            return 0 if self._closed else 1

    def take(self, current_task: str | None) -> RolloutItem | None:
        """The next rollout, stamped with the newest weights; None when none may start now."""
        with self._lock:
            if self._closed:
                return None
            if not self._pending and len(self._open) < self.max_groups_out:
                self._open_group()
            if not self._pending:
                return None
            chosen = next((item for item in self._pending if item.task_id == current_task), self._pending[0])
            self._pending.remove(chosen)
            return replace(chosen, version=self._version, weights=self._weights)

    def add(self, item: WorkItem, *, front: bool = False) -> None:
        """A rollout given back (its worker was lost): run it again if its group is still open."""
        with self._lock:
            if not self._closed and isinstance(item, RolloutItem) and item.group in self._open:
                self._pending.appendleft(item) if front else self._pending.append(item)

    def done(self, item: WorkItem) -> None:
        """(Nothing to count: the learner hears of each rollout through its record.)"""

    def withdraw(self) -> int:
        with self._lock:
            dropped = len(self._pending)
            self._pending.clear()
            return dropped

    def _open_group(self) -> None:
        """Queue the rollouts of a new group; the task is drawn with more weight where the
        running success is neither 0 nor 1 (where a group's rewards differ, so it teaches)."""
        group = self._next_group
        self._next_group += 1
        rng = random.Random(self.seed * 1_000_003 + group)
        weights = [0.05 + math.sqrt(max(0.0, p * (1 - p))) for p in (self._success.get(t.task_id, 0.5) for t in self.tasks)]
        task = rng.choices(self.tasks, weights=weights)[0]
        every = self.keep_frames_every
        for member in range(self.group_size):
            index = group * self.group_size + member
            self._pending.append(RolloutItem(
                key=f"{task.task_id}#g{group:06d}r{member}", task_file=task.task_file, task_id=task.task_id, repeat=member,
                seed=self.seed_base + group, deadline_s=task.deadline_s, group=group, sample_seed=rng.randrange(2**31),
                keep_frames=bool(every) and index % every == 0,
            ))
        self._open.add(group)
