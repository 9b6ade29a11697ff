"""Scripted solutions, right and wrong, of imported OSWorld tasks the desktop oracle has no
script for, as policies ``gui-agent run --policy py:tests.task.osworld_scripted_solutions:NAME``
builds.

They are played by the desktop oracle's machinery (real clicks and keys through XTEST,
window-title barriers), so a pass means the app's own user interface did the work. The
wrong ones do the same work with one wrong choice, so a check that passes them is too lax.
"""

from __future__ import annotations

from collections.abc import Callable

from gui_agent.actions import Click, Wait
from models.policies.desktop_oracle.policy import DesktopOraclePolicy
from models.policies.desktop_oracle.script import Item, WaitForTitle, keys

DARK_MODE = "osworld.thunderbird.10a730d5-d414-4b40-b479-684bed1ae522"

#: In the Add-ons Manager on a 1920x1080 screen: the "Themes" category, and the "Enable"
#: buttons of the two built-in saved themes (Dark above Light, the order Thunderbird lists them).
THEMES_CATEGORY = Click(116, 288)
ENABLE_DARK = Click(920, 583)
ENABLE_LIGHT = Click(920, 760)


def _theme(enable: Click) -> list[Item]:
    """Tools > Add-ons and Themes, the Themes category, then ``enable`` (a pause before each
    click lets the page lay its cards out)."""
    return [
        WaitForTitle("Mozilla Thunderbird", timeout_s=30.0), keys("alt", "t"), keys("a"),
        WaitForTitle("^Add-ons Manager"), Wait(1.0), THEMES_CATEGORY, Wait(1.0), enable, Wait(1.0),
    ]


def dark_theme() -> list[Item]:
    """10a730d5 solved: the built-in Dark theme enabled."""
    return _theme(ENABLE_DARK)


def light_theme() -> list[Item]:
    """10a730d5 done wrong: the Light theme enabled instead."""
    return _theme(ENABLE_LIGHT)


def _scripted(name: str, script: Callable[[], list[Item]]) -> DesktopOraclePolicy:
    policy = DesktopOraclePolicy({DARK_MODE: script})
    policy.name = name  # the episode names the script it played, not the oracle
    return policy


def right_solution() -> DesktopOraclePolicy:
    return _scripted("scripted-dark-theme", dark_theme)


def wrong_solution() -> DesktopOraclePolicy:
    return _scripted("scripted-light-theme", light_theme)
