"""Scripted oracles for the desktop suites (``datasets/tasks/desktop/``).

Each task has a fixed script of real input (clicks at known screen positions, keyboard
shortcuts, typing) played through the environment's XTEST input; the only thing it
reads from the observation is the focused window's title, to wait for dialogs. It never
writes files or talks to the apps any other way, so an episode it produces is a
demonstration a pixel-in policy could have made.

Example:
    >>> policy = DesktopOraclePolicy()
    >>> policy.reset(TaskContext(task_id="desktop.calc.sum-column", instruction=""))
"""

from gui_agent.models.policies.desktop_oracle.policy import (
    DesktopOraclePolicy,
    UnsupportedTaskError,
)
from gui_agent.models.policies.desktop_oracle.registry import SCRIPTS
from gui_agent.models.policies.desktop_oracle.script import WaitForTitle

__all__ = ["SCRIPTS", "DesktopOraclePolicy", "UnsupportedTaskError", "WaitForTitle"]
