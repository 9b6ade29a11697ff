"""Turning an episode left behind by a crash (``status: recording``) into a readable one.

Nothing is thrown away: the original ``steps.jsonl`` is kept beside the repaired one as
``steps.jsonl.damaged`` whenever a line had to be dropped, and the problems found are
listed in the episode's labels so a reviewer sees what happened.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from gui_agent.episode.format import (
    FRAMES_DIR,
    STEPS_FILE,
    TEMP_SUFFIX,
    Outcome,
    Stats,
)
from gui_agent.episode.labels import RECOVERY_PROBLEMS
from gui_agent.episode.reader import Episode, read_episode, read_meta
from gui_agent.episode.writer import write_meta

DAMAGED_SUFFIX = ".damaged"


def needs_recovery(path: str | Path) -> bool:
    """True if the folder holds an episode whose writer never finished."""
    return read_meta(path).status == "recording"


def recover(path: str | Path) -> Episode:
    """Repair an unfinished episode in place and return it, now with ``status: recovered``.

    A complete episode is returned unchanged. Steps that cannot be read (a truncated last
    line, garbage) are dropped from ``steps.jsonl``; half-written temp files are removed.

    Raises:
        EpisodeFormatError: episode.json itself is unreadable (then nothing can be trusted).
    """
    folder = Path(path)
    episode = read_episode(folder, lenient=True)
    if episode.meta.status != "recording":
        return episode
    for leftover in [*folder.glob("*" + TEMP_SUFFIX), *(folder / FRAMES_DIR).glob("*" + TEMP_SUFFIX)]:
        leftover.unlink()
    steps_file = folder / STEPS_FILE
    if episode.problems and steps_file.exists():
        shutil.copy2(steps_file, folder / (STEPS_FILE + DAMAGED_SUFFIX))
    tmp = steps_file.with_name(STEPS_FILE + TEMP_SUFFIX)
    with open(tmp, "w", encoding="utf-8") as handle:
        for step in episode.steps:
            handle.write(step.model_dump_json(exclude_defaults=True) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, steps_file)
    duration = episode.steps[-1].t if episode.steps else 0.0
    labels = dict(episode.meta.labels)
    if episode.problems:
        RECOVERY_PROBLEMS.set(labels, [str(problem) for problem in episode.problems])
    meta = episode.meta.model_copy(
        update={
            "status": "recovered",
            "outcome": episode.meta.outcome or Outcome(termination="interrupted", reason="the writer stopped before finishing"),
            "labels": labels,
            "stats": Stats(steps=len(episode.steps), duration_s=round(duration, 3)),
        }
    )
    write_meta(folder, meta)
    return read_episode(folder)
