"""Reward-model training data: the replayer's folders read into encoded examples.

The layout and its records are defined once in :mod:`gui_agent.export.reward` (written by
``gui-agent make-reward-data``); this module only reads them. A step example's screens
are frames ``step_index`` and ``step_index + 1`` of its episode and its instruction is the
episode's; an outcome example is its whole episode. Every example keeps its task id, so
tasks (not just episodes) can be held out for validation.

Reading is strict: a sample whose episode or frame is missing is an error naming the
sample and the file, not a silently smaller data set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gui_agent.actions import action_from_dict
from gui_agent.episode import Episode, read_episode
from gui_agent.errors import EpisodeFormatError, RewardDataError
from gui_agent.export.reward import (
    OUTCOMES_FILE,
    REWARD_FILE,
    read_outcomes,
    read_reward_samples,
    resolve_episode,
)
from gui_agent.models.reward.network import STEP_LABELS
from gui_agent.models.reward.transitions import (
    TrajectoryArrays,
    TransitionArrays,
    encode_trajectory,
    encode_transition,
    screen_changed,
)


@dataclass
class StepExample:
    sample_id: str
    task_id: str
    label: int
    arrays: TransitionArrays
    changed: bool


@dataclass
class OutcomeExample:
    sample_id: str
    task_id: str
    success: bool
    arrays: TrajectoryArrays
    ended_unchanged: bool


@dataclass
class RewardData:
    """Every example of some reward-data folders."""

    steps: list[StepExample]
    outcomes: list[OutcomeExample]

    @property
    def tasks(self) -> list[str]:
        return sorted({e.task_id for e in self.steps} | {e.task_id for e in self.outcomes})

    def only_tasks(self, tasks: Iterable[str]) -> RewardData:
        keep = set(tasks)
        return RewardData([e for e in self.steps if e.task_id in keep], [e for e in self.outcomes if e.task_id in keep])


class _Episodes:
    """Episodes and frames read once each (samples of one episode share them)."""

    def __init__(self) -> None:
        self._episodes: dict[Path, Episode] = {}
        self._frames: dict[tuple[Path, int], np.ndarray] = {}

    def episode(self, path: Path, who: str) -> Episode:
        if path not in self._episodes:
            if not path.is_dir():
                raise RewardDataError(f"{who}: its episode folder {path} does not exist")
            try:
                self._episodes[path] = read_episode(path)
            except EpisodeFormatError as exc:
                raise RewardDataError(f"{who}: its episode is damaged: {exc}") from None
        return self._episodes[path]

    def frames(self, path: Path, who: str) -> list[np.ndarray]:
        """The screens of an episode: before each step, then the final one if it was written."""
        episode = self.episode(path, who)
        names = [step.frame_before for step in episode.steps] + ([episode.final_frame] if episode.final_frame else [])
        return [self.frame(path, index, name, who) for index, name in enumerate(names) if name is not None]

    def frame(self, path: Path, index: int, name: str | None, who: str) -> np.ndarray:
        key = (path, index)
        if key not in self._frames:
            if name is None or not (path / name).is_file():
                raise RewardDataError(f"{who}: frame {index} of {path} is missing")
            try:
                self._frames[key] = self.episode(path, who).load_frame(name)
            except OSError as exc:
                raise RewardDataError(f"{who}: frame {path / name} cannot be read: {exc}") from None
        return self._frames[key]


def _check_folder(folder: Path) -> None:
    if not folder.exists():
        raise RewardDataError(f"{folder}: no such reward-data folder (make one with 'gui-agent make-reward-data EPISODES --out {folder}')")
    if not folder.is_dir():
        raise RewardDataError(f"{folder}: expected a reward-data folder, got a file")
    if not (folder / REWARD_FILE).is_file() and not (folder / OUTCOMES_FILE).is_file():
        raise RewardDataError(f"{folder}: has neither {REWARD_FILE} nor {OUTCOMES_FILE}; is it a 'gui-agent make-reward-data' output?")


def _step_examples(folder: Path, cache: _Episodes) -> list[StepExample]:
    if not (folder / REWARD_FILE).is_file():
        return []
    out: list[StepExample] = []
    for sample in read_reward_samples(folder):
        who = f"{folder / REWARD_FILE}: sample {sample.sample_id}"
        path = resolve_episode(folder, sample.episode)
        episode = cache.episode(path, who)
        steps = episode.steps
        names = [s.frame_before for s in steps] + [episode.final_frame]
        if sample.step_index >= len(steps):
            raise RewardDataError(f"{who}: step {sample.step_index} is past the episode's {len(steps)} steps ({path})")
        before = cache.frame(path, sample.step_index, names[sample.step_index], who)
        after = cache.frame(path, sample.step_index + 1, names[sample.step_index + 1], who)
        action = action_from_dict(sample.action)
        instruction = episode.meta.task.instruction
        out.append(StepExample(sample_id=sample.sample_id, task_id=episode.meta.task.id, label=STEP_LABELS.index(sample.label),
                               arrays=encode_transition(before, action, after, instruction),
                               changed=screen_changed(before, after)))
    return out


def _outcome_examples(folder: Path, cache: _Episodes) -> list[OutcomeExample]:
    if not (folder / OUTCOMES_FILE).is_file():
        return []
    out: list[OutcomeExample] = []
    for sample in read_outcomes(folder):
        who = f"{folder / OUTCOMES_FILE}: sample {sample.sample_id}"
        path = resolve_episode(folder, sample.episode)
        episode = cache.episode(path, who)
        frames = cache.frames(path, who)
        if not frames:
            raise RewardDataError(f"{who}: the episode {path} has no frames")
        trajectory = encode_trajectory(frames, episode.actions(), sample.instruction)
        out.append(OutcomeExample(sample_id=sample.sample_id, task_id=sample.task_id, success=sample.success, arrays=trajectory,
                                  ended_unchanged=not screen_changed(frames[0], frames[-1])))
    return out


def load_reward_data(folders: Iterable[str | Path], *, on_folder: Callable[[Path], None] | None = None) -> RewardData:
    """Read and encode every step and outcome sample of the given reward-data folders.

    Raises:
        RewardDataError: a folder is missing or not reward data, a sample's episode or
            frame is missing, or there are no samples at all.
        gui_agent.errors.FileFormatError: a line of a JSONL file is not a valid record (names file:line).
    """
    folders = [Path(f) for f in folders]
    if not folders:
        raise RewardDataError("no reward-data folder given")
    cache = _Episodes()
    steps: list[StepExample] = []
    outcomes: list[OutcomeExample] = []
    for folder in folders:
        _check_folder(folder)
        if on_folder is not None:
            on_folder(folder)
        steps += _step_examples(folder, cache)
        outcomes += _outcome_examples(folder, cache)
    if not steps and not outcomes:
        raise RewardDataError(f"{', '.join(map(str, folders))}: no step or outcome samples in {REWARD_FILE} / {OUTCOMES_FILE}")
    return RewardData(steps, outcomes)
