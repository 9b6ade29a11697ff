"""Continuous screen video (``screen.mp4``) as a ``datasets.Video`` column.

``datasets`` decodes ``Video`` cells with torchcodec; a dataset whose video nobody can
decode is a trap, so ``--video`` is only offered where that decoder is installed. The
file itself is embedded byte for byte (no decoding at export), with its frame -> timestamp
map beside it.
"""

from __future__ import annotations

import importlib.util

from gui_agent.errors import ExportError


def video_decoder_available() -> bool:
    """True where ``datasets`` can decode a ``Video`` cell (torchcodec is installed)."""
    return importlib.util.find_spec("torchcodec") is not None


def require_video_decoder() -> None:
    """Raise a clear error unless the video decoder is installed."""
    if not video_decoder_available():
        raise ExportError(
            "--video needs the video decoder datasets uses (torchcodec, with FFmpeg); it is not installed. "
            "Install it (pip install torchcodec; apt-get install ffmpeg) or export without --video"
        )
