"""The ``canonical`` reply format: this project's own action calls (``click(120, 45)``).

The SFT prompt lists the canonical action space as the action docstrings say it
(:func:`gui_agent.actions.action_space_prompt`), and the reply is ``Thought: ...`` then
``Action:`` and the action's call text (:func:`gui_agent.actions.action_to_text`), in
screen pixels. It is a training format only: no model's replies are read in it, so it has
no parser (a policy that wants canonical actions from a general model asks for tool calls,
the ``json`` format).
"""

from __future__ import annotations

from gui_agent.action_formats.image_size import ScreenPixels
from gui_agent.action_formats.reply_format import ActionFormat, View
from gui_agent.action_formats.thought_action import history_in_format, thought_action_prompt, thought_action_reply
from gui_agent.actions import Action, action_space_prompt, action_to_text


def _write_reply(action: Action, thought: str | None, view: View) -> str:
    return thought_action_reply(thought, action_to_text(action))


CANONICAL = ActionFormat(
    name="canonical", family="canonical",
    summary="`Action: click(120, 45)`, the canonical action calls, screenshot pixels (training rows only)",
    image_size=ScreenPixels(), prompt=lambda view: thought_action_prompt("## Action space\n" + action_space_prompt()),
    writer=_write_reply, parser=None, history=history_in_format(_write_reply), sft=True,
)

__all__ = ["CANONICAL"]
