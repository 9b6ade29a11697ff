"""What a reply format declares: the record every format module fills in, and the registry keeps.

A model is prompted for replies in one format and its replies are read in the same one, so
the prompt and the parser belong together, as in BrowserGym's ``HighLevelActionSet`` (its
``describe()`` is the prompt, its ``to_python_code()`` the parser). An :class:`ActionFormat`
holds, for one format:

* its **name** (``format=`` of an ``openai:`` or ``hf:`` spec, ``--action-format`` of the SFT
  export, ``--format`` of ``gui-agent train vlm``);
* its **system prompt**, given the screen (Qwen2.5-VL's declares the resized resolution);
* its **parser**: reply text -> thought and canonical actions in screen pixels (none for a
  format no model is read in);
* its **writer**: canonical action and thought -> the reply a model is trained on, raising
  :class:`~gui_agent.errors.ActionError` for what the format cannot express;
* its **image size**: the screen's pixels, or ``smart_resize`` with min/max pixels
  (:mod:`.image_size`);
* how a previous action is listed in the user turn, the tools a request declares (tool-call
  formats) and how a reply whose tool calls a server moved out of the text reads as text.

Formats are values: :meth:`ActionFormat.with_pixels` gives the same format for a server
whose processor resizes with other bounds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gui_agent.action_formats.image_size import ImageSize, SmartResize
from gui_agent.actions import Action, action_to_text


@dataclass(frozen=True)
class View:
    """What the model was shown: the screenshot's size in screen pixels, and how it was resized.

    Attributes:
        screen_width: the screenshot's width, in observation pixels.
        screen_height: its height.
        image_size: the rule the image was sized by for the model (the format's, or a
            server's bounds).
    """

    screen_width: int
    screen_height: int
    image_size: ImageSize

    def pixel_bounds(self) -> dict[str, int]:
        """``min_pixels`` and ``max_pixels`` as keyword arguments of a converter; none for screen pixels."""
        if isinstance(self.image_size, SmartResize):
            return {"min_pixels": self.image_size.min_pixels, "max_pixels": self.image_size.max_pixels}
        return {}


@dataclass(frozen=True)
class Reply:
    """A parsed reply: the model's thought (None when it wrote none) and its actions, in order."""

    thought: str | None
    actions: list[Action]


@dataclass(frozen=True)
class ToolCall:
    """A function call a server returned apart from the reply's text (OpenAI's ``tool_calls``).

    Attributes:
        name: the function's name.
        arguments: its arguments, as the server gave them (a JSON string, or an object).
    """

    name: str
    arguments: str | Mapping[str, Any] | None


def canonical_history_line(action: Action, view: View) -> str:
    """A previous action listed as the canonical call text (``click(120, 45)``)."""
    return action_to_text(action)


def content_only(content: str, tool_calls: Sequence[ToolCall]) -> str:
    """The reply's text; tool calls a format does not ask for are not part of its reply."""
    return content


@dataclass(frozen=True)
class ActionFormat:
    """One reply format, everything about it in one record (see the module docstring).

    Attributes:
        name: the format's name.
        family: the models whose replies these are ("UI-TARS", "Qwen computer_use"...); the
            formats of one family may share a prompt and differ in coordinates.
        summary: what the model writes and in which coordinates, in one line (help texts).
        image_size: the size the screenshot is shown at (the model's own defaults).
        prompt: the system prompt for a :class:`View`.
        writer: ``(action, thought, view) -> reply``; raises ActionError for an action the
            format cannot express.
        parser: ``(text, view) -> Reply``; raises ActionParseError with the text in ``.raw``.
            None for a format no model's replies are read in.
        history: how a previous action is listed in the user turn.
        tools: function schemas a request declares (OpenAI ``tools``), for tool-call formats.
        reply_text: the reply as one text, from the message's content and the tool calls a
            server returned apart from it (what :attr:`parser` reads and the step records).
        sft: the SFT export writes its rows and ``gui-agent train vlm`` trains on them (its
            system prompt is one of this project's Thought/Action prompts); formats without
            it are prompted as their makers prompt their models and served over HTTP.
        mark_hint: how a model shown set-of-marks may name a mark in this format (the text
            added to its observation); None: it cannot, and answers with points.
    """

    name: str
    family: str
    summary: str
    image_size: ImageSize
    prompt: Callable[[View], str]
    writer: Callable[[Action, str | None, View], str]
    parser: Callable[[str, View], Reply] | None
    history: Callable[[Action, View], str] = canonical_history_line
    tools: tuple[Mapping[str, Any], ...] = field(default=())
    reply_text: Callable[[str, Sequence[ToolCall]], str] = content_only
    sft: bool = False
    mark_hint: str | None = None

    @property
    def parses(self) -> bool:
        """Whether a model's replies in this format can be read."""
        return self.parser is not None

    def with_pixels(self, *, min_pixels: int | None = None, max_pixels: int | None = None) -> ActionFormat:
        """This format for a processor with other smart_resize bounds (unchanged for screen pixels)."""
        if not isinstance(self.image_size, SmartResize):
            return self
        bounds = SmartResize(
            min_pixels=self.image_size.min_pixels if min_pixels is None else min_pixels,
            max_pixels=self.image_size.max_pixels if max_pixels is None else max_pixels,
        )
        return replace(self, image_size=bounds)

    def view(self, screen_width: int, screen_height: int) -> View:
        """The :class:`View` of a screenshot of this size under this format's image rule."""
        return View(screen_width, screen_height, self.image_size)

    def image_frame(self, screen_width: int, screen_height: int) -> tuple[int, int]:
        """(width, height) the screenshot is shown to the model at."""
        return self.image_size.size(screen_width, screen_height)

    def system_prompt(self, *, screen_width: int, screen_height: int) -> str:
        """The system turn for a screen of this size."""
        return self.prompt(self.view(screen_width, screen_height))

    def write(self, action: Action, thought: str | None, *, screen_width: int, screen_height: int) -> str:
        """The reply a model would write for ``action``.

        Raises:
            ActionError: the format cannot express the action (or the thought would not read back).
        """
        return self.writer(action, thought, self.view(screen_width, screen_height))

    def parse(self, text: str, *, screen_width: int, screen_height: int) -> Reply:
        """Thought and canonical actions of a reply, in screen pixels.

        Raises:
            ActionParseError: the reply cannot be read (``.raw`` holds it).
            ValueError: the format has no parser (the caller's error: check :attr:`parses`).
        """
        if self.parser is None:
            raise ValueError(f"the {self.name!r} format has no parser of model replies")
        return self.parser(text, self.view(screen_width, screen_height))

    def history_line(self, action: Action, *, screen_width: int, screen_height: int) -> str:
        """A previous action as the user turn lists it."""
        return self.history(action, self.view(screen_width, screen_height))


__all__ = ["ActionFormat", "Reply", "ToolCall", "View", "canonical_history_line", "content_only"]
