"""Building the environment a task file asks for.

The only place that maps a task's ``environment`` section to an environment class; each
class is imported when chosen, so a desktop run never loads Playwright and vice versa.
The sections are declared here in :mod:`gui_agent.envs` (``browser.settings``,
``desktop.settings``); of the task itself this module reads only what :class:`EnvRequest`
lists, so the environments need nothing of the task package.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from gui_agent.envs.base import Env
from gui_agent.envs.browser.settings import BrowserEnvironment
from gui_agent.envs.desktop.settings import DesktopEnvironment
from gui_agent.errors import GuiAgentError


class _StepLimit(Protocol):
    @property
    def step_timeout_s(self) -> float: ...


class EnvRequest(Protocol):
    """What :func:`make_env` reads of a task (a :class:`gui_agent.task.Task`)."""

    @property
    def id(self) -> str: ...

    @property
    def environment(self) -> BrowserEnvironment | DesktopEnvironment: ...

    @property
    def limits(self) -> _StepLimit: ...

    @property
    def task_dir(self) -> Path | None: ...


def make_env(task: EnvRequest, *, headless: bool | None = None, display: str | None = None,
             window_size: tuple[int, int] | None = None) -> Env:
    """Create (but do not reset) the environment for ``task``.

    Args:
        task: a loaded task file.
        headless: override the task's ``headless`` setting (None keeps it; browsers only).
        display: X display for a headed browser (default: $DISPLAY). A desktop task
            always runs on a display of its own.
        window_size: a headed browser's window size (default: the viewport).
    """
    spec = task.environment
    if isinstance(spec, BrowserEnvironment):
        viewport = (spec.viewport.width, spec.viewport.height)
        common = dict(
            viewport=viewport,
            headless=spec.headless if headless is None else headless,
            display=display,
            observe_dom=spec.observe.dom,
            observe_aria=spec.observe.aria,
            step_timeout_s=task.limits.step_timeout_s,
            window_size=window_size,
        )
        if spec.miniwob_task is not None:
            from gui_agent.envs.browser.miniwob import MiniWobEnv

            return MiniWobEnv(task=spec.miniwob_task, **common)  # type: ignore[arg-type]
        from gui_agent.envs.browser.env import BrowserEnv

        return BrowserEnv(url=spec.resolved_url(), **common)  # type: ignore[arg-type]
    if isinstance(spec, DesktopEnvironment):
        from gui_agent.envs.desktop.env import DesktopEnv

        return DesktopEnv(
            screen=(spec.screen.width, spec.screen.height),
            apps=tuple(spec.apps),
            window_manager=spec.window_manager,
            mail=spec.mail.model_dump() if spec.mail is not None else None,
            task_dir=task.task_dir,
            step_timeout_s=task.limits.step_timeout_s,
            accessibility=spec.accessibility,
            observe_a11y_tree=spec.observe.a11y_tree,
        )
    raise GuiAgentError(f"task {task.id}: environment kind {spec.kind!r} has no environment class yet")
