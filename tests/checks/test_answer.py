"""What the agent said: infeasible_reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checks.check_helpers import FolderProbe, passes


@pytest.fixture
def probe(tmp_path: Path) -> FolderProbe:
    (tmp_path / "home").mkdir()
    return FolderProbe(home=tmp_path / "home", task_dir=tmp_path / "task")


def test_infeasible_reported(probe: FolderProbe) -> None:
    said = {"success": False, "answer": "Writer has no real-time co-editing."}
    assert passes({"infeasible_reported": None}, FolderProbe(probe.home, done=said))
    for done in (None, {"success": True, "answer": "done"}, {"success": False, "answer": " "}):
        assert not passes({"infeasible_reported": None}, FolderProbe(probe.home, done=done)), done
    assert not passes({"infeasible_reported": {"answer_matches": "cannot"}}, FolderProbe(probe.home, done=said))
