"""Converters between the canonical actions (:mod:`gui_agent.actions`) and other formats.

One module per format, each with a reader (foreign -> canonical, raising
:class:`~gui_agent.errors.ActionParseError` with the raw input) and a writer
(canonical -> foreign, raising :class:`~gui_agent.errors.ActionError` for what the format
cannot express):

* :mod:`.pyautogui` -- OSWorld pyautogui code and its ``WAIT``/``DONE``/``FAIL`` strings.
* :mod:`.computer13` -- OSWorld ``computer_13`` action dicts.
* :mod:`.browsergym` -- BrowserGym coordinate actions (``mouse_click(x, y)``...).
* :mod:`.uitars` -- UI-TARS replies, v1 (0..1000) and 1.5 (smart_resize pixels).

Only the standard library is used; importing this package loads nothing heavy.
"""

from gui_agent.action_formats.browsergym import action_to_browsergym, actions_to_browsergym, parse_browsergym
from gui_agent.action_formats.computer13 import action_to_computer13, actions_to_computer13, parse_computer13
from gui_agent.action_formats.pyautogui import action_to_pyautogui, parse_pyautogui
from gui_agent.action_formats.uitars import UITarsReply, format_uitars, parse_uitars, smart_resize

__all__ = [
    "UITarsReply",
    "action_to_browsergym",
    "action_to_computer13",
    "action_to_pyautogui",
    "actions_to_browsergym",
    "actions_to_computer13",
    "format_uitars",
    "parse_browsergym",
    "parse_computer13",
    "parse_pyautogui",
    "parse_uitars",
    "smart_resize",
]
