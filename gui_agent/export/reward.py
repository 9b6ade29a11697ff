"""Reward-model data: the one definition of the layout the replayer writes and models read.

``gui-agent make-reward-data EPISODES... --out OUT`` (``replay/``) writes::

    OUT/
      episodes/<episode_id>/   every executed episode (replays of the originals and the
                               simulator's variants) in the trajectory format, its outcome
                               set by the task's evaluator
      reward.jsonl             step-level samples, one :class:`RewardSample` per line
      outcomes.jsonl           episode-level samples, one :class:`OutcomeSample` per line
      preferences.jsonl        trajectory pairs of one task, one :class:`PreferencePair` per line

Every ``episode`` / ``chosen`` / ``rejected`` field is an episode folder relative to
``OUT`` (:func:`resolve_episode`). A step sample's screen *before* is the episode's frame
``step_index``, its screen *after* is frame ``step_index + 1`` and its instruction is the
episode's ``task.instruction``; the sample itself stores none of them, so nothing is
duplicated and nothing can disagree with the episode.

Step labels (:data:`StepLabel`) and their rewards (:data:`LABEL_REWARD`): ``progress`` 1.0,
``neutral`` 0.5, ``harmful`` 0.0 (how the simulator decides them is documented in
``replay/labels.py``).

Readers (:func:`read_reward_samples`, :func:`read_outcomes`, :func:`read_preferences`)
yield validated records and raise :class:`~gui_agent.errors.FileFormatError` naming
``file:line`` for a bad line; :func:`read_records` gives the lenient per-line form export
uses (a bad line is reported and skipped). :class:`RewardDataWriter` appends records
(flushed per line), and knows which ids are already written so an interrupted build resumes.

Export (``--format reward``) turns each step sample into one row of the ``reward`` config
(the screenshot embedded), each outcome sample into one of ``outcomes`` (the final screen
embedded) and each pair into one of ``preferences``; their columns are in
:mod:`gui_agent.export.features`. Reading and writing records needs no ``datasets``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from gui_agent.actions import action_from_dict
from gui_agent.errors import ActionError, ExportError, FileFormatError

REWARD_FILE = "reward.jsonl"
OUTCOMES_FILE = "outcomes.jsonl"
PREFERENCES_FILE = "preferences.jsonl"
#: Folder (below OUT) holding every executed episode.
EPISODES_DIR = "episodes"

StepLabel = Literal["progress", "neutral", "harmful"]
#: The reward each step label stands for (one source: writers use it, readers may check it).
LABEL_REWARD: dict[str, float] = {"progress": 1.0, "neutral": 0.5, "harmful": 0.0}
Source = Literal["recorded", "replay", "simulator", "human"]


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RewardSample(_Line):
    """One judged step: a line of ``reward.jsonl``.

    The screen before is the episode's frame ``step_index``, the screen after is frame
    ``step_index + 1``; the instruction is the episode's ``task.instruction``.
    """

    sample_id: str
    episode: str = Field(description="the episode folder, relative to the folder of reward.jsonl")
    step_index: int = Field(ge=0)
    action: dict[str, Any] = Field(description="the canonical action judged (action_to_dict form)")
    label: StepLabel
    reward: float = Field(ge=0.0, le=1.0, description="progress 1.0, neutral 0.5, harmful 0.0")
    perturbation: str | None = Field(None, description="what the simulator changed; None for unmodified steps")
    source: Source = "replay"
    group: str | None = Field(None, description="samples compared with each other (pairwise training) share a group")
    detail: dict[str, Any] = Field(default_factory=dict)

    @field_validator("action")
    @classmethod
    def _canonical(cls, value: dict[str, Any]) -> dict[str, Any]:
        try:
            action_from_dict(value)
        except ActionError as exc:
            raise ValueError(str(exc)) from None
        return value


class OutcomeSample(_Line):
    """One executed trajectory and whether the task's evaluator accepted it: a line of ``outcomes.jsonl``."""

    sample_id: str
    episode: str = Field(description="the episode folder, relative to the folder of outcomes.jsonl")
    task_id: str
    instruction: str
    success: bool
    reward: float = Field(description="the evaluator's reward for the whole episode")
    perturbation: str | None = Field(None, description="the simulator's variant kind; None for a replay of the original")
    source: Source = "replay"
    group: str | None = Field(None, description="the original trajectory this one was made from")
    detail: dict[str, Any] = Field(default_factory=dict)


class PreferencePair(_Line):
    """Two executed trajectories of one task, the better one first: a line of ``preferences.jsonl``."""

    pair_id: str
    task_id: str
    instruction: str
    chosen: str = Field(description="the better episode folder, relative to the folder of preferences.jsonl")
    rejected: str = Field(description="the worse episode folder, relative to the folder of preferences.jsonl")
    chosen_reward: float
    rejected_reward: float
    reason: str


Record = TypeVar("Record", RewardSample, OutcomeSample, PreferencePair)

_FILES: dict[type[BaseModel], str] = {
    RewardSample: REWARD_FILE,
    OutcomeSample: OUTCOMES_FILE,
    PreferencePair: PREFERENCES_FILE,
}


def record_id(record: RewardSample | OutcomeSample | PreferencePair) -> str:
    """The record's unique id (``sample_id`` or ``pair_id``)."""
    return record.pair_id if isinstance(record, PreferencePair) else record.sample_id


def resolve_episode(root: str | Path, relative: str) -> Path:
    """The episode folder a record names, relative to the data folder ``root``."""
    return Path(root) / relative


# -- reading --------------------------------------------------------------------------


