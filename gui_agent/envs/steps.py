"""The setup step every environment runs: ``sleep``.

Setup steps (what prepares an environment before the agent acts, and ``post_steps``
after) are declared next to the code that runs them: the browser's in
:mod:`gui_agent.envs.browser.steps`, the desktop's in :mod:`gui_agent.envs.desktop.steps`.
A task file reads them through :data:`gui_agent.task.SetupStep`, the union of them all.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from gui_agent.schema import SingleKey, StrictModel


class SleepArgs(StrictModel):
    """Do nothing for ``seconds`` (0-600): for pages that animate in without a signal."""

    seconds: float = Field(strict=True, ge=0, le=600)


class SleepStep(SingleKey):
    name: ClassVar[str] = "sleep"
    sleep: SleepArgs
