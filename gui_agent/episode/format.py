"""The trajectory format: folder layout, version and the schema of every record.

This is the single definition the recorder, the runner, replay, models and export share.
Paths are templates here and nowhere else; the writer and reader only use these names.

An episode is a folder::

    <episode_id>/
      episode.json   metadata, rewritten atomically (temp file + rename)
      steps.jsonl    one StepRecord per line, appended and flushed as each step happens
      events.jsonl   raw input events (recorder only), linked to steps by index ranges
      frames/        frames/000007.png is the screen just before step 7; the frame after
                     the last step has the index len(steps). The files are lossless PNG or
                     lossless WebP, as episode.json's ``frame_format`` says (PNG when absent)
      screen.mp4     optional continuous video (with screen_timestamps.json)
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: Bump when a reader of the previous version could misread new files.
#: 2: a step's usage may carry cached tokens, retries and cost; an outcome may end in
#: ``service_error``. Version 1 files read as they are.
FORMAT_VERSION = 2

EPISODE_FILE = "episode.json"
STEPS_FILE = "steps.jsonl"
EVENTS_FILE = "events.jsonl"
FRAMES_DIR = "frames"
VIDEO_FILE = "screen.mp4"
VIDEO_TIMESTAMPS_FILE = "screen_timestamps.json"
FRAME_TEMPLATE = "frames/{index:06d}.{format}"
#: Files being written end with this suffix until they are renamed into place.
TEMP_SUFFIX = ".tmp"

Status = Literal["recording", "complete", "recovered"]

#: How an episode's frames are stored; both are lossless (pixels come back exactly).
#: ``png`` is what every reader of images knows; ``webp`` (lossless) is much smaller for
#: screens at about the same encode cost, which is what keeps a recorder light on disk.
FrameFormat = Literal["png", "webp"]
FRAME_FORMATS: tuple[FrameFormat, ...] = ("png", "webp")
#: The frame format of episodes whose episode.json does not name one (all written before it could).
DEFAULT_FRAME_FORMAT: FrameFormat = "png"


def frame_path(index: int, frame_format: FrameFormat = DEFAULT_FRAME_FORMAT) -> str:
    """Relative path of the frame seen before step ``index`` (``len(steps)``: the last)."""
    if frame_format not in FRAME_FORMATS:
        raise ValueError(f"unknown frame format {frame_format!r}; expected one of {', '.join(FRAME_FORMATS)}")
    return FRAME_TEMPLATE.format(index=index, format=frame_format)


def frame_format_of(relative: str) -> FrameFormat | None:
    """The frame format a frame path's suffix names (``frames/000003.webp`` -> ``webp``), or None."""
    suffix = relative.rpartition(".")[2].lower() if "." in relative.rpartition("/")[2] else ""
    return suffix if suffix in FRAME_FORMATS else None  # type: ignore[return-value]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TaskInfo(_Record):
    """Which task the episode attempts."""

    id: str
    instruction: str
    source: str | None = Field(None, description="where the task came from: a task file, 'miniwob', 'osworld', a person")


class ScreenSize(_Record):
    width: int = Field(gt=0)
    height: int = Field(gt=0)


class EnvInfo(_Record):
    """Where the episode happened. Coordinates in actions are pixels of ``screen``."""

    kind: Literal["browser", "desktop"]
    app: str | None = None
    screen: ScreenSize
    scale: float = Field(1.0, gt=0, description="device pixels per observation pixel")


class ActorInfo(_Record):
    """Who or what acted: an annotator or a policy."""

    type: Literal["human", "policy"]
    name: str


class Outcome(_Record):
    """How the episode ended and what the evaluator said."""

    success: bool | None = None
    reward: float | None = None
    #: ``env_error``: the environment broke; ``service_error``: the model service the policy
    #: calls stayed down. Neither says anything about the agent, and neither is scored.
    termination: Literal["done", "truncated", "env_error", "service_error", "agent_error", "interrupted", "stopped"] | None = None
    reason: str | None = None
    detail: Any = None


class Stats(_Record):
    steps: int = 0
    duration_s: float = 0.0


class EpisodeMeta(_Record):
    """The content of episode.json."""

    format_version: int = FORMAT_VERSION
    episode_id: str
    created_at: str
    task: TaskInfo
    env: EnvInfo
    actor: ActorInfo
    status: Status = "recording"
    frame_format: FrameFormat = Field(DEFAULT_FRAME_FORMAT, description="how the files in frames/ are encoded (both lossless)")
    outcome: Outcome | None = None
    labels: dict[str, Any] = Field(default_factory=dict, description="the keys the project writes are declared in "
                                   "gui_agent/episode/labels.py; any other key is kept as it is")
    stats: Stats = Field(default_factory=Stats)


class Usage(_Record):
    """What a model call cost, when the policy reports it.

    ``input_tokens`` counts every prompt token, ``cached_tokens`` the part of them the
    service read from its prompt cache (billed at a lower price). ``retries`` is how many
    failed requests came before the one that answered. ``cost_usd`` is None when the
    price of the model is not known (a self-hosted server costs what its GPU costs).
    """

    input_tokens: int = 0
    output_tokens: int = 0
    images: int = 0
    latency_s: float | None = None
    cached_tokens: int = 0
    retries: int = 0
    cost_usd: float | None = None


class StepRecord(_Record):
    """One line of steps.jsonl: an action and what surrounded it.

    ``action`` is the canonical action as :func:`gui_agent.actions.action_to_dict` writes it;
    ``t`` is seconds since the episode started, on a monotonic clock.
    """

    index: int = Field(ge=0)
    t: float = Field(ge=0)
    action: dict[str, Any]
    frame_before: str | None = None
    frame_after: str | None = None
    target: dict[str, Any] | None = None
    thought: str | None = None
    usage: Usage | None = None
    reward: float | None = None
    error: str | None = Field(None, description="the action's last_action_error, if it failed")
    timings: dict[str, float] = Field(default_factory=dict)
    events: tuple[int, int] | None = Field(None, description="[start, end) line range in events.jsonl")
    info: dict[str, Any] = Field(default_factory=dict)
