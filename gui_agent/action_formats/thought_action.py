"""The ``Thought: ... / Action: ...`` reply this project prompts for, shared by its SFT formats.

The formats a model is fine-tuned on here (``uitars``, ``uitars-v1``, ``pyautogui``,
``canonical``) share one system prompt shape and one reply shape::

    system     what the agent is, the output format, then the format's action space
    assistant  Thought: <what it sees and plans>
               Action: <the action, in the format's own syntax>

Each format gives its action space and its action syntax; this module puts them together
and reads them apart. Previous actions are listed in the user turn in the format's own
syntax (the text after ``Action:``), so a model sees its history as it wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gui_agent.action_formats.reply_format import View
from gui_agent.actions import Action, action_to_text
from gui_agent.errors import ActionError, ActionParseError

_PREAMBLE = (
    "You are a GUI agent. You are given a task, your previous actions and a screenshot of the screen. "
    "Perform the next action to complete the task.\n\n"
    "## Output format\nThought: <what you see and plan, in one or two sentences>\nAction: <the action>\n\n"
)
_ACTION_LINE = re.compile(r"^[ \t]*Action:[ \t]*", re.MULTILINE)
_ACTION_LABEL = "Action: "


def thought_action_prompt(action_space: str) -> str:
    """The system prompt: the agent's job, the Thought/Action output format, then ``action_space``
    (a ``## Action space`` section)."""
    return _PREAMBLE + action_space


def thought_action_reply(thought: str | None, action: str) -> str:
    """``Thought: ...`` (when there is one), then ``Action: <action>``."""
    return f"{_ACTION_LABEL}{action}" if thought is None else f"Thought: {thought}\n{_ACTION_LABEL}{action}"


def split_thought_action(text: str) -> tuple[str | None, str]:
    """(thought, the text after the first ``Action:`` line) of a reply.

    The thought is what follows ``Thought:`` before the action (or all the text before it
    when there is no ``Thought:``), None when empty.

    Raises:
        ActionParseError: no line starts with ``Action:`` (``.raw`` is ``text``).
    """
    match = _ACTION_LINE.search(text)
    if match is None:
        raise ActionParseError("no 'Action:' line in the reply", text)
    header, action = text[: match.start()], text[match.end() :]
    thought = header.split("Thought:", 1)[1].strip() if "Thought:" in header else header.strip()
    return thought or None, action


def history_in_format(writer: Callable[[Action, str | None, View], str]) -> Callable[[Action, View], str]:
    """List a previous action as ``writer`` writes it after ``Action:``; in canonical text
    where the format cannot express it."""

    def history(action: Action, view: View) -> str:
        try:
            return writer(action, None, view).split(_ACTION_LABEL, 1)[-1]
        except ActionError:
            return action_to_text(action)

    return history


__all__ = ["history_in_format", "split_thought_action", "thought_action_prompt", "thought_action_reply"]
