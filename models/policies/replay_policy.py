"""Plays back a recorded episode's actions, in order, without looking at the screen.

The simplest way to check that a recording is reproducible; robust replay with
divergence detection and re-anchoring lives in ``replay/``.
"""

from __future__ import annotations

from pathlib import Path

from gui_agent.actions import Action, Done
from gui_agent.envs.base import Observation
from gui_agent.episode import read_episode
from gui_agent.episode.finder import find_one_episode
from gui_agent.policy import PolicyOutput, TaskContext


class ReplayPolicy:
    """Emits the recorded actions one per call, then ``done``.

    Args:
        episode_path: an episode folder in the trajectory format, or a folder holding exactly one.

    Raises:
        EpisodeNotFoundError: no episode there, or several.
        EpisodeFormatError: the episode is damaged.
    """

    name = "replay"

    def __init__(self, episode_path: str | Path):
        self.episode_path = find_one_episode(episode_path)
        episode = read_episode(self.episode_path)
        self._actions: list[Action] = episode.actions()
        self._thoughts = [step.thought for step in episode.steps]
        self._next = 0

    def reset(self, task: TaskContext) -> None:
        self._next = 0

    def act(self, observation: Observation) -> PolicyOutput:
        if self._next >= len(self._actions):
            return PolicyOutput(actions=[Done(success=True)], thought="replay: recording exhausted")
        index = self._next
        self._next += 1
        return PolicyOutput(actions=[self._actions[index]], thought=self._thoughts[index], info={"replayed_step": index})
