"""``--format sft``: chat rows for supervised fine-tuning of vision-language models.

One row per step that has a screenshot::

    system     what the agent is and its action space, in the chosen action format
    user       the task, the previous actions, then the screenshot(s) (image placeholders)
    assistant  "Thought: ...\\nAction: ..." -- the step's thought (when recorded) and action

Action formats, all written by the converters in :mod:`gui_agent.action_formats`:

* ``uitars`` -- UI-TARS-1.5 (absolute pixels of the smart_resize'd screenshot);
* ``uitars-v1`` -- UI-TARS v1 (relative 0..1000 coordinates);
* ``pyautogui`` -- OSWorld pyautogui code (``WAIT``/``DONE``/``FAIL`` for the specials);
* ``canonical`` -- this project's own action calls (``click(120, 45)``).

A step whose action the format cannot express (UI-TARS has no middle click; pyautogui
no answer) is left out and counted, never approximated silently. UI-TARS' ``scroll`` and
``wait`` have fixed sizes (5 clicks, 5 s): other amounts are written as UI-TARS would act,
which the reason counts do not flag since UI-TARS itself cannot say otherwise.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from gui_agent.action_formats import action_to_pyautogui, format_uitars
from gui_agent.actions import (
    Action,
    action_from_dict,
    action_space_prompt,
    action_to_text,
)
from gui_agent.episode.format import EpisodeMeta
from gui_agent.errors import ActionError, ExportError

ActionFormat = Literal["uitars", "uitars-v1", "pyautogui", "canonical"]
ACTION_FORMATS: tuple[str, ...] = ("uitars", "uitars-v1", "pyautogui", "canonical")

_PREAMBLE = (
    "You are a GUI agent. You are given a task, your previous actions and a screenshot of the screen. "
    "Perform the next action to complete the task.\n\n"
    "## Output format\nThought: <what you see and plan, in one or two sentences>\nAction: <the action>\n\n"
)

UITARS_ACTION_SPACE = """\
## Action space
click(start_box='<|box_start|>(x1,y1)<|box_end|>')
left_double(start_box='<|box_start|>(x1,y1)<|box_end|>')
right_single(start_box='<|box_start|>(x1,y1)<|box_end|>')
hover(start_box='<|box_start|>(x1,y1)<|box_end|>')
drag(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')
hotkey(key='ctrl c')
type(content='') # end content with "\\n" to submit; escape \\', \\" and \\n
scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', direction='down or up or right or left')
wait() # sleep for 5s and take a screenshot to check for any changes
finished(content='xxx') # the task is done; content answers a question, if asked
call_user() # the task cannot be done without a person"""

PYAUTOGUI_ACTION_SPACE = """\
## Action space
One or more lines of Python using pyautogui (the screen is the screenshot, in pixels):
pyautogui.click(x, y)   pyautogui.doubleClick(x, y)   pyautogui.tripleClick(x, y)
pyautogui.click(x, y, button='right')   pyautogui.moveTo(x, y)
pyautogui.moveTo(x1, y1) then pyautogui.dragTo(x2, y2, duration=0.5, button='left')
pyautogui.scroll(clicks, x=x, y=y) (positive scrolls up)   pyautogui.hscroll(clicks, x=x, y=y)
pyautogui.write('text')   pyautogui.press('enter')   pyautogui.hotkey('ctrl', 'c')   time.sleep(seconds)
or one of the special answers: WAIT (wait a while), DONE (the task is done), FAIL (it cannot be done)."""


def system_prompt(action_format: ActionFormat) -> str:
    """The system turn for an action format: the agent's job and its action space."""
    if action_format in ("uitars", "uitars-v1"):
        return _PREAMBLE + UITARS_ACTION_SPACE
    if action_format == "pyautogui":
        return _PREAMBLE + PYAUTOGUI_ACTION_SPACE
    if action_format == "canonical":
        return _PREAMBLE + "## Action space\n" + action_space_prompt()
    raise ExportError(f"unknown action format {action_format!r}; expected one of {', '.join(ACTION_FORMATS)}")


def format_action(action: Action, thought: str | None, meta: EpisodeMeta, action_format: ActionFormat) -> str:
    """The assistant reply for one action (raises ActionError when the format cannot say it)."""
    if action_format in ("uitars", "uitars-v1"):
        return format_uitars(
            [action],
            thought,
            screen_width=meta.env.screen.width,
            screen_height=meta.env.screen.height,
            version="1.5" if action_format == "uitars" else "v1",
            exact=False,
        )
    body = action_to_pyautogui(action) if action_format == "pyautogui" else action_to_text(action)
    return f"Action: {body}" if thought is None else f"Thought: {thought}\nAction: {body}"


@dataclass(frozen=True)
class SftOptions:
    """How chat rows are built.

    Attributes:
        action_format: see the module docstring.
        images: screenshots in the user turn: the current one and up to ``images - 1``
            before it, oldest first.
        history: previous actions listed as text in the user turn (most recent last).
    """

    action_format: ActionFormat = "uitars"
    images: int = 1
    history: int = 5

    def __post_init__(self) -> None:
        if self.action_format not in ACTION_FORMATS:
            raise ExportError(f"unknown action format {self.action_format!r}; expected one of {', '.join(ACTION_FORMATS)}")
        if self.images < 1:
            raise ExportError(f"--sft-images must be at least 1, got {self.images}")
        if self.history < 0:
            raise ExportError(f"--sft-history must be 0 or more, got {self.history}")


@dataclass
class SftEpisode:
    """Builds one episode's chat rows step by step, remembering only the recent past."""

    meta: EpisodeMeta
    instruction: str
    options: SftOptions
    skipped: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self._system = system_prompt(self.options.action_format)
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
            reply = format_action(action, thought, self.meta, self.options.action_format)
        except ActionError as exc:
            self.skipped[f"no {self.options.action_format} form: {exc}"] += 1
            reply = None
        if image is None:
            self.skipped["no screenshot"] += 1
        elif reply is not None:
            yield self._row(index, reply, image)
        self._remember(action, reply, image)

    def prompt(self, image: Any) -> tuple[list[dict[str, Any]], list[Any]]:
        """(messages, images) of the next step without its reply: what a model is asked.

        A policy serving a model fine-tuned on these rows (``models/vlm``) asks exactly
        this, so training and inference prompts cannot drift apart. ``image`` is the screen
        now, in any form the caller's processor takes; the images are oldest first.
        """
        images = [*self._frames, image] if self.options.images > 1 else [image]
        return [self._system_turn(), self._user_turn(len(images))], images

    def remember(self, action: Action, image: Any | None) -> None:
        """Record a step taken outside :meth:`add` (a policy acting) for the next prompts."""
        try:
            reply: str | None = format_action(action, None, self.meta, self.options.action_format)
        except ActionError:
            reply = None
        self._remember(action, reply, image)

    def _remember(self, action: Action, reply: str | None, image: Any | None) -> None:
        if self.options.history:
            self._history.append(reply.split("Action: ", 1)[-1] if reply is not None else action_to_text(action))
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
