"""Recording a human on a MiniWoB++ task: ``gui-agent record --browser miniwob:TASK --seed N``.

A recording is only replayable (``gui-agent replay``) and usable by the human simulator
when its task's start state can be rebuilt: the task file and the seed. This module opens
the task page the environment uses (:func:`gui_agent.envs.browser.miniwob_pages.miniwob_task_file`),
starts the episode with the environment's own protocol and seed
(:mod:`gui_agent.envs.browser.miniwob_protocol`: same seed, same instruction and layout, no time limit), and
at stop reads the page's verdict. The episode then carries the task id ``miniwob/TASK``
(found under ``datasets/tasks/``), ``labels.seed`` and ``labels.miniwob`` (when the task
was shown, on the recording's clock, and the page's reward).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from gui_agent.envs.browser.miniwob_pages import miniwob_task_file
from gui_agent.envs.browser.miniwob_protocol import MAX_TIMER_MS, READ_STATE_JS, READY_TIMEOUT_S, START_EPISODE_JS

SCHEME = "miniwob:"


@dataclass(frozen=True)
class MiniWobPage:
    """A MiniWoB++ task named by ``miniwob:TASK`` and the seed its episode starts with."""

    task: str
    seed: int

    @classmethod
    def parse(cls, url: str, seed: int | None) -> MiniWobPage | None:
        """``miniwob:TASK`` -> the page (a random seed when None); any other URL -> None.

        Raises:
            ValueError: no such MiniWoB++ task (the message lists close matches).
        """
        if not url.startswith(SCHEME):
            return None
        task = url[len(SCHEME):]
        miniwob_task_file(task)  # ValueError naming close matches
        return cls(task=task, seed=random.SystemRandom().randrange(2**31) if seed is None else int(seed))

    @property
    def task_id(self) -> str:
        """The id of the project's task file for this page (``datasets/tasks/miniwob/``)."""
        return f"miniwob/{self.task}"

    @property
    def file_url(self) -> str:
        return miniwob_task_file(self.task).as_uri()

    def start_episode(self, page: Any) -> str:
        """Start the seeded episode on the loaded page; returns the instruction."""
        utterance = page.evaluate(START_EPISODE_JS, [self.seed, "train", MAX_TIMER_MS, READY_TIMEOUT_S * 1000])
        return str(utterance["utterance"])

    @staticmethod
    def verdict(page: Any) -> dict[str, Any]:
        """The page's state: ``done``, ``raw_reward`` (1 solved), ``reason``."""
        return dict(page.evaluate(READ_STATE_JS))

    @staticmethod
    def solved(verdict: dict[str, Any]) -> bool:
        """Whether a :meth:`verdict` says the task was solved: done, with a positive reward."""
        return bool(verdict.get("done")) and float(verdict.get("raw_reward") or 0) > 0


def is_miniwob_url(url: str | None) -> bool:
    """Whether ``url`` names a MiniWoB++ task page (``miniwob:TASK``), which states its own task."""
    return bool(url and url.startswith(SCHEME))
