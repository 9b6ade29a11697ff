"""The desktop oracle as a :class:`gui_agent.policy.Policy`: plays a task's script."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from gui_agent.actions import Done, Wait
from gui_agent.envs.base import Observation
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.models.errors import UnsupportedTaskError
from gui_agent.models.policies.desktop_oracle.script import Item, WaitForTitle

#: Seconds one ``wait`` lasts while a barrier waits for a window title.
POLL_S = 0.25


class DesktopOraclePolicy:
    """Plays the fixed script of a desktop task, one action per call, then ``done``.

    Args:
        scripts: task id -> function returning the script (default: every suite's).
    """

    name = "desktop-oracle"

    def __init__(self, scripts: Mapping[str, Callable[[], list[Item]]] | None = None) -> None:
        if scripts is None:
            from gui_agent.models.policies.desktop_oracle.registry import SCRIPTS

            scripts = SCRIPTS
        self.scripts = scripts
        self._items: list[Item] = []
        self._next = 0
        self._waiting_since: float | None = None

    def reset(self, task: TaskContext) -> None:
        if task.task_id not in self.scripts:
            known = ", ".join(sorted(self.scripts))
            raise UnsupportedTaskError(f"the desktop oracle has no script for {task.task_id!r}; it knows: {known}")
        self._items = list(self.scripts[task.task_id]())
        self._next = 0
        self._waiting_since = None

    def act(self, observation: Observation) -> PolicyOutput:
        while self._next < len(self._items):
            item = self._items[self._next]
            if isinstance(item, WaitForTitle):
                if item.matches(observation.window_title):
                    self._next += 1
                    self._waiting_since = None
                    continue
                now = time.monotonic()
                self._waiting_since = self._waiting_since or now
                if now - self._waiting_since > item.timeout_s:
                    thought = (f"oracle: the window {item.pattern!r} did not come up within {item.timeout_s:g} s "
                               f"(focused: {observation.window_title!r})")
                    return PolicyOutput(actions=[Done(success=False)], thought=thought, info={"oracle_error": thought})
                return PolicyOutput(actions=[Wait(POLL_S)], thought=f"waiting for the window {item.pattern!r}")
            self._next += 1
            return PolicyOutput(actions=[item], thought=f"oracle step {self._next} of {len(self._items)}")
        return PolicyOutput(actions=[Done(success=True)], thought="oracle: script finished")
