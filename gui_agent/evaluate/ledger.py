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
from pathlib import Path
from typing import Any

from gui_agent.episode.writer import write_json_atomic

LEDGER_FILE = "ledger.jsonl"
MANIFEST_FILE = "run.json"
#: Manifest keys that must match for a resume (repeats may grow: new tries are added).
RESUME_KEYS = ("policy", "seed", "same_seed", "seeds", "max_tokens", "max_cost_usd", "on_loop", "judge", "best_of", "reward_model")


def read_ledger(path: str | Path) -> dict[str, dict[str, Any]]:
    """The records of a ledger by key (a later line for a key wins); a partial last line is skipped."""
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
