"""Imported OSWorld vlc tasks end to end through ``gui-agent run`` on the real desktop with
Debian's VLC and locally made videos: the desktop oracle's script passes, and a wrong
scripted solution, which does real work in VLC, fails for what it did (the check's
observation shows the wrong work, not an untouched desktop).

Three tasks, three different checks: ``vlc_playing`` (VLC's HTTP status), ``window_fills_screen``
(the window's size against the screen's) and a ``value`` of the ``vlc_setting`` source (the
``vlcrc`` VLC saved, after the config's post steps restart VLC).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gui_agent.models.policies.desktop_oracle.osworld_vlc import MAIN_WINDOW, PREFERENCES, open_file, simple_preference
from gui_agent.models.policies.desktop_oracle.policy import DesktopOraclePolicy
from gui_agent.models.policies.desktop_oracle.script import Item, WaitForTitle, keys
from tests.task.osworld_vlc_inputs import MAKERS
from tests.task.osworld_e2e import imported, run_cli

PLAY = "59f21cfb-0120-4326-b255-a5b827b38967"
FULLSCREEN = "8d9fd4e2-6fdb-46b0-b9b9-02f06495c62f"
MINIMAL_VIEW = "a5bbbcd5-b398-4c91-83d4-55e1e31bbb81"


def _scripted(uuid: str, name: str, script: Callable[[], list[Item]]) -> DesktopOraclePolicy:
    policy = DesktopOraclePolicy({f"osworld.vlc.{uuid}": script})
    policy.name = name  # the episode names the script it played, not the oracle
    return policy


def stopped_after_opening() -> DesktopOraclePolicy:
    """59f21cfb done wrong: the music video opened, then stopped (S) instead of left playing."""
    return _scripted(PLAY, "scripted-open-then-stop", lambda: [
        *open_file("Desktop/Rick Astley - Never Gonna Give You Up (Official Music Video).mp4"), keys("s")])


def minimal_view_instead() -> DesktopOraclePolicy:
    """8d9fd4e2 done wrong: the controls hidden (Ctrl+H, minimal view) instead of full screen."""
    return _scripted(FULLSCREEN, "scripted-minimal-view", lambda: [WaitForTitle(MAIN_WINDOW, timeout_s=30.0), keys("ctrl", "h")])


def dark_palette_instead() -> DesktopOraclePolicy:
    """a5bbbcd5 done wrong: the preferences saved with "Use a dark palette" ticked instead."""
    assert "dark_palette" in PREFERENCES
    return _scripted(MINIMAL_VIEW, "scripted-dark-palette", lambda: simple_preference("dark_palette"))


def _fills(observed: dict[str, Any]) -> bool:
    return observed.get("size") is not None and observed["size"] != observed["screen"]


#: OSWorld task -> the wrong solution (a policy spec for ``gui-agent run``) and what the
#: check must have observed after it.
SCRIPTED: dict[str, tuple[str, Callable[[dict[str, Any]], bool]]] = {
    PLAY: ("py:tests.task.test_osworld_e2e_vlc:stopped_after_opening", lambda seen: seen.get("state") == "stopped"),
    FULLSCREEN: ("py:tests.task.test_osworld_e2e_vlc:minimal_view_instead", _fills),
    MINIMAL_VIEW: ("py:tests.task.test_osworld_e2e_vlc:dark_palette_instead", lambda seen: seen.get("value") == "0"),
}


@pytest.mark.slow
@pytest.mark.parametrize("uuid", list(SCRIPTED), ids=[uuid[:8] for uuid in SCRIPTED])
def test_imported_vlc_task_passes_the_oracle_and_fails_a_wrong_solution(uuid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wrong, saw_the_wrong_work = SCRIPTED[uuid]
    task_file = imported(f"vlc-{uuid}", tmp_path / "tasks", MAKERS[uuid])
    code, outcome = run_cli(task_file, "desktop-oracle", tmp_path / "right", capsys)
    assert (code, outcome.termination, outcome.success) == (0, "done", True), outcome
    code, outcome = run_cli(task_file, wrong, tmp_path / "wrong", capsys)
    assert (code, outcome.termination, outcome.success) == (1, "done", False), outcome
    assert saw_the_wrong_work(outcome.detail["observed"]), outcome.detail
