"""Finding the episodes to export and telling the usable ones from the corrupt ones.

An export never aborts on a bad episode: whatever cannot be exported whole (unreadable
episode.json, an unfinished ``recording``, a damaged step line, a missing or corrupt
frame, a duplicate episode id) becomes a :class:`Skipped` with the reason, and the export
goes on. Inside an annotation station's DATASET (:mod:`.stations`) an episode no reviewer
accepted is a :class:`Skipped` too, of kind ``rejected`` or ``unreviewed``; there an episode
id met twice is exported once when the copies are the same (:mod:`.duplicates`) and stops the
export when they are not, since neither can be chosen for the user. Frames are checked *before* an episode's first row is written, so a skipped episode
leaves nothing half-written behind: a PNG by its chunk CRCs and end marker (cheap, and any
flipped bit is caught); a lossless WebP by its RIFF size and a full decode (WebP carries no
checksum, so truncation and undecodable damage are caught, a flipped bit only when it
breaks decoding).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from PIL import Image

from gui_agent.episode import Episode, EpisodeMeta, read_episode, read_meta
from gui_agent.episode.finder import episodes_in
from gui_agent.episode.format import EPISODE_FILE, FrameFormat, frame_format_of
from gui_agent.errors import EpisodeFormatError, EpisodeNotFoundError, ExportError
from gui_agent.export.duplicates import episode_difference
from gui_agent.export.stations import is_station_dataset, review_decision

#: Why an episode is left out: damaged or unfinished (listed one by one), not accepted in a
#: station DATASET, or an identical copy of one exported from another folder (both counted).
SkipKind = Literal["damaged", "rejected", "unreviewed", "copy"]


@dataclass(frozen=True)
class Skipped:
    """An episode left out of the export, and why."""

    path: Path
    reason: str
    kind: SkipKind = "damaged"


@dataclass(frozen=True)
class EpisodeDirs:
    """The episode folders found, and the station DATASET each was found in (if any)."""

    dirs: list[Path]
    #: episode folder -> the nearest folder above it (up to the path given) holding a station's progress file
    stations: dict[Path, Path] = field(default_factory=dict)


def _station_above(candidate: Path, root: Path) -> Path | None:
    """The nearest station DATASET holding ``candidate``, looking no higher than ``root``."""
    for folder in candidate.parents:
        if is_station_dataset(folder):
            return folder
        if folder == root:
            return None
    return None


def find_episodes(paths: Iterable[str | Path]) -> EpisodeDirs:
    """:func:`find_episode_dirs`, with the station DATASET each folder was found in.

    Episodes are found by the one rule every command follows
    (:func:`gui_agent.episode.finder.episodes_in`). A path that is (or holds, at any depth)
    a station DATASET brings that DATASET's episodes in as the station's. An episode folder
    named directly is the user's own choice and is never the station's (this is how
    ``gui-agent annotate --list-accepted`` output is exported).

    Raises:
        ExportError: a path that does not exist, or holds no episode.
    """
    found: list[Path] = []
    stations: dict[Path, Path] = {}
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.name == EPISODE_FILE and path.is_file():
            path = path.parent
        try:
            candidates = episodes_in(path)
        except EpisodeNotFoundError as exc:
            raise ExportError(str(exc)) from None
        named = candidates == [path]
        for candidate in candidates:
            key = candidate.resolve()
            if key not in seen:
                seen.add(key)
                found.append(candidate)
                station = None if named else _station_above(candidate, path)
                if station is not None:
                    stations[candidate] = station
    return EpisodeDirs(found, stations)


def find_episode_dirs(paths: Iterable[str | Path]) -> list[Path]:
    """Episode folders named directly, or found (recursively) inside the given folders.

    Raises:
        ExportError: a path that does not exist, or a folder holding no episode.
    """
    return find_episodes(paths).dirs


def scan_metas(
    dirs: Iterable[Path], *, stations: Mapping[Path, Path] | None = None, include_unreviewed: bool = False
) -> Iterator[tuple[Path, EpisodeMeta | Skipped]]:
    """First pass: each folder's metadata (cheap), or why it is skipped.

    Args:
        stations: episode folder -> its station DATASET (:attr:`EpisodeDirs.stations`):
            of those, only the episodes a reviewer accepted are kept.
        include_unreviewed: keep a station's episodes no reviewer decided on, too.

    Raises:
        ExportError: one episode id in two folders, one of them a station's, that differ.
    """
    stations = stations or {}
    ids: dict[str, Path] = {}
    for path in dirs:
        try:
            meta = read_meta(path)
        except EpisodeFormatError as exc:
            yield path, Skipped(path, str(exc))
            continue
        if path in stations:  # before the status: an attempt left unfinished was never accepted either
            decision = review_decision(meta)
            if decision == "rejected" or (decision == "unreviewed" and not include_unreviewed):
                why = "rejected by a reviewer" if decision == "rejected" else "not reviewed"
                yield path, Skipped(path, f"{why} (station dataset {stations[path]})", kind=decision)
                continue
        if meta.status == "recording":
            yield path, Skipped(
                path, "unfinished (status: recording); repair it with 'gui-agent show EPISODE --recover' to export it"
            )
            continue
        first = ids.get(meta.episode_id)
        if first is not None and (path in stations or first in stations):
            difference = episode_difference(first, path)
            if difference is not None:
                raise ExportError(
                    f"episode id {meta.episode_id!r} is in {first} and in {path}, and they are not the same episode "
                    f"({difference}); export one of them (move the other out, or name folders one by one)"
                )
            yield path, Skipped(path, f"the same episode as {first}: exported once", kind="copy")
            continue
        if first is not None:
            yield path, Skipped(path, f"duplicate episode id {meta.episode_id!r} (also in {first})")
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
