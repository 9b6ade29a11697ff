"""Every reply format a model is prompted for and read in, by name: the one list of them.

Each format is one :class:`~gui_agent.action_formats.reply_format.ActionFormat`, defined in
its module, and registered here. The SFT export (:mod:`gui_agent.export.sft`), the
``openai:`` and ``hf:`` policies and ``gui-agent train vlm`` look formats up here and ask
the record, so none of them compares format names.

Adding a format: write its module (converters, then an ``ActionFormat`` with its name,
system prompt, parser, writer and image size), and add it to :data:`FORMATS` below.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from gui_agent.action_formats.canonical import CANONICAL
from gui_agent.action_formats.opencua import OPENCUA
from gui_agent.action_formats.pyautogui import PYAUTOGUI
from gui_agent.action_formats.qwen_computer import QWEN3, QWEN25
from gui_agent.action_formats.reply_format import ActionFormat
from gui_agent.action_formats.tool_calls import JSON
from gui_agent.action_formats.uitars import UITARS, UITARS_V1

#: The registered formats by name, in the order help texts list them (UI-TARS v1 before 1.5).
FORMATS: Mapping[str, ActionFormat] = MappingProxyType(
    {f.name: f for f in (UITARS_V1, UITARS, PYAUTOGUI, CANONICAL, JSON, QWEN25, QWEN3, OPENCUA)}
)


def format_names(*, sft: bool = False, parses: bool = False) -> tuple[str, ...]:
    """Names of the registered formats, those that have what is asked for.

    Args:
        sft: only formats the SFT export writes and ``gui-agent train vlm`` trains on.
        parses: only formats whose replies can be read (a policy can be served in them).
    """
    return tuple(name for name, f in FORMATS.items() if (f.sft or not sft) and (f.parses or not parses))


__all__ = ["FORMATS", "format_names"]
