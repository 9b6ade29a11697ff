"""Finding the episodes to export and telling the usable ones from the corrupt ones.

An export never aborts on a bad episode: whatever cannot be exported whole (unreadable
episode.json, an unfinished ``recording``, a damaged step line, a missing or corrupt
frame, a duplicate episode id) becomes a :class:`Skipped` with the reason, and the export
goes on. Frames are checked *before* an episode's first row is written, so a skipped episode
leaves nothing half-written behind: a PNG by its chunk CRCs and end marker (cheap, and any
flipped bit is caught); a lossless WebP by its RIFF size and a full decode (WebP carries no
checksum, so truncation and undecodable damage are caught, a flipped bit only when it
breaks decoding).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from gui_agent.episode import Episode, EpisodeMeta, read_episode, read_meta
from gui_agent.episode.format import EPISODE_FILE, FrameFormat, frame_format_of
from gui_agent.errors import EpisodeFormatError, ExportError


@dataclass(frozen=True)
class Skipped:
    """An episode left out of the export, and why."""

    path: Path
    reason: str


def find_episode_dirs(paths: Iterable[str | Path]) -> list[Path]:
    """Episode folders named directly, or found (recursively) inside the given folders.

    Raises:
        ExportError: a path that does not exist, or a folder holding no episode.
    """
    found: list[Path] = []
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise ExportError(f"{path}: no such file or folder")
        if path.is_file() and path.name == EPISODE_FILE:
            path = path.parent
        if not path.is_dir():
            raise ExportError(f"{path}: not an episode folder nor a folder of episodes")
        if (path / EPISODE_FILE).is_file():
            candidates = [path]
        else:
            candidates = sorted(p.parent for p in path.rglob(EPISODE_FILE))
            if not candidates:
                raise ExportError(f"{path}: holds no episode (no {EPISODE_FILE} in it or below it)")
        for candidate in candidates:
            key = candidate.resolve()
            if key not in seen:
                seen.add(key)
                found.append(candidate)
    return found


def scan_metas(dirs: Iterable[Path]) -> Iterator[tuple[Path, EpisodeMeta | Skipped]]:
    """First pass: each folder's metadata (cheap), or why it is skipped."""
    ids: dict[str, Path] = {}
    for path in dirs:
        try:
            meta = read_meta(path)
        except EpisodeFormatError as exc:
            yield path, Skipped(path, str(exc))
            continue
        if meta.status == "recording":
            yield path, Skipped(
                path, "unfinished (status: recording); repair it with 'gui-agent show EPISODE --recover' to export it"
            )
            continue
        if meta.episode_id in ids:
            yield path, Skipped(path, f"duplicate episode id {meta.episode_id!r} (also in {ids[meta.episode_id]})")
            continue
        ids[meta.episode_id] = path
        yield path, meta


def check_frame(data: bytes, frame_format: FrameFormat = "png") -> str | None:
    """Why these frame bytes are not a sound image of ``frame_format``, or ``None`` when they are."""
    name = frame_format.upper() if frame_format == "png" else "WebP"
    if frame_format == "webp" and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        declared = int.from_bytes(data[4:8], "little") + 8
        if declared != len(data):
            return f"corrupt WebP (the file holds {len(data)} bytes, its header says {declared}: truncated?)"
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != frame_format.upper():
                return f"not a {name} ({image.format})"
            if frame_format == "png":
                image.verify()
            else:
                image.load()  # no checksums to verify: decoding is the check
    except Exception as exc:  # noqa: BLE001 -- PIL raises many types for damaged files
        return f"corrupt {name} ({exc.__class__.__name__}: {exc})"
    return None


def frame_paths(episode: Episode) -> list[str]:
    """Every frame an episode refers to, in order."""
    rels: list[str] = []
    for step in episode.steps:
        rels.extend(rel for rel in (step.frame_before, step.frame_after) if rel is not None)
    if episode.final_frame is not None:
        rels.append(episode.final_frame)
    return rels


def load_episode(path: Path) -> Episode | Skipped:
    """Second pass: the whole episode, frames checked, or why it is skipped."""
    try:
        episode = read_episode(path, lenient=True)
    except EpisodeFormatError as exc:
        return Skipped(path, str(exc))
    if episode.problems:
        more = f" (and {len(episode.problems) - 1} more)" if len(episode.problems) > 1 else ""
        return Skipped(path, f"{episode.problems[0]}{more}")
    for rel in frame_paths(episode):
        try:
            problem = check_frame((path / rel).read_bytes(), frame_format_of(rel) or episode.meta.frame_format)
        except OSError as exc:
            problem = f"unreadable ({exc.strerror})"
        if problem is not None:
            return Skipped(path, f"{path / rel}: {problem}")
    return episode
