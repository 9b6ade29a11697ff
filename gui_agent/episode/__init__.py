"""The trajectory format: :mod:`.format` defines it, :mod:`.writer` writes it,
:mod:`.reader` reads and validates it, :mod:`.recover` repairs a crashed recording,
:mod:`.edit` edits a finished one and keeps its original."""

from gui_agent.episode.edit import EditError, apply_edit, parse_edit, read_edits, reset, undo
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

__all__ = [
    "FORMAT_VERSION", "ActorInfo", "EditError", "EnvInfo", "Episode", "EpisodeMeta", "EpisodeWriter", "FrameFormat", "Outcome",
    "ScreenSize", "StepRecord", "TaskInfo", "Usage", "apply_edit", "parse_edit", "read_edits",
    "read_episode", "read_meta", "recover", "reset", "undo",
]
