"""Rollouts gathered into groups, turned into group-relative advantages, or dropped with a reason.

A group is ``group_size`` rollouts of one task on one seed (GRPO's unit). Its members'
rewards are compared with each other: a rollout's advantage is its reward minus the
group's mean (divided by the group's standard deviation, unless ``scale=False``), so the
baseline needs no value network and a sparse 0/1 evaluator still ranks the attempts.

What is never trained on, and counted under its reason (:attr:`GroupBuffer.dropped`):

* ``env_error`` -- the environment died or hung on every attempt (a partial episode);
* ``worker_lost`` / ``internal`` -- the worker was lost, or a bug stopped the rollout;
* ``stale`` -- the rollout acted with weights more than ``max_lag`` versions old;
* ``late`` -- it came back after its group was used (the learner did not wait for it);
* ``small_group`` -- fewer than two usable rollouts were left in its group: no baseline;
* ``uniform`` -- every rollout of its group got the same reward, so none is better than
  another and the group teaches nothing (its advantages are all zero). Such a group does
  not count towards an update's batch: the learner waits for groups that differ, as DAPO's
  dynamic sampling does, instead of stepping on a batch of one informative group. On a
  suite the policy mostly solves, most groups are uniform. After ``uniform_patience``
  uniform groups in a row they are handed out again (the learner skips them, and updates
  go on counting), until a group that differs comes: a run on tasks it has mastered
  still reaches its number of updates.

A group is *ready* when every member is back, or when ``deadline_s`` has passed since
its first member came back and at least two are usable: the learner never waits on one
slow actor longer than that.
"""

from __future__ import annotations

import re
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gui_agent.models.rl.worker import ROLLOUT_KEY

_KEY = re.compile(r"#g(\d+)r(\d+)$")


def group_of(record: dict[str, Any]) -> int | None:
    """The group number of a rollout record (from its key when a pool wrote the record)."""
    if isinstance(record.get("group"), int):
        return int(record["group"])
    match = _KEY.search(str(record.get("key", "")))
    return int(match.group(1)) if match else None


@dataclass
class Rollout:
    """A usable rollout: its record (without the decisions) and the decisions the learner trains on."""

    record: dict[str, Any]
    steps: list[Any]

    @property
    def reward(self) -> float:
        return float(self.record.get("reward") or 0.0)

    @property
    def version(self) -> int:
        return int(self.record.get("version") or 0)


@dataclass
class Group:
    """The rollouts of one group that have come back so far."""

    number: int
    task_id: str
    size: int
    first_seen: float
    members: dict[int, Rollout | None] = field(default_factory=dict)  # None: came back unusable

    @property
    def usable(self) -> list[Rollout]:
        return [m for m in self.members.values() if m is not None]

    def complete(self) -> bool:
        return len(self.members) >= self.size


@dataclass
class TrainGroup:
    """A group ready to learn from: its rollouts and their advantages (same order)."""

    number: int
    task_id: str
    rollouts: list[Rollout]
    advantages: list[float]

    @property
    def informative(self) -> bool:
        """False when every reward is the same: no rollout is better than another."""
        return any(abs(a) > 1e-9 for a in self.advantages)


def advantages(rewards: list[float], *, scale: bool = True) -> list[float]:
    """Group-relative advantages: reward minus the group mean (over the standard deviation with ``scale``)."""
    mean = statistics.fmean(rewards)
    spread = statistics.pstdev(rewards) if scale else 1.0
    if spread < 1e-6:
        return [0.0 for _ in rewards]
    return [(r - mean) / spread for r in rewards]


class GroupBuffer:
    """Collects rollout records as they arrive; hands out ready groups (see the module doc)."""

    def __init__(self, group_size: int, *, max_lag: int, deadline_s: float, scale: bool = True,
                 skip_uniform: bool = True, uniform_patience: int = 8) -> None:
        self.group_size = group_size
        self.skip_uniform = skip_uniform
        self.uniform_patience = uniform_patience
        self.uniform_in_a_row = 0
        self.max_lag = max_lag
        self.deadline_s = deadline_s
        self.scale = scale
        self.groups: dict[int, Group] = {}
        self.used: set[int] = set()  # groups used or dropped: a member that comes back later is late
        self.dropped: Counter[str] = Counter()
        self._closed: list[int] = []

    def add(self, record: dict[str, Any], now: float | None = None) -> None:
        """File a record; an unusable one is counted under its reason."""
        number = group_of(record)
        steps = record.pop(ROLLOUT_KEY, None)
        if number is None:
            self.dropped["internal"] += 1
            return
        if number in self.used:
            self.dropped["late"] += 1
            return
        group = self.groups.get(number)
        if group is None:
            group = self.groups[number] = Group(number, str(record.get("task_id")), self.group_size, time.monotonic() if now is None else now)
        member = int(record.get("repeat") or 0)
        if record.get("success") is None or steps is None:
            reason = record.get("fault") or record.get("termination") or "env_error"
            self.dropped["stale" if reason == "stale" else str(reason)] += 1
            group.members[member] = None
        else:
            group.members[member] = Rollout(record, list(steps))

    def ready(self, version: int, now: float | None = None) -> list[TrainGroup]:
        """Take every ready group out of the buffer (stale rollouts dropped first)."""
        now = time.monotonic() if now is None else now
        taken: list[TrainGroup] = []
        for number, group in sorted(self.groups.items()):
            for member, rollout in list(group.members.items()):
                if rollout is not None and version - rollout.version > self.max_lag:
                    self.dropped["stale"] += 1
                    group.members[member] = None
            usable = group.usable
            overdue = now - group.first_seen >= self.deadline_s and len(usable) >= 2
            if not (group.complete() or overdue):
                continue
            del self.groups[number]
            self.used.add(number)
            self._closed.append(number)
            if len(usable) < 2:
                self.dropped["small_group"] += len(usable)
                continue
            ready = TrainGroup(number, group.task_id, usable, advantages([r.reward for r in usable], scale=self.scale))
            if ready.informative:
                self.uniform_in_a_row = 0
            elif self.skip_uniform and self.uniform_in_a_row < self.uniform_patience:
                self.uniform_in_a_row += 1
                self.dropped["uniform"] += len(usable)
                continue
            taken.append(ready)
        return taken

    def closed_groups(self) -> list[int]:
        """Groups the buffer has finished with (used or dropped) since the last call: the
        scheduler may open new ones in their place."""
        closed, self._closed = self._closed, []
        return closed

    def pending_rollouts(self) -> int:
        """Usable rollouts waiting in groups that are not ready yet."""
        return sum(len(g.usable) for g in self.groups.values())


def still_fresh(groups: list[TrainGroup], version: int, max_lag: int, dropped: Counter[str], *, scale: bool = True) -> list[TrainGroup]:
    """``groups`` without the rollouts that became more than ``max_lag`` versions old while
    they waited for an update (advantages recomputed; a group left with fewer than two is dropped)."""
    kept: list[TrainGroup] = []
    for group in groups:
        fresh = [r for r in group.rollouts if version - r.version <= max_lag]
        dropped["stale"] += len(group.rollouts) - len(fresh)
        if len(fresh) < 2:
            dropped["small_group"] += len(fresh)
            continue
        if len(fresh) == len(group.rollouts):
            kept.append(group)
        else:
            kept.append(TrainGroup(group.number, group.task_id, fresh, advantages([r.reward for r in fresh], scale=scale)))
    return kept
