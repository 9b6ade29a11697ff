"""Annotator edits after recording: trimming steps and relabelling the outcome.

Both rewrite files in place through temp file + rename, so an interrupted edit leaves the
old or the new episode, never a mix of lines; frames are renamed to stay dense.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from gui_agent.episode.format import (
    FRAMES_DIR,
    STEPS_FILE,
    TEMP_SUFFIX,
    Outcome,
    Stats,
    frame_format_of,
    frame_path,
)
from gui_agent.episode.reader import Episode, read_episode
from gui_agent.episode.writer import write_meta


def trim(path: str | Path, start: int, end: int | None = None) -> Episode:
    """Keep steps ``[start, end)``; the frame before step ``end`` becomes the final frame."""
    folder = Path(path)
    episode = read_episode(folder)
    frame_format = episode.meta.frame_format
    n = len(episode.steps)
    end = n if end is None else min(end, n)
    if not 0 <= start < end:
        raise ValueError(f"trim {start}:{end} keeps no step of {n}")
    kept = episode.steps[start:end]
    final_src = episode.steps[end].frame_before if end < n else episode.final_frame
    renames: list[tuple[str, str]] = []
    lines = []
    for new_index, step in enumerate(kept):
        update: dict[str, Any] = {"index": new_index}
        if step.frame_before:
            dst = frame_path(new_index, frame_format_of(step.frame_before) or frame_format)
            update["frame_before"] = dst
            renames.append((step.frame_before, dst))
        lines.append(step.model_copy(update=update).model_dump_json(exclude_defaults=True))
    # Old frames that are no longer referenced go away; kept ones move down (ascending: safe).
    keep_sources = {src for src, _ in renames} | ({final_src} if final_src else set())
    keep_sources |= {step.frame_after for step in kept if step.frame_after}  # kept as they are
    for frame in sorted((folder / FRAMES_DIR).iterdir()):
        rel = f"{FRAMES_DIR}/{frame.name}"
        if frame.is_file() and rel not in keep_sources:
            frame.unlink()
    final_tmp = None
    if final_src:
        final_tmp = folder / (final_src + ".final" + TEMP_SUFFIX)
        os.replace(folder / final_src, final_tmp)
    for src, dst in renames:
        if src != dst:
            os.replace(folder / src, folder / dst)
    if final_tmp is not None:
        os.replace(final_tmp, folder / frame_path(len(kept), frame_format))
    tmp = folder / (STEPS_FILE + TEMP_SUFFIX)
    tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    os.replace(tmp, folder / STEPS_FILE)
    labels = {**episode.meta.labels, "trimmed": {"from_steps": n, "kept": [start, end]}}
    meta = episode.meta.model_copy(update={"labels": labels, "stats": Stats(steps=len(kept), duration_s=episode.meta.stats.duration_s)})
    write_meta(folder, meta)
    return read_episode(folder)


def relabel(path: str | Path, *, success: bool | None = None, notes: str | None = None,
            instruction: str | None = None, labels: dict[str, Any] | None = None) -> Episode:
    """Change the verdict, notes, task text or labels of an episode."""
    folder = Path(path)
    episode = read_episode(folder, lenient=True)
    meta = episode.meta
    update: dict[str, Any] = {"labels": {**meta.labels, **(labels or {})}}
    if notes is not None:
        update["labels"]["notes"] = notes
    if success is not None:
        outcome = meta.outcome or Outcome()
        update["outcome"] = outcome.model_copy(update={"success": success})
    if instruction is not None:
        update["task"] = meta.task.model_copy(update={"instruction": instruction})
    write_meta(folder, meta.model_copy(update=update))
    return read_episode(folder, lenient=True)
