"""Continuous screen video (``screen.mp4``) as a ``datasets.Video`` column.

``datasets`` decodes ``Video`` cells with torchcodec (over the system's FFmpeg); a dataset
whose video nobody can decode is a trap, so ``--video`` is only offered where that decoder
loads. Each file is embedded byte for byte, with its frame -> time map
(``screen_timestamps.json``) beside it, but only after torchcodec opened it and decoded
its first and last frames: a recording cut off mid-fragment (a crash, a full disk) fails
in torchcodec as a whole, so such a video is left out of its row, with the reason, and
the episode's steps and frames are exported as usual.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from gui_agent.episode.format import VIDEO_FILE, VIDEO_TIMESTAMPS_FILE
from gui_agent.errors import ExportError


def video_decoder_problem() -> str | None:
    """Why ``datasets`` cannot decode a ``Video`` cell here, or None when it can.

    Loads torchcodec the way ``datasets`` will (which loads torch and FFmpeg's shared
    libraries): an installed torchcodec without its FFmpeg libraries fails only on loading.
    Called only for ``--video``, so a plain export never imports torch.
    """
    try:
        from torchcodec.decoders import VideoDecoder  # noqa: F401
    except ImportError as exc:
        return f"torchcodec is not installed ({exc})"
    except (OSError, RuntimeError) as exc:  # torchcodec found no FFmpeg it can use
        return f"torchcodec cannot load FFmpeg's libraries ({str(exc).strip().splitlines()[0]})"
    return None


def require_video_decoder() -> None:
    """Raise a clear error unless ``datasets`` can decode video here."""
    problem = video_decoder_problem()
    if problem is not None:
        raise ExportError(
            f"--video needs the video decoder datasets uses: {problem}. Install it with "
            "pip install -e '.[models]' and the FFmpeg libraries with scripts/setup.sh "
            "(libavcodec59 and friends), or export without --video"
        )


@dataclass(frozen=True)
class VideoCells:
    """The ``video`` and ``video_timestamps`` cells of one episode row, and what was left out."""

    video: dict[str, Any] | None
    timestamps: str | None
    frames: int = 0
    #: Why the video (or only its time map) is not in the row; None when all went in.
    problem: str | None = None

    def cells(self) -> dict[str, Any]:
        return {"video": self.video, "video_timestamps": self.timestamps}


def decodable_frames(data: bytes) -> int:
    """How many frames torchcodec finds in an MP4; raise where it cannot decode the file.

    The check uses the decoder ``datasets`` will use, over the same bytes, because decoders
    differ where it matters: a recording cut mid-fragment ends in a short packet that PyAV
    quietly drops but torchcodec refuses, failing the whole cell. Opening scans every
    packet's header; decoding the first frame and the last (from its keyframe on) reaches
    the packets a cut damages, at a cost of at most two keyframe intervals whatever the
    video's length (H.264 decoders conceal damage inside a stream rather than fail on it).
    """
    from torchcodec.decoders import VideoDecoder

    decoder = VideoDecoder(data, num_ffmpeg_threads=1)
    frames = len(decoder)
    if frames:
        decoder[0]
        decoder[frames - 1]
    return frames


def _first_line(exc: Exception) -> str:
    """The gist of a decoder error: torchcodec prefixes its C++ source location, FFmpeg's reason is last."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text.rsplit(".cpp:", 1)[-1].split(", ", 1)[-1] if ".cpp:" in text else text


def _timestamps_problem(text: str) -> str | None:
    """Why a ``screen_timestamps.json`` is not the recorder's ``{"fps": ..., "t": [...]}``."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        return f"invalid JSON ({exc})"
    if not isinstance(data, dict) or not isinstance(data.get("t"), list):
        return 'not {"fps": ..., "t": [...]}'
    times = data["t"]
    if not all(isinstance(t, (int, float)) and not isinstance(t, bool) for t in times):
        return "a time in 't' is not a number"
    if any(b < a for a, b in pairwise(times)):
        return "the times in 't' go backwards"
    return None


def video_cells(folder: Path) -> VideoCells:
    """Check one episode's video and time map and build its cells.

    No ``screen.mp4``: empty cells, no problem (the video is optional). A video that does
    not decode to its end: empty cells and the reason. A decodable video without a usable
    time map: the video alone and the reason. The frame count and the map's length may
    differ by up to a fragment after a crash; frame ``i`` has time ``t[i]`` for the
    frames both cover.
    """
    video = folder / VIDEO_FILE
    stamps = folder / VIDEO_TIMESTAMPS_FILE
    if not video.is_file():
        return VideoCells(None, None)
    data = video.read_bytes()
    if not data:
        return VideoCells(None, None, problem=f"{VIDEO_FILE} is empty; exported without video")
    try:
        frames = decodable_frames(data)
    except Exception as exc:  # noqa: BLE001 - torchcodec raises several kinds; all mean "not decodable"
        return VideoCells(None, None, problem=f"{VIDEO_FILE} does not decode ({_first_line(exc)}); exported without video")
    if frames == 0:
        return VideoCells(None, None, problem=f"{VIDEO_FILE} holds no frames; exported without video")
    cell = {"bytes": data, "path": VIDEO_FILE}
    if not stamps.is_file():
        return VideoCells(cell, None, frames, problem=f"{VIDEO_TIMESTAMPS_FILE} is missing; video exported without its time map")
    text = stamps.read_text(encoding="utf-8", errors="replace")
    problem = _timestamps_problem(text)
    if problem is not None:
        return VideoCells(cell, None, frames, problem=f"{VIDEO_TIMESTAMPS_FILE}: {problem}; video exported without its time map")
    return VideoCells(cell, text, frames)
