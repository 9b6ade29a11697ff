"""The wrapper every guard builds on, and the record a guard leaves.

A guard is a small :class:`EnvWrapper` around any environment (browser or desktop): it
sees each action before the environment does and each observation after, and may refuse
the action, tell the policy something through ``last_action_error``, or end the episode
(``truncated=True`` with ``info["stop_reason"]``). What it did is a :class:`GuardEvent`,
added to the step's ``info["guard_events"]`` (so it lands in the episode's step line) and
kept until :meth:`EnvWrapper.finish_episode` hands the chain's events to the runner.
Everything else (``pid``, ``evaluate_js``, ``current_url``...) passes through to the
wrapped environment.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from gui_agent.actions import Action
from gui_agent.envs.base import Env, Observation, StepResult
from gui_agent.episode.format import EnvInfo

#: What a guard did: refused an action, ended the episode, told the policy, or found damage.
EventKind = Literal["blocked", "stopped", "warned", "violation"]


@dataclass(frozen=True)
class GuardEvent:
    """One thing a guard did or found in an episode.

    Attributes:
        guard: which guard (``doom_loop``, ``forbidden_action``, ``protected_path``).
        kind: ``blocked`` (action refused), ``stopped`` (episode ended), ``warned`` (the
            policy was told), ``violation`` (damage found after the fact).
        message: one sentence for people and for the policy.
        step: index of the step it happened at (None for end-of-episode checks).
        detail: machine-readable specifics (the action, the path, the change).
    """

    guard: str
    kind: EventKind
    message: str
    step: int | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class EnvWrapper(Env):
    """An environment around another; by default every call goes straight through.

    Subclasses override :meth:`step` (and :meth:`reset` to clear their state, calling
    ``super().reset``) and, for checks made once the episode is over, :meth:`_final_check`.
    """

    def __init__(self, env: Env) -> None:
        self.env = env
        self.events: list[GuardEvent] = []
        self.steps_taken = 0
        self.last_obs: Observation | None = None

    @property
    def unwrapped(self) -> Env:
        """The environment at the bottom of the wrapper chain."""
        inner = self.env
        return inner.unwrapped if isinstance(inner, EnvWrapper) else inner

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        self.events = []
        self.steps_taken = 0
        obs, info = self.env.reset(seed=seed, options=options)
        self.last_obs = obs
        return obs, info

    def step(self, action: Action) -> StepResult:
        result = self.env.step(action)
        self.steps_taken += 1
        self.last_obs = result[0]
        return result

    def run_steps(self, steps: Sequence[Any]) -> None:
        self.env.run_steps(steps)

    def close(self) -> None:
        self.env.close()

    def env_info(self) -> EnvInfo:
        return self.env.env_info()

    def finish_episode(self) -> list[GuardEvent]:
        """Run end-of-episode checks; return every event of this chain's guards, innermost first."""
        inner = self.env.finish_episode() if isinstance(self.env, EnvWrapper) else []
        self.events.extend(self._final_check())
        return inner + list(self.events)

    def _final_check(self) -> list[GuardEvent]:
        return []

    def _record(self, event: GuardEvent, info: dict[str, Any]) -> None:
        self.events.append(event)
        info.setdefault("guard_events", []).append(event.to_dict())

    def __getattr__(self, name: str) -> Any:
        # Only called for attributes not found normally: pass them to the wrapped env.
        env = self.__dict__.get("env")
        if env is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(env, name)


def refused(obs: Observation, message: str) -> Observation:
    """The observation after a refused action: the same screen, with the refusal as the action's error."""
    return dataclasses.replace(obs, last_action_error=message, timings={})
