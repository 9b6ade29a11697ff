"""AT-SPI's names and numbers, as the D-Bus interface speaks them (at-spi2-core 2.46).

The reader talks AT-SPI over D-Bus itself (:mod:`.connection`), so it needs the tables
libatspi keeps: role numbers to role names (``43`` is ``"push button"``), state bits to
state names, and the interface and object names. The names are those OSWorld's XML uses:
roles as libatspi names them (spaces become ``-`` in tags), states as pyatspi's
``StateType`` names them less ``STATE_``, in lower case (``multi_line``, ``has_popup``).
"""

from __future__ import annotations

#: Role names by role number (``AtspiRole``), as ``atspi_role_get_name`` gives them.
ROLE_NAMES: tuple[str, ...] = (
    "invalid", "accelerator label", "alert", "animation", "arrow", "calendar", "canvas", "check box",
    "check menu item", "color chooser", "column header", "combo box", "date editor", "desktop icon",
    "desktop frame", "dial", "dialog", "directory pane", "drawing area", "file chooser", "filler",
    "focus traversable", "font chooser", "frame", "glass pane", "html container", "icon", "image",
    "internal frame", "label", "layered pane", "list", "list item", "menu", "menu bar", "menu item",
    "option pane", "page tab", "page tab list", "panel", "password text", "popup menu", "progress bar",
    "push button", "radio button", "radio menu item", "root pane", "row header", "scroll bar", "scroll pane",
    "separator", "slider", "spin button", "split pane", "status bar", "table", "table cell",
    "table column header", "table row header", "tearoff menu item", "terminal", "text", "toggle button",
    "tool bar", "tool tip", "tree", "tree table", "unknown", "viewport", "window", "extended", "header",
    "footer", "paragraph", "ruler", "application", "autocomplete", "editbar", "embedded", "entry", "chart",
    "caption", "document frame", "heading", "page", "section", "redundant object", "form", "link",
    "input method window", "table row", "tree item", "document spreadsheet", "document presentation",
    "document text", "document web", "document email", "comment", "list box", "grouping", "image map",
    "notification", "info bar", "level bar", "title bar", "block quote", "audio", "video", "definition",
    "article", "landmark", "log", "marquee", "math", "rating", "timer", "static", "math fraction",
    "math root", "subscript", "superscript", "description list", "description term", "description value",
    "footnote", "content deletion", "content insertion", "mark", "suggestion", "push button menu",
)
#: The role number whose name the app gives itself (``GetRoleName``).
ROLE_EXTENDED = 70

#: State names by bit number (``AtspiStateType``), as OSWorld writes them.
STATE_NAMES: tuple[str, ...] = (
    "invalid", "active", "armed", "busy", "checked", "collapsed", "defunct", "editable", "enabled",
    "expandable", "expanded", "focusable", "focused", "has_tooltip", "horizontal", "iconified", "modal",
    "multi_line", "multiselectable", "opaque", "pressed", "resizable", "selectable", "selected", "sensitive",
    "showing", "single_line", "stale", "transient", "vertical", "visible", "manages_descendants",
    "indeterminate", "required", "truncated", "animated", "invalid_entry", "supports_autocompletion",
    "selectable_text", "is_default", "visited", "checkable", "has_popup", "read_only",
)
STATE_ACTIVE = 1
STATE_SHOWING = 25
STATE_VISIBLE = 30
STATE_MANAGES_DESCENDANTS = 31

#: The registry: its bus name and the desktop's object (its children are the apps).
REGISTRY = "org.a11y.atspi.Registry"
ROOT_PATH = "/org/a11y/atspi/accessible/root"
#: The path AT-SPI uses for "no object" (a null reference).
NULL_PATH = "/org/a11y/atspi/null"

ACCESSIBLE = "org.a11y.atspi.Accessible"
ACTION = "org.a11y.atspi.Action"
APPLICATION = "org.a11y.atspi.Application"
COMPONENT = "org.a11y.atspi.Component"
IMAGE = "org.a11y.atspi.Image"
SELECTION = "org.a11y.atspi.Selection"
TABLE = "org.a11y.atspi.Table"
TEXT = "org.a11y.atspi.Text"
VALUE = "org.a11y.atspi.Value"
PROPERTIES = "org.freedesktop.DBus.Properties"
#: ``Component.GetExtents`` and friends: coordinates relative to the screen.
COORD_SCREEN = 0


def role_name(role: int) -> str:
    """The name of role number ``role`` (``"unknown"`` for numbers past the table)."""
    return ROLE_NAMES[role] if 0 <= role < len(ROLE_NAMES) else "unknown"


def state_names(words: list[int] | tuple[int, ...]) -> list[str]:
    """The names of the states set in AT-SPI's state set (two 32-bit words)."""
    names = []
    for word_index, word in enumerate(words[:2]):
        for bit in range(32):
            number = word_index * 32 + bit
            if word >> bit & 1 and number < len(STATE_NAMES):
                names.append(STATE_NAMES[number])
    return names


def has_state(words: list[int] | tuple[int, ...], state: int) -> bool:
    """True if bit ``state`` is set in the state set ``words``."""
    index, bit = divmod(state, 32)
    return index < len(words) and bool(words[index] >> bit & 1)


__all__ = [
    "ACCESSIBLE", "ACTION", "APPLICATION", "COMPONENT", "COORD_SCREEN", "IMAGE", "NULL_PATH", "PROPERTIES", "REGISTRY", "ROLE_EXTENDED",
    "ROLE_NAMES", "ROOT_PATH", "SELECTION", "STATE_ACTIVE", "STATE_MANAGES_DESCENDANTS", "STATE_NAMES", "STATE_SHOWING",
    "STATE_VISIBLE", "TABLE", "TEXT", "VALUE", "has_state", "role_name", "state_names",
]
