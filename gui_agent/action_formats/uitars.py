"""UI-TARS model replies (``Thought: ... Action: click(...)``), both coordinate generations.

Source format: bytedance/UI-TARS ``codes/ui_tars/action_parser.py``
(``parse_action_to_structure_output``, ``parsing_response_to_pyautogui_code``,
``smart_resize``), its prompts (``codes/ui_tars/prompt.py``: ``COMPUTER_USE_DOUBAO``) and
OSWorld's ``mm_agents/uitars_agent.py``. Action space::

    click / left_single / left_double / right_single / hover (start_box= | point=)
    drag / select (start_box= | start_point=, end_box= | end_point=)
    scroll(start_box= | point=, direction='down|up|right|left')
    hotkey(key='ctrl c')    press / keydown / keyup / release (key=)
    type(content='...\\n')  wait()    finished(content='...')    call_user()

Coordinates, by ``version``:

* ``"v1"`` (UI-TARS, Qwen2-VL based): relative, 0..1000 on both axes
  (``factor=1000`` in the official parser).
* ``"1.5"`` (UI-TARS-1.5, Qwen2.5-VL based): absolute pixels of the image the model saw,
  i.e. the screenshot resized by :func:`~gui_agent.action_formats.image_size.smart_resize`
  (factor 28, ``UITARS_MIN_PIXELS`` = 100*28*28, ``QWEN25_MAX_PIXELS`` = 16384*28*28, the
  official defaults); mapped back by
  ``x * screen_width / resized_width``.

Either version accepts every spelling seen in the wild: ``'<|box_start|>(x1,y1)<|box_end|>'``,
``'(x1,y1)'``, ``'(x1,y1,x2,y2)'``, ``'[x1, y1, x2, y2]'``, ``'<point>x y</point>'``,
``'<bbox>x1 y1 x2 y2</bbox>'``; a box means its centre. Pixels are rounded half up and
clamped into the screen; a coordinate outside the model's frame is an error.

Amounts UI-TARS does not state are UI-TARS' own: ``scroll`` turns the wheel
:data:`SCROLL_CLICKS` = 5 clicks (``parsing_response_to_pyautogui_code`` writes
``pyautogui.scroll(±5)``; it writes nothing for left/right, which this module reads as
``hscroll`` by the same amount) and ``wait()`` sleeps :data:`WAIT_SECONDS` = 5 s (the
prompt: "Sleep for 5s"). ``call_user()`` hands over to a human:
``Done(success=False, handoff=True)``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from gui_agent.action_formats._call_syntax import parse_call
from gui_agent.action_formats._gestures import GestureReader, Point
from gui_agent.action_formats.image_size import (
    QWEN25_MAX_PIXELS,
    UITARS_MIN_PIXELS,
    ImageSize,
    ScreenPixels,
    SmartResize,
    smart_resize,
)
from gui_agent.action_formats.pyautogui import key_from_pyautogui, key_to_pyautogui
from gui_agent.action_formats.reply_format import ActionFormat, Reply, View
from gui_agent.action_formats.thought_action import history_in_format, thought_action_prompt
from gui_agent.actions import Action, Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError, ActionParseError

UITarsVersion = Literal["v1", "1.5"]

#: v1 coordinates run 0..1000 on both axes.
V1_RANGE = 1000
#: Wheel clicks of one ``scroll`` (``parsing_response_to_pyautogui_code``: ``scroll(±5)``).
SCROLL_CLICKS = 5
#: Seconds of one ``wait()`` (the prompt: "Sleep for 5s").
WAIT_SECONDS = 5.0


def coordinate_frame(
    *,
    screen_width: int,
    screen_height: int,
    version: UITarsVersion,
    min_pixels: int = UITARS_MIN_PIXELS,
    max_pixels: int = QWEN25_MAX_PIXELS,
) -> tuple[int, int]:
    """(width, height) of the frame the model's coordinates live in: 1000x1000 for v1,
    the :func:`smart_resize` d screenshot for 1.5.

    A round trip pixel -> model -> pixel is off by at most
    ``floor(0.5 + screen_side / (2 * frame_side))`` pixels per axis: 1 px on a
    1920x1080 screen in v1, 0 px in 1.5 (whose frame is about the screen's own size).
    """
    if (
        not isinstance(screen_width, int)
        or not isinstance(screen_height, int)
        or screen_width <= 0
        or screen_height <= 0
    ):
        raise ValueError(f"screen size must be positive integers, got {screen_width!r}x{screen_height!r}")
    if version == "v1":
        return V1_RANGE, V1_RANGE
    if version == "1.5":
        height, width = smart_resize(screen_height, screen_width, min_pixels=min_pixels, max_pixels=max_pixels)
        return width, height
    raise ValueError(f"version must be 'v1' or '1.5', got {version!r}")


@dataclass(frozen=True)
class UITarsReply:
    """One parsed model reply.

    Attributes:
        thought: the ``Thought:`` (or ``Action_Summary:``) text; ``None`` when absent.
        actions: the canonical actions, in order.
        raw: the reply exactly as given.
        reflection: the ``Reflection:`` text of the reflection prompt, if any.
    """

    thought: str | None
    actions: tuple[Action, ...]
    raw: str
    reflection: str | None = None


_ACTION_LINE = re.compile(r"^[ \t]*Action:[ \t]*", re.MULTILINE)
_ACTION_ANY = re.compile(r"(?:^|(?<=\s))Action:[ \t]*")
#: Full-width punctuation UI-TARS writes after a Chinese prompt ("Action：", "(500，500)"),
#: read as its ASCII form outside quoted text (what is typed keeps every character).
_FULL_WIDTH = str.maketrans({"：": ":", "，": ",", "（": "(", "）": ")"})
_LABELS = re.compile(r"(Thought|Action_Summary|Action|Reflection)[ \t]*：")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TOKENS = re.compile(r"<\|box_start\|>|<\|box_end\|>|</?point>|</?bbox>")
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)")
_TRAILING_TOKENS = ("[EOS]", "<|im_end|>", "<|endoftext|>")


def _split_header(text: str, raw: str) -> tuple[str, str]:
    match = _ACTION_LINE.search(text) or _ACTION_ANY.search(text)
    if match is None:
        raise ActionParseError("no 'Action:' in the reply", raw)
    return text[: match.start()], text[match.end() :]


def _read_header(header: str) -> tuple[str | None, str | None]:
    """(thought, reflection) from the text before ``Action:``."""
    if "Reflection:" in header and "Action_Summary:" in header:
        reflection, _, summary = header.partition("Reflection:")[2].partition("Action_Summary:")
        return summary.strip() or None, reflection.strip() or None
    for label in ("Thought:", "Action_Summary:"):
        if label in header:
            return header.split(label, 1)[1].strip() or None, None
    return header.strip() or None, None


def _split_calls(text: str, raw: str) -> list[str]:
    """Cut the action section into call texts, respecting quotes and parentheses.

    Raw newlines inside quoted strings become ``\\n`` escapes (the official parser does the
    same), so a model that forgets to escape a newline in ``type(content=...)`` still parses.
    """
    calls: list[str] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            return calls
        name = _IDENTIFIER.match(text, i)
        if name is None:
            raise ActionParseError(f"expected an action call, found {text[i : i + 30]!r}", raw)
        j = name.end()
        while j < n and text[j] in " \t":
            j += 1
        if j >= n or text[j] not in "(（":
            raise ActionParseError(f"expected '(' after {name.group()!r}", raw)
        out = [name.group(), "("]
        depth, quote, j = 1, None, j + 1
        while j < n and depth:
            char = text[j] if quote else text[j].translate(_FULL_WIDTH)
            if quote:
                if char == "\\" and j + 1 < n:
                    out.append(text[j : j + 2])
                    j += 2
                    continue
                if char == quote:
                    quote = None
                out.append("\\n" if char == "\n" else char)
            else:
                if char in "'\"":
                    quote = char
                elif char == "(":
                    depth += 1
                elif char == ")":
                    depth -= 1
                out.append(char)
            j += 1
        if quote:
            raise ActionParseError(f"unbalanced quotes in {name.group()}(...)", raw)
        if depth:
            raise ActionParseError(f"unbalanced parentheses in {name.group()}(...)", raw)
        calls.append("".join(out))
        i = j


class CoordinateFrame:
    """Maps between a model's coordinate frame (``width`` x ``height``) and screen pixels.

    :meth:`to_screen` scales each axis by ``screen / frame``, rounds half up and clamps
    into the screen; :meth:`to_model` is the inverse, rounded half up. The other Qwen-based
    formats (:mod:`.qwen_computer`, :mod:`.opencua`) map through this same class, so every
    converter of a smart_resize or 0..1000 frame rounds identically.
    """

    def __init__(self, width: float, height: float, screen_width: int, screen_height: int):
        self.width, self.height = width, height
        self.screen_width, self.screen_height = screen_width, screen_height

    def contains(self, mx: float, my: float) -> bool:
        """Whether a model point lies in the frame, edges included."""
        return 0 <= mx <= self.width and 0 <= my <= self.height

    def to_screen(self, mx: float, my: float) -> Point:
        x = math.floor(mx * self.screen_width / self.width + 0.5)
        y = math.floor(my * self.screen_height / self.height + 0.5)
        return min(x, self.screen_width - 1), min(y, self.screen_height - 1)

    def to_model(self, x: int, y: int) -> tuple[int, int]:
        return (
            math.floor(x * self.width / self.screen_width + 0.5),
            math.floor(y * self.height / self.screen_height + 0.5),
        )


_Frame = CoordinateFrame  # the name this module used before CoordinateFrame was public


# Argument names each function (or family of aliases, _ALIASES) accepts; all are named.
_ARGUMENTS: dict[str, frozenset[str]] = {
    "click": frozenset({"start_box", "point"}),
    "drag": frozenset({"start_box", "start_point", "end_box", "end_point"}),
    "scroll": frozenset({"start_box", "point", "direction"}),
    "hotkey": frozenset({"key", "hotkey"}),
    "press": frozenset({"key", "press"}),
    "type": frozenset({"content"}),
    "wait": frozenset(),
    "finished": frozenset({"content"}),
    "call_user": frozenset(),
}
_ALIASES = {
    "left_single": "click",
    "left_double": "click",
    "right_single": "click",
    "hover": "click",
    "select": "drag",
    "keydown": "press",
    "keyup": "press",
    "release": "press",
}
_SCROLL = {"down": (0, 1), "up": (0, -1), "right": (1, 0), "left": (-1, 0)}


class _Reader(GestureReader):
    def __init__(self, raw: str, frame: _Frame, pointer: Point | None):
        super().__init__(raw, pointer)
        self.frame = frame

    def optional_string(self, func: str, kwargs: dict[str, Any], *names: str) -> str | None:
        given = [name for name in names if name in kwargs]
        if len(given) > 1:
            raise self.fail(f"{func}: give only one of {', '.join(given)}")
        if not given:
            return None
        value = kwargs[given[0]]
        if not isinstance(value, str):
            raise self.fail(f"{func}: {given[0]} must be a quoted string, got {value!r}")
        return value

    def string(self, func: str, kwargs: dict[str, Any], *names: str) -> str:
        value = self.optional_string(func, kwargs, *names)
        if value is None:
            raise self.fail(f"{func}: missing {' or '.join(names)}")
        return value

    def optional_point(self, func: str, kwargs: dict[str, Any], *names: str) -> Point | None:
        value = self.optional_string(func, kwargs, *names)
        return None if value is None else self.to_point(func, value)

    def point(self, func: str, kwargs: dict[str, Any], *names: str) -> Point:
        return self.to_point(func, self.string(func, kwargs, *names))

    def to_point(self, func: str, value: str) -> Point:
        """Screen pixel of a point or box in any spelling; a box means its centre."""
        inner = _TOKENS.sub(" ", value.translate(_FULL_WIDTH)).strip()
        if inner[:1] in "([" and inner[-1:] in ")]" and len(inner) >= 2:
            inner = inner[1:-1]
        parts = [part for part in re.split(r"[\s,]+", inner.strip()) if part]
        if len(parts) not in (2, 4) or not all(_NUMBER.fullmatch(part) for part in parts):
            raise self.fail(f"{func}: cannot read coordinates from {value!r}; expected a point or a box")
        numbers = [float(part) for part in parts]
        if len(numbers) == 4:
            numbers = [(numbers[0] + numbers[2]) / 2, (numbers[1] + numbers[3]) / 2]
        mx, my = numbers
        if not (0 <= mx <= self.frame.width and 0 <= my <= self.frame.height):
            raise self.fail(
                f"{func}: coordinates {value!r} are outside the model's {self.frame.width}x{self.frame.height} frame"
            )
        return self.frame.to_screen(mx, my)

    def keys(self, func: str, value: str) -> tuple[str, ...]:
        names = value.split()
        if len(names) == 1 and len(names[0]) > 1 and "+" in names[0]:  # 'ctrl+c'
            names = [name for name in names[0].split("+") if name] or names
        if not names:
            raise self.fail(f"{func}: no key given")
        return tuple(self.key_name(name, key_from_pyautogui, where=f"{func}: ") for name in names)

    def read(self, text: str) -> None:
        call = parse_call(text, raw=self.raw)
        func, kwargs = call.name, call.kwargs
        family = _ALIASES.get(func, func)
        if family not in _ARGUMENTS:
            raise self.fail(f"unknown UI-TARS action {func!r}")
        if call.args:
            raise self.fail(f"{func}: arguments must be named, e.g. {func}(start_box='...')")
        unknown = set(kwargs) - _ARGUMENTS[family]
        if unknown:
            raise self.fail(f"{func}: unknown argument(s) {sorted(unknown)}")
        g = self.gestures
        if family == "click":
            point = self.point(func, kwargs, "start_box", "point")
            if func == "hover":
                g.move_to(point)
            else:
                button = "right" if func == "right_single" else "left"
                g.click(point, button=button, count=2 if func == "left_double" else 1)
        elif family == "drag":
            start = self.point(func, kwargs, "start_box", "start_point")
            end = self.point(func, kwargs, "end_box", "end_point")
            g.move_to(start)
            g.drag_to(end, button="left")
        elif family == "scroll":
            where = self.optional_point(func, kwargs, "start_box", "point")
            direction = self.string(func, kwargs, "direction")
            if direction.strip().lower() not in _SCROLL:
                raise self.fail(f"scroll: direction must be up, down, left or right, got {direction!r}")
            sx, sy = _SCROLL[direction.strip().lower()]
            g.scroll(where, dx=sx * SCROLL_CLICKS, dy=sy * SCROLL_CLICKS)
        elif family == "hotkey":
            g.press(self.keys(func, self.string(func, kwargs, "key", "hotkey")))
        elif family == "press":
            keys = self.keys(func, self.string(func, kwargs, "key", "press"))
            if len(keys) != 1:
                raise self.fail(f"{func} takes one key, got {keys!r}")
            if func == "press":
                g.press(keys)
            elif func == "keydown":
                g.key_down(keys[0])
            else:
                g.key_up(keys[0])
        elif family == "type":
            g.type_text(self.string(func, kwargs, "content"))
        elif family == "wait":
            g.wait(WAIT_SECONDS)
        elif family == "finished":
            g.done(success=True, answer=self.optional_string(func, kwargs, "content") or None)
        else:  # call_user
            g.done(success=False, handoff=True)


def parse_uitars(
    text: str,
    *,
    screen_width: int,
    screen_height: int,
    version: UITarsVersion,
    pointer: tuple[int, int] | None = None,
    min_pixels: int = UITARS_MIN_PIXELS,
    max_pixels: int = QWEN25_MAX_PIXELS,
) -> UITarsReply:
    """Parse a UI-TARS reply into its thought and canonical actions.

    Args:
        text: the model's reply.
        screen_width: width of the screenshot the model saw, in observation pixels.
        screen_height: its height.
        version: ``"v1"`` (0..1000 relative) or ``"1.5"`` (absolute after smart_resize).
        pointer: pointer position, needed only for a ``scroll`` without coordinates.
        min_pixels: smart_resize lower bound the model was served with (1.5 only).
        max_pixels: smart_resize upper bound (1.5 only).

    Raises:
        ActionParseError: no ``Action:``, unknown function or argument, missing or
            unreadable coordinates, unbalanced quotes or parentheses, invalid keys; ``.raw``
            is ``text`` unchanged. Nothing is ever replaced by a default.
        ValueError: a bad screen size or version (a caller's error, not the model's).
    """
    width, height = coordinate_frame(
        screen_width=screen_width,
        screen_height=screen_height,
        version=version,
        min_pixels=min_pixels,
        max_pixels=max_pixels,
    )
    if not isinstance(text, str):
        raise ActionParseError(f"a UI-TARS reply must be a string, got {type(text).__name__}", repr(text))
    body = text.strip()
    for token in _TRAILING_TOKENS:
        if body.endswith(token):
            body = body[: -len(token)].rstrip()
    header, action_text = _split_header(_LABELS.sub(r"\1:", body), text)
    thought, reflection = _read_header(header)
    reader = _Reader(text, _Frame(width, height, screen_width, screen_height), pointer)
    calls = _split_calls(action_text, text)
    if not calls:
        raise ActionParseError("'Action:' is followed by no action", text)
    for call in calls:
        reader.read(call)
    return UITarsReply(thought=thought, actions=tuple(reader.gestures.finish()), raw=text, reflection=reflection)


def _quote(text: str) -> str:
    """A single-quoted string escaped as the prompt asks (\\', \\", \\n)."""
    escaped = (
        text.replace("\\", "\\\\")
        .replace("'", "\\'")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\r", "\\r")
        .replace("\t", "\\t")
    )
    return f"'{escaped}'"


def format_uitars(
    actions: Sequence[Action],
    thought: str | None = None,
    *,
    screen_width: int,
    screen_height: int,
    version: UITarsVersion,
    style: Literal["box", "point"] = "box",
    exact: bool = True,
    min_pixels: int = UITARS_MIN_PIXELS,
    max_pixels: int = QWEN25_MAX_PIXELS,
) -> str:
    """The reply UI-TARS would write for ``actions`` (e.g. to build training data).

    Args:
        actions: one or more canonical actions; several are separated by blank lines.
        thought: the ``Thought:`` line; omitted when ``None`` (the grounding-prompt form).
        screen_width: width of the screenshot, in observation pixels.
        screen_height: its height.
        version: coordinate space, as in :func:`parse_uitars`.
        style: ``"box"`` writes ``start_box='<|box_start|>(x,y)<|box_end|>'``, what the
            released models emit (v1 and 1.5 alike); ``"point"`` writes
            ``point='<point>x y</point>'`` as the ``COMPUTER_USE_DOUBAO`` prompt shows.
        exact: when true, a scroll of other than ``SCROLL_CLICKS`` clicks or a wait of
            other than ``WAIT_SECONDS`` is an error; when false it is written as UI-TARS'
            fixed-size action (the amount is lost, knowingly).
        min_pixels: smart_resize lower bound (1.5 only).
        max_pixels: smart_resize upper bound (1.5 only).

    Raises:
        ActionError: an action UI-TARS cannot express: middle clicks, triple clicks, right
            double clicks, non-left drags, diagonal scrolls, ``Done(success=False)`` with an
            answer; or inexact amounts when ``exact``.
    """
    if not actions:
        raise ActionError("format_uitars needs at least one action")
    if thought is not None and (_ACTION_LINE.search(thought) or "\nAction:" in thought):
        raise ActionError("thought must not contain an 'Action:' line; the reply could not be read back")
    width, height = coordinate_frame(
        screen_width=screen_width,
        screen_height=screen_height,
        version=version,
        min_pixels=min_pixels,
        max_pixels=max_pixels,
    )
    frame = _Frame(width, height, screen_width, screen_height)

    def coord(name_box: str, name_point: str, x: int, y: int) -> str:
        mx, my = frame.to_model(x, y)
        if style == "box":
            return f"{name_box}='<|box_start|>({mx},{my})<|box_end|>'"
        return f"{name_point}='<point>{mx} {my}</point>'"

    body = "\n\n".join(_format_one(action, coord, exact) for action in actions)
    return f"Action: {body}" if thought is None else f"Thought: {thought}\nAction: {body}"


def _format_one(action: Action, coord: Any, exact: bool) -> str:
    if isinstance(action, Click):
        names = {("left", 1): "click", ("left", 2): "left_double", ("right", 1): "right_single"}
        func = names.get((action.button, action.count))
        if func is None:
            raise ActionError(f"click: UI-TARS has no {action.button} click with count={action.count}")
        return f"{func}({coord('start_box', 'point', action.x, action.y)})"
    if isinstance(action, Move):
        return f"hover({coord('start_box', 'point', action.x, action.y)})"
    if isinstance(action, Drag):
        if action.button != "left":
            raise ActionError(f"drag: UI-TARS drags with the left button only, got {action.button!r}")
        start = coord("start_box", "start_point", action.x1, action.y1)
        end = coord("end_box", "end_point", action.x2, action.y2)
        return f"drag({start}, {end})"
    if isinstance(action, Scroll):
        if action.dx and action.dy:
            raise ActionError("scroll: UI-TARS scrolls in one direction at a time; split dx and dy")
        amount = action.dx or action.dy
        if exact and abs(amount) != SCROLL_CLICKS:
            raise ActionError(
                f"scroll: UI-TARS always scrolls {SCROLL_CLICKS} clicks, got {abs(amount)} (pass exact=False)"
            )
        direction = ("right" if action.dx > 0 else "left") if action.dx else ("down" if action.dy > 0 else "up")
        return f"scroll({coord('start_box', 'point', action.x, action.y)}, direction='{direction}')"
    if isinstance(action, Type):
        return f"type(content={_quote(action.text)})"
    if isinstance(action, Hotkey):
        return f"hotkey(key={_quote(' '.join(key_to_pyautogui(k) for k in action.keys))})"
    if isinstance(action, Wait):
        if exact and action.seconds != WAIT_SECONDS:
            raise ActionError(f"wait: UI-TARS' wait() lasts {WAIT_SECONDS} s, got {action.seconds} (pass exact=False)")
        return "wait()"
    if isinstance(action, Done):
        if action.handoff or not action.success:
            if action.answer is not None:
                raise ActionError("done: call_user() carries no answer")
            return "call_user()"
        return "finished()" if action.answer is None else f"finished(content={_quote(action.answer)})"
    raise ActionError(f"not a canonical action: {action!r}")


# -- the reply formats ``uitars`` (1.5) and ``uitars-v1`` ------------------------------------------

#: The action space the SFT prompt of both UI-TARS formats lists (UI-TARS' own functions).
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


def _uitars_format(name: str, version: UITarsVersion, image_size: ImageSize, summary: str) -> ActionFormat:
    """One UI-TARS coordinate generation as a reply format.

    The writer writes UI-TARS' fixed-size ``scroll`` and ``wait`` for any amount
    (``exact=False``): UI-TARS cannot say another, so a demonstration's amount is written
    the way UI-TARS would act.
    """

    def write(action: Action, thought: str | None, view: View) -> str:
        return format_uitars([action], thought, screen_width=view.screen_width, screen_height=view.screen_height,
                             version=version, exact=False, **view.pixel_bounds())

    def parse(text: str, view: View) -> Reply:
        reply = parse_uitars(text, screen_width=view.screen_width, screen_height=view.screen_height, version=version,
                             **view.pixel_bounds())
        return Reply(reply.thought, list(reply.actions))

    return ActionFormat(
        name=name, family="UI-TARS", summary=summary, image_size=image_size,
        prompt=lambda view: thought_action_prompt(UITARS_ACTION_SPACE),
        writer=write, parser=parse, history=history_in_format(write), sft=True,
    )


#: UI-TARS v1 (Qwen2-VL based): 0..1000 of the screenshot, which is sent as it is.
UITARS_V1 = _uitars_format("uitars-v1", "v1", ScreenPixels(),
                           "UI-TARS v1 `Thought: ... Action: click(start_box='(x,y)')`, 0..1000 of the screenshot")
#: UI-TARS-1.5 (Qwen2.5-VL based): pixels of the screenshot after smart_resize with UI-TARS' bounds.
UITARS = _uitars_format("uitars", "1.5", SmartResize(UITARS_MIN_PIXELS, QWEN25_MAX_PIXELS),
                        "UI-TARS-1.5 (Qwen2.5-VL): the same, pixels of the smart_resize image")
