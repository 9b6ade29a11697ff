"""The ``json`` reply format: the canonical actions as functions a tool-calling model calls.

General models (GPT-4o, Llama, Qwen3-VL through Ollama...) are given one function per
canonical action (:func:`gui_agent.actions.action_tool_schemas`: the action docstrings
are the descriptions) and must call one; a call's arguments are the action's fields, in
pixels of the screenshot. The server returns the calls apart from the text
(``message.tool_calls``), so the reply is recorded, written and read as one JSON
document, ``{"content": <text or null>, "tool_calls": [{"name": ..., "arguments": "<JSON>"}]}``;
the text, when the model wrote one, is its thought.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from gui_agent.action_formats.image_size import ScreenPixels
from gui_agent.action_formats.reply_format import ActionFormat, Reply, ToolCall, View
from gui_agent.actions import Action, action_from_dict, action_to_dict, action_tool_schemas
from gui_agent.errors import ActionError, ActionParseError

#: The system prompt: the job, and that a tool call is the answer.
SYSTEM_PROMPT = (
    "You are a GUI agent. You are given a task, your previous actions and a screenshot of the screen. "
    "Do the next action to complete the task by calling exactly one of the tools. Coordinates are pixels "
    "of the screenshot, origin top-left. You may say what you see and plan in one or two sentences first."
)


def tool_calls_reply(content: str, tool_calls: Sequence[ToolCall]) -> str:
    """The reply as the JSON document this format reads: the text (null when empty) and the calls."""
    calls = [{"name": call.name, "arguments": call.arguments} for call in tool_calls]
    return json.dumps({"content": content or None, "tool_calls": calls})


def _write(action: Action, thought: str | None, view: View) -> str:
    fields = {key: value for key, value in action_to_dict(action).items() if key != "kind"}
    return tool_calls_reply(thought or "", [ToolCall(action.kind, json.dumps(fields))])


def _parse(text: str, view: View) -> Reply:
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        raise ActionParseError("a json-format reply must be a JSON document of content and tool_calls", text) from None
    if not isinstance(document, Mapping) or not isinstance(document.get("tool_calls"), list):
        raise ActionParseError("a json-format reply must be an object with a tool_calls list", text)
    calls = document["tool_calls"]
    if not calls:
        raise ActionParseError("the reply calls no tool", text)
    actions = [_action(call, text) for call in calls]
    content = document.get("content") or ""
    return Reply((content.strip() or None) if isinstance(content, str) else None, actions)


def _action(call: Any, raw: str) -> Action:
    name = call.get("name") if isinstance(call, Mapping) else None
    arguments = call.get("arguments") if isinstance(call, Mapping) else None
    if isinstance(arguments, str) or arguments is None:
        try:
            arguments = json.loads(arguments or "{}")
        except json.JSONDecodeError as exc:
            raise ActionParseError(f"{name}: arguments are not JSON ({exc})", raw) from None
    if not isinstance(arguments, Mapping):
        raise ActionParseError(f"{name}: arguments must be an object", raw)
    try:
        return action_from_dict({"kind": name, **arguments})
    except ActionError as exc:
        raise ActionParseError(str(exc), raw) from None


JSON = ActionFormat(
    name="json", family="tool calls",
    summary="a tool call of one of the canonical actions (general models: GPT-4o, Llama...), screenshot pixels",
    image_size=ScreenPixels(), prompt=lambda view: SYSTEM_PROMPT, writer=_write, parser=_parse,
    tools=tuple(action_tool_schemas()), reply_text=tool_calls_reply,
    mark_hint=("Each numbered box on the screenshot is an element of the table. To click one, you may call click "
               "with its number instead of a point: click(mark=N)."),
)

__all__ = ["JSON", "SYSTEM_PROMPT", "tool_calls_reply"]
