"""Oracle scripts for imported OSWorld gimp tasks, keyboard only.

GIMP 2.10's menus open with Alt and their underlined letter (Image: Alt+I, Colors: Alt+C,
Windows: Alt+W), and so do their items; a dialog's fields are reached with Tab and its
OK button with Alt+O. The main window's title starts with ``*`` once the image has
unsaved changes, which is how a script knows an edit was applied. The tasks' own post
steps export the image (Shift+Ctrl+E) and quit GIMP (Ctrl+Q), as OSWorld's do; the scripts
only do the work the instruction asks for.
"""

from __future__ import annotations

from collections.abc import Callable

from gui_agent.models.policies.desktop_oracle.script import Item, WaitForTitle, keys, type_text

#: The main window with an image open (``[name] (imported)-1.0 (...) – GIMP``), and once edited (``*[name]...``).
IMAGE_WINDOW = r"^\[.+\].* GIMP$"
EDITED_IMAGE_WINDOW = r"^\*\[.+\].* GIMP$"
#: The main window without an image.
EMPTY_WINDOW = r"^GNU Image Manipulation Program$"


def flip(axis: str) -> list[Item]:
    """Image > Transform > Flip Horizontally (``axis`` "h") or Vertically ("v")."""
    return [WaitForTitle(IMAGE_WINDOW, timeout_s=30.0), keys("alt", "i"), keys("t"), keys(axis),
            WaitForTitle(EDITED_IMAGE_WINDOW)]


def brightness(change: int) -> list[Item]:
    """Colors > Brightness-Contrast, Brightness ``change`` (-127..127), OK."""
    return [
        WaitForTitle(IMAGE_WINDOW, timeout_s=30.0), keys("alt", "c"), keys("r"), keys("enter"),
        WaitForTitle("^Brightness-Contrast$"), keys("tab"), type_text(str(change)), keys("tab"), keys("alt", "o"),
        WaitForTitle(EDITED_IMAGE_WINDOW),
    ]


def hide_docks() -> list[Item]:
    """Windows > Hide Docks (its shortcut, Tab)."""
    return [WaitForTitle(EMPTY_WINDOW, timeout_s=30.0), keys("tab")]


def single_window_mode_off() -> list[Item]:
    """Windows > Single-Window Mode, unticked (the docks become windows of their own)."""
    return [WaitForTitle(EMPTY_WINDOW, timeout_s=30.0), keys("alt", "w"), keys("m")]


_GIMP = "osworld.gimp."
#: The mirror task (72f83cdc), the darker photo (7a4deb26), the hidden docks (d52d6308).
MIRROR = _GIMP + "72f83cdc-bf76-4531-9a1b-eb893a13f8aa"
DARKER = _GIMP + "7a4deb26-d57d-4ea9-9a73-630f66a7b568"
HIDE_DOCKS = _GIMP + "d52d6308-ec58-42b7-a2c9-de80e4837b2b"

#: Task id -> the script solving it.
SCRIPTS: dict[str, Callable[[], list[Item]]] = {
    MIRROR: lambda: flip("h"),
    DARKER: lambda: brightness(-40),
    HIDE_DOCKS: hide_docks,
}
