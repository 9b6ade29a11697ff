"""Reading and validating an episode folder.

Strict mode (the default) raises :class:`EpisodeFormatError` at the first problem, naming
the file, the line and what is wrong. Lenient mode returns every valid step and lists the
problems instead, which is what recovery and tolerant tools (export, review) want.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image
from pydantic import ValidationError

from gui_agent.actions import Action, action_from_dict
from gui_agent.episode.format import EPISODE_FILE, FORMAT_VERSION, STEPS_FILE, EpisodeMeta, StepRecord, frame_path
from gui_agent.errors import ActionError, EpisodeFormatError


@dataclass
class Episode:
    """An episode as read from disk.

    Attributes:
        path: the episode folder.
        meta: episode.json.
        steps: the valid steps, in order.
        problems: what lenient reading skipped (empty in strict mode).
        final_frame: relative path of the frame after the last step, if it exists.
    """

    path: Path
    meta: EpisodeMeta
    steps: list[StepRecord]
    problems: list[EpisodeFormatError] = field(default_factory=list)
    final_frame: str | None = None

    def actions(self) -> list[Action]:
        """The canonical actions of the steps, in order."""
        return [action_from_dict(step.action) for step in self.steps]

    def load_frame(self, relative: str) -> np.ndarray:
        """Load a frame (a path as stored in a step) as an RGB array."""
        with Image.open(self.path / relative) as image:
            return np.asarray(image.convert("RGB"))


def _format_validation_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "record"
    return f"field '{where}': {first['msg']} (got {first.get('input')!r})"


def read_meta(path: str | Path) -> EpisodeMeta:
    """Read and validate episode.json alone (no steps)."""
    file = Path(path) / EPISODE_FILE
    if not file.exists():
        raise EpisodeFormatError(file, "missing; this folder is not an episode (no episode.json)")
    text = file.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EpisodeFormatError(file, f"invalid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno) from None
    if not isinstance(data, dict):
        raise EpisodeFormatError(file, "must hold a JSON object", line=1)
    version = data.get("format_version")
    if isinstance(version, int) and version > FORMAT_VERSION:
        raise EpisodeFormatError(
            file,
            f"format version {version} is newer than this gui-agent reads (up to {FORMAT_VERSION}); upgrade gui-agent",
        )
    try:
        return EpisodeMeta.model_validate(data)
    except ValidationError as exc:
        raise EpisodeFormatError(file, _format_validation_error(exc)) from None


def _parse_step_line(file: Path, number: int, line: str, is_last: bool, ends_with_newline: bool) -> StepRecord:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        if is_last and not ends_with_newline:
            raise EpisodeFormatError(
                file, "truncated record at the end of the file (the writer was interrupted); recover() repairs it", line=number
            ) from None
        raise EpisodeFormatError(file, f"invalid JSON: {exc.msg} (column {exc.colno})", line=number) from None
    try:
        record = StepRecord.model_validate(data)
    except ValidationError as exc:
        raise EpisodeFormatError(file, _format_validation_error(exc), line=number) from None
    try:
        action_from_dict(record.action)
    except ActionError as exc:
        raise EpisodeFormatError(file, f"field 'action': {exc}", line=number) from None
    return record


def read_episode(path: str | Path, *, lenient: bool = False) -> Episode:
    """Read an episode folder.

    Args:
        path: the episode folder.
        lenient: return the valid part and list problems instead of raising on them.
            Problems with episode.json itself always raise: without it nothing is usable.

    Raises:
        EpisodeFormatError: naming file, line and problem (strict mode, or a bad episode.json).
    """
    folder = Path(path)
    meta = read_meta(folder)
    steps_file = folder / STEPS_FILE
    problems: list[EpisodeFormatError] = []
    steps: list[StepRecord] = []

    def problem(error: EpisodeFormatError) -> None:
        if not lenient:
            raise error
        problems.append(error)

    raw = steps_file.read_text(encoding="utf-8") if steps_file.exists() else ""
    if not steps_file.exists() and meta.stats.steps:
        problem(EpisodeFormatError(steps_file, f"missing, but episode.json counts {meta.stats.steps} steps"))
    lines = raw.split("\n")
    ends_with_newline = raw.endswith("\n")
    if ends_with_newline:
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = _parse_step_line(steps_file, number, line, number == len(lines), ends_with_newline)
        except EpisodeFormatError as error:
            problem(error)
            continue
        if record.index != len(steps):
            # After a dropped line the gap is expected; renumber so indices stay dense.
            if not problems:
                problem(EpisodeFormatError(steps_file, f"step index {record.index} out of order; expected {len(steps)}", line=number))
            record = record.model_copy(update={"index": len(steps)})
        for attr in ("frame_before", "frame_after"):
            rel = getattr(record, attr)
            if rel is not None and not (folder / rel).is_file():
                problem(EpisodeFormatError(folder / rel, f"missing frame, referenced by {STEPS_FILE} line {number} ({attr})"))
                record = record.model_copy(update={attr: None})
        steps.append(record)

    if meta.status == "complete" and meta.stats.steps != len(steps) and not problems:
        problem(EpisodeFormatError(folder / EPISODE_FILE, f"counts {meta.stats.steps} steps but {STEPS_FILE} holds {len(steps)}"))
    final = frame_path(len(steps), meta.frame_format)
    return Episode(
        path=folder,
        meta=meta,
        steps=steps,
        problems=problems,
        final_frame=final if (folder / final).is_file() else None,
    )
