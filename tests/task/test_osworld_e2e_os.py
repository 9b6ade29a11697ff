"""Imported OSWorld os tasks end to end through ``gui-agent run``: a terminal (xterm with bash)
driven by real keys through XTEST. The desktop oracle's command line passes; a wrong
command line that does real work fails, and the check observed that work.

The tasks are judged differently: 5ced85fc and 4d117223 by a shell line run after the
episode (``bash eval.sh``, OSWorld's ``vm_command_line``; 4d117223's set-up types into the
terminal), 4127319a by what the focused terminal shows (``vm_terminal_output``), the
terminal opened from the file manager.
The downloaded inputs (OSWorld's set-up and evaluation scripts) are written by
tests/task/osworld_os_inputs.py the way the instructions say; their originals are on Google Drive.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from gui_agent.models.policies.desktop_oracle.osworld_os import append_br, count_php_lines, in_terminal
from gui_agent.models.policies.desktop_oracle.policy import DesktopOraclePolicy
from tests.task.osworld_os_inputs import BR, PERM, PHP, write_inputs
from tests.task.osworld_e2e import imported, run_cli, scripted


def wrong_br() -> DesktopOraclePolicy:
    """5ced85fc done wrong: the lines written without "<br/>"."""
    return _scripted("scripted-no-br", BR, lambda: in_terminal("printf '1\\n2\\n3\\n' > output.txt"))


def wrong_php_count() -> DesktopOraclePolicy:
    """4127319a done wrong: every file's lines counted, not only the .php ones."""
    return _scripted("scripted-all-files", PHP, lambda: count_php_lines("find . -type f -print0 | xargs -0 cat | wc -l"))


def wrong_perm() -> DesktopOraclePolicy:
    """4d117223 done wrong: only the files directly in the folder changed."""
    return _scripted("scripted-top-level-only", PERM, lambda: in_terminal("chmod 644 ./*.*"))


def _scripted(name: str, config: str, script: Callable[[], list[Any]]) -> DesktopOraclePolicy:
    return scripted(f"osworld.os.{config.split('-', 1)[1]}", script, name)


def test_the_scripts_type_what_the_instructions_ask() -> None:
    typed = [item.text for item in append_br() if hasattr(item, "text")]
    assert typed == ["printf '1\\n2\\n3\\n' | sed 's|$|<br/>|' > output.txt\n"]
    assert [getattr(i, "keys", None) for i in count_php_lines()][1] == ("f4",)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "wrong", "seen"), [
    (BR, "wrong_br", "Failure: output.txt is 1|2|3|"),
    (PHP, "wrong_php_count", "70"),
    (PERM, "wrong_perm", "Wrong modes: testDir/a/b/deep.cfg testDir/a/mid.sh"),
])
def test_imported_os_task_passes_the_right_command_and_fails_a_wrong_one(
    name: str, wrong: str, seen: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task_file = imported(name, tmp_path / "tasks", partial(write_inputs, name))
    code, outcome = run_cli(task_file, "desktop-oracle", tmp_path / "right", capsys)
    assert (code, outcome.termination, outcome.success) == (0, "done", True), outcome
    code, outcome = run_cli(task_file, f"py:tests.task.test_osworld_e2e_os:{wrong}", tmp_path / "wrong", capsys)
    assert (code, outcome.termination, outcome.success) == (1, "done", False), outcome
    observed = str(outcome.detail["observed"]["value"])
    assert seen in observed, outcome.detail
    if name == PHP:  # the wrong count is on the terminal's screen, the right one is not
        assert "\n54\n" not in observed, observed