def read_records(file: Path, model: type[Record]) -> Iterator[tuple[int, Record | str]]:
    """Each line's record, or the reason the line is unusable (line numbers from 1).

    The lenient reader: export reports bad lines and goes on.
    """
    with open(file, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield number, model.model_validate(json.loads(line))
            except json.JSONDecodeError as exc:
                yield number, f"invalid JSON: {exc.msg}"
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"]) or "record"
                yield number, f"field '{where}': {first['msg']}"


def read_samples(file: Path) -> Iterator[tuple[int, RewardSample | str]]:
    """Lenient reading of one ``reward.jsonl`` (what export uses)."""
    return read_records(file, RewardSample)


def _read_strict(root: str | Path, model: type[Record]) -> Iterator[Record]:
    folder = Path(root)
    file = folder / _FILES[model] if folder.is_dir() or not folder.exists() else folder
    if not file.is_file():
        raise FileFormatError(file, f"no such file; a reward-data folder (gui-agent make-reward-data --out) has {_FILES[model]}")
    for number, record in read_records(file, model):
        if isinstance(record, str):
            raise FileFormatError(file, record, line=number)
        yield record


def read_reward_samples(root: str | Path) -> Iterator[RewardSample]:
    """The step samples of a reward-data folder (or of one ``reward.jsonl`` file).

    Raises:
        FileFormatError: the file is missing, or a line is not a valid sample (names file:line).
    """
    return _read_strict(root, RewardSample)


def read_outcomes(root: str | Path) -> Iterator[OutcomeSample]:
    """The outcome samples of a reward-data folder (or of one ``outcomes.jsonl`` file).

    Raises:
        FileFormatError: the file is missing, or a line is not a valid sample (names file:line).
    """
    return _read_strict(root, OutcomeSample)


def read_preferences(root: str | Path) -> Iterator[PreferencePair]:
    """The preference pairs of a reward-data folder (or of one ``preferences.jsonl`` file).

    Raises:
        FileFormatError: the file is missing, or a line is not a valid pair (names file:line).
    """
    return _read_strict(root, PreferencePair)


# -- writing --------------------------------------------------------------------------


class JsonlAppender:
    """Appends records to one JSONL file, one flushed line each.

    Opening it drops a torn last line (a run killed mid-write), so the file stays valid
    and the record is simply written again by the resumed run. ``ids`` holds the ids of
    the records already in the file.
    """

    def __init__(self, file: Path, model: type[Record]):
        self.file = file
        self.model = model
        self.ids: set[str] = set()
        file.parent.mkdir(parents=True, exist_ok=True)
        if file.exists():
            self._drop_torn_tail()
            for _, record in read_records(file, model):
                if not isinstance(record, str):
                    self.ids.add(record_id(record))
        self._handle = open(file, "a", encoding="utf-8")

    def _drop_torn_tail(self) -> None:
        data = self.file.read_bytes()
        if data and not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1
            with open(self.file, "r+b") as handle:
                handle.truncate(keep)

    def add(self, record: Record) -> None:
        if not isinstance(record, self.model):
            raise TypeError(f"{self.file.name} holds {self.model.__name__}, not {type(record).__name__}")
        self._handle.write(record.model_dump_json() + "\n")
        self._handle.flush()
        self.ids.add(record_id(record))

    def sync(self) -> None:
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        if not self._handle.closed:
            self.sync()
            self._handle.close()


class RewardDataWriter:
    """Writes a reward-data folder: the three JSONL files (appended) and ``episodes/``.

    Use as a context manager. Re-opening an existing folder appends; ``has(id)`` tells
    which samples and pairs are already there.
    """

    def __init__(self, root: str | Path):
        self.root = Path(root)
        self.episodes_dir = self.root / EPISODES_DIR
        self.episodes_dir.mkdir(parents=True, exist_ok=True)
        self.samples = JsonlAppender(self.root / REWARD_FILE, RewardSample)
        self.outcomes = JsonlAppender(self.root / OUTCOMES_FILE, OutcomeSample)
        self.preferences = JsonlAppender(self.root / PREFERENCES_FILE, PreferencePair)

    def relative(self, episode_dir: str | Path) -> str:
        """An episode folder's path as records store it (relative to the data folder, POSIX)."""
        return Path(os.path.relpath(Path(episode_dir).resolve(), self.root.resolve())).as_posix()

    def add(self, record: RewardSample | OutcomeSample | PreferencePair) -> None:
        {RewardSample: self.samples, OutcomeSample: self.outcomes, PreferencePair: self.preferences}[type(record)].add(record)

    def has(self, record_id_: str) -> bool:
        return any(record_id_ in a.ids for a in (self.samples, self.outcomes, self.preferences))

    def close(self) -> None:
        for appender in (self.samples, self.outcomes, self.preferences):
            appender.close()

    def __enter__(self) -> RewardDataWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_records(file: str | Path, records: Iterable[RewardSample | OutcomeSample | PreferencePair]) -> int:
    """Write records to a new JSONL file at once (atomically: temp file + rename); returns the count."""
    path = Path(file)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    count = 0
    with open(tmp, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(record.model_dump_json() + "\n")
            count += 1
    tmp.replace(path)
    return count


def find_reward_files(paths: Iterable[str | Path]) -> list[Path]:
    """``reward.jsonl`` files named directly or found below the given folders."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file() and path.name == REWARD_FILE:
            files.append(path)
        elif path.is_dir():
            files.extend(sorted(path.rglob(REWARD_FILE)))
    return files


def no_reward_data_error(paths: Iterable[str | Path]) -> ExportError:
    shown = ", ".join(str(p) for p in paths)
    return ExportError(
        f"--format reward found no {REWARD_FILE} under {shown}. It exports reward-model data "
        f"(schema: gui_agent.export.reward.RewardSample), which 'gui-agent make-reward-data EPISODES --out DIR' "
        "writes; use --format steps or sft for recorded episodes"
    )
