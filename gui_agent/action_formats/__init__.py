"""Converters between the canonical actions (:mod:`gui_agent.actions`) and other formats.

One module per format, each with a reader (foreign -> canonical, raising
:class:`~gui_agent.errors.ActionParseError` with the raw input) and a writer
(canonical -> foreign, raising :class:`~gui_agent.errors.ActionError` for what the format
cannot express):

* :mod:`.pyautogui` -- OSWorld pyautogui code and its ``WAIT``/``DONE``/``FAIL`` strings.
* :mod:`.computer13` -- OSWorld ``computer_13`` action dicts.
* :mod:`.browsergym` -- BrowserGym coordinate actions (``mouse_click(x, y)``...).
* :mod:`.uitars` -- UI-TARS replies, v1 (0..1000) and 1.5 (smart_resize pixels).
* :mod:`.anthropic_computer` -- Anthropic's computer-use tool inputs (``computer_20250124``,
  ``computer_20251124``).
* :mod:`.openai_computer` -- OpenAI's Responses API computer tool actions (``computer_call``).

The two computer-use tools answer in pixels of a declared display; :class:`DisplayScale`
maps those to the screen and back, and a call may ask to look instead of act
(:class:`ObservationRequest`).

Only the standard library is used; importing this package loads nothing heavy.
"""

from gui_agent.action_formats._gestures import ComputerUseItem, DisplayScale, ObservationRequest
from gui_agent.action_formats.anthropic_computer import (
    AnthropicComputerReader,
    action_to_anthropic_computer,
    actions_to_anthropic_computer,
    anthropic_computer_tool,
    anthropic_display_scale,
    parse_anthropic_computer,
)
from gui_agent.action_formats.browsergym import action_to_browsergym, actions_to_browsergym, parse_browsergym
from gui_agent.action_formats.computer13 import action_to_computer13, actions_to_computer13, parse_computer13
from gui_agent.action_formats.openai_computer import (
    action_to_openai_computer,
    actions_to_openai_computer,
    openai_computer_tool,
    openai_display_scale,
    parse_openai_computer,
)
from gui_agent.action_formats.pyautogui import action_to_pyautogui, parse_pyautogui
from gui_agent.action_formats.uitars import UITarsReply, format_uitars, parse_uitars, smart_resize

__all__ = [
    "AnthropicComputerReader",
    "ComputerUseItem",
    "DisplayScale",
    "ObservationRequest",
    "UITarsReply",
    "action_to_anthropic_computer",
    "action_to_browsergym",
    "action_to_computer13",
    "action_to_openai_computer",
    "action_to_pyautogui",
    "actions_to_anthropic_computer",
    "actions_to_browsergym",
    "actions_to_computer13",
    "actions_to_openai_computer",
    "anthropic_computer_tool",
    "anthropic_display_scale",
    "format_uitars",
    "openai_computer_tool",
    "openai_display_scale",
    "parse_anthropic_computer",
    "parse_browsergym",
    "parse_computer13",
    "parse_openai_computer",
    "parse_pyautogui",
    "parse_uitars",
    "smart_resize",
]
