"""Qwen's own computer-use function calling (Qwen2.5-VL, Qwen3-VL) <-> canonical actions.

Source format: the ``computer_use`` tool of Qwen's cookbooks, ``cookbooks/utils/agent_function_call.py``
(``ComputerUse``) in QwenLM/Qwen2.5-VL and QwenLM/Qwen3-VL (Apache-2.0), declared to the model
by qwen-agent's ``NousFnCallPrompt`` (QwenLM/Qwen-Agent
``qwen_agent/llm/fncall_prompts/nous_fncall_prompt.py``: the ``# Tools`` block, the function
as JSON inside ``<tools></tools>``, the ``<tool_call>`` output instruction), as the cookbooks'
``computer_use.ipynb`` build it. The model answers with free text (its thinking) and one or
more calls::

    <tool_call>
    {"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [x, y]}}
    </tool_call>

===================  ===================================  ==========================================
action               arguments (``?`` optional)           canonical
===================  ===================================  ==========================================
left_click           coordinate?                          ``Click(x, y)`` (no coordinate: at the pointer)
right_click          coordinate?                          ``Click(button="right")``
middle_click         coordinate?                          ``Click(button="middle")``
double_click         coordinate?                          ``Click(count=2)``
triple_click (3)     coordinate?                          ``Click(count=3)`` (the cookbook's executor
                                                          simulates it as a double click; the model
                                                          means a triple click)
mouse_move           coordinate                           ``Move``
left_click_drag      coordinate                           ``Drag`` from the pointer (a ``mouse_move``
                                                          before it in the reply, or ``pointer=``)
scroll               pixels, coordinate?                  ``Scroll(dy=-pixels / pixels_per_click)``:
                                                          "Positive values scroll up"
hscroll (3)          pixels, coordinate?                  ``Scroll(dx=pixels / pixels_per_click)``:
                                                          positive right, as ``pyautogui.hscroll``
key                  keys (list, pressed together)        ``Hotkey(*keys)``
type                 text                                 ``Type``
wait                 time (seconds)                       ``Wait``
terminate            status ``success`` / ``failure``     ``Done(success=...)``
answer (3)           text                                 ``Done(answer=text)``; an ``answer`` right
                                                          before a ``terminate`` is one ``Done``
===================  ===================================  ==========================================

``(3)``: declared by the Qwen3-VL tool only; the reader accepts every action under both
versions (Qwen2.5-VL harnesses often declare the Qwen3 tool), the writer and the prompt keep
to the version's own list.

Coordinates, by ``version``:

* ``"2.5"`` (Qwen2.5-VL): absolute pixels of the image the model saw, the screenshot after
  ``smart_resize`` (factor 28; the Qwen2.5-VL processor's defaults ``min_pixels=3136``,
  ``max_pixels=12845056``, the cookbook's ``perform_gui_grounding_with_api`` defaults); the
  prompt declares that size ("The screen's resolution is 1932x1092." for 1920x1080). The same
  frame as UI-TARS-1.5 (:func:`gui_agent.action_formats.uitars.coordinate_frame`).
* ``"3"`` (Qwen3-VL): relative, 0..``relative_range`` on both axes of the screenshot whatever
  its size, and the prompt declares a ``1000x1000`` screen. Sources disagree on 1000 vs 999:
  the Qwen3-VL README ("relative coordinates ranging from 0 to 1000", quoted in QwenLM/Qwen3-VL
  issue #1741), ``cookbooks/computer_use.ipynb`` (declares ``display_width_px=1000``, maps
  ``coordinate / 1000 * width``) and a Qwen maintainer in issue #1659 ("直接按照原始长宽进行归一化
  到0-1000") say 1000; ``cookbooks/mobile_agent.ipynb`` (declares 999x999, ``/999``), Alibaba
  Cloud Model Studio's vision page ("normalized to a range of 0 to 999") and OSWorld's
  ``mm_agents/qwen3vl_agent.py`` (declares 1000x1000 yet divides by 999) say 999 (issues
  #1741, #1859 ask, unanswered). :data:`QWEN3_RELATIVE_RANGE` = 1000 follows the README and
  the computer-use cookbook; pass ``relative_range=999`` for the mobile-cookbook convention
  (the two differ by at most 2 px on a 1920 px axis).

Points map through :class:`~gui_agent.action_formats.uitars.CoordinateFrame`: rounded half
up, clamped inside the screen; a coordinate outside the frame is an error.

Scroll amounts: the tool's ``pixels`` argument is executed as wheel clicks by the harnesses
that run these models (OSWorld's ``qwen3vl_agent.py`` writes ``pyautogui.scroll(pixels)``), so
the default :data:`PIXELS_PER_CLICK` is 1; harnesses that treat it as pixels (100 per click,
e.g. OpenCUA's AgentNetBench converter writes ``clicks * 100``) pass
``pixels_per_click=100``, which rounds to whole clicks, never to 0.

Full-width punctuation Qwen writes after a Chinese prompt (``，`` ``：`` ``｛`` ``｝`` ``［``
``］``) is read as ASCII outside JSON strings; inside strings (what is typed) nothing changes.
Curly quotes are not guessed at: they may be text.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from gui_agent.action_formats._gestures import COMPUTER_USE_CLICKS, GestureReader, Point, to_count
from gui_agent.action_formats.image_size import QWEN25_MAX_PIXELS, QWEN25_MIN_PIXELS, ImageSize, ScreenPixels, SmartResize
from gui_agent.action_formats.pyautogui import key_from_pyautogui, key_to_pyautogui
from gui_agent.action_formats.reply_format import ActionFormat, Reply, ToolCall, View
from gui_agent.action_formats.uitars import CoordinateFrame, coordinate_frame
from gui_agent.actions import Action, Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError, ActionParseError

QwenVersion = Literal["2.5", "3"]
QWEN_VERSIONS: tuple[str, ...] = ("2.5", "3")

#: Qwen3-VL's relative coordinates run 0..1000 (see the module docstring for 999).
QWEN3_RELATIVE_RANGE = 1000
#: ``pixels`` of one wheel click: 1, the tool's value is executed as wheel clicks.
PIXELS_PER_CLICK = 1
#: The function name the tool declares.
TOOL_NAME = "computer_use"
#: The system text before the tools block, as the cookbooks send it.
DEFAULT_PREAMBLE = "You are a helpful assistant."

_ACTIONS_25 = (
    "key", "type", "mouse_move", "left_click", "left_click_drag", "right_click", "middle_click",
    "double_click", "scroll", "wait", "terminate",
)
_ACTIONS_3 = (
    "key", "type", "mouse_move", "left_click", "left_click_drag", "right_click", "middle_click",
    "double_click", "triple_click", "scroll", "hscroll", "wait", "terminate", "answer",
)
#: The actions each version's tool declares (the reader takes the union).
ACTIONS: dict[str, tuple[str, ...]] = {"2.5": _ACTIONS_25, "3": _ACTIONS_3}

_CLICK = (frozenset(), frozenset({"coordinate"}))
#: Arguments each action takes besides ``action``: (required, optional).
FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "key": (frozenset({"keys"}), frozenset()),
    "type": (frozenset({"text"}), frozenset()),
    "mouse_move": (frozenset({"coordinate"}), frozenset()),
    "left_click": _CLICK,
    "left_click_drag": (frozenset({"coordinate"}), frozenset()),
    "right_click": _CLICK,
    "middle_click": _CLICK,
    "double_click": _CLICK,
    "triple_click": _CLICK,
    "scroll": (frozenset({"pixels"}), frozenset({"coordinate"})),
    "hscroll": (frozenset({"pixels"}), frozenset({"coordinate"})),
    "wait": (frozenset({"time"}), frozenset()),
    "terminate": (frozenset({"status"}), frozenset()),
    "answer": (frozenset({"text"}), frozenset()),
}
_CLICKS = COMPUTER_USE_CLICKS
_CLICK_NAMES = {value: name for name, value in _CLICKS.items()}

# -- the tool definition, word for word as the cookbooks declare it ---------------------------

_DESCRIPTION_HEAD = (
    "Use a mouse and keyboard to interact with a computer, and take screenshots.\n"
    "* This is an interface to a desktop GUI. You do not have access to a terminal or applications menu. "
    "You must click on desktop icons to start applications.\n"
    "* Some applications may take time to start or process actions, so you may need to wait and take "
    "successive screenshots to see the results of your actions. E.g. if you click on Firefox and a window "
    "doesn't open, try wait and taking another screenshot.\n"
)
_DESCRIPTION_TAIL = (
    "* Whenever you intend to move the cursor to click on an element like an icon, you should consult a "
    "screenshot to determine the coordinates of the element before moving the cursor.\n"
    "* If you tried clicking on a program or link but it failed to load, even after waiting, try adjusting "
    "your cursor position so that the tip of the cursor visually falls on the element that you want to click.\n"
    "* Make sure to click any buttons, links, icons, etc with the cursor tip in the center of the element. "
)
_EDGES = {"2.5": "Don't click boxes on their edges unless asked.", "3": "Don't click boxes on their edges."}
_KEY_TYPE = (
    "* `key`: Performs key down presses on the arguments passed in order, then performs key releases in reverse order.\n"
    "* `type`: Type a string of text on the keyboard.\n"
    "* `mouse_move`: Move the cursor to a specified (x, y) pixel coordinate on the screen.\n"
)
_AT = " at a specified (x, y) pixel coordinate on the screen"
_ACTION_LINES = {
    "2.5": (
        "The action to perform. The available actions are:\n" + _KEY_TYPE
        + "* `left_click`: Click the left mouse button.\n"
        "* `left_click_drag`: Click and drag the cursor to a specified (x, y) pixel coordinate on the screen.\n"
        "* `right_click`: Click the right mouse button.\n"
        "* `middle_click`: Click the middle mouse button.\n"
        "* `double_click`: Double-click the left mouse button.\n"
        "* `scroll`: Performs a scroll of the mouse scroll wheel.\n"
        "* `wait`: Wait specified seconds for the change to happen.\n"
        "* `terminate`: Terminate the current task and report its completion status."
    ),
    "3": (
        "The action to perform. The available actions are:\n" + _KEY_TYPE
        + f"* `left_click`: Click the left mouse button{_AT}.\n"
        "* `left_click_drag`: Click and drag the cursor to a specified (x, y) pixel coordinate on the screen.\n"
        f"* `right_click`: Click the right mouse button{_AT}.\n"
        f"* `middle_click`: Click the middle mouse button{_AT}.\n"
        f"* `double_click`: Double-click the left mouse button{_AT}.\n"
        f"* `triple_click`: Triple-click the left mouse button{_AT} (simulated as double-click since it's the "
        "closest action).\n"
        "* `scroll`: Performs a scroll of the mouse scroll wheel.\n"
        "* `hscroll`: Performs a horizontal scroll (mapped to regular scroll).\n"
        "* `wait`: Wait specified seconds for the change to happen.\n"
        "* `terminate`: Terminate the current task and report its completion status.\n"
        "* `answer`: Answer a question."
    ),
}
_COORDINATE_TEXT = "(x, y): The x (pixels from the left edge) and y (pixels from the top edge) coordinates to move the mouse to."
_PARAMETER_TEXT = {
    "2.5": {
        "text": "Required only by `action=type`.",
        "coordinate": _COORDINATE_TEXT + " Required only by `action=mouse_move` and `action=left_click_drag`.",
        "pixels": "The amount of scrolling to perform. Positive values scroll up, negative values scroll down. "
        "Required only by `action=scroll`.",
    },
    "3": {
        "text": "Required only by `action=type` and `action=answer`.",
        "coordinate": _COORDINATE_TEXT,
        "pixels": "The amount of scrolling to perform. Positive values scroll up, negative values scroll down. "
        "Required only by `action=scroll` and `action=hscroll`.",
    },
}
_TOOLS_TEMPLATE = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n{tools}\n</tools>\n\n"
    "For each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{{"name": <function-name>, "arguments": <args-json-object>}}\n</tool_call>'
)


def _check_version(version: str) -> None:
    if version not in QWEN_VERSIONS:
        raise ValueError(f"version must be '2.5' or '3', got {version!r}")


def qwen_computer_frame(
    *,
    screen_width: int,
    screen_height: int,
    version: QwenVersion,
    min_pixels: int = QWEN25_MIN_PIXELS,
    max_pixels: int = QWEN25_MAX_PIXELS,
    relative_range: int = QWEN3_RELATIVE_RANGE,
) -> tuple[int, int]:
    """(width, height) of the frame the model's coordinates live in, also the resolution the
    prompt declares: the smart_resize'd screenshot for ``"2.5"`` (send the screenshot resized
    to it, or let a server with the same ``min_pixels``/``max_pixels`` resize it),
    ``relative_range`` x ``relative_range`` for ``"3"`` (the screenshot is sent as it is).

    Raises:
        ValueError: a bad screen size, version or range.
    """
    _check_version(version)
    if version == "2.5":
        return coordinate_frame(
            screen_width=screen_width, screen_height=screen_height, version="1.5",
            min_pixels=min_pixels, max_pixels=max_pixels,
        )
    coordinate_frame(screen_width=screen_width, screen_height=screen_height, version="v1")  # checks the size
    if isinstance(relative_range, bool) or not isinstance(relative_range, int) or relative_range <= 0:
        raise ValueError(f"relative_range must be a positive integer, got {relative_range!r}")
    return relative_range, relative_range


def qwen_computer_tool(
    *,
    screen_width: int,
    screen_height: int,
    version: QwenVersion,
    min_pixels: int = QWEN25_MIN_PIXELS,
    max_pixels: int = QWEN25_MAX_PIXELS,
    relative_range: int = QWEN3_RELATIVE_RANGE,
) -> dict[str, Any]:
    """The tool as an OpenAI-style ``{"type": "function", "function": {...}}`` entry.

    Its ``function`` is the cookbook's ``ComputerUse(cfg).function`` (``name``,
    ``description`` with the frame's resolution, ``parameters``), key for key; pass it as
    ``tools=[...]`` to a server whose chat template renders tools (Qwen's does, into the
    same block :func:`qwen_computer_system_prompt` writes), or use that prompt instead.
    """
    width, height = qwen_computer_frame(
        screen_width=screen_width, screen_height=screen_height, version=version,
        min_pixels=min_pixels, max_pixels=max_pixels, relative_range=relative_range,
    )
    texts = _PARAMETER_TEXT[version]
    description = (
        _DESCRIPTION_HEAD + f"* The screen's resolution is {width}x{height}.\n" + _DESCRIPTION_TAIL + _EDGES[version]
    )
    parameters = {
        "properties": {
            "action": {"description": _ACTION_LINES[version], "enum": list(ACTIONS[version]), "type": "string"},
            "keys": {"description": "Required only by `action=key`.", "type": "array"},
            "text": {"description": texts["text"], "type": "string"},
            "coordinate": {"description": texts["coordinate"], "type": "array"},
            "pixels": {"description": texts["pixels"], "type": "number"},
            "time": {"description": "The seconds to wait. Required only by `action=wait`.", "type": "number"},
            "status": {
                "description": "The status of the task. Required only by `action=terminate`.",
                "type": "string",
                "enum": ["success", "failure"],
            },
        },
        "required": ["action"],
        "type": "object",
    }
    return {"type": "function", "function": {"name": TOOL_NAME, "description": description, "parameters": parameters}}


def qwen_computer_system_prompt(
    *,
    screen_width: int,
    screen_height: int,
    version: QwenVersion,
    min_pixels: int = QWEN25_MIN_PIXELS,
    max_pixels: int = QWEN25_MAX_PIXELS,
    relative_range: int = QWEN3_RELATIVE_RANGE,
    preamble: str | None = DEFAULT_PREAMBLE,
) -> str:
    """The system prompt declaring the ``computer_use`` tool, as Qwen's cookbooks send it.

    ``preamble`` ("You are a helpful assistant." in the cookbooks), a blank line, then
    qwen-agent's ``NousFnCallPrompt`` block: ``# Tools``, the tool JSON
    (:func:`qwen_computer_tool`, ``ensure_ascii=False``) inside ``<tools></tools>``, and the
    ``<tool_call>`` output instruction. ``preamble=None`` gives the block alone. The task,
    history and screenshot go in the user turn.
    """
    tool = qwen_computer_tool(
        screen_width=screen_width, screen_height=screen_height, version=version,
        min_pixels=min_pixels, max_pixels=max_pixels, relative_range=relative_range,
    )
    block = _TOOLS_TEMPLATE.format(tools=json.dumps(tool, ensure_ascii=False))
    return block if preamble is None else f"{preamble}\n\n{block}"


# -- reading ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class QwenComputerReply:
    """One parsed model reply.

    Attributes:
        thought: the text outside the ``<tool_call>`` blocks (``<think>`` tags removed, their
            content kept), stripped; ``None`` when there is none.
        actions: the canonical actions, in order.
        raw: the reply exactly as given.
    """

    thought: str | None
    actions: tuple[Action, ...]
    raw: str


_OPEN, _CLOSE = "<tool_call>", "</tool_call>"
_TRAILING_TOKENS = ("<|im_end|>", "<|endoftext|>")
#: Full-width punctuation read as ASCII outside JSON strings.
_FULL_WIDTH = str.maketrans({"，": ",", "：": ":", "｛": "{", "｝": "}", "［": "[", "］": "]"})


def _ascii_outside_strings(text: str) -> str:
    """``text`` with full-width JSON punctuation made ASCII, except inside ``"..."`` strings."""
    out: list[str] = []
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            out.append(char)
        else:
            if char == '"':
                in_string = True
            out.append(char.translate(_FULL_WIDTH))
    return "".join(out)


def _split_reply(text: str, raw: str) -> tuple[list[str], list[str]]:
    """(free-text parts, tool call bodies) of a reply."""
    body = text.strip()
    for token in _TRAILING_TOKENS:
        if body.endswith(token):
            body = body[: -len(token)].rstrip()
    texts: list[str] = []
    if "</think>" in body:  # a thinking model's reasoning: never read for calls
        head, _, body = body.rpartition("</think>")
        texts.append(head.replace("<think>", ""))
    body = body.replace("<think>", "")
    calls: list[str] = []
    position = 0
    while True:
        start = body.find(_OPEN, position)
        stray = body.find(_CLOSE, position)
        if stray != -1 and (start == -1 or stray < start):
            raise ActionParseError("'</tool_call>' without a '<tool_call>' before it", raw)
        if start == -1:
            texts.append(body[position:])
            break
        texts.append(body[position:start])
        end = body.find(_CLOSE, start + len(_OPEN))
        if end == -1:  # the last call left open (generation stopped at the end of the JSON)
            calls.append(body[start + len(_OPEN) :])
            break
        calls.append(body[start + len(_OPEN) : end])
        position = end + len(_CLOSE)
    return texts, calls


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=repr)


class _Reader(GestureReader):
    def __init__(self, raw: str, frame: CoordinateFrame, pointer: Point | None, pixels_per_click: int):
        super().__init__(raw, pointer, fold_diagonal_scrolls=True)
        self.frame = frame
        self.pixels_per_click = pixels_per_click
        self.answer: str | None = None  # an ``answer`` waiting for a ``terminate``

    def call(self, body: str) -> None:
        text = _ascii_outside_strings(body.strip())
        if text.startswith("```") and text.endswith("```"):  # a JSON fence inside the tags
            text = text[3:-3].removeprefix("json").strip()
        try:
            call = json.loads(text, strict=False)  # raw newlines inside strings are accepted
        except json.JSONDecodeError as exc:
            raise self.fail(f"a <tool_call> is not valid JSON ({exc.msg} at char {exc.pos}): {body.strip()[:80]!r}") from None
        if not isinstance(call, dict) or "name" not in call or "arguments" not in call:
            raise self.fail(f'a <tool_call> must be {{"name": ..., "arguments": {{...}}}}, got {_dump(call)}')
        if set(call) - {"name", "arguments"}:
            raise self.fail(f"a <tool_call> has unknown keys {sorted(set(call) - {'name', 'arguments'})}")
        if call["name"] != TOOL_NAME:
            raise self.fail(f"unknown function {call['name']!r}; the tool is {TOOL_NAME!r}")
        arguments = call["arguments"]
        if isinstance(arguments, str):  # arguments sent as a JSON string
            try:
                arguments = json.loads(_ascii_outside_strings(arguments), strict=False)
            except json.JSONDecodeError:
                raise self.fail(f"the arguments string is not valid JSON: {arguments[:80]!r}") from None
        if not isinstance(arguments, dict):
            raise self.fail(f"arguments must be a JSON object, got {_dump(arguments)}")
        self.act(arguments)

    def act(self, arguments: dict[str, Any]) -> None:
        kind = arguments.get("action")
        if kind not in FIELDS:
            raise self.fail(f"unknown computer_use action {kind!r}; expected one of {sorted(FIELDS)}")
        fields = {k: v for k, v in arguments.items() if k != "action" and v is not None}
        required, optional = FIELDS[kind]
        missing, unknown = required - set(fields), set(fields) - required - optional
        if missing or unknown:
            raise self.fail(
                f"{kind}: missing {sorted(missing)} / unknown {sorted(unknown)} arguments; "
                f"expected {sorted(required)} and optionally {sorted(optional)}"
            )
        g = self.gestures
        if self.answer is not None:  # answer, then terminate: one Done
            answer, self.answer = self.answer, None
            if kind == "terminate":
                g.done(success=self.status(fields["status"]), answer=answer)
                return
            g.done(success=True, answer=answer)  # whatever follows is after the end: an error
        point = self.point(fields["coordinate"], kind) if "coordinate" in fields else None
        if kind in _CLICKS:
            button, count = _CLICKS[kind]
            g.click(point, button=button, count=count)
        elif kind == "mouse_move":
            g.move_to(point)  # type: ignore[arg-type]
        elif kind == "left_click_drag":
            g.drag_to(point, button="left")  # type: ignore[arg-type]
        elif kind in ("scroll", "hscroll"):
            clicks = self.clicks(fields["pixels"], kind)
            g.scroll(point, dx=clicks if kind == "hscroll" else 0, dy=-clicks if kind == "scroll" else 0)
        elif kind == "key":
            g.press(self.keys(fields["keys"]))
        elif kind == "type":
            text = fields["text"]
            if not isinstance(text, str):
                raise self.fail(f"type: text must be a string, got {_dump(text)}")
            g.type_text(text)
        elif kind == "wait":
            seconds = fields["time"]
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
                raise self.fail(f"wait: time must be a number of seconds, got {_dump(seconds)}")
            g.wait(seconds)
        elif kind == "terminate":
            g.done(success=self.status(fields["status"]))
        else:  # answer
            text = fields["text"]
            if not isinstance(text, str):
                raise self.fail(f"answer: text must be a string, got {_dump(text)}")
            self.answer = text

    def point(self, value: Any, kind: str) -> Point:
        if (
            not isinstance(value, (list, tuple))
            or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value)
        ):
            raise self.fail(f"{kind}: coordinate must be [x, y] numbers, got {_dump(value)}")
        mx, my = value
        if not self.frame.contains(mx, my):
            raise self.fail(
                f"{kind}: coordinate {_dump(value)} is outside the model's {self.frame.width}x{self.frame.height} frame"
            )
        return self.frame.to_screen(mx, my)

    def clicks(self, value: Any, kind: str) -> int:
        if self.pixels_per_click == 1:
            clicks = to_count(value, what=f"{kind} pixels", raw=self.raw)
        else:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise self.fail(f"{kind}: pixels must be a number, got {_dump(value)}")
            exact = abs(Fraction(value)) / self.pixels_per_click
            clicks = max(1, math.floor(exact + Fraction(1, 2))) if value else 0
            clicks = clicks if value >= 0 else -clicks
        if clicks == 0:
            raise self.fail(f"{kind}: pixels=0 scrolls nothing")
        return clicks

    def keys(self, value: Any) -> tuple[str, ...]:
        if isinstance(value, str):  # "keys": "ctrl+c"
            value = [value]
        if not isinstance(value, list) or not value or not all(isinstance(k, str) and k for k in value):
            raise self.fail(f"key: keys must be a non-empty list of key names, got {_dump(value)}")
        names: list[str] = []
        for name in value:
            if len(name) > 1 and "+" in name.strip("+"):  # ["ctrl+c"]
                names.extend(part for part in name.split("+") if part)
            else:
                names.append(name)
        return tuple(self.key_name(name, key_from_pyautogui, where="key: ") for name in names)

    def status(self, value: Any) -> bool:
        if value not in ("success", "failure"):
            raise self.fail(f"terminate: status must be 'success' or 'failure', got {_dump(value)}")
        return value == "success"

    def finish(self) -> list[Action]:
        if self.answer is not None:
            answer, self.answer = self.answer, None
            self.gestures.done(success=True, answer=answer)
        return self.gestures.finish()


def parse_qwen_computer(
    text: str,
    *,
    screen_width: int,
    screen_height: int,
    version: QwenVersion,
    pointer: tuple[int, int] | None = None,
    min_pixels: int = QWEN25_MIN_PIXELS,
    max_pixels: int = QWEN25_MAX_PIXELS,
    relative_range: int = QWEN3_RELATIVE_RANGE,
    pixels_per_click: int = PIXELS_PER_CLICK,
) -> QwenComputerReply:
    """Parse a Qwen ``computer_use`` reply into its thought and canonical actions.

    Args:
        text: the model's reply (its message content).
        screen_width: width of the screenshot the model saw, in observation pixels.
        screen_height: its height.
        version: ``"2.5"`` (smart_resize pixels) or ``"3"`` (0..``relative_range``).
        pointer: pointer position before the reply, needed only for a click, scroll or
            ``left_click_drag`` without coordinates and no ``mouse_move`` before it.
        min_pixels: smart_resize lower bound the model's images were resized with (2.5 only).
        max_pixels: smart_resize upper bound (2.5 only).
        relative_range: the top of Qwen3's relative scale (3 only; 999 for the mobile cookbook).
        pixels_per_click: how many ``pixels`` are one wheel click (1: ``pixels`` is clicks).

    Raises:
        ActionParseError: no ``<tool_call>``, JSON that does not parse, another function, an
            unknown action or argument, a missing argument, a coordinate outside the frame, an
            unknown key, a status other than success/failure, an action after ``terminate``;
            ``.raw`` is ``text`` unchanged. Nothing is replaced by a default.
        ValueError: a bad screen size, version, range or ``pixels_per_click`` (the caller's error).
    """
    width, height = qwen_computer_frame(
        screen_width=screen_width, screen_height=screen_height, version=version,
        min_pixels=min_pixels, max_pixels=max_pixels, relative_range=relative_range,
    )
    if isinstance(pixels_per_click, bool) or not isinstance(pixels_per_click, int) or pixels_per_click <= 0:
        raise ValueError(f"pixels_per_click must be a positive integer, got {pixels_per_click!r}")
    if not isinstance(text, str):
        raise ActionParseError(f"a Qwen reply must be a string, got {type(text).__name__}", repr(text))
    texts, calls = _split_reply(text, text)
    if not calls:
        raise ActionParseError("no <tool_call> in the reply", text)
    reader = _Reader(text, CoordinateFrame(width, height, screen_width, screen_height), pointer, pixels_per_click)
    for body in calls:
        reader.call(body)
    thought = "\n".join(part.strip() for part in texts if part.strip()) or None
    return QwenComputerReply(thought=thought, actions=tuple(reader.finish()), raw=text)


# -- writing ------------------------------------------------------------------------------------


def format_qwen_computer(
    actions: Sequence[Action],
    thought: str | None = None,
    *,
    screen_width: int,
    screen_height: int,
    version: QwenVersion,
    min_pixels: int = QWEN25_MIN_PIXELS,
    max_pixels: int = QWEN25_MAX_PIXELS,
    relative_range: int = QWEN3_RELATIVE_RANGE,
    pixels_per_click: int = PIXELS_PER_CLICK,
) -> str:
    """The reply Qwen would write for ``actions`` (demonstrations, SFT data).

    ``thought``, a newline, then one ``<tool_call>`` block per call, separated by newlines, each
    ``{"name": "computer_use", "arguments": {...}}`` as qwen-agent dumps it. A drag is a
    ``mouse_move`` to its start and a ``left_click_drag`` to its end; a diagonal scroll is a
    ``scroll`` and an ``hscroll`` at one point; ``Done(answer=...)`` is an ``answer`` then a
    ``terminate``. :func:`parse_qwen_computer` reads every reply this writes back to the
    same actions; screen -> frame -> screen is exact where the frame is at least the screen's
    size on that axis (always for 2.5), else off by at most ``screen / (2 * frame) + 1/2`` px.

    Raises:
        ActionError: what the version's tool cannot say: a right or middle multi-click, a
            non-left drag, ``Done(handoff=True)``; with ``"2.5"`` also a triple click, a
            horizontal scroll and an answer. Also a thought holding ``<tool_call>`` or no action.
    """
    if not actions:
        raise ActionError("format_qwen_computer needs at least one action")
    if thought is not None and (_OPEN in thought or _CLOSE in thought or "</think>" in thought):
        raise ActionError("thought must not contain <tool_call>, </tool_call> or </think>; it could not be read back")
    width, height = qwen_computer_frame(
        screen_width=screen_width, screen_height=screen_height, version=version,
        min_pixels=min_pixels, max_pixels=max_pixels, relative_range=relative_range,
    )
    if isinstance(pixels_per_click, bool) or not isinstance(pixels_per_click, int) or pixels_per_click <= 0:
        raise ValueError(f"pixels_per_click must be a positive integer, got {pixels_per_click!r}")
    frame = CoordinateFrame(width, height, screen_width, screen_height)
    calls: list[dict[str, Any]] = []
    for action in actions:
        calls.extend(_calls_for(action, frame, version, pixels_per_click))
    blocks = [f"{_OPEN}\n{json.dumps({'name': TOOL_NAME, 'arguments': call}, ensure_ascii=False)}\n{_CLOSE}" for call in calls]
    body = "\n".join(blocks)
    return body if thought is None else f"{thought}\n{body}"


def _calls_for(action: Action, frame: CoordinateFrame, version: str, pixels_per_click: int) -> list[dict[str, Any]]:
    def at(x: int, y: int) -> list[int]:
        if not (0 <= x < frame.screen_width and 0 <= y < frame.screen_height):
            raise ActionError(f"point ({x}, {y}) is outside the {frame.screen_width}x{frame.screen_height} screen")
        return list(frame.to_model(x, y))

    def declared(kind: str) -> None:
        if kind not in ACTIONS[version]:
            raise ActionError(f"the Qwen{version}-VL computer_use tool has no {kind!r} action")

    if isinstance(action, Click):
        kind = _CLICK_NAMES.get((action.button, action.count))
        if kind is None:
            raise ActionError(f"click: computer_use has no {action.button} click with count={action.count}")
        declared(kind)
        return [{"action": kind, "coordinate": at(action.x, action.y)}]
    if isinstance(action, Move):
        return [{"action": "mouse_move", "coordinate": at(action.x, action.y)}]
    if isinstance(action, Drag):
        if action.button != "left":
            raise ActionError(f"drag: computer_use drags with the left button only, got {action.button!r}")
        return [
            {"action": "mouse_move", "coordinate": at(action.x1, action.y1)},
            {"action": "left_click_drag", "coordinate": at(action.x2, action.y2)},
        ]
    if isinstance(action, Scroll):
        where = at(action.x, action.y)
        calls = []
        if action.dy:
            calls.append({"action": "scroll", "coordinate": where, "pixels": -action.dy * pixels_per_click})
        if action.dx:
            declared("hscroll")
            calls.append({"action": "hscroll", "coordinate": where, "pixels": action.dx * pixels_per_click})
        return calls
    if isinstance(action, Type):
        return [{"action": "type", "text": action.text}]
    if isinstance(action, Hotkey):
        return [{"action": "key", "keys": [key_to_pyautogui(k) for k in action.keys]}]
    if isinstance(action, Wait):
        return [{"action": "wait", "time": action.seconds}]
    if isinstance(action, Done):
        if action.handoff:
            raise ActionError("done: computer_use cannot hand over to a human (terminate reports success or failure)")
        status = {"action": "terminate", "status": "success" if action.success else "failure"}
        if action.answer is None:
            return [status]
        declared("answer")
        return [{"action": "answer", "text": action.answer}, status]
    raise ActionError(f"not a canonical action: {action!r}")


def qwen_tool_call_text(call: Mapping[str, Any]) -> str:
    """A tool call a server already parsed out of the content, as the ``<tool_call>`` text
    :func:`parse_qwen_computer` reads.

    Servers started with a tool-call parser (vLLM's ``--tool-call-parser hermes``) move the
    calls into ``message.tool_calls``; pass each ``tool_calls[i].function`` as
    ``{"name": ..., "arguments": ...}`` (``arguments`` a JSON string or a dict) and append the
    results to the content before parsing.
    """
    arguments = call.get("arguments")
    name = json.dumps(call.get("name"), ensure_ascii=False)
    if isinstance(arguments, str):
        body = f'{{"name": {name}, "arguments": {arguments}}}'
    else:
        body = f'{{"name": {name}, "arguments": {json.dumps(arguments, ensure_ascii=False)}}}'
    return f"{_OPEN}\n{body}\n{_CLOSE}"


# -- the reply formats ``qwen2.5`` and ``qwen3`` -----------------------------------------------------


def _qwen_format(name: str, version: QwenVersion, image_size: ImageSize, summary: str) -> ActionFormat:
    """One Qwen version's ``computer_use`` tool as a reply format, prompted as Qwen's cookbooks do."""

    def prompt(view: View) -> str:
        return qwen_computer_system_prompt(screen_width=view.screen_width, screen_height=view.screen_height,
                                           version=version, **view.pixel_bounds())

    def write(action: Action, thought: str | None, view: View) -> str:
        return format_qwen_computer([action], thought, screen_width=view.screen_width, screen_height=view.screen_height,
                                    version=version, **view.pixel_bounds())

    def parse(text: str, view: View) -> Reply:
        reply = parse_qwen_computer(text, screen_width=view.screen_width, screen_height=view.screen_height,
                                    version=version, **view.pixel_bounds())
        return Reply(reply.thought, list(reply.actions))

    def reply_text(content: str, tool_calls: Sequence[ToolCall]) -> str:
        # A server with a tool-call parser moved the calls out of the text: put them back.
        return content + "".join("\n" + qwen_tool_call_text({"name": c.name, "arguments": c.arguments}) for c in tool_calls)

    return ActionFormat(name=name, family="Qwen computer_use", summary=summary, image_size=image_size,
                        prompt=prompt, writer=write, parser=parse, reply_text=reply_text)


#: Qwen2.5-VL: pixels of the screenshot after smart_resize with the processor's defaults.
QWEN25 = _qwen_format("qwen2.5", "2.5", SmartResize(QWEN25_MIN_PIXELS, QWEN25_MAX_PIXELS),
                      "Qwen's own `computer_use` tool call (`<tool_call>{...}`), as Qwen2.5-VL is prompted in "
                      "Qwen's cookbooks, pixels of the smart_resize image")
#: Qwen3-VL: 0..1000 of the screenshot, which is sent as it is.
QWEN3 = _qwen_format("qwen3", "3", ScreenPixels(), "the same, as Qwen3-VL is prompted, 0..1000 of the screenshot")
