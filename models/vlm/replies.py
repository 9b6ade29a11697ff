"""Reading a model's reply into a thought and canonical actions, by reply format.

All parsing is the foundation's (:mod:`gui_agent.action_formats`): ``parse_uitars`` for
``uitars`` (UI-TARS-1.5, smart_resize pixels) and ``uitars-v1`` (0..1000), and
``parse_pyautogui`` for the code after ``Action:`` in ``pyautogui`` replies. An unreadable
reply raises :class:`~gui_agent.errors.ActionParseError` with the whole text; the runner
records it as the agent's error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gui_agent.action_formats import parse_pyautogui, parse_uitars
from gui_agent.action_formats.uitars import MAX_PIXELS, MIN_PIXELS
from gui_agent.actions import Action
from gui_agent.errors import ActionParseError

_ACTION_LINE = re.compile(r"^[ \t]*Action:[ \t]*", re.MULTILINE)


@dataclass(frozen=True)
class ParsedReply:
    thought: str | None
    actions: list[Action]


def parse_reply(
    text: str,
    action_format: str,
    *,
    screen_width: int,
    screen_height: int,
    min_pixels: int = MIN_PIXELS,
    max_pixels: int = MAX_PIXELS,
) -> ParsedReply:
    """Thought and actions of a reply in ``action_format`` (``uitars``, ``uitars-v1``, ``pyautogui``).

    ``min_pixels``/``max_pixels``: the smart_resize bounds the model's images were resized
    with (``uitars`` only): its coordinates are pixels of that resized image.
    """
    if action_format in ("uitars", "uitars-v1"):
        reply = parse_uitars(
            text,
            screen_width=screen_width,
            screen_height=screen_height,
            version="1.5" if action_format == "uitars" else "v1",
            min_pixels=min_pixels,
            max_pixels=max_pixels,
        )
        return ParsedReply(reply.thought, list(reply.actions))
    if action_format == "pyautogui":
        match = _ACTION_LINE.search(text)
        if match is None:
            raise ActionParseError("no 'Action:' line in the reply", text)
        header, code = text[: match.start()], text[match.end() :]
        thought = header.split("Thought:", 1)[1].strip() if "Thought:" in header else header.strip()
        try:
            actions = parse_pyautogui(code.strip())
        except ActionParseError as exc:
            raise ActionParseError(exc.reason, text) from None
        return ParsedReply(thought or None, actions)
    raise ValueError(f"no parser for reply format {action_format!r}; expected uitars, uitars-v1 or pyautogui")
