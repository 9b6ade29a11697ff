"""Wrong scripted solutions of imported OSWorld tasks, as policies
``gui-agent run --policy py:tests.task.osworld_scripted_solutions:NAME`` builds.

Each does the oracle's work with one wrong choice, through the same machinery (real
clicks and keys through XTEST, window-title barriers), so a check that passes it is too lax.
"""

from __future__ import annotations

from gui_agent.actions import Click
from gui_agent.models.policies.desktop_oracle.osworld import enable_theme
from gui_agent.models.policies.desktop_oracle.policy import DesktopOraclePolicy

DARK_MODE = "osworld.thunderbird.10a730d5-d414-4b40-b479-684bed1ae522"
#: The "Enable" button of the built-in Light theme, below Dark's.
ENABLE_LIGHT = Click(920, 760)


def wrong_solution() -> DesktopOraclePolicy:
    """10a730d5 done wrong: the Light theme enabled instead of Dark."""
    policy = DesktopOraclePolicy({DARK_MODE: lambda: enable_theme(ENABLE_LIGHT)})
    policy.name = "scripted-light-theme"  # the episode names the script it played, not the oracle
    return policy
