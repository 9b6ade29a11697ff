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
* :mod:`.qwen_computer` -- Qwen's ``computer_use`` function calls (``<tool_call>`` JSON), Qwen2.5-VL
  (smart_resize pixels) and Qwen3-VL (0..1000), with the system prompt declaring the tool.
* :mod:`.opencua` -- OpenCUA-7B/32B replies (``## Thought`` / ``## Action`` / pyautogui code with
  ``computer.*`` functions, smart_resize pixels), with their fixed system prompts.

The two computer-use tools answer in pixels of a declared display; :class:`DisplayScale`
maps those to the screen and back, and a call may ask to look instead of act
(:class:`ObservationRequest`).

The formats a model is prompted for and read in (``uitars``, ``uitars-v1``, ``pyautogui``,
``canonical``, ``json``, ``qwen2.5``, ``qwen3``, ``opencua``) are each one
:class:`ActionFormat` record -- name, system prompt, parser, writer, image size -- defined in
its module (:mod:`.canonical` and :mod:`.tool_calls` for the two that need no converter) and
listed once in :mod:`.registry` (:data:`FORMATS`). :mod:`.image_size` holds smart_resize and
its pixel bounds; :mod:`.thought_action` the ``Thought:/Action:`` prompt the SFT formats share.

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
from gui_agent.action_formats.image_size import ScreenPixels, SmartResize, smart_resize
from gui_agent.action_formats.openai_computer import (
    action_to_openai_computer,
    actions_to_openai_computer,
    openai_computer_tool,
    openai_display_scale,
    parse_openai_computer,
)
from gui_agent.action_formats.opencua import (
    OpenCUAReply,
    format_opencua,
    opencua_frame,
    opencua_instruction,
    opencua_system_prompt,
    parse_opencua,
)
from gui_agent.action_formats.pyautogui import action_to_pyautogui, parse_pyautogui
from gui_agent.action_formats.qwen_computer import (
    QwenComputerReply,
    format_qwen_computer,
    parse_qwen_computer,
    qwen_computer_frame,
    qwen_computer_system_prompt,
    qwen_computer_tool,
    qwen_tool_call_text,
)
from gui_agent.action_formats.registry import FORMATS, format_names
from gui_agent.action_formats.reply_format import ActionFormat, Reply, ToolCall, View
from gui_agent.action_formats.uitars import UITarsReply, format_uitars, parse_uitars

__all__ = [
    "FORMATS",
    "ActionFormat",
    "AnthropicComputerReader",
    "ComputerUseItem",
    "DisplayScale",
    "ObservationRequest",
    "OpenCUAReply",
    "QwenComputerReply",
    "Reply",
    "ScreenPixels",
    "SmartResize",
    "ToolCall",
    "UITarsReply",
    "View",
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
    "format_names",
    "format_opencua",
    "format_qwen_computer",
    "format_uitars",
    "openai_computer_tool",
    "openai_display_scale",
    "opencua_frame",
    "opencua_instruction",
    "opencua_system_prompt",
    "parse_anthropic_computer",
    "parse_browsergym",
    "parse_computer13",
    "parse_openai_computer",
    "parse_opencua",
    "parse_pyautogui",
    "parse_qwen_computer",
    "parse_uitars",
    "qwen_computer_frame",
    "qwen_computer_system_prompt",
    "qwen_computer_tool",
    "qwen_tool_call_text",
    "smart_resize",
]
