"""The episode to replay, and the task file and seed it was recorded with.

The trajectory format stores the task's id (and ``task.source`` when a converter set one)
and, for runner episodes, the environment seed in ``labels.seed``; it does not store the
task file's path. The task file is found, in order: the ``--task`` override; ``task.source``
when it names an existing file; a task file under ``datasets/tasks/`` whose ``id`` is the
episode's task id. Browser recordings of MiniWoB++ pages (``gui-agent record --browser
miniwob:TASK --seed N``) carry the task id ``miniwob/TASK`` and ``labels.seed`` too.

A desktop recording whose steps name their elements (targets from the accessibility tree)
is replayed on a desktop started with accessibility on, so the replay can re-find them.

A browser recording's points are screen pixels; :attr:`SourceEpisode.actions` gives them in
the page's pixels, as the replay environment takes them (:mod:`gui_agent.replay.viewport`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

from gui_agent.actions import Action, Click, Done, Drag, Move, Scroll
from gui_agent.episode import Episode, read_episode
from gui_agent.episode.labels import SEED
from gui_agent.errors import EpisodeFormatError
from gui_agent.evaluate.suite import SUITES_DIR
from gui_agent.task import Task, load_task
from gui_agent.replay.element import needs_element_tree
from gui_agent.replay.errors import ReplayError
from gui_agent.replay.viewport import recorded_page_origin

_ID_LINE = re.compile(r"^id:\s*['\"]?([^'\"\s#]+)", re.MULTILINE)


@dataclass
class SourceEpisode:
    """A recorded episode ready to replay: its steps, its task, its seed.

    ``origin`` is the screen position of the page's (0, 0) in a browser recording (None:
    the episode's points are already the environment's pixels).
    """

    episode: Episode
    task: Task
    seed: int | None
    origin: tuple[int, int] | None = None

    @property
    def episode_id(self) -> str:
        return self.episode.meta.episode_id

    @property
    def actions(self) -> list[Action]:
        """The recorded actions without a trailing ``done`` (the replayer adds its own), in
        the environment's pixels."""
        actions = self.episode.actions()
        while actions and isinstance(actions[-1], Done):
            actions.pop()
        if self.origin is None:
            return actions
        return [_shifted(a, -self.origin[0], -self.origin[1]) for a in actions]

    @property
    def screen(self) -> tuple[int, int]:
        """(width, height) of the screen the actions' points refer to."""
        if self.origin is not None:
            viewport = getattr(self.task.environment, "viewport", None)
            if viewport is not None:
                return viewport.width, viewport.height
        size = self.episode.meta.env.screen
        return size.width, size.height

    @property
    def succeeded(self) -> bool:
        outcome = self.episode.meta.outcome
        return bool(outcome is not None and outcome.success)


def _shifted(action: Action, dx: int, dy: int) -> Action:
    """``action`` with its point(s) moved by (dx, dy)."""
    if isinstance(action, Drag):
        return dataclasses.replace(action, x1=action.x1 + dx, y1=action.y1 + dy, x2=action.x2 + dx, y2=action.y2 + dy)
    if isinstance(action, (Click, Move, Scroll)):
        return dataclasses.replace(action, x=action.x + dx, y=action.y + dy)
    return action


def _task_index(root: Path) -> dict[str, Path]:
    """Task id -> task file, for every task file under ``root`` (read as text, not validated;
    a few dozen small files, so it is not cached)."""
    index: dict[str, Path] = {}
    for path in sorted(root.rglob("*.y*ml")):
        try:
            match = _ID_LINE.search(path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if match:
            index.setdefault(match.group(1), path)
    return index


def find_task_file(task_id: str, source: str | None = None, *, tasks_root: Path = SUITES_DIR) -> Path:
    """The task file of ``task_id`` (see the module doc for the order).

    Raises:
        ReplayError: no file found; the message says to pass ``--task``.
    """
    if source and Path(source).is_file():
        return Path(source)
    found = _task_index(tasks_root.resolve()).get(task_id)
    if found is None:
        raise ReplayError(
            f"no task file with id {task_id!r} under {tasks_root}; "
            "pass the task file the episode was recorded on with --task FILE"
        )
    return found


def load_source(episode_path: str | Path, *, task_file: str | Path | None = None) -> SourceEpisode:
    """Read an episode and find its task and seed.

    Raises:
        ReplayError: the folder is not a readable episode, it has no steps, or its task file
            cannot be found or loaded (a :class:`~gui_agent.errors.TaskFileError` is passed on).
    """
    path = Path(episode_path)
    if not path.is_dir():
        raise ReplayError(f"{path}: no such episode folder")
    try:
        episode = read_episode(path)
    except EpisodeFormatError as exc:
        raise ReplayError(f"{path}: not a readable episode: {exc}") from None
    if not episode.steps:
        raise ReplayError(f"{path}: the episode has no steps; there is nothing to replay")
    meta = episode.meta
    task = load_task(task_file or find_task_file(meta.task.id, meta.task.source))
    if task.environment.kind != meta.env.kind:
        raise ReplayError(
            f"{path}: the episode ran in a {meta.env.kind} environment but task {task.id} is a "
            f"{task.environment.kind} task; pass the right one with --task FILE"
        )
    if task.environment.kind == "desktop" and needs_element_tree(episode):
        # the replay re-finds the recorded elements in the tree (gui_agent.replay.element)
        task = task.model_copy(update={"environment": task.environment.model_copy(update={"accessibility": True})})
    return SourceEpisode(episode=episode, task=task, seed=SEED.get(meta.labels),
                         origin=recorded_page_origin(episode))
