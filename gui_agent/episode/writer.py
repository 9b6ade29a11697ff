"""Writing an episode so that a crash at any moment loses at most the last second.

The order of writes is what makes it safe:

1. ``episode.json`` is written (atomically) with ``status: recording`` before any step.
2. For each step, its frame is written to a temp file and renamed into place, *then* the
   step's line is appended to ``steps.jsonl`` and flushed to the OS. A line therefore
   never names a frame that is not complete on disk.
3. ``os.fsync`` runs at most once per :data:`FSYNC_INTERVAL_S`, bounding what a power cut
   can take; a killed process loses nothing that was flushed.
4. ``finalize()`` rewrites ``episode.json`` atomically with ``status: complete``.

An episode left with ``status: recording`` is turned back into a readable one by
:func:`gui_agent.episode.recover.recover`.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from gui_agent.actions import Action, action_to_dict
from gui_agent.episode.format import (
    DEFAULT_FRAME_FORMAT,
    EPISODE_FILE,
    FRAMES_DIR,
    STEPS_FILE,
    TEMP_SUFFIX,
    ActorInfo,
    EnvInfo,
    EpisodeMeta,
    FrameFormat,
    Outcome,
    Stats,
    StepRecord,
    TaskInfo,
    Usage,
    frame_format_of,
    frame_path,
)
from gui_agent.episode.reader import read_episode

#: At most this many seconds of flushed steps can be lost to a power cut.
FSYNC_INTERVAL_S = 1.0
#: PNG compression level for keyframes: 1 is several times faster than the default and a little larger.
PNG_COMPRESS_LEVEL = 1
#: Pillow's save options per frame format. WebP is lossless; ``method=1, quality=0`` (the
#: least effort) costs about what PNG level 1 does and gives much smaller files; more
#: effort (``quality=100``) saves a little more at many times the CPU (docs/benchmarks.md).
FRAME_SAVE_OPTIONS: dict[str, dict[str, object]] = {
    "png": {"format": "PNG", "compress_level": PNG_COMPRESS_LEVEL},
    "webp": {"format": "WEBP", "lossless": True, "method": 1, "quality": 0},
}


def write_meta(folder: Path, meta: EpisodeMeta) -> None:
    """(Re)write ``folder/episode.json`` atomically: the one way every module writes it.

    ``frame_format`` is left out when it is the default (PNG), so PNG episodes stay readable
    by readers that predate the field (they reject unknown keys).
    """
    data = meta.model_dump(mode="json")
    if data.get("frame_format") == DEFAULT_FRAME_FORMAT:
        del data["frame_format"]
    write_json_atomic(Path(folder) / EPISODE_FILE, data)


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON via a temp file and rename, so readers see the old or the new file, never half."""
    tmp = path.with_name(path.name + TEMP_SUFFIX)
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2, ensure_ascii=False)
        handle.write("\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def write_frame_atomic(path: Path, pixels: np.ndarray) -> None:
    """Write an RGB frame via temp file + rename (a half-written frame never exists).

    The encoding follows the path's suffix (``.png`` or ``.webp``, see
    :data:`~gui_agent.episode.format.FRAME_FORMATS`); both are lossless.
    """
    frame_format = frame_format_of(path.name)
    if frame_format is None:
        raise ValueError(f"{path.name}: a frame file must end in .png or .webp")
    tmp = path.with_name(path.name + TEMP_SUFFIX)
    Image.fromarray(np.ascontiguousarray(pixels[..., :3])).save(tmp, **FRAME_SAVE_OPTIONS[frame_format])  # type: ignore[arg-type]
    os.replace(tmp, path)


def new_episode_id(prefix: str = "") -> str:
    """A sortable, unique folder name: UTC time plus a random suffix."""
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S")
    safe_prefix = "".join(c if c.isalnum() or c in "-_." else "-" for c in prefix)
    return f"{safe_prefix + '_' if safe_prefix else ''}{stamp}_{uuid.uuid4().hex[:6]}"


class EpisodeWriter:
    """Appends steps to one episode folder; use :meth:`create`, then :meth:`add_step`, then :meth:`finalize`.

    Used as a context manager, an exception leaves the episode as ``recording`` (so it is
    recoverable, and visibly unfinished) and closes the files.
    """

    def __init__(self, path: Path, meta: EpisodeMeta):
        self.path = path
        self.meta = meta
        self._steps_file = open(path / STEPS_FILE, "a", encoding="utf-8")
        self._start = time.monotonic()
        self._last_fsync = self._start
        self._n_steps = 0
        self._closed = False

    @classmethod
    def create(
        cls,
        root: str | Path,
        *,
        task: TaskInfo,
        env: EnvInfo,
        actor: ActorInfo,
        episode_id: str | None = None,
        labels: dict[str, Any] | None = None,
        frame_format: FrameFormat = "png",
    ) -> "EpisodeWriter":
        """Create ``root/<episode_id>/`` and write its ``recording`` metadata.

        ``frame_format`` is how frames are stored (both lossless): ``png`` (the default,
        what every tool reads) or ``webp`` (much smaller screens; the recorder's default).

        Raises:
            FileExistsError: the episode folder already exists (never overwrite data).
        """
        episode_id = episode_id or new_episode_id(task.id.replace("/", "-"))
        path = Path(root) / episode_id
        meta = EpisodeMeta(  # validated before anything is created
            episode_id=episode_id,
            created_at=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            task=task,
            env=env,
            actor=actor,
            labels=dict(labels or {}),
            frame_format=frame_format,
        )
        path.mkdir(parents=True, exist_ok=False)
        (path / FRAMES_DIR).mkdir()
        write_meta(path, meta)
        return cls(path, meta)

    @classmethod
    def reopen(cls, path: str | Path) -> "EpisodeWriter":
        """Append further steps to an existing episode whose steps read cleanly.

        Used after :func:`gui_agent.episode.recover.recover`, when steps rebuilt from raw
        events are added behind the repaired ones. Call :meth:`close` (or
        :meth:`finalize`) when done.
        """
        episode = read_episode(path)
        writer = cls(Path(path), episode.meta)
        writer._n_steps = len(episode.steps)
        return writer

    def close(self) -> None:
        """Flush and close the steps file without changing episode.json."""
        self._close_steps_file()

    @property
    def n_steps(self) -> int:
        return self._n_steps

    def elapsed(self) -> float:
        """Seconds since the writer was created, on the monotonic clock steps use."""
        return time.monotonic() - self._start

    def add_step(
        self,
        action: Action,
        *,
        frame_before: np.ndarray | None = None,
        t: float | None = None,
        target: dict[str, Any] | None = None,
        thought: str | None = None,
        usage: Usage | None = None,
        reward: float | None = None,
        error: str | None = None,
        timings: dict[str, float] | None = None,
        events: tuple[int, int] | None = None,
        info: dict[str, Any] | None = None,
    ) -> StepRecord:
        """Append one step: its frame first, then its line, flushed."""
        if self._closed:
            raise RuntimeError(f"episode {self.path} is already finalized")
        index = self._n_steps
        frame_rel = None
        if frame_before is not None:
            frame_rel = frame_path(index, self.meta.frame_format)
            write_frame_atomic(self.path / frame_rel, frame_before)
        record = StepRecord(
            index=index,
            t=round(self.elapsed() if t is None else t, 6),
            action=action_to_dict(action),
            frame_before=frame_rel,
            target=target,
            thought=thought,
            usage=usage,
            reward=reward,
            error=error,
            timings=dict(timings or {}),
            events=events,
            info=dict(info or {}),
        )
        self._append_line(record.model_dump_json(exclude_defaults=True))
        self._n_steps += 1
        return record

    def add_final_frame(self, pixels: np.ndarray) -> str:
        """Write the screen after the last step (frame index == number of steps)."""
        rel = frame_path(self._n_steps, self.meta.frame_format)
        write_frame_atomic(self.path / rel, pixels)
        return rel

    def finalize(self, outcome: Outcome | None = None, *, labels: dict[str, Any] | None = None) -> EpisodeMeta:
        """Close the steps file and mark the episode complete with its outcome."""
        self._close_steps_file()
        self.meta = self.meta.model_copy(
            update={
                "status": "complete",
                "outcome": outcome,
                "labels": {**self.meta.labels, **(labels or {})},
                "stats": Stats(steps=self._n_steps, duration_s=round(self.elapsed(), 3)),
            }
        )
        write_meta(self.path, self.meta)
        return self.meta

    def _append_line(self, line: str) -> None:
        self._steps_file.write(line + "\n")
        self._steps_file.flush()
        now = time.monotonic()
        if now - self._last_fsync >= FSYNC_INTERVAL_S:
            os.fsync(self._steps_file.fileno())
            self._last_fsync = now

    def _close_steps_file(self) -> None:
        if not self._closed:
            self._steps_file.flush()
            os.fsync(self._steps_file.fileno())
            self._steps_file.close()
            self._closed = True

    def __enter__(self) -> "EpisodeWriter":
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        # On error the episode stays "recording": visibly unfinished and recoverable.
        self._close_steps_file()
