"""``--format sft``: chat rows for supervised fine-tuning of vision-language models.

One row per step that has a screenshot::

    system     what the agent is and its action space, in the chosen action format
    user       the task, the previous actions, then the screenshot(s) (image placeholders)
    assistant  "Thought: ...\\nAction: ..." -- the step's thought (when recorded) and action

The action format's system prompt and writer are its record in the registry
(:data:`gui_agent.action_formats.FORMATS`); the export writes the formats marked ``sft``
(``gui_agent.action_formats.format_names(sft=True)``):

* ``uitars`` -- UI-TARS-1.5 (absolute pixels of the smart_resize'd screenshot);
* ``uitars-v1`` -- UI-TARS v1 (relative 0..1000 coordinates);
* ``pyautogui`` -- OSWorld pyautogui code (``WAIT``/``DONE``/``FAIL`` for the specials);
* ``canonical`` -- this project's own action calls (``click(120, 45)``).

The row builder (:class:`SftEpisode`) is also the prompt of the ``openai:`` and ``hf:``
policies, in any registered format: the user turn is the same for all, the system turn the
format's own.

A step whose action the format cannot express (UI-TARS has no middle click; pyautogui
no answer) is left out and counted, never approximated silently. UI-TARS' ``scroll`` and
``wait`` have fixed sizes (5 clicks, 5 s): other amounts are written as UI-TARS would act,
which the reason counts do not flag since UI-TARS itself cannot say otherwise.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from gui_agent.action_formats import FORMATS, ActionFormat
from gui_agent.actions import Action, action_from_dict
from gui_agent.episode.format import EpisodeMeta
from gui_agent.errors import ActionError, ExportError


@dataclass(frozen=True)
class SftOptions:
    """How chat rows are built.

    Attributes:
        action_format: the name of a registered format (see the module docstring; the
            export writes the ``sft`` ones, a policy prompts in any).
        images: screenshots in the user turn: the current one and up to ``images - 1``
            before it, oldest first.
        history: previous actions listed as text in the user turn (most recent last).
    """

    action_format: str = "uitars"
    images: int = 1
    history: int = 5

    def __post_init__(self) -> None:
        if self.action_format not in FORMATS:
            raise ExportError(f"unknown action format {self.action_format!r}; expected one of {', '.join(FORMATS)}")
        if self.images < 1:
            raise ExportError(f"--sft-images must be at least 1, got {self.images}")
        if self.history < 0:
            raise ExportError(f"--sft-history must be 0 or more, got {self.history}")


@dataclass
class SftEpisode:
    """Builds one episode's chat rows step by step, remembering only the recent past.

    Attributes:
        reply_format: the format itself, when it is served with other smart_resize bounds
            than its model's defaults (a policy's ``min_pixels=``/``max_pixels=``); by
            default the registered format ``options.action_format`` names.
    """

    meta: EpisodeMeta
    instruction: str
    options: SftOptions
    skipped: Counter[str] = field(default_factory=Counter)
    reply_format: ActionFormat | None = None

    def __post_init__(self) -> None:
        if self.reply_format is None:
            self.reply_format = FORMATS[self.options.action_format]
        elif self.reply_format.name != self.options.action_format:
            raise ValueError(f"reply_format {self.reply_format.name!r} is not the options' {self.options.action_format!r}")
        self._format: ActionFormat = self.reply_format
        self._screen = {"screen_width": self.meta.env.screen.width, "screen_height": self.meta.env.screen.height}
        self._system = self._format.system_prompt(**self._screen)
        self._frames: deque[dict[str, Any]] = deque(maxlen=self.options.images - 1 or None)
        self._history: deque[str] = deque(maxlen=self.options.history or None)

    def add(self, index: int, action_dict: dict[str, Any], thought: str | None, image: dict[str, Any] | None, *,
            mistake: bool = False) -> Iterator[dict[str, Any]]:
        """Yield the row of one step (none when it cannot be written), then remember it.

        A step a reviewer marked as a mistake is no reply to learn, so it gets no row; it
        stays in the history of the next prompts, since it was taken.
        """
        action = action_from_dict(action_dict)
        if mistake:
            self.skipped["marked as a mistake in review"] += 1
            self.remember(action, image)
            return
        try:
            reply: str | None = self._format.write(action, thought, **self._screen)
        except ActionError as exc:
            self.skipped[f"no {self.options.action_format} form: {exc}"] += 1
            reply = None
        if image is None:
            self.skipped["no screenshot"] += 1
        elif reply is not None:
            yield self._row(index, reply, image)
        self.remember(action, image)

    def prompt(self, image: Any) -> tuple[list[dict[str, Any]], list[Any]]:
        """(messages, images) of the next step without its reply: what a model is asked.

        A policy serving a model fine-tuned on these rows (``models/vlm``) asks exactly
        this, so training and inference prompts cannot drift apart. ``image`` is the screen
        now, in any form the caller's processor takes; the images are oldest first.
        """
        images = [*self._frames, image] if self.options.images > 1 else [image]
        return [self._system_turn(), self._user_turn(len(images))], images

    def remember(self, action: Action, image: Any | None) -> None:
        """Record a step taken (by :meth:`add`, or by a policy acting) for the next prompts:
        the action as the format lists it, and its screenshot."""
        if self.options.history:
            self._history.append(self._format.history_line(action, **self._screen))
        if image is not None and self.options.images > 1:
            self._frames.append(image)

    def _row(self, index: int, reply: str, image: dict[str, Any]) -> dict[str, Any]:
        messages, images = self.prompt(image)
        return {
            "episode_id": self.meta.episode_id,
            "step_index": index,
            "task_id": self.meta.task.id,
            "images": images,
            "messages": [*messages, {"role": "assistant", "content": [{"type": "text", "text": reply}]}],
        }

    def _system_turn(self) -> dict[str, Any]:
        return {"role": "system", "content": [{"type": "text", "text": self._system}]}

    def _user_turn(self, n_images: int) -> dict[str, Any]:
        text = f"Task: {self.instruction}"
        if self._history:
            listed = "\n".join(f"{n}. {a}" for n, a in enumerate(self._history, start=1))
            text += f"\n\nPrevious actions:\n{listed}"
        else:
            text += "\n\nPrevious actions: none"
        if n_images > 1:
            text += f"\n\nThe last {n_images} screenshots, oldest first; the last is the screen now."
        content = [{"type": "text", "text": text}, *({"type": "image", "text": None} for _ in range(n_images))]
        return {"role": "user", "content": content}
