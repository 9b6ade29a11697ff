"""Doom-loop detection: an agent going round in circles on a screen that does not change.

The guard keeps, for the last steps, the pair (screen before the step, action). The agent
is in a loop when the last ``max_repeats`` steps repeat with a period ``p`` of at most
``max_cycle`` steps, at least twice round, and the screen now is the one the cycle started
from. ``p = 1`` is "the same action again and again with no visible change"; ``p = 2`` is
"A, B, A, B" with the screen flipping back each time (open a menu, close it...).

Screens are compared exactly (a hash of the pixels), so anything that changes on screen,
even a counter, is progress. ``wait`` and ``done`` never count: waiting for a page is not
acting on it, and the step and time budgets bound it.

On a loop the guard either ends the episode (``on_loop="stop"``: ``truncated`` with the
reason) or tells the policy (``"warn"``: the step's ``last_action_error`` says so, and
detection starts over).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import deque
from typing import Any, Literal

import numpy as np

from gui_agent.actions import Action, Done, Wait, action_to_text
from gui_agent.envs.base import Env, Observation, StepResult
from gui_agent.guards.base import EnvWrapper, GuardEvent

OnLoop = Literal["stop", "warn"]


def screen_hash(pixels: np.ndarray) -> bytes:
    """A digest of a screenshot's exact pixels (and shape)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(repr(pixels.shape).encode())
    digest.update(np.ascontiguousarray(pixels).data)
    return digest.digest()


class DoomLoopGuard(EnvWrapper):
    """Ends (or flags) an episode whose last ``max_repeats`` steps go round in a cycle.

    Args:
        env: the environment to guard.
        max_repeats: how many looping steps are tolerated before the guard acts (>= 2).
        max_cycle: the longest cycle looked for, in steps.
        on_loop: ``"stop"`` ends the episode as truncated; ``"warn"`` tells the policy.
    """

    def __init__(self, env: Env, *, max_repeats: int = 5, max_cycle: int = 3, on_loop: OnLoop = "stop") -> None:
        super().__init__(env)
        if max_repeats < 2 or max_cycle < 1:
            raise ValueError("max_repeats must be >= 2 and max_cycle >= 1")
        if on_loop not in ("stop", "warn"):
            raise ValueError(f"on_loop must be 'stop' or 'warn', got {on_loop!r}")
        self.max_repeats = max_repeats
        self.max_cycle = max_cycle
        self.on_loop = on_loop
        self._history: deque[tuple[bytes, Action]] = deque(maxlen=max(max_repeats, 2 * max_cycle))
        self._screen = b""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        obs, info = super().reset(seed=seed, options=options)
        self._history.clear()
        self._screen = screen_hash(obs.screenshot)
        return obs, info

    def step(self, action: Action) -> StepResult:
        before = self._screen
        obs, reward, terminated, truncated, info = super().step(action)
        self._screen = screen_hash(obs.screenshot)
        if isinstance(action, (Wait, Done)):
            self._history.clear()
            return obs, reward, terminated, truncated, info
        self._history.append((before, action))
        period = self._loop_period()
        if period is None or terminated or truncated:
            return obs, reward, terminated, truncated, info
        actions = [action_to_text(a) for _, a in list(self._history)[-period:]]
        what = f"{actions[0]} repeated" if period == 1 else "the cycle " + " -> ".join(actions) + " repeated"
        message = f"doom loop: {what} over {self.max_repeats} steps with no lasting change on screen"
        detail = {"period": period, "actions": actions, "max_repeats": self.max_repeats}
        self._history.clear()
        if self.on_loop == "stop":
            self._record(GuardEvent("doom_loop", "stopped", message, self.steps_taken - 1, detail), info)
            info["stop_reason"] = message
            return obs, reward, terminated, True, info
        self._record(GuardEvent("doom_loop", "warned", message, self.steps_taken - 1, detail), info)
        warning = f"{message}; try something different"
        error = f"{obs.last_action_error}; {warning}" if obs.last_action_error else warning
        return dataclasses.replace(obs, last_action_error=error), reward, terminated, truncated, info

    def _loop_period(self) -> int | None:
        """The shortest period p the last ``max_repeats`` steps repeat with, or None."""
        history = list(self._history)
        for period in range(1, self.max_cycle + 1):
            span = max(self.max_repeats, 2 * period)
            if len(history) < span:
                continue
            window = history[-span:]
            if all(window[i] == window[i - period] for i in range(period, span)) and self._screen == window[span - period][0]:
                return period
        return None
