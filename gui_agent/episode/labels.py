"""The keys of episode.json's ``labels``: each declared once, with its type, its writer and its meaning.

``EpisodeMeta.labels`` is a JSON object on disk, and stays one: a key this code does not
declare (one a user set with ``gui-agent review --label``, or one an older or newer version
wrote) is kept as it is through every read and rewrite, and a declared key is written
exactly as before. What this module adds is one place that says which keys the project
itself writes and reads, as LeRobot declares a dataset's features (name, type, meaning)
in one table instead of leaving them to the code that happens to use them.

Code reads and writes a label through its declaration, never by spelling its name::

    from gui_agent.episode.labels import SEED, REVIEW

    seed = SEED.get(meta.labels)                 # int | None
    SEED.set(labels, 3)
    decision = (REVIEW.get(meta.labels) or {}).get("decision")

:meth:`Label.get` returns None for a value of another shape than the declared one (a hand
written ``seed=three``): a reader never has to guard against a string where it expects
an object. The check is the JSON shape (object, array and the type of its items,
string, number, boolean); readers check the fields inside an object they use.
``docs/trajectory-format.md`` lists these keys; a test keeps its table and :data:`LABELS`
the same.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypedDict, TypeVar, get_args, get_origin, is_typeddict, overload

T = TypeVar("T")
D = TypeVar("D")


class StationItem(TypedDict):
    """Which entry of an annotation station's queue the episode records."""

    item: str
    repeat: int


class RecorderInfo(TypedDict, total=False):
    """The recording process and its settings; ``pid`` and ``host`` tell recovery whether it still runs."""

    pid: int
    host: str
    display: str | None
    monitors: list[dict[str, int]]
    origin: list[int]
    fps: float
    pause_chord: str
    stop_chord: str
    mask_pattern: str | None
    video_fps: float


class MiniWobInfo(TypedDict, total=False):
    """The MiniWoB++ page a recording was made on, and what the page itself said at the end."""

    task: str
    shown_t: float
    verdict: dict[str, Any]


class ScreenGrabs(TypedDict):
    count: int
    late: int
    max_gap_s: float


class VideoInfo(TypedDict):
    frames: int
    fps: float
    error: str | None


class Staleness(TypedDict):
    max: float
    mean: float


class AnnotatorVerdict(TypedDict, total=False):
    success: bool
    gave_up: bool
    notes: str | None


class ReviewVerdict(TypedDict, total=False):
    """A reviewer's decision; ``decision`` None once withdrawn (an edit after it)."""

    decision: Literal["accepted", "rejected"] | None
    by: str
    at: str
    notes: str | None
    withdrawn: bool


class EditedInfo(TypedDict):
    edits: int
    by: str
    at: str
    original_steps: int


def _conforms(value: Any, schema: Any) -> bool:
    """True if ``value`` has the JSON shape of ``schema`` (a class, ``list[X]``, ``dict[...]`` or a TypedDict)."""
    if is_typeddict(schema):
        return isinstance(value, dict)
    origin = get_origin(schema)
    if origin is list:
        (item,) = get_args(schema)
        return isinstance(value, list) and all(_conforms(v, item) for v in value)
    if origin is not None:
        return isinstance(value, origin)
    if schema is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, schema)


def _type_name(schema: Any) -> str:
    if is_typeddict(schema):
        return "{" + ", ".join(schema.__annotations__) + "}"
    if get_origin(schema) is list:
        return f"[{_type_name(get_args(schema)[0])}]"
    if get_origin(schema) is dict:
        return "object"
    return getattr(schema, "__name__", str(schema))


@dataclass(frozen=True)
class Label(Generic[T]):
    """One declared key of ``labels``.

    Attributes:
        name: the key in episode.json.
        schema: the value's type: ``int``, ``str``, ``bool``, ``float``, ``list[X]``,
            ``dict[str, Any]`` or a TypedDict (its fields are the object's keys).
        written_by: which part of the project writes it.
        meaning: what it says, and who relies on it.
    """

    name: str
    schema: Any
    written_by: str
    meaning: str

    @property
    def type_name(self) -> str:
        """The type as the documentation shows it: ``int``, ``[str]``, ``{edits, by, at, original_steps}``."""
        return _type_name(self.schema)

    @overload
    def get(self, labels: Mapping[str, Any]) -> T | None: ...

    @overload
    def get(self, labels: Mapping[str, Any], default: D) -> T | D: ...

    def get(self, labels: Mapping[str, Any], default: Any = None) -> Any:
        """The value in ``labels``; ``default`` when it is absent, null or has another shape than declared."""
        value = labels.get(self.name)
        return value if value is not None and _conforms(value, self.schema) else default

    def set(self, labels: MutableMapping[str, Any], value: T) -> None:
        """Set the value in ``labels`` (a key already there keeps its place in the object)."""
        labels[self.name] = value

    def item(self, value: T) -> dict[str, Any]:
        """``{name: value}``: labels to pass on (``finish(labels=...)``, ``relabel(labels=...)``)."""
        return {self.name: value}

    def pop(self, labels: MutableMapping[str, Any]) -> Any:
        """Remove the key from ``labels``; returns what it held, whatever its shape (None: absent)."""
        return labels.pop(self.name, None)

    def stored(self, labels: Mapping[str, Any]) -> Any:
        """What ``labels`` holds under this key as written, whatever its shape: for code that
        keeps a value it does not read (an edit carries the notes over)."""
        return labels.get(self.name)


