"""The station's work: every task of the suite times ``repeats``, assigned to annotators.

Progress lives in ``DATASET/station.json``, rewritten atomically (temp file + rename) after
every change, so a killed station loses nothing it reported done. At start the file is
read back: items already there keep their annotator, state and episodes; only (task file,
repeat) pairs not yet there are added. So a restart resumes and nothing is done twice.

An item is ``pending`` (not started), ``taken`` (a desktop is up for it), ``done``
(finished, with its episode) or ``given_up``. An item left ``taken`` by a station that
was killed goes back to ``pending`` at the next start, its unfinished episode kept in
its ``attempts``.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from gui_agent.episode.writer import write_json_atomic

PROGRESS_FILE = "station.json"
PROGRESS_VERSION = 1

Status = Literal["pending", "taken", "done", "given_up"]
#: An item that is closed is never offered again.
CLOSED: tuple[str, ...] = ("done", "given_up")


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


@dataclass
class Item:
    """One repeat of one task for one annotator."""

    item_id: str
    task_file: str
    task_id: str
    instruction: str
    repeat: int
    annotator: str
    seed: int
    status: str = "pending"
    #: The episode folder name (under DATASET) of the finished attempt.
    episode: str | None = None
    #: Every attempt: {"episode", "result": finished | gave_up | discarded | interrupted, "at"}.
    attempts: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    #: A reviewer's decision on the episode: {"decision": accepted | rejected, "by", "at", "notes"}.
    review: dict[str, Any] | None = None

    def public(self) -> dict[str, Any]:
        return asdict(self)


class TaskQueue:
    """The items of one DATASET folder; every method is thread-safe and saves at once."""

    def __init__(self, dataset: str | Path, items: list[Item]):
        self.dataset = Path(dataset)
        self._items = {item.item_id: item for item in items}
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ building
    @classmethod
    def open(cls, dataset: str | Path, tasks: list[tuple[Path, str, str]], annotators: list[str], *, repeats: int = 1) -> "TaskQueue":
        """Load DATASET's progress (if any) and add what ``tasks`` x ``repeats`` still lacks.

        Args:
            tasks: (task file, task id, instruction) of every task of the suite.
            annotators: names new items are assigned to, in turn.
        """
        if repeats < 1:
            raise ValueError("--repeats must be at least 1")
        if not annotators:
            raise ValueError("no annotators to assign tasks to")
        dataset = Path(dataset)
        dataset.mkdir(parents=True, exist_ok=True)
        items = cls.read_items(dataset)
        have = {(item.task_file, item.repeat) for item in items}
        counts = {name: sum(1 for i in items if i.annotator == name) for name in annotators}
        number = max((int(i.item_id.rsplit("-", 1)[-1]) for i in items), default=0)
        for task_file, task_id, instruction in tasks:
            for repeat in range(repeats):
                key = (str(task_file), repeat)
                if key in have:
                    continue
                # Each repeat to someone who has not done this task yet if possible, least loaded first.
                done_it = {i.annotator for i in items if i.task_file == key[0]}
                pool = [a for a in annotators if a not in done_it] or annotators
                annotator = min(pool, key=lambda a: (counts[a], annotators.index(a)))
                counts[annotator] += 1
                number += 1
                items.append(Item(item_id=f"item-{number:04d}", task_file=key[0], task_id=task_id,
                                  instruction=instruction, repeat=repeat, annotator=annotator, seed=repeat))
                have.add(key)
        for item in items:
            if item.status == "taken":  # the station stopped mid-task
                item.status = "pending"
                if item.attempts and item.attempts[-1].get("result") is None:
                    item.attempts[-1]["result"] = "interrupted"
        queue = cls(dataset, items)
        queue.save()
        return queue

    @staticmethod
    def read_items(dataset: Path) -> list[Item]:
        path = dataset / PROGRESS_FILE
        if not path.exists():
            return []
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != PROGRESS_VERSION:
            raise ValueError(f"{path}: progress file version {data.get('version')!r}, expected {PROGRESS_VERSION}")
        return [Item(**raw) for raw in data["items"]]

    def save(self) -> None:
        with self._lock:
            write_json_atomic(self.dataset / PROGRESS_FILE, {
                "version": PROGRESS_VERSION, "saved_at": _now(),
                "items": [item.public() for item in self._items.values()],
            })

    # ------------------------------------------------------------------ reading
    def get(self, item_id: str) -> Item | None:
        """The item with this id, or None: ids from requests are only ever looked up here."""
        with self._lock:
            return self._items.get(item_id) if isinstance(item_id, str) else None

    def items(self, annotator: str | None = None) -> list[Item]:
        """All items, or one annotator's."""
        with self._lock:
            return [i for i in self._items.values() if annotator is None or i.annotator == annotator]

    # ------------------------------------------------------------------ changing
    def take(self, item_id: str) -> Item:
        with self._lock:
            item = self._items[item_id]
            if item.status in CLOSED:
                raise ValueError(f"{item_id} is already {item.status}")
            item.status = "taken"
            self.save()
            return item

    def add_attempt(self, item_id: str, episode: str) -> None:
        with self._lock:
            self._items[item_id].attempts.append({"episode": episode, "result": None, "at": _now()})
            self.save()

    def close_attempt(self, item_id: str, result: str, *, status: str, outcome: dict[str, Any] | None = None) -> Item:
        """End the current attempt (``finished``, ``gave_up``, ``discarded``, ``failed``) and set the item's status."""
        with self._lock:
            item = self._items[item_id]
            if item.attempts and item.attempts[-1].get("result") is None:
                item.attempts[-1]["result"] = result
                if result in ("finished", "gave_up"):
                    item.episode = item.attempts[-1]["episode"]
            item.status = status
            if outcome is not None:
                item.outcome = outcome
            self.save()
            return item

    @staticmethod
    def review_record(review: dict[str, Any]) -> dict[str, Any]:
        """``review`` as it is kept: stamped with the time (made before the write that keeps
        it, when the episode's copy must be written first)."""
        return {**review, "at": review.get("at") or _now()}

    def set_review(self, item_id: str, review: dict[str, Any]) -> Item:
        with self._lock:
            item = self._items[item_id]
            item.review = self.review_record(review)
            self.save()
            return item

    def accepted(self) -> list[Item]:
        """Items whose episode a reviewer accepted (what is exported)."""
        with self._lock:
            return [i for i in self._items.values() if i.episode and (i.review or {}).get("decision") == "accepted"]

    def release(self, item_id: str) -> None:
        """A taken item back to pending (its desktop closed without an episode)."""
        with self._lock:
            item = self._items[item_id]
            if item.status == "taken":
                item.status = "pending"
                self.save()

    def episode_folder(self, name: str | None) -> Path | None:
        """The episode folder ``name`` in DATASET, resolved; None if it is not there or leaves DATASET.

        ``name`` is matched against what is in DATASET, never joined raw. A folder (or any
        entry in it) that is a link resolving outside DATASET is refused: the station
        serves and edits only files under DATASET.
        """
        if not name:
            return None
        root = self.dataset.resolve()
        for child in root.iterdir():
            if child.name != name:
                continue
            folder = child.resolve()
            if folder == root or not folder.is_relative_to(root) or not folder.is_dir():
                return None
            if any(not entry.resolve().is_relative_to(root) for entry in folder.iterdir()):
                return None
            return folder
        return None
