"""The environment contract every environment follows (Gymnasium's, typed).

``reset(*, seed, options) -> (obs, info)``, ``step(action) -> (obs, reward, terminated,
truncated, info)``, ``close()``, and use as a context manager. A failed action is reported
in ``Observation.last_action_error``; only a broken environment raises
:class:`gui_agent.errors.EnvError`. Time limits, loop detection, guards and recording are
wrappers, not environment code.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from gui_agent.actions import Action
from gui_agent.envs.marks import Mark
from gui_agent.episode.format import EnvInfo
from gui_agent.errors import GuiAgentError


@dataclass
class Observation:
    """What the agent sees after reset or a step.

    Attributes:
        screenshot: RGB pixels, shape (height, width, 3), uint8. Action coordinates are
            pixels of this array.
        instruction: the task's instruction as the environment knows it (MiniWoB++ pages
            generate theirs per seed).
        url: the page address (browser environments).
        window_title: the focused window's title (desktop environments).
        windows: titles of all top-level windows (desktop environments).
        dom: flattened visible DOM elements, when asked for (see envs.dom_snapshot).
        aria: the page's aria snapshot text, when asked for.
        a11y_tree: the desktop's accessibility tree in OSWorld's XML form, when asked for
            (``observe: {a11y_tree: true}``); :func:`gui_agent.envs.desktop.accessibility.linearize.linearize`
            turns it into the table OSWorld's agents read.
        marks: the set-of-marks of this observation (:mod:`gui_agent.envs.marks`), made with
            the tree: the numbered elements a policy may draw on the screenshot and name in
            ``click(mark=N)``, which the environment resolves against this observation.
        last_action_error: why the last action failed, or None if it worked.
        timings: seconds spent in this step's phases (act, settle, observe).
    """

    screenshot: np.ndarray
    instruction: str = ""
    url: str | None = None
    window_title: str | None = None
    windows: list[str] | None = None
    dom: list[dict[str, Any]] | None = None
    aria: str | None = None
    a11y_tree: str | None = None
    marks: list[Mark] | None = None
    last_action_error: str | None = None
    timings: dict[str, float] = field(default_factory=dict)


StepResult = tuple[Observation, float, bool, bool, dict[str, Any]]


class Env(ABC):
    """An environment an agent acts in through canonical actions."""

    @abstractmethod
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Start a new episode and return its first observation.

        ``options["setup"]``: the task's typed setup steps, run after the start state is
        loaded and before the returned observation is taken.
        """

    def run_steps(self, steps: Sequence[Any]) -> None:
        """Run typed task steps (setup or post-episode steps) in this environment.

        Environments that support steps override this; the default runs none.

        Raises:
            GuiAgentError: a step of a kind this environment cannot run.
            EnvError: the environment broke while running it.
        """
        if steps:
            names = ", ".join(getattr(step, "name", type(step).__name__) for step in steps)
            raise GuiAgentError(f"{type(self).__name__} cannot run task steps ({names})")

    @abstractmethod
    def step(self, action: Action) -> StepResult:
        """Perform one action; a failed action sets ``last_action_error``, never raises."""

    @abstractmethod
    def close(self) -> None:
        """Stop everything the environment started. Safe to call twice."""

    @abstractmethod
    def env_info(self) -> EnvInfo:
        """Describe the environment for the episode's metadata."""

    def __enter__(self) -> "Env":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
