"""A random baseline: what success rate does acting blindly get?

It samples canonical actions over the whole screen (mostly clicks, some typing and key
presses), seeded so that a run can be reproduced. Its success rate is the floor any
learned policy must beat, and a check that evaluators do not pass trivially.
"""

from __future__ import annotations

import random
import zlib

from gui_agent.actions import Action, Click, Done, Hotkey, Scroll, Type
from gui_agent.envs.base import Observation
from gui_agent.policy import PolicyOutput, TaskContext

_WORDS = ("ok", "submit", "hello", "yes", "no", "cancel", "42", "abc")
_KEYS = (("enter",), ("tab",), ("escape",), ("backspace",), ("down",), ("up",))


class RandomPolicy:
    """Uniformly random actions; gives up after ``max_actions`` with done(success=False)."""

    name = "random"

    def __init__(self, *, seed: int | None = 0, max_actions: int | None = None):
        self._seed = seed
        self._max_actions = max_actions
        self._rng = random.Random(seed)
        self._taken = 0

    def reset(self, task: TaskContext) -> None:
        # Mix the episode seed in, so repeats over seeds differ but each is reproducible.
        base = 0 if self._seed is None else self._seed
        self._rng = random.Random(zlib.crc32(f"{base}|{task.task_id}|{task.seed}".encode()))  # stable across processes
        self._taken = 0

    def act(self, observation: Observation) -> PolicyOutput:
        self._taken += 1
        if self._max_actions is not None and self._taken > self._max_actions:
            return PolicyOutput(actions=[Done(success=False)], thought="random policy: out of actions")
        height, width = observation.screenshot.shape[:2]
        return PolicyOutput(actions=[self._sample(width, height)])

    def _sample(self, width: int, height: int) -> Action:
        x, y = self._rng.randrange(width), self._rng.randrange(height)
        roll = self._rng.random()
        if roll < 0.7:
            return Click(x, y)
        if roll < 0.85:
            return Type(self._rng.choice(_WORDS))
        if roll < 0.95:
            return Hotkey(self._rng.choice(_KEYS))
        return Scroll(x, y, dy=self._rng.choice((-3, 3)))
