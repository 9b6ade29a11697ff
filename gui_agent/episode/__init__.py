"""The trajectory format: :mod:`.format` defines it, :mod:`.writer` writes it,
:mod:`.reader` reads and validates it, :mod:`.recover` repairs a crashed recording."""

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
    "FORMAT_VERSION", "ActorInfo", "EnvInfo", "Episode", "EpisodeMeta", "EpisodeWriter", "FrameFormat", "Outcome",
    "ScreenSize", "StepRecord", "TaskInfo", "Usage", "read_episode", "read_meta", "recover",
]
