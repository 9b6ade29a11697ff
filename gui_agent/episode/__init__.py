"""The trajectory format: :mod:`.format` defines it, :mod:`.writer` writes it,
:mod:`.reader` reads and validates it, :mod:`.recover` repairs a crashed recording,
:mod:`.edit` edits a finished one and keeps its original."""

from typing import Any

from gui_agent.episode.format import (
    FORMAT_VERSION,
    ActorInfo,
    EnvInfo,
    EpisodeMeta,
    FrameFormat,
    Outcome,
    ScreenSize,
    StepRecord,
    TaskInfo,
    Usage,
)
from gui_agent.episode.reader import Episode, read_episode, read_meta
from gui_agent.episode.recover import recover
from gui_agent.episode.writer import EpisodeWriter

#: Names re-exported from :mod:`.edit`, imported on first use: most processes that read or
#: write episodes never edit one, and the edit module (its pydantic models) costs import time.
_EDIT_NAMES = frozenset({"EditError", "apply_edit", "parse_edit", "read_edits", "reset", "undo"})


def __getattr__(name: str) -> Any:
    if name in _EDIT_NAMES:
        from gui_agent.episode import edit

        return getattr(edit, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FORMAT_VERSION", "ActorInfo", "EditError", "EnvInfo", "Episode", "EpisodeMeta", "EpisodeWriter", "FrameFormat", "Outcome",
    "ScreenSize", "StepRecord", "TaskInfo", "Usage", "apply_edit", "parse_edit", "read_edits",
    "read_episode", "read_meta", "recover", "reset", "undo",
]
