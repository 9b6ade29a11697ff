"""``import_dataset``: an exported dataset (a folder or a hub repo) -> episode folders.

Frames come back as the very PNG or WebP bytes that were exported (the episode's
``frame_format`` follows the frames' names) and actions as the same canonical actions, so export -> import is bit-exact for both (typed text that export
scrubbed stays scrubbed, of course). Rows are streamed a few at a time, so importing needs
no more memory than exporting.

A dataset is untrusted input: episode ids and frame paths must be plain names inside the
output folder, every record goes through the trajectory format's own validation, and each
imported episode is read back strictly before it counts as imported. An episode that fails
any of this is reported and skipped; the rest are imported.
"""

from __future__ import annotations

import io
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import pyarrow.parquet as pq
from PIL import Image
from pydantic import ValidationError

from gui_agent.episode import read_episode
from gui_agent.episode.format import (
    FRAMES_DIR,
    STEPS_FILE,
    VIDEO_FILE,
    VIDEO_TIMESTAMPS_FILE,
    FrameFormat,
    frame_format_of,
    frame_path,
)
from gui_agent.episode.writer import FRAME_SAVE_OPTIONS, write_meta
from gui_agent.errors import ActionError, EpisodeFormatError, ExportError, ImportSkip
from gui_agent.export.layout import CARD_FILE, EPISODES, STEPS, split_glob
from gui_agent.export.rows import meta_from_row, step_from_row

#: Rows read at a time: a few screenshots' worth of memory.
BATCH_ROWS = 16
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_REPO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?$")


@dataclass
class ImportReport:
    """What an import wrote and what it left out."""

    out: Path
    episodes: list[Path] = field(default_factory=list)
    steps: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (episode id, reason)


def _config_files(root: Path, config: str) -> list[Path]:
    """The shards of one config, split by split in the card's order, each split's in index order."""
    card = root / CARD_FILE
    patterns: list[str] = []
    if card.is_file():
        from datasets.utils.metadata import MetadataConfigs
        from huggingface_hub import DatasetCard

        configs = MetadataConfigs.from_dataset_card_data(DatasetCard.load(card).data)
        data_files = configs.get(config, {}).get("data_files") or []
        for item in data_files if isinstance(data_files, list) else [data_files]:
            paths = item.get("path") if isinstance(item, dict) else item
            patterns.extend(paths if isinstance(paths, list) else [paths])
    if not patterns:
        patterns = [split_glob(config, "*")]
    files: list[Path] = []
    for pattern in patterns:
        for path in sorted(root.glob(pattern)):
            if path not in files:
                files.append(path)
    return files


def _rows(files: list[Path], columns: list[str] | None = None) -> Iterator[dict[str, Any]]:
    for file in files:
        parquet = pq.ParquetFile(file)
        wanted = None if columns is None else [c for c in columns if c in parquet.schema_arrow.names]
        for batch in parquet.iter_batches(batch_size=BATCH_ROWS, columns=wanted):
            yield from batch.to_pylist()


def _safe_rel(rel: str | None, fallback: str) -> str:
    """A frame path inside the episode folder (``frames/NNNNNN.png`` or ``.webp``), or ImportSkip."""
    rel = rel or fallback
    path = PurePosixPath(rel)
    if path.is_absolute() or ".." in path.parts or len(path.parts) != 2 or path.parts[0] != FRAMES_DIR or frame_format_of(rel) is None:
        raise ImportSkip(f"frame path {rel!r} is not a plain frames/NNNNNN.png (or .webp) inside the episode")
    return rel


def _is_format(data: bytes, frame_format: FrameFormat) -> bool:
    if frame_format == "png":
        return data.startswith(b"\x89PNG\r\n\x1a\n")
    return data[:4] == b"RIFF" and data[8:12] == b"WEBP"


def _frame_bytes(data: bytes, frame_format: FrameFormat) -> bytes:
    """The bytes as they are when they already are ``frame_format``; any other image (from a
    dataset not made by export) re-encoded losslessly into it, so name and content agree."""
    if _is_format(data, frame_format):
        return data
    try:
        with Image.open(io.BytesIO(data)) as image:
            out = io.BytesIO()
            image.convert("RGB").save(out, **FRAME_SAVE_OPTIONS[frame_format])  # type: ignore[arg-type]
            return out.getvalue()
    except Exception as exc:  # noqa: BLE001 -- PIL raises many types for undecodable data
        raise ImportSkip(f"an image cell is not a readable image ({exc.__class__.__name__})") from None


