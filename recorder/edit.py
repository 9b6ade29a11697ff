"""Annotator edits after recording: trimming steps and relabelling the outcome.

Trimming is one of the episode edits of :mod:`gui_agent.episode.edit` (the one place that
changes an episode's steps): the original is kept beside the episode and the frames stay
dense. Relabelling rewrites episode.json alone, atomically (temp file + rename).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gui_agent.episode.edit import Trim, apply_edit, is_edited
from gui_agent.episode.format import Outcome
from gui_agent.episode.labels import NOTES
from gui_agent.episode.reader import Episode, read_episode
from gui_agent.episode.writer import write_meta


def trim(path: str | Path, start: int, end: int | None = None, *, by: str | None = None) -> Episode:
    """Keep steps ``[start, end)``; the frame before step ``end`` becomes the final frame.

    An ``end`` past the last step means the last step (``--trim 2:99`` keeps steps 2 on).

    Raises:
        ValueError: the range keeps no step (an :class:`~gui_agent.episode.edit.EditError`).
    """
    n = len(read_episode(path).steps)
    if end is not None:
        end = min(end, n)
    if not 0 <= start < (n if end is None else end):
        raise ValueError(f"trim {start}:{n if end is None else end} keeps no step of {n}")
    return apply_edit(path, Trim(start=start, end=end), by=by or "gui-agent review")


def relabel(path: str | Path, *, success: bool | None = None, notes: str | None = None,
            instruction: str | None = None, labels: dict[str, Any] | None = None) -> Episode:
    """Change the verdict, notes, task text or labels of an episode.

    The notes of an edited episode are one of its edits (so that the next edit, an undo or
    a reset derives them as it does the steps): they are set through a ``notes`` edit.
    """
    folder = Path(path)
    if notes is not None and is_edited(folder):
        apply_edit(folder, {"op": "notes", "text": notes}, by="gui-agent review")
        notes = None
    episode = read_episode(folder, lenient=True)
    meta = episode.meta
    new_labels = {**meta.labels, **(labels or {})}
    if notes is not None:
        NOTES.set(new_labels, notes)
    update: dict[str, Any] = {"labels": new_labels}
    if success is not None:
        outcome = meta.outcome or Outcome()
        update["outcome"] = outcome.model_copy(update={"success": success})
    if instruction is not None:
        update["task"] = meta.task.model_copy(update={"instruction": instruction})
    write_meta(folder, meta.model_copy(update=update))
    return read_episode(folder, lenient=True)
