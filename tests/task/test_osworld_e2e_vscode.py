"""Imported OSWorld vscode tasks end to end through ``gui-agent run`` on the real desktop
(Xvfb, code-server's VS Code 1.100 in a Chromium window) with locally made inputs: the
desktop oracle's script passes, and a wrong script that does real work in VS Code fails,
with the check having seen that work.

Four tasks whose checks differ: the line length (a key of the user's settings.json,
``json_settings``), Ctrl+J from the terminal to the editor (an entry of keybindings.json,
``vscode_keybinding``), "text" to "test" in a document (the saved text against the
expected one, ``text_file_equal``) and the project folder opened (OSWorld's
``vscode_config``: the setup installs an evaluation extension with ``code
--install-extension``, the check runs its command from the command palette and reads
the folder's name it writes; the test builds that extension).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gui_agent.models.policies.desktop_oracle import osworld_vscode
from gui_agent.models.policies.desktop_oracle.policy import DesktopOraclePolicy
from tests.task.osworld_vscode_inputs import MAKERS
from tests.task.osworld_e2e import imported, leaf, passes_right_and_fails_wrong, scripted

_MODULE = "py:tests.task.test_osworld_e2e_vscode"


def line_length_80() -> DesktopOraclePolicy:
    """276cc624 done wrong: the line length set to 80 in settings.json."""
    return scripted(osworld_vscode.LINE_LENGTH, lambda: osworld_vscode.user_settings({"editor.wordWrapColumn": 80}),
                     "scripted-line-length-80")


def ctrl_j_in_the_editor() -> DesktopOraclePolicy:
    """930fdb3b done wrong: Ctrl+J bound while the editor (not the terminal) has the focus."""
    binding = {**osworld_vscode.CTRL_J_TO_EDITOR, "when": "editorTextFocus"}
    return scripted(osworld_vscode.FOCUS_EDITOR_KEY, lambda: osworld_vscode.keybindings([binding]), "scripted-ctrl-j-in-editor")


def replace_once() -> DesktopOraclePolicy:
    """0ed39f63 done wrong: Replace (the first match) instead of Replace All."""
    return scripted(osworld_vscode.REPLACE_TEXT, lambda: osworld_vscode.replace("vscode_replace_text.txt", "text", "test", every=False),
                     "scripted-replace-once")


def open_the_desktop_folder() -> DesktopOraclePolicy:
    """53ad5833 done wrong: the Desktop folder opened instead of the project."""
    return scripted(osworld_vscode.OPEN_PROJECT, lambda: osworld_vscode.open_folder("Desktop"), "scripted-open-desktop")


def saw_80(detail: dict[str, Any]) -> bool:
    return leaf(detail, "json_settings")["observed"]["settings"] == {"editor.wordWrapColumn": 80}


def saw_the_editor_binding(detail: dict[str, Any]) -> bool:
    return [b.get("when") for b in leaf(detail, "vscode_keybinding")["observed"]["bindings"]] == ["editorTextFocus"]


def saw_one_replacement(detail: dict[str, Any]) -> bool:
    text = leaf(detail, "text_file_equal")["observed"]["text"]
    return text.startswith("This is a test file.\n") and text.count("text") == 4


def saw_desktop_open(detail: dict[str, Any]) -> bool:
    return leaf(detail, "value")["observed"]["value"] == "Desktop"


#: Fixture -> the wrong solution, and what its check must have observed.
CASES: dict[str, tuple[str, Callable[[dict[str, Any]], bool]]] = {
    "vs_code-276cc624-87ea-4f08-ab93-f770e3790175": (f"{_MODULE}:line_length_80", saw_80),
    "vs_code-930fdb3b-11a8-46fe-9bac-577332e2640e": (f"{_MODULE}:ctrl_j_in_the_editor", saw_the_editor_binding),
    "vs_code-0ed39f63-6049-43d4-ba4d-5fa2fe04a951": (f"{_MODULE}:replace_once", saw_one_replacement),
    "vs_code-53ad5833-3455-407b-bbc6-45b4c79ab8fb": (f"{_MODULE}:open_the_desktop_folder", saw_desktop_open),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_imported_vscode_task_passes_the_oracle_and_fails_real_wrong_work(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wrong, saw_the_wrong_work = CASES[name]
    task_file = imported(name, tmp_path / "tasks", MAKERS[name.split("-", 1)[1]])
    passes_right_and_fails_wrong(task_file, wrong, saw_the_wrong_work, tmp_path, capsys)