SEED: Label[int] = Label(
    "seed", int, "the runner (gui-agent run, eval), the recorder on a MiniWoB++ page (record --browser miniwob:TASK), the station",
    "the task's seed: replay and --policy replay: reset the task with it; training and reward data "
    "group an episode's steps by task and seed")
TASK_FILE: Label[str] = Label(
    "task_file", str, "the station",
    "the task file the annotator recorded (the path on the station's machine)")
STATION: Label[StationItem] = Label(
    "station", StationItem, "the station",
    "the station queue's item and repeat this recording is for")
PAGE_ORIGIN: Label[list[int]] = Label(
    "page_origin", list[int], "the station (browser tasks)",
    "the screen position [x, y] of the page's (0, 0): replay turns the recorded screen pixels into page pixels with it")
RECORDER: Label[RecorderInfo] = Label(
    "recorder", RecorderInfo, "the recorder, when it starts",
    "the recording process (pid, host) and its settings (display, monitors, fps, chords, password mask, video rate); "
    "recovery leaves an episode alone while its recorder still runs")
MINIWOB: Label[MiniWobInfo] = Label(
    "miniwob", MiniWobInfo, "the recorder on a MiniWoB++ page (record --browser miniwob:TASK)",
    "the MiniWoB++ task, when its page was shown (seconds on the episode's clock) and the page's own verdict")
EVENTS: Label[int] = Label(
    "events", int, "the recorder, when it finishes",
    "how many raw input events events.jsonl holds")
SCREEN_GRABS: Label[ScreenGrabs] = Label(
    "screen_grabs", ScreenGrabs, "the recorder, when it finishes",
    "the screen capture's cadence: grabs, late grabs and the longest gap between two")
VIDEO: Label[VideoInfo] = Label(
    "video", VideoInfo, "the recorder with --video-fps",
    "what screen.mp4 holds: frames, rate and the encoder's error if it failed")
KEYFRAME_STALENESS: Label[Staleness] = Label(
    "keyframe_staleness_s", Staleness, "the recorder, when it finishes",
    "how old a step's frame was when its action came, in seconds (max, mean)")
NOTES: Label[str] = Label(
    "notes", str, "the recorder (the annotator's notes), gui-agent review --notes, a notes edit",
    "the episode's notes; in an edited episode derived from the original's and the notes edits")
ANNOTATOR_VERDICT: Label[AnnotatorVerdict] = Label(
    "annotator_verdict", AnnotatorVerdict, "the station",
    "what the annotator said at the end: success, gave up, notes")
EVALUATOR_SUCCESS: Label[bool | None] = Label(
    "evaluator_success", bool, "the station",
    "what the task's evaluator said of the final state (absent or null: no verdict)")
DISAGREEMENT: Label[bool] = Label(
    "disagreement", bool, "the station",
    "true when the evaluator and the annotator disagree: the review page flags the episode")
RECORDER_ERROR: Label[str] = Label(
    "recorder_error", str, "the station",
    "why the recorder stopped early, when it did")
REVIEW: Label[ReviewVerdict] = Label(
    "review", ReviewVerdict, "the station's review page",
    "a reviewer's decision (accepted, rejected; null once withdrawn), who, when and notes: "
    "export takes only accepted episodes of a station's DATASET")
EDITED: Label[EditedInfo] = Label(
    "edited", EditedInfo, "episode edits (gui_agent/episode/edit.py)",
    "how many edits, the last one's author and time, and the original's number of steps")
RECOVERY_PROBLEMS: Label[list[str]] = Label(
    "recovery_problems", list[str], "recovery (gui-agent show --recover)",
    "what recovery found damaged and dropped")
REPLAY: Label[dict[str, Any]] = Label(
    "replay", dict[str, Any], "replay (gui-agent replay)",
    "the replay report: source episode, mode, similarity per step, the first divergent step")

#: Every declared key, by name, in the order the documentation lists them.
LABELS: dict[str, Label[Any]] = {label.name: label for label in (
    SEED, TASK_FILE, STATION, PAGE_ORIGIN, RECORDER, MINIWOB, EVENTS, SCREEN_GRABS, VIDEO, KEYFRAME_STALENESS, NOTES,
    ANNOTATOR_VERDICT, EVALUATOR_SUCCESS, DISAGREEMENT, RECORDER_ERROR, REVIEW, EDITED, RECOVERY_PROBLEMS, REPLAY)}

