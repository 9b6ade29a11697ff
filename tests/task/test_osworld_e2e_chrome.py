"""Imported OSWorld chrome tasks end to end through ``gui-agent run`` on the real desktop
(Debian's Chromium in Xvfb): the desktop oracle's script passes; a wrong script that does
real work (the font slider moved the wrong way, another site's history deleted) fails,
and the check observed that work.

The two configs need no internet: one changes a setting, the other deletes history the
task's own setup step writes. Their checks differ (a font size read from Preferences, the
history database read after the browser quit).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gui_agent.models.policies.desktop_oracle.osworld_chrome import FONT_SIZE_TINY, delete_history_of, font_size
from gui_agent.models.policies.desktop_oracle.policy import DesktopOraclePolicy
from tests.task.osworld_e2e import imported, run_cli

FONT_SIZE = "chrome-af630914-714e-4a24-a7bb-f9af687d3b91"
YOUTUBE_HISTORY = "chrome-44ee5668-ecd5-4366-a6ce-c1c9b8d4e938"


def smallest_font_size() -> DesktopOraclePolicy:
    """af630914 done wrong: the font size slider moved to its smallest stop (9)."""
    policy = DesktopOraclePolicy({"osworld.chrome.af630914-714e-4a24-a7bb-f9af687d3b91": lambda: font_size(FONT_SIZE_TINY, "home")})
    policy.name = "scripted-smallest-font"
    return policy


def bbc_history_deleted() -> DesktopOraclePolicy:
    """44ee5668 done wrong: the BBC's history deleted instead of YouTube's."""
    policy = DesktopOraclePolicy({"osworld.chrome.44ee5668-ecd5-4366-a6ce-c1c9b8d4e938": lambda: delete_history_of("bbc")})
    policy.name = "scripted-bbc-history-deleted"
    return policy


#: Task -> (the wrong solution, what its check must have observed).
WRONG: dict[str, tuple[str, dict[str, Any]]] = {
    FONT_SIZE: ("py:tests.task.test_osworld_e2e_chrome:smallest_font_size", {"value": 9}),
    YOUTUBE_HISTORY: ("py:tests.task.test_osworld_e2e_chrome:bbc_history_deleted", {"addresses": 11}),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", [FONT_SIZE, YOUTUBE_HISTORY])
def test_chrome_task_passes_the_oracle_and_fails_a_wrong_solution(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task_file = imported(name, tmp_path / "tasks")
    code, outcome = run_cli(task_file, "desktop-oracle", tmp_path / "right", capsys)
    assert (code, outcome.termination, outcome.success) == (0, "done", True), outcome
    wrong, observed = WRONG[name]
    code, outcome = run_cli(task_file, wrong, tmp_path / "wrong", capsys)
    assert (code, outcome.termination, outcome.success) == (1, "done", False), outcome
    assert outcome.detail["observed"].items() >= observed.items(), outcome.detail
