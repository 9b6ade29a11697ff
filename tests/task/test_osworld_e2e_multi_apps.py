"""Imported OSWorld multi_apps tasks end to end through ``gui-agent run`` on the real
desktop with locally made inputs: the desktop oracle's solution passes, and a scripted
wrong one that does the same real work with one wrong choice fails, its check having
observed the wrong work.

* 51f5801c (Impress -> Writer): the speaker notes into a new Word document; its check
  compares the document's text with the gold's (``compare_docx_files``).
* bc2b57f3 (Writer's reminder -> Calc): a Pass/Fail column added to a workbook of eight
  sheets; its checks compare sheet names and every sheet's cells (``compare_table``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gui_agent.models.policies.desktop_oracle.osworld_multi_apps import DICKINSON_NOTES, SCRIPTS, notes_document, result_column
from gui_agent.models.policies.desktop_oracle.policy import DesktopOraclePolicy
from tests.task.osworld_multi_apps_inputs import MAKERS
from tests.task.osworld_e2e import imported, run_cli, scripted

NOTES = "multi_apps-51f5801c-18b3-4f25-b0c3-02f85507a078"
ASSIGNMENT = "multi_apps-bc2b57f3-686d-4ec9-87ce-edf850b7e442"


def wrong_notes() -> DesktopOraclePolicy:
    """51f5801c done wrong: the last slide's note left out."""
    task_id = next(t for t in SCRIPTS if t.endswith(NOTES.split("-", 1)[1]))
    return scripted(task_id, lambda: notes_document(DICKINSON_NOTES[:2]), "scripted-notes-missing-one")


def wrong_results() -> DesktopOraclePolicy:
    """bc2b57f3 done wrong: every student marked Pass (the pass mark ignored)."""
    task_id = next(t for t in SCRIPTS if t.endswith(ASSIGNMENT.split("-", 1)[1]))
    return scripted(task_id, lambda: result_column(["Pass", "Pass", "Pass"]), "scripted-all-pass")


#: Imported config -> the wrong solution (a policy spec) and a text the failed check's
#: report must show (what it observed of the wrong work).
WRONG = {
    NOTES: ("py:tests.task.test_osworld_e2e_multi_apps:wrong_notes", '"paragraphs": 2, "text": "Emily Dickinson wrote'),
    ASSIGNMENT: ("py:tests.task.test_osworld_e2e_multi_apps:wrong_results", "Scores!C3 is 'Pass', expected 'Fail'"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(WRONG))
def test_multi_apps_task_passes_the_oracle_and_fails_a_wrong_solution(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task_file = imported(name, tmp_path / "tasks", MAKERS[name.split("-", 1)[1]])
    code, outcome = run_cli(task_file, "desktop-oracle", tmp_path / "right", capsys)
    assert (code, outcome.termination, outcome.success) == (0, "done", True), outcome
    wrong, seen = WRONG[name]
    code, outcome = run_cli(task_file, wrong, tmp_path / "wrong", capsys)
    assert (code, outcome.termination, outcome.success) == (1, "done", False), outcome
    assert seen in json.dumps(outcome.detail), outcome.detail
