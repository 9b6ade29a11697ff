"""Oracle scripts for imported OSWorld vscode tasks, keyboard only, through VS Code's own UI.

Settings and key bindings go through the command palette (Ctrl+Shift+P, a command's
name, Enter), as a person who knows VS Code does it: "Preferences: Open User Settings (JSON)" opens the
user's ``settings.json`` and "Preferences: Open Keyboard Shortcuts (JSON)" their
``keybindings.json`` in the editor, where the script replaces the text (Ctrl+A, typing)
and saves (Ctrl+S). The editor closes brackets and quotes as they are typed; what it
closed and did not type over is after the cursor once the text is typed, and goes
(Ctrl+Shift+End, Delete). The window title (``settings.json - Visual Studio Code``, with ``●`` in front while
unsaved) says when the file is open and when it is saved.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from gui_agent.actions import Wait
from gui_agent.models.policies.desktop_oracle.script import Item, WaitForTitle, keys, type_text

#: The window with no folder open.
WINDOW = r"Visual Studio Code$"


def run_command(title: str, *, below: int = 0) -> list[Item]:
    """Run the command titled ``title`` from the command palette; ``below``: it is listed that
    many places below the first match (the palette lists matches alphabetically, and
    "Open Default Keyboard Shortcuts (JSON)" matches "Open Keyboard Shortcuts (JSON)" too).
    The palette takes a moment to come up the first time (it lists every command), and so
    does what the command opens; the script waits for both with one ``wait`` each, as a
    barrier's polls are steps too and an imported task has 15."""
    choose = [type_text(f"{title}\n")] if not below else [type_text(title), *[keys("down")] * below, keys("enter")]
    return [WaitForTitle(WINDOW, timeout_s=30.0), keys("ctrl", "shift", "p"), Wait(1.0), *choose, Wait(2.0)]


def replace_file_text(file_name: str, text: str) -> list[Item]:
    """In the editor of ``file_name`` just opened: select everything, type ``text``, drop what
    the editor's auto-closing left after the cursor (a closing quote or brace it did not
    type over), save."""
    saved = rf"^{file_name.replace('.', '[.]')} - .*Visual Studio Code$"
    return [WaitForTitle(saved, timeout_s=20.0), keys("ctrl", "a"), type_text(text),
            keys("ctrl", "shift", "end"), keys("delete"), keys("ctrl", "s"), WaitForTitle(saved)]


def user_settings(settings: dict[str, Any]) -> list[Item]:
    """The user's settings.json becomes ``settings`` (Preferences: Open User Settings (JSON))."""
    return [*run_command("Preferences: Open User Settings (JSON)"), *replace_file_text("settings.json", json.dumps(settings))]


def keybindings(bindings: list[dict[str, Any]]) -> list[Item]:
    """The user's keybindings.json becomes ``bindings`` (Preferences: Open Keyboard Shortcuts (JSON))."""
    return [*run_command("Preferences: Open Keyboard Shortcuts (JSON)", below=1),
            *replace_file_text("keybindings.json", json.dumps(bindings))]


def replace(file_name: str, find: str, replacement: str, *, every: bool = True) -> list[Item]:
    """In the open ``file_name``: Edit > Replace (Ctrl+H), ``find`` (Tab to the replacement)
    ``replacement``, Replace All (Ctrl+Alt+Enter; ``every=False``: Replace, one match,
    Ctrl+Shift+1), close the box, save."""
    saved = rf"^{file_name.replace('.', '[.]')} - .*Visual Studio Code$"
    apply = keys("ctrl", "alt", "enter") if every else keys("ctrl", "shift", "1")
    return [WaitForTitle(saved, timeout_s=30.0), keys("ctrl", "h"), type_text(find), keys("tab"), type_text(replacement),
            apply, keys("escape"), keys("ctrl", "s"), WaitForTitle(saved)]


def open_folder(path: str) -> list[Item]:
    """File > Open Folder (Ctrl+K Ctrl+O): VS Code's own folder dialog starts in the home
    folder; typing ``path/`` goes into it, Enter opens it. The window reloads with the
    folder (its name starts the title) and registers its extensions again."""
    name = path.rstrip("/").rsplit("/", 1)[-1].replace(".", "[.]")
    return [WaitForTitle(WINDOW, timeout_s=30.0), keys("ctrl", "k"), keys("ctrl", "o"), Wait(1.5), type_text(f"{path.rstrip('/')}/"),
            Wait(1.0), keys("enter"), Wait(3.0), WaitForTitle(rf"^{name} - Visual Studio Code$", timeout_s=20.0), Wait(2.0)]


_VSCODE = "osworld.vs_code."
#: Line length 50 (276cc624), Ctrl+J from the terminal to the editor (930fdb3b), "text" to "test" (0ed39f63).
LINE_LENGTH = _VSCODE + "276cc624-87ea-4f08-ab93-f770e3790175"
FOCUS_EDITOR_KEY = _VSCODE + "930fdb3b-11a8-46fe-9bac-577332e2640e"
REPLACE_TEXT = _VSCODE + "0ed39f63-6049-43d4-ba4d-5fa2fe04a951"
#: Open the project folder (53ad5833; its check runs an evaluation extension's command).
OPEN_PROJECT = _VSCODE + "53ad5833-3455-407b-bbc6-45b4c79ab8fb"
#: 930fdb3b's binding.
CTRL_J_TO_EDITOR = {"key": "ctrl+j", "command": "workbench.action.focusActiveEditorGroup", "when": "terminalFocus"}

#: Task id -> the script solving it.
SCRIPTS: dict[str, Callable[[], list[Item]]] = {
    LINE_LENGTH: lambda: user_settings({"editor.wordWrapColumn": 50}),
    FOCUS_EDITOR_KEY: lambda: keybindings([CTRL_J_TO_EDITOR]),
    REPLACE_TEXT: lambda: replace("vscode_replace_text.txt", "text", "test"),
    OPEN_PROJECT: lambda: open_folder("project"),
}
