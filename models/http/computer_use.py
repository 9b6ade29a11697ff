"""What the vendors' computer-use agents share: a conversation with the screen in it.

Claude's computer tool and OpenAI's computer-use model do not answer one prompt per step
as the chat formats do: they hold a conversation in which every tool call is answered with
the screen it led to. :class:`ComputerUseTurns` keeps the parts the two policies share:
the declared display and its scaling, screenshots at display size, answering the calls
that only ask to look (a screenshot, the pointer, a zoomed region) without stepping the
environment, and a bound on how often a model may look before it acts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gui_agent.action_formats._gestures import DisplayScale, ObservationRequest
from gui_agent.actions import Action, Done
from gui_agent.errors import ActionParseError
from gui_agent.models.http.openai_chat import png_data_url

#: Calls in a row that only look (screenshot, pointer, zoom) before the policy gives up on
#: the model: an agent that never acts would otherwise spend the whole budget looking.
MAX_LOOKS_PER_STEP = 6


@dataclass
class Screen:
    """One observation as the model gets it: the screenshot at display size, as a data URL."""

    pixels: np.ndarray
    scale: DisplayScale

    def image(self) -> Any:
        from PIL import Image

        picture = Image.fromarray(self.pixels)
        if picture.size != self.scale.display_size:
            picture = picture.resize(self.scale.display_size, resample=Image.Resampling.LANCZOS)
        return picture

    def data_url(self) -> str:
        return png_data_url(self.image())

    def base64_png(self) -> str:
        return self.data_url().split(",", 1)[1]

    def zoom(self, region: tuple[int, int, int, int]) -> Any:
        """The region (screen pixels) cut from the full-resolution screen, for a zoom call."""
        from PIL import Image

        x1, y1, x2, y2 = region
        return Image.fromarray(self.pixels[y1:y2, x1:x2])

    def cursor_text(self, pointer: tuple[int, int] | None) -> str:
        """The pointer position in display pixels, as the reference implementations answer it."""
        if pointer is None:
            return "the pointer position is not known yet"
        x, y = self.scale.to_display(*pointer)
        return f"X={x},Y={y}"


def split_items(items: list[Any]) -> tuple[list[Action], list[ObservationRequest]]:
    """A call's canonical actions and its requests to look, apart."""
    actions = [item for item in items if not isinstance(item, ObservationRequest)]
    looks = [item for item in items if isinstance(item, ObservationRequest)]
    return actions, looks


def finished(text: str | None) -> Done:
    """The model ended its turn without a tool call: the task is done, its text the answer."""
    answer = (text or "").strip() or None
    return Done(success=True, answer=answer)


def too_many_looks(raw: str) -> ActionParseError:
    return ActionParseError(f"the model asked to look {MAX_LOOKS_PER_STEP} times in a row without acting", raw)


__all__ = ["MAX_LOOKS_PER_STEP", "Screen", "finished", "split_items", "too_many_looks"]
