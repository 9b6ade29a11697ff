"""OpenCUA replies (xlangai OpenCUA-7B / OpenCUA-32B, Qwen2.5-VL based) <-> canonical actions.

Source format: the OpenCUA repository (xlang-ai/OpenCUA, MIT): ``model/README.md`` ("Important
Notes on Coordinate Systems"), ``model/inference/huggingface_inference.py`` (the grounding
system prompt), ``evaluation/agentnetbench/agent/opencua.py`` (the L1/L2/L3 system prompts and
response templates, ``parse_response``) and its AgentNet sample trajectories; and OpenCUA's
OSWorld agent (xlang-ai/OSWorld ``mm_agents/opencua_agent.py``, ``mm_agents/opencua/prompts.py``,
run with ``--coordinate_type qwen25`` for these models), which the README points to.

A reply is markdown sections and a code block::

    ## Thought:
    I need to open the File menu ...

    ## Action:
    Click the "File" menu in the top left corner.

    ## Code:
    ```python
    pyautogui.click(x=24, y=13)
    ```

The code is pyautogui, read by :func:`gui_agent.action_formats.parse_pyautogui`, plus OpenCUA's
own functions: ``computer.triple_click(x=, y=)`` (``Click(count=3)``),
``computer.terminate(status='success'|'failure')`` (``Done``; ``'fail'``, which OSWorld's copy
of the training prompts lists, is read as failure; an ``answer=`` is the answer) and
``computer.wait()`` (``Wait(wait_seconds)``: OpenCUA's OSWorld agent turns it into OSWorld's
``WAIT``, 2 s by default). AgentNet's dialect ``pyautogui.hotkey(keys=['ctrl', 'c'])`` is read
as ``hotkey('ctrl', 'c')``. The code is the last fenced block of the reply (```` ```python ````
or ```` ```code ````), else the ``## Code:`` section, else the lines that start with
``pyautogui.`` or ``computer.``.

Coordinates (``coordinates=``), as the README's notes and the OSWorld agent's
``--coordinate_type`` give them:

* ``"qwen25"`` (OpenCUA-7B, OpenCUA-32B): absolute pixels of the ``smart_resize`` d screenshot,
  "coordinates on the smart-resized image, not the original image" (README), with factor 28,
  ``min_pixels=3136``, ``max_pixels=12845056`` (the README's ``qwen25_smart_resize_to_absolute``
  and the agent's ``project_coordinate_to_absolute_scale``). The README's own example outputs
  ``pyautogui.click(x=960, y=324)`` / ``pyautogui.click(x=1443, y=343)`` are pixels of that kind.
* ``"relative"`` (OpenCUA-Qwen2-7B): 0..1 floats of the screenshot (the README; AgentNet's raw
  trajectories are written this way too).
* ``"absolute"``: pixels of the screenshot itself.

The sources agree on these; they differ only in rounding: the README and the agent truncate
(``int(x / width * screen_width)``) where this module rounds half up through
:class:`~gui_agent.action_formats.uitars.CoordinateFrame` like every other converter (at most
1 px apart). The agent also treats ``qwen25`` values within 0..1 as relative; that guess is
not made here (``x=1, y=1`` is a pixel). Points outside the frame are errors. Offsets of
``moveRel`` / ``dragRel`` scale as lengths.

OpenCUA-7B/32B have fixed system prompts (:func:`opencua_system_prompt`): the training-data
prompts at three chain-of-thought levels, L2 the default of the OSWorld agent.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from gui_agent.action_formats._call_syntax import Call, bind, parse_call, signature
from gui_agent.action_formats.image_size import QWEN25_MAX_PIXELS, QWEN25_MIN_PIXELS, SmartResize
from gui_agent.action_formats.pyautogui import (
    OSWORLD_WAIT_SECONDS,
    key_to_pyautogui,
    parse_pyautogui,
)
from gui_agent.action_formats.reply_format import ActionFormat, Reply, View
from gui_agent.action_formats.uitars import CoordinateFrame, coordinate_frame
from gui_agent.actions import Action, Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError, ActionParseError

OpenCUACoordinates = Literal["qwen25", "relative", "absolute"]
COORDINATE_TYPES: tuple[str, ...] = ("qwen25", "relative", "absolute")
OpenCUALevel = Literal["l1", "l2", "l3"]

#: Decimals written for ``relative`` coordinates (0.1 px on a 1920 px axis).
RELATIVE_DECIMALS = 4

# -- prompts (evaluation/agentnetbench/agent/opencua.py: L1/L2/L3_SYSTEM_PROMPTS) ------------------

_INTRO = (
    "You are a GUI agent. You are given a task and a screenshot of the screen. "
    "You need to perform a series of pyautogui actions to complete the task."
)
_OBSERVATION = (
    "Observation:\n"
    "  - Describe the current computer state based on the full screenshot in detail. \n"
    "  - Application Context:\n"
    "    - The active application\n"
    "    - The active window or page\n"
    "    - Overall layout and visible interface\n"
    "  - Key Elements:\n"
    "    - Menu items and toolbars \n"
    "    - Buttons and controls\n"
    "    - Text fields and content\n"
    "    - Dialog boxes or popups\n"
    "    - Error messages or notifications\n"
    "    - Loading states\n"
    "    - Other key elements\n"
    "  - Describe any content, elements, options, information or clues that are possibly relevant to "
    "achieving the task goal, including their name, content, or shape (if possible).\n\n"
)
_THOUGHT = (
    "Thought:\n"
    "  - Step by Step Progress Assessment:\n"
    "    - Analyze completed task parts and their contribution to the overall goal\n"
    "    - Reflect on potential errors, unexpected results, or obstacles\n"
    "    - If previous action was incorrect, predict a logical recovery step\n"
    "  - Next Action Analysis:\n"
    "    - List possible next actions based on current state\n"
    "    - Evaluate options considering current state and previous actions\n"
    "    - Propose most logical next action\n"
    "    - Anticipate consequences of the proposed action\n"
    "  - For Text Input Actions:\n"
    "    - Note current cursor position\n"
    "    - Consolidate repetitive actions (specify count for multiple keypresses)\n"
    "    - Describe expected final text outcome\n"
    "{indent}- Use first-person perspective in reasoning\n\n"
)
_ACTION = (
    "Action:\n"
    "  Provide clear, concise, and actionable instructions:\n"
    "  - If the action involves interacting with a specific target:\n"
    "    - Describe target explicitly without using coordinates\n"
    "    - Specify element names when possible (use original language if non-English)\n"
    "    - Describe features (shape, color, position) if name unavailable\n"
    '    - For window control buttons, identify correctly (minimize "—", maximize "□", close "X")\n'
    "  - if the action involves keyboard actions like 'press', 'write', 'hotkey':\n"
    "    - Consolidate repetitive keypresses with count\n"
    "    - Specify expected text outcome for typing actions\n\n"
)
_FUNCTIONS = (
    "Finally, output the action as PyAutoGUI code or the following functions:\n"
    '- {"name": "computer.triple_click", "description": "Triple click on the screen", "parameters": '
    '{"type": "object", "properties": {"x": {"type": "number", "description": "The x coordinate of the triple '
    'click"}, "y": {"type": "number", "description": "The y coordinate of the triple click"}}, "required": '
    '["x", "y"]}}\n'
    '- {"name": "computer.terminate", "description": "Terminate the current task and report its completion '
    'status", "parameters": {"type": "object", "properties": {"status": {"type": "string", "enum": ["success", '
    '"failure"], "description": "The status of the task"}}, "required": ["status"]}}'
)
#: The user-turn text OpenCUA's agents send with the current screenshot.
INSTRUCTION_TEMPLATE = (
    "# Task Instruction:\n{instruction}\n\n"
    "Please generate the next move according to the screenshot, task instruction and previous steps (if provided).\n"
)


def opencua_system_prompt(level: OpenCUALevel = "l2", *, password: str | None = None) -> str:
    """The fixed system prompt of OpenCUA-7B/32B at a chain-of-thought level.

    ``"l1"`` asks for the action only, ``"l2"`` (the OSWorld agent's default) for a thought
    and the action, ``"l3"`` for an observation too; the reply ends with the code either way.
    The text is OpenCUA's ``L1/L2/L3_SYSTEM_PROMPTS`` (AgentNetBench), trailing whitespace
    removed. ``password`` adds the sentences OpenCUA's OSWorld agent adds for OSWorld-Verified
    ("The password of the computer is ... If the task is not possible to do, output the action
    computer.terminate(status='failure')."). For the grounding-only prompt (no format
    section) use :data:`GROUNDING_SYSTEM_PROMPT`.

    Raises:
        ValueError: an unknown level.
    """
    if level not in ("l1", "l2", "l3"):
        raise ValueError(f"level must be 'l1', 'l2' or 'l3', got {level!r}")
    intro = _INTRO
    if password is not None:
        intro += (
            f' The password of the computer is "{password}". If the task is not possible to do, '
            "output the action computer.terminate(status='failure')."
        )
    sections = {
        "l1": "",
        "l2": _THOUGHT.format(indent="    "),
        "l3": _OBSERVATION + _THOUGHT.format(indent="  "),
    }[level]
    return f"{intro}\n\nFor each step, provide your response in this format:\n\n{sections}{_ACTION}{_FUNCTIONS}"


#: The system prompt of OpenCUA's grounding examples (``huggingface_inference.py``).
GROUNDING_SYSTEM_PROMPT = _INTRO


def opencua_instruction(instruction: str) -> str:
    """The user-turn text for a task, after the screenshot (:data:`INSTRUCTION_TEMPLATE`)."""
    return INSTRUCTION_TEMPLATE.format(instruction=instruction)


def opencua_frame(
    *,
    screen_width: int,
    screen_height: int,
    coordinates: OpenCUACoordinates = "qwen25",
    min_pixels: int = QWEN25_MIN_PIXELS,
    max_pixels: int = QWEN25_MAX_PIXELS,
) -> tuple[int, int]:
    """(width, height) of the frame the model's coordinates live in: the smart_resize'd
    screenshot for ``"qwen25"`` (what a Qwen2.5-VL processor with these bounds resizes to),
    1x1 for ``"relative"``, the screenshot for ``"absolute"``.

    Raises:
        ValueError: a bad screen size or coordinate type.
    """
    if coordinates not in COORDINATE_TYPES:
        raise ValueError(f"coordinates must be one of {COORDINATE_TYPES}, got {coordinates!r}")
    if coordinates == "qwen25":
        return coordinate_frame(
            screen_width=screen_width, screen_height=screen_height, version="1.5",
            min_pixels=min_pixels, max_pixels=max_pixels,
        )
    coordinate_frame(screen_width=screen_width, screen_height=screen_height, version="v1")  # checks the size
    return (1, 1) if coordinates == "relative" else (screen_width, screen_height)


# -- reading ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenCUAReply:
    """One parsed OpenCUA reply.

    Attributes:
        thought: the ``Thought:`` section, ``None`` when absent (L1, grounding).
        actions: the canonical actions, in order.
        raw: the reply exactly as given.
        observation: the ``Observation:`` section (L3), if any.
        instruction: the ``Action:`` section, the step in words, if any.
        code: the code that was read (model coordinates, as written).
    """

    thought: str | None
    actions: tuple[Action, ...]
    raw: str
    observation: str | None = None
    instruction: str | None = None
    code: str = ""


_HEADER = re.compile(r"^[ \t]*(#{1,3}[ \t]*)?(Observation|Thought|Action|Code)[ \t]*(:)?[ \t]*(.*)$")
_FENCE = re.compile(r"```[ \t]*(?:python|code|py)?[ \t]*\n?(.*?)```", re.DOTALL | re.IGNORECASE)
_TRAILING_TOKENS = ("<|im_end|>", "<|endoftext|>", "[EOS]")
_SPECIAL = {"WAIT", "DONE", "FAIL"}


def _sections(text: str) -> dict[str, str]:
    """The ``Observation`` / ``Thought`` / ``Action`` / ``Code`` sections, fences respected."""
    sections: dict[str, list[str]] = {}
    current: str | None = None
    in_fence = False
    for line in text.splitlines():
        header = None if in_fence else _HEADER.match(line)
        if line.strip().startswith("```") and line.strip().count("```") % 2 == 1:
            in_fence = not in_fence
        if header and (header.group(1) or header.group(3)):
            current = header.group(2).lower()
            sections[current] = [header.group(4)] if header.group(4) else []
        elif current is not None:
            sections[current].append(line)
    return {name: "\n".join(lines).strip() for name, lines in sections.items()}


def _code_of(body: str, sections: dict[str, str], raw: str) -> str:
    fenced = _FENCE.findall(body)
    if fenced:
        return fenced[-1].strip()
    if sections.get("code"):
        return sections["code"]
    lines = [line.strip() for line in body.splitlines() if line.strip().startswith(("pyautogui.", "computer."))]
    if lines:
        return "\n".join(lines)
    raise ActionParseError("no code in the reply: no ``` block, no 'Code:' section, no pyautogui line", raw)


def _number(node: ast.expr) -> float | None:
    """The value of a numeric literal (``3``, ``-2.5``), else None."""
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign = -1 if isinstance(node.op, ast.USub) else 1
        node = node.operand
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return sign * node.value
    return None


def _dotted(node: ast.expr) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


# Where each function's point (x, y) or offset sits: (positional indexes, keyword names).
_POINT_AT = {
    **{
        f"pyautogui.{name}": ((0, 1), ("x", "y"))
        for name in (
            "click", "leftClick", "rightClick", "middleClick", "doubleClick", "tripleClick",
            "moveTo", "dragTo", "mouseDown", "mouseUp",
        )
    },
    **{f"pyautogui.{name}": ((1, 2), ("x", "y")) for name in ("scroll", "vscroll", "hscroll")},
    "computer.triple_click": ((0, 1), ("x", "y")),
}
_OFFSET_AT = {f"pyautogui.{name}": ((0, 1), ("xOffset", "yOffset")) for name in ("moveRel", "move", "dragRel", "drag")}


class _Rewriter(ast.NodeTransformer):
    """Model coordinates -> screen pixels in the calls' literal arguments, in place."""

    def __init__(self, frame: CoordinateFrame, fail: Callable[[str], ActionParseError]):
        self.frame = frame
        self.fail = fail

    def visit_Call(self, node: ast.Call) -> ast.AST:
        name = _dotted(node.func)
        if name == "pyautogui.hotkey":  # AgentNet's hotkey(keys=[...])
            keys = [kw for kw in node.keywords if kw.arg == "keys"]
            if keys and not node.args and isinstance(keys[0].value, (ast.List, ast.Tuple)):
                node.args = list(keys[0].value.elts)
                node.keywords = [kw for kw in node.keywords if kw.arg != "keys"]
        if name in _POINT_AT:
            self.rewrite(node, *_POINT_AT[name], name, point=True)
        elif name in _OFFSET_AT:
            self.rewrite(node, *_OFFSET_AT[name], name, point=False)
        return node

    def rewrite(self, node: ast.Call, slots: tuple[int, int], names: tuple[str, str], func: str, *, point: bool) -> None:
        keywords = {kw.arg: kw for kw in node.keywords}
        first = node.args[slots[0]] if len(node.args) > slots[0] else None
        if point and slots[0] == 0 and isinstance(first, (ast.Tuple, ast.List)) and len(node.args) == 1:
            if len(first.elts) == 2 and "y" not in keywords:  # click((x, y))
                self.replace(first.elts, 0, 1, func, point)
            return
        nodes: list[ast.expr] = []
        for slot, name in zip(slots, names):
            if len(node.args) > slot:
                nodes.append(node.args[slot])
            elif name in keywords:
                nodes.append(keywords[name].value)
            else:
                return  # no coordinates (at the pointer) or half of them: parse_pyautogui decides
        mx, my = _number(nodes[0]), _number(nodes[1])
        if mx is None or my is None:
            return
        if point:
            if not self.frame.contains(mx, my):
                raise self.fail(
                    f"{func}: ({mx:g}, {my:g}) is outside the model's {self.frame.width}x{self.frame.height} frame"
                )
            values: tuple[float, float] = self.frame.to_screen(mx, my)
        else:
            values = (
                mx * self.frame.screen_width / self.frame.width,
                my * self.frame.screen_height / self.frame.height,
            )
        for slot, name, value in zip(slots, names, values):
            if len(node.args) > slot:
                node.args[slot] = ast.Constant(value)
            else:
                keywords[name].value = ast.Constant(value)

    def replace(self, elts: list[ast.expr], xi: int, yi: int, func: str, point: bool) -> None:
        mx, my = _number(elts[xi]), _number(elts[yi])
        if mx is None or my is None:
            return
        if not self.frame.contains(mx, my):
            raise self.fail(f"{func}: ({mx:g}, {my:g}) is outside the model's {self.frame.width}x{self.frame.height} frame")
        sx, sy = self.frame.to_screen(mx, my)
        elts[xi], elts[yi] = ast.Constant(sx), ast.Constant(sy)


_IMPORTS = frozenset({"pyautogui", "time", "pyperclip"})  # what parse_pyautogui lets code import
_TRIPLE = signature("x", "y")
_TERMINATE = signature("status", answer=None)
_WAIT = signature()


def _last_point(actions: Sequence[Action]) -> tuple[int, int] | None:
    for action in reversed(actions):
        if isinstance(action, Drag):
            return action.x2, action.y2
        if isinstance(action, (Click, Move, Scroll)):
            return action.x, action.y
    return None


def _only_comments(statements: Sequence[ast.stmt]) -> bool:
    """Imports and bare strings only: nothing for parse_pyautogui to act on (or to refuse)."""
    def harmless(statement: ast.stmt) -> bool:
        if isinstance(statement, ast.Import):
            return all(alias.name in _IMPORTS and alias.asname is None for alias in statement.names)
        return (
            isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        )

    return all(harmless(s) for s in statements)


def _computer_call(call: Call, raw: str, wait_seconds: float) -> Action:
    func = call.name.removeprefix("computer.")
    try:
        if func == "triple_click":
            args = bind(call, _TRIPLE, raw=raw)
            x, y = args["x"], args["y"]
            if not (isinstance(x, int) and isinstance(y, int)) or isinstance(x, bool) or isinstance(y, bool):
                raise ActionParseError(f"computer.triple_click needs numeric x and y, got {x!r}, {y!r}", raw)
            return Click(x, y, count=3)
        if func == "terminate":
            args = bind(call, _TERMINATE, raw=raw)
            status, answer = args["status"], args["answer"]
            if not isinstance(status, str) or status.lower() not in ("success", "failure", "fail"):
                raise ActionParseError(f"computer.terminate: status must be 'success' or 'failure', got {status!r}", raw)
            if answer is not None and not isinstance(answer, str):
                raise ActionParseError(f"computer.terminate: answer must be a string, got {answer!r}", raw)
            return Done(success=status.lower() == "success", answer=answer)
        if func == "wait":
            bind(call, _WAIT, raw=raw)
            return Wait(wait_seconds)
    except ActionError as exc:
        raise ActionParseError(f"invalid action: {exc}", raw) from exc
    raise ActionParseError(
        f"unknown OpenCUA function {call.name!r}; expected computer.triple_click, computer.terminate or computer.wait",
        raw,
    )


def parse_opencua(
    text: str,
    *,
    screen_width: int,
    screen_height: int,
    coordinates: OpenCUACoordinates = "qwen25",
    pointer: tuple[int, int] | None = None,
    min_pixels: int = QWEN25_MIN_PIXELS,
    max_pixels: int = QWEN25_MAX_PIXELS,
    wait_seconds: float = OSWORLD_WAIT_SECONDS,
) -> OpenCUAReply:
    """Parse an OpenCUA reply into its sections and canonical actions.

    Args:
        text: the model's reply.
        screen_width: width of the screenshot the model saw, in observation pixels.
        screen_height: its height.
        coordinates: ``"qwen25"`` (OpenCUA-7B/32B), ``"relative"`` (OpenCUA-Qwen2-7B) or
            ``"absolute"``; see the module docstring.
        pointer: pointer position before the code, needed only for code acting at the pointer
            (``pyautogui.scroll(-3)`` with no ``moveTo`` before it).
        min_pixels: smart_resize lower bound (``qwen25`` only).
        max_pixels: smart_resize upper bound (``qwen25`` only).
        wait_seconds: how long ``computer.wait()`` waits.

    Raises:
        ActionParseError: no code, code :func:`parse_pyautogui` refuses, an unknown
            ``computer.*`` function, a bad terminate status, a point outside the frame, an
            action after ``computer.terminate``; ``.raw`` is ``text`` unchanged.
        ValueError: a bad screen size or coordinate type (the caller's error).
    """
    width, height = opencua_frame(
        screen_width=screen_width, screen_height=screen_height, coordinates=coordinates,
        min_pixels=min_pixels, max_pixels=max_pixels,
    )
    if not isinstance(text, str):
        raise ActionParseError(f"an OpenCUA reply must be a string, got {type(text).__name__}", repr(text))
    body = text.strip()
    for token in _TRAILING_TOKENS:
        if body.endswith(token):
            body = body[: -len(token)].rstrip()
    sections = _sections(body)
    code = _code_of(body, sections, text)
    reply = dict(
        thought=sections.get("thought") or None,
        raw=text,
        observation=sections.get("observation") or None,
        instruction=sections.get("action") or None,
        code=code,
    )
    if code in _SPECIAL:
        return OpenCUAReply(actions=tuple(parse_pyautogui(code)), **reply)  # type: ignore[arg-type]
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise ActionParseError(f"the code is not valid Python: {exc.msg} (line {exc.lineno})", text) from None
    frame = CoordinateFrame(width, height, screen_width, screen_height)
    tree = _Rewriter(frame, lambda reason: ActionParseError(reason, text)).visit(tree)
    actions: list[Action] = []
    segment: list[ast.stmt] = []

    def flush() -> None:
        nonlocal pointer
        if _only_comments(segment):
            segment.clear()
            return
        if actions and isinstance(actions[-1], Done):
            raise ActionParseError("an action after computer.terminate (the episode already ended)", text)
        source = ast.unparse(ast.Module(body=list(segment), type_ignores=[]))
        segment.clear()
        try:
            read = parse_pyautogui(source, pointer=pointer)
        except ActionParseError as exc:
            raise ActionParseError(exc.reason, text) from None
        actions.extend(read)
        pointer = _last_point(actions) or pointer

    for statement in tree.body:
        value = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(value, ast.Call) and _dotted(value.func).startswith("computer."):
            flush()
            if actions and isinstance(actions[-1], Done):
                raise ActionParseError("an action after computer.terminate (the episode already ended)", text)
            actions.append(_computer_call(parse_call(ast.unparse(value), raw=text), text, wait_seconds))
            pointer = _last_point(actions) or pointer
        else:
            segment.append(statement)
    flush()
    if not actions:
        raise ActionParseError("the code holds no action", text)
    return OpenCUAReply(actions=tuple(actions), **reply)  # type: ignore[arg-type]


# -- writing ------------------------------------------------------------------------------------


def format_opencua(
    actions: Sequence[Action],
    thought: str | None = None,
    *,
    screen_width: int,
    screen_height: int,
    instruction: str | None = None,
    observation: str | None = None,
    coordinates: OpenCUACoordinates = "qwen25",
    min_pixels: int = QWEN25_MIN_PIXELS,
    max_pixels: int = QWEN25_MAX_PIXELS,
    wait_seconds: float = OSWORLD_WAIT_SECONDS,
) -> str:
    """The reply OpenCUA would write for ``actions`` (demonstrations, SFT data).

    The sections given (``## Observation:``, ``## Thought:``, ``## Action:``, as OpenCUA's
    response templates order them), then ``## Code:`` with the code in a fence, in AgentNet's
    style: ``pyautogui.click(x=.., y=..)``, ``pyautogui.write(message=..)``,
    ``pyautogui.press(keys=[..])``, ``pyautogui.hotkey(keys=[..])``, a drag as ``moveTo`` then
    ``dragTo``, a scroll as ``moveTo`` then ``scroll`` / ``hscroll``, ``computer.triple_click``,
    ``computer.wait()`` for a wait of ``wait_seconds`` (``time.sleep`` otherwise),
    ``computer.terminate``. :func:`parse_opencua` reads it back to the same actions (exact
    for ``qwen25`` and ``absolute``; ``relative`` is written with 4 decimals, exact up to
    5000 px per axis).

    Raises:
        ActionError: ``Done(handoff=True)``, no action, or a section text that would not read
            back (holding ``` or a section header line).
    """
    if not actions:
        raise ActionError("format_opencua needs at least one action")
    width, height = opencua_frame(
        screen_width=screen_width, screen_height=screen_height, coordinates=coordinates,
        min_pixels=min_pixels, max_pixels=max_pixels,
    )
    frame = CoordinateFrame(width, height, screen_width, screen_height)

    def at(x: int, y: int) -> str:
        if not (0 <= x < screen_width and 0 <= y < screen_height):
            raise ActionError(f"point ({x}, {y}) is outside the {screen_width}x{screen_height} screen")
        if coordinates == "relative":
            rx = round(x / screen_width, RELATIVE_DECIMALS)
            ry = round(y / screen_height, RELATIVE_DECIMALS)
            return f"x={rx!r}, y={ry!r}"
        mx, my = frame.to_model(x, y)
        return f"x={mx}, y={my}"

    lines: list[str] = []
    for action in actions:
        lines.extend(_code_lines(action, at, wait_seconds))
    code = "\n".join(lines)
    fence = "code" if all(line.startswith("computer.") for line in lines) else "python"
    parts = []
    for title, value in (("Observation", observation), ("Thought", thought), ("Action", instruction)):
        if value is None:
            continue
        if "```" in value or any(
            (m := _HEADER.match(line)) and (m.group(1) or m.group(3)) for line in value.splitlines()
        ):
            raise ActionError(f"{title.lower()} must not hold ``` or a section header line; it could not be read back")
        parts.append(f"## {title}:\n{value}")
    parts.append(f"## Code:\n```{fence}\n{code}\n```")
    return "\n\n".join(parts)


def _code_lines(action: Action, at: Callable[[int, int], str], wait_seconds: float) -> list[str]:
    if isinstance(action, Click):
        where = at(action.x, action.y)
        if action.button == "left" and action.count == 3:
            return [f"computer.triple_click({where})"]
        names = {("left", 1): "click", ("left", 2): "doubleClick", ("right", 1): "rightClick", ("middle", 1): "middleClick"}
        name = names.get((action.button, action.count))
        if name is not None:
            return [f"pyautogui.{name}({where})"]
        return [f"pyautogui.click({where}, clicks={action.count}, button={action.button!r})"]
    if isinstance(action, Move):
        return [f"pyautogui.moveTo({at(action.x, action.y)})"]
    if isinstance(action, Drag):
        return [
            f"pyautogui.moveTo({at(action.x1, action.y1)})",
            f"pyautogui.dragTo({at(action.x2, action.y2)}, button={action.button!r})",
        ]
    if isinstance(action, Scroll):
        lines = [f"pyautogui.moveTo({at(action.x, action.y)})"]
        if action.dy:
            lines.append(f"pyautogui.scroll({-action.dy})")
        if action.dx:
            lines.append(f"pyautogui.hscroll({action.dx})")
        return lines
    if isinstance(action, Type):
        return [f"pyautogui.write(message={action.text!r})"]
    if isinstance(action, Hotkey):
        keys = [key_to_pyautogui(k) for k in action.keys]
        return [f"pyautogui.{'press' if len(keys) == 1 else 'hotkey'}(keys={keys!r})"]
    if isinstance(action, Wait):
        if action.seconds == wait_seconds:
            return ["computer.wait()"]
        return [f"time.sleep({action.seconds!r})"]
    if isinstance(action, Done):
        if action.handoff:
            raise ActionError("done: OpenCUA cannot hand over to a human (computer.terminate reports success or failure)")
        status = "success" if action.success else "failure"
        answer = "" if action.answer is None else f", answer={action.answer!r}"
        return [f"computer.terminate(status={status!r}{answer})"]
    raise ActionError(f"not a canonical action: {action!r}")



# -- the reply format ``opencua`` ------------------------------------------------------------------


def _parse_reply(text: str, view: View) -> Reply:
    reply = parse_opencua(text, screen_width=view.screen_width, screen_height=view.screen_height, **view.pixel_bounds())
    return Reply(reply.thought, list(reply.actions))


def _write_reply(action: Action, thought: str | None, view: View) -> str:
    return format_opencua([action], thought, screen_width=view.screen_width, screen_height=view.screen_height,
                          **view.pixel_bounds())


#: OpenCUA-7B/32B with their L2 system prompt (the OSWorld agent's default), in pixels of the
#: screenshot after smart_resize with Qwen2.5-VL's bounds.
OPENCUA = ActionFormat(
    name="opencua", family="OpenCUA",
    summary="OpenCUA-7B/32B: thought, then `pyautogui` code, pixels of the smart_resize image",
    image_size=SmartResize(QWEN25_MIN_PIXELS, QWEN25_MAX_PIXELS), prompt=lambda view: opencua_system_prompt("l2"),
    writer=_write_reply, parser=_parse_reply,
)
