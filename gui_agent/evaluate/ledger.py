"""The run's ledger: one JSON line per finished episode, appended as episodes finish.

``<out>/ledger.jsonl`` is the source of truth of a run: results stream to it (each line
flushed and fsynced), reports are computed from it, and ``--resume`` reads it to redo
only the episodes without a line. Only the coordinating process writes it, so lines
never interleave. A run killed mid-write leaves at most one partial last line; it is
ignored when reading and cut off before appending again.

``<out>/run.json`` records what the run is (suite, policy, repeats, seeds), so a resume
with different settings is refused instead of mixing two experiments in one ledger.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from gui_agent.episode.writer import write_json_atomic

LEDGER_FILE = "ledger.jsonl"
MANIFEST_FILE = "run.json"
#: Manifest keys that must match for a resume (repeats may grow: new tries are added).
RESUME_KEYS = ("policy", "seed", "same_seed", "seeds", "max_tokens", "max_cost_usd", "on_loop", "judge", "best_of", "reward_model", "observe")


class _Lenient(BaseModel):
    """A part of a ledger line as any version wrote it: a missing field, or a null where
    a number or a list belongs, reads as the field's default; keys this code does not
    know are kept (``model_extra``)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _null_is_absent(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        fields = cls.model_fields
        return {key: value for key, value in data.items()
                if value is not None or key not in fields or fields[key].default is None}


class RecordUsage(_Lenient):
    """What the episode's model calls cost (:meth:`gui_agent.guards.BudgetMeter.usage`); ``cost_usd`` only when priced."""

    input_tokens: int = 0
    output_tokens: int = 0
    images: int = 0
    cached_tokens: int = 0
    retries: int = 0
    cost_usd: float | None = None


class EnvFailure(_Lenient):
    """One attempt whose environment failed (see :func:`gui_agent.runner.run_with_retries`)."""

    attempt: int | None = None
    fault: str | None = None
    reason: str | None = None
    episode: str | None = None


class GuardEvent(_Lenient):
    guard: str
    kind: str
    message: str | None = None


class LedgerRecord(_Lenient):
    """One line of ``ledger.jsonl``: a finished work item, as the worker (or a pool that
    gave the item up after losing its workers) wrote it.

    ``success`` is None for an episode that was not scored: its environment failed on
    every attempt (``fault`` says how), or its policy's model service stayed down
    (``termination: service_error``). ``episode`` is the last attempt's folder, relative
    to the run's folder once the coordinator wrote it.
    """

    key: str
    task_id: str
    task_file: str | None = None
    repeat: int | None = None
    seed: int | None = None
    worker: str | None = None
    success: bool | None = None
    reward: float = 0.0
    steps: int = 0
    duration_s: float = 0.0
    termination: str | None = None
    reason: str | None = None
    fault: str | None = None
    attempts: int = 1
    env_failures: tuple[EnvFailure, ...] = ()
    usage: RecordUsage = RecordUsage()
    guard_events: tuple[GuardEvent, ...] = ()
    episode: str | None = None
    judge: dict[str, Any] | None = None
    traceback: str | None = None
    finished_at: str | None = None

    @property
    def scored(self) -> bool:
        return self.success is not None

    @property
    def service_failed(self) -> bool:
        """Not scored because the policy's model service stayed down (never the environment's fault)."""
        return self.success is None and self.termination == "service_error"

    @property
    def given_up(self) -> bool:
        """Not scored, with no per-attempt failures to say why (a lost worker, an internal error): its own ``fault`` counts."""
        return self.success is None and not self.env_failures and not self.service_failed

    @property
    def cost_usd(self) -> float:
        """US dollars the episode's model calls cost (0 when unpriced)."""
        return self.usage.cost_usd or 0.0

    @classmethod
    def parse(cls, data: LedgerRecord | Mapping[str, Any]) -> LedgerRecord:
        """A record from a ledger line's object (a record passes through)."""
        return data if isinstance(data, LedgerRecord) else cls.model_validate(data)


def read_records(path: str | Path) -> dict[str, LedgerRecord]:
    """The ledger's records by key, typed (see :func:`read_ledger`).

    Raises:
        ValueError: a line that is not a ledger record (a key without a task id, a
            number where text belongs...), naming the file and the key.
    """
    records = {}
    for key, line in read_ledger(path).items():
        try:
            records[key] = LedgerRecord.parse(line)
        except ValidationError as exc:
            raise ValueError(f"{path}: the record of {key!r} is not a ledger record: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}") from None
    return records


def read_ledger(path: str | Path) -> dict[str, dict[str, Any]]:
    """The lines of a ledger as written, by key (a later line for a key wins); a partial last line is skipped."""
    records: dict[str, dict[str, Any]] = {}
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return records
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a kill
        if isinstance(record, dict) and "key" in record:
            records[record["key"]] = record
    return records


class Ledger:
    """Appends records to ``ledger.jsonl``; one line each, flushed and fsynced."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._repair()
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the run

    def _repair(self) -> None:
        """Cut a partial last line (a writer killed mid-line), so the next line starts clean."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return
        if data and not data.endswith(b"\n"):
            with open(self.path, "r+b") as handle:
                handle.truncate(data.rfind(b"\n") + 1)

    def append(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_manifest(out_dir: Path, manifest: dict[str, Any]) -> None:
    write_json_atomic(out_dir / MANIFEST_FILE, manifest)


def read_manifest(out_dir: Path) -> dict[str, Any] | None:
    try:
        return json.loads((out_dir / MANIFEST_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def resume_conflicts(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Settings that differ between a run's manifest and a resume of it."""
    return [f"{key}: {old.get(key)!r} in {MANIFEST_FILE}, {new.get(key)!r} now" for key in RESUME_KEYS if old.get(key) != new.get(key)]
