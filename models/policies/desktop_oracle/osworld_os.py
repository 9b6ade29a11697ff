"""Oracle scripts for imported OSWorld os tasks: commands typed into the terminal.

OSWorld's os tasks are done in Ubuntu's terminal; here the terminal is xterm running bash
(the desktop's ``terminal`` app). A task's set-up opens it (GNOME's Ctrl+Alt+T), or opens
a folder in the file manager, whose F4 (Tools > Open Current Folder in Terminal) opens it
there. Each script waits for the terminal to have the focus, types the command line a
person would, and waits a moment for bash to print its result on the screen.
"""

from __future__ import annotations

from collections.abc import Callable

from gui_agent.actions import Wait
from gui_agent.models.policies.desktop_oracle.script import Item, WaitForTitle, keys, type_text

_OS = "osworld.os."
#: The terminal's window title.
TERMINAL = "^Terminal$"


def in_terminal(*lines: str) -> list[Item]:
    """Type each command line (Enter after each) into the focused terminal."""
    return [WaitForTitle(TERMINAL), *(type_text(line + "\n") for line in lines), Wait(1.0)]


def append_br() -> list[Item]:
    """5ced85fc: "1\\n2\\n3" with "<br/>" at the end of each line, saved in output.txt."""
    return in_terminal("printf '1\\n2\\n3\\n' | sed 's|$|<br/>|' > output.txt")


def count_php_lines(command: str = "find . -name '*.php' -print0 | xargs -0 cat | wc -l") -> list[Item]:
    """4127319a: the lines of all .php files under the folder shown, counted in a terminal
    opened there from the file manager (F4), the count left on its screen."""
    return [WaitForTitle("^project$"), keys("f4"), *in_terminal(command)]


def permissions_644() -> list[Item]:
    """4d117223: every regular file under the current folder (testDir) to mode 644."""
    return in_terminal("find . -type f -exec chmod 644 {} +")


#: Task id -> the script solving it.
SCRIPTS: dict[str, Callable[[], list[Item]]] = {
    _OS + "5ced85fc-fa1a-4217-95fd-0fb530545ce2": append_br,
    _OS + "4127319a-8b79-4410-b58a-7a151e15f3d7": count_php_lines,
    _OS + "4d117223-a354-47fb-8b45-62ab1390a95f": permissions_644,
}