def _write_frame(folder: Path, rel: str, data: bytes) -> FrameFormat:
    """Write one imported frame (``rel`` already checked by :func:`_safe_rel`); returns its format."""
    frame_format = frame_format_of(rel)
    assert frame_format is not None
    (folder / rel).write_bytes(_frame_bytes(data, frame_format))
    return frame_format


class _Importer:
    def __init__(self, root: Path, out: Path, on_progress: Callable[[int, int], None] | None):
        self.root = root
        self.out = out
        self.on_progress = on_progress
        self.report = ImportReport(out=out)
        self.steps_files = _config_files(root, STEPS)
        self.episode_files = _config_files(root, EPISODES)
        if not self.episode_files or not self.steps_files:
            raise ExportError(
                f"{root}: has no '{STEPS}' and '{EPISODES}' configs; only datasets exported with "
                "--format steps can be turned back into episodes"
            )
        self.metas: dict[str, dict[str, Any]] = {}
        self.frame_formats: dict[str, FrameFormat] = {}  # per episode, from its first frame's name
        self.failed: dict[str, str] = {}
        self.started: dict[str, Path] = {}

    def run(self) -> ImportReport:
        light = [c for c in pq.ParquetFile(self.episode_files[0]).schema_arrow.names if c not in ("final_image", "video")]
        for row in _rows(self.episode_files, light):
            episode_id = row["episode_id"]
            if episode_id in self.metas:
                self.failed[episode_id] = "appears twice in the episodes config"
            self.metas[episode_id] = row
        self._steps()
        self._finish()
        return self.report

    def _fail(self, episode_id: str, reason: str) -> None:
        if episode_id not in self.failed:
            self.failed[episode_id] = reason
        folder = self.started.pop(episode_id, None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def _start(self, episode_id: str) -> Path:
        if not _SAFE_ID.match(episode_id or ""):
            raise ImportSkip(f"episode id {episode_id!r} is not a plain folder name")
        if episode_id not in self.metas:
            raise ImportSkip("has steps but no row in the episodes config")
        folder = self.out / episode_id
        if folder.exists():
            raise ImportSkip(f"{folder} already exists; import into another folder (nothing is overwritten)")
        try:
            meta = meta_from_row(self.metas[episode_id])
        except (ValidationError, ValueError) as exc:
            raise ImportSkip(f"its episodes row is not valid metadata: {exc}") from None
        (folder / FRAMES_DIR).mkdir(parents=True)
        self.started[episode_id] = folder
        # Like the writer: metadata first, marked unfinished until everything is on disk.
        write_meta(folder, meta.model_copy(update={"status": "recording"}))
        (folder / STEPS_FILE).touch()
        return folder

    def _steps(self) -> None:
        current: str | None = None
        done_ids: set[str] = set()
        handle = None
        try:
            for row in _rows(self.steps_files):
                episode_id = row["episode_id"]
                if episode_id != current:
                    if handle is not None:
                        handle.close()
                        handle = None
                    if current is not None:
                        done_ids.add(current)
                    current = episode_id
                    if episode_id in done_ids:
                        self._fail(episode_id, "its steps are not contiguous in the steps config")
                        continue
                    if episode_id in self.failed:
                        continue
                    try:
                        folder = self._start(episode_id)
                    except ImportSkip as exc:
                        self._fail(episode_id, str(exc))
                        continue
                    # Open across rows (an episode's steps span batches and shards); closed in finally.
                    handle = open(folder / STEPS_FILE, "a", encoding="utf-8")  # noqa: SIM115
                if handle is None or episode_id in self.failed:
                    continue
                try:
                    self._step(episode_id, self.started[episode_id], row, handle)
                except ImportSkip as exc:
                    handle.close()
                    handle = None
                    self._fail(episode_id, str(exc))
        finally:
            if handle is not None:
                handle.close()

    def _step(self, episode_id: str, folder: Path, row: dict[str, Any], handle: Any) -> None:
        for column in ("image", "image_after"):
            cell = row.get(column)
            if cell is not None and cell.get("bytes") is not None:
                known = self.frame_formats.get(episode_id, "png")
                fallback = frame_path(row["step_index"], known) if column == "image" else f"{FRAMES_DIR}/{row['step_index']:06d}_after.{known}"
                rel = _safe_rel(cell.get("path"), fallback)
                written = _write_frame(folder, rel, cell["bytes"])
                if column == "image":
                    self.frame_formats.setdefault(episode_id, written)
                cell["path"] = rel
        try:
            record = step_from_row(row)
        except (ValidationError, ActionError, ValueError, KeyError, TypeError) as exc:
            raise ImportSkip(f"step {row.get('step_index')}: not a valid step ({exc})") from None
        handle.write(record.model_dump_json(exclude_defaults=True) + "\n")
        self.report.steps += 1

    def _finish(self) -> None:
        columns = ["episode_id", "final_image", "video", "video_timestamps"]
        total = len(self.metas)
        for done, row in enumerate(_rows(self.episode_files, columns), start=1):
            episode_id = row["episode_id"]
            try:
                if episode_id in self.failed:
                    continue
                folder = self.started.get(episode_id) or self._start(episode_id)  # an episode with no steps
                meta = meta_from_row(self.metas[episode_id])
                frame_format = self.frame_formats.get(episode_id)
                final = row.get("final_image")
                if final is not None and final.get("bytes") is not None:
                    rel = _safe_rel(final.get("path"), frame_path(meta.stats.steps, frame_format or "png"))
                    frame_format = frame_format or frame_format_of(rel)
                    _write_frame(folder, rel, final["bytes"])
                # The episodes table has no frame_format column: the frames' names tell it.
                meta = meta.model_copy(update={"frame_format": frame_format or meta.frame_format})
                video = row.get("video")
                if video is not None and video.get("bytes") is not None:
                    (folder / VIDEO_FILE).write_bytes(video["bytes"])
                if row.get("video_timestamps") is not None:
                    (folder / VIDEO_TIMESTAMPS_FILE).write_text(row["video_timestamps"], encoding="utf-8")
                write_meta(folder, meta)
                read_episode(folder)  # strict: what was imported must read back cleanly
            except ImportSkip as exc:
                self._fail(episode_id, str(exc))
            except EpisodeFormatError as exc:
                self._fail(episode_id, f"does not read back as a valid episode: {exc}")
            else:
                self.report.episodes.append(folder)
                self.started.pop(episode_id, None)
            if self.on_progress is not None:
                self.on_progress(done, total)
        for episode_id, folder in list(self.started.items()):  # steps without an episodes row
            self._fail(episode_id, "has steps but no row in the episodes config")
        self.report.skipped = sorted(self.failed.items())


def resolve_source(
    source: str | Path, *, endpoint: str | None = None, token: str | None = None, revision: str | None = None, cache_dir: str | Path | None = None
) -> Path:
    """A local dataset folder as it is, or a hub repo id downloaded (only what import reads).

    Raises:
        ExportError: neither a folder nor a reachable dataset repo.
    """
    path = Path(source)
    if path.exists():
        if not path.is_dir():
            raise ExportError(f"{path}: not a dataset folder (expected a folder with {CARD_FILE} and data/)")
        return path
    text = str(source)
    if not _REPO_ID.match(text):
        raise ExportError(f"{text}: no such folder, and not a hub repo id (owner/name)")
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import (
        HfHubHTTPError,
        LocalEntryNotFoundError,
        RepositoryNotFoundError,
    )
    from huggingface_hub.utils import disable_progress_bars

    from gui_agent.export.push import redact

    try:
        with disable_progress_bars():
            local = snapshot_download(
                text,
                repo_type="dataset",
                revision=revision,
                endpoint=endpoint,
                token=token,
                cache_dir=str(cache_dir) if cache_dir is not None else None,
                allow_patterns=[CARD_FILE, split_glob(STEPS, "*"), split_glob(EPISODES, "*")],
            )
    except RepositoryNotFoundError:
        raise ExportError(f"{text}: no such dataset on the hub, or it is private and no token allows reading it") from None
    except LocalEntryNotFoundError as exc:
        raise ExportError(f"{text}: cannot reach the hub and it is not in the local cache ({redact(str(exc), token)})") from None
    except (HfHubHTTPError, OSError) as exc:
        raise ExportError(f"{text}: download failed: {redact(str(exc), token)}") from None
    return Path(local)


def import_dataset(
    source: str | Path,
    out: str | Path,
    *,
    endpoint: str | None = None,
    token: str | None = None,
    revision: str | None = None,
    cache_dir: str | Path | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> ImportReport:
    """Turn an exported dataset (folder or hub repo id) back into episode folders under ``out``.

    Raises:
        ExportError: the source is missing, unreachable, or has no steps/episodes configs.
    """
    root = resolve_source(source, endpoint=endpoint, token=token, revision=revision, cache_dir=cache_dir)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    return _Importer(root, out, on_progress).run()
