"""pyautogui code, as OSWorld's ``pyautogui`` action space and its agents write it.

Source format: OSWorld (xlang-ai/OSWorld) runs each step's action as Python code against
``pyautogui`` (``desktop_env/controllers/python.py``, ``execute_python_command``), or takes
one of three special strings: ``WAIT`` (sleep one step pause, 2 s by default in
``DesktopEnv.step(action, pause=2)``), ``DONE`` and ``FAIL``. Signatures follow pyautogui
0.9.54 (``click(x, y, clicks, interval, button, ...)``, ``scroll(clicks, x, y)``...).

Conventions the reader must know:

* ``pyautogui.scroll(n)`` / ``vscroll(n)``: ``n > 0`` scrolls **up** (X11 button 4), so the
  canonical ``dy = -n``. ``hscroll(n)``: ``n > 0`` scrolls right (button 7), canonical
  ``dx = n``.
* Float coordinates (UI-TARS' generated code writes ``pyautogui.click(960.5, 540.0)``) are
  rounded half up to whole pixels.
* Events fold as :mod:`gui_agent.action_formats._gestures` describes: ``moveTo`` then
  ``dragTo`` or ``mouseDown``/``mouseUp`` is one drag; ``keyDown``/``press``/``keyUp`` is one
  hotkey; ``moveTo`` then ``scroll()`` is one scroll at that point; ``scroll`` then
  ``hscroll`` at one point is one diagonal scroll (the writer emits a diagonal that way).
* ``pyperclip.copy(text)`` immediately followed by ``pyautogui.hotkey('ctrl', 'v')`` is read
  as typing ``text``: that is how OSWorld's UI-TARS agent types (``input_swap``), and a paste
  of known text has the same effect as typing it.

Parsing uses :mod:`ast`; the code is never executed.
"""

from __future__ import annotations

import inspect
from typing import Any

from gui_agent.action_formats._call_syntax import Call, MarkTag, bind, parse_statements, signature
from gui_agent.action_formats._gestures import GestureReader, Point, to_count
from gui_agent.action_formats.image_size import ScreenPixels
from gui_agent.action_formats.reply_format import ActionFormat, Reply, View
from gui_agent.action_formats.thought_action import (
    history_in_format,
    split_thought_action,
    thought_action_prompt,
    thought_action_reply,
)
from gui_agent.actions import (
    Action,
    Click,
    Done,
    Drag,
    Hotkey,
    Move,
    Scroll,
    Type,
    Wait,
    normalize_key,
)
from gui_agent.errors import ActionError, ActionParseError

#: Seconds OSWorld's ``WAIT`` lasts: ``DesktopEnv.step`` sleeps its ``pause`` (default 2).
OSWORLD_WAIT_SECONDS = 2.0

#: Seconds a formatted drag takes; OSWorld's own DRAG_TO uses ``dragTo(..., duration=1.0)``.
DRAG_DURATION = 1.0

_BUTTONS = {"left": "left", "right": "right", "middle": "middle", "primary": "left", "secondary": "right"}

# pyautogui key names that normalize_key does not know, and canonical names pyautogui spells
# differently ("win" is the Super key on X11 and Windows).
_FROM_PYAUTOGUI = {
    "\n": "enter",
    "\r": "enter",
    "\t": "tab",
    "optionleft": "alt",
    "optionright": "alt",
    "prntscrn": "printscreen",
}
_TO_PYAUTOGUI = {"meta": "win", "menu": "apps"}


def key_from_pyautogui(name: str) -> str:
    """Canonical name of a pyautogui key name (``'ctrlleft'`` -> ``'ctrl'``, ``'\\n'`` -> ``'enter'``).

    Raises:
        ActionError: a key the canonical space does not have (``'volumeup'``, ``'num5'``).
    """
    if not isinstance(name, str):
        raise ActionError(f"a key name must be a string, got {name!r}")
    return normalize_key(_FROM_PYAUTOGUI.get(name.lower() if len(name) > 1 else name, name))


def key_to_pyautogui(key: str) -> str:
    """The pyautogui spelling of a canonical key (``'meta'`` -> ``'win'``)."""
    return _TO_PYAUTOGUI.get(key, key)


# Real pyautogui 0.9.54 signatures, in their order; arguments that only shape timing or
# logging are accepted and ignored.
_QUIET = {"logScreenshot": None, "_pause": True}
_MOTION = {"duration": 0.0, "tween": None}
_CLICK = signature(x=None, y=None, clicks=1, interval=0.0, button="primary", **_MOTION, **_QUIET)
_N_CLICK = signature(x=None, y=None, interval=0.0, button="left", **_MOTION, **_QUIET)
_SIDE_CLICK = signature(x=None, y=None, interval=0.0, **_MOTION, **_QUIET)
_MOVE_TO = signature(x=None, y=None, **_MOTION, logScreenshot=False, _pause=True)
_MOVE_REL = signature(xOffset=None, yOffset=None, **_MOTION, logScreenshot=False, _pause=True)
_DRAG_TO = signature(x=None, y=None, **_MOTION, button="primary", **_QUIET, mouseDownUp=True)
_DRAG_REL = signature(xOffset=0, yOffset=0, **_MOTION, button="primary", **_QUIET, mouseDownUp=True)
_MOUSE_BUTTON = signature(x=None, y=None, button="primary", **_MOTION, **_QUIET)
_SCROLL = signature("clicks", x=None, y=None, **_QUIET)
_WRITE = signature("message", interval=0.0, **_QUIET)
_PRESS = signature("keys", presses=1, interval=0.0, **_QUIET)
_KEY = signature("key", **_QUIET)
_SLEEP = inspect.Signature([inspect.Parameter("seconds", inspect.Parameter.POSITIONAL_ONLY)])
_COPY = signature("text")

_SIGNATURES: dict[str, inspect.Signature] = {
    "click": _CLICK,
    "leftClick": _SIDE_CLICK,
    "rightClick": _SIDE_CLICK,
    "middleClick": _SIDE_CLICK,
    "doubleClick": _N_CLICK,
    "tripleClick": _N_CLICK,
    "moveTo": _MOVE_TO,
    "moveRel": _MOVE_REL,
    "move": _MOVE_REL,
    "dragTo": _DRAG_TO,
    "dragRel": _DRAG_REL,
    "drag": _DRAG_REL,
    "mouseDown": _MOUSE_BUTTON,
    "mouseUp": _MOUSE_BUTTON,
    "scroll": _SCROLL,
    "vscroll": _SCROLL,
    "hscroll": _SCROLL,
    "typewrite": _WRITE,
    "write": _WRITE,
    "press": _PRESS,
    "keyDown": _KEY,
    "keyUp": _KEY,
    "sleep": _SLEEP,
}
_SPECIAL = {"WAIT", "DONE", "FAIL"}


class _Reader(GestureReader):
    """Turns the calls of one code block into gesture events."""

    def __init__(self, raw: str, pointer: Point | None):
        super().__init__(raw, pointer, fold_diagonal_scrolls=True)
        self.clipboard: str | None = None  # text copied by pyperclip, waiting for ctrl+v

    def key(self, name: Any) -> str:
        return self.key_name(name, key_from_pyautogui)

    def button(self, value: Any, func: str) -> str:
        if isinstance(value, str) and value.lower() in _BUTTONS:
            return _BUTTONS[value.lower()]
        raise self.fail(f"{func}: unknown mouse button {value!r}; expected one of {sorted(_BUTTONS)}")

    def point(self, x: Any, y: Any, func: str) -> Point | None:
        if isinstance(x, MarkTag) or isinstance(y, MarkTag):
            raise self.fail(f"{func}: a mark (tag_N) stands alone for a point, and in a click only: pyautogui.click(tag_N)")
        if isinstance(x, (list, tuple)) and y is None:  # pyautogui accepts click((x, y))
            if len(x) != 2:
                raise self.fail(f"{func}: a point must have two coordinates, got {x!r}")
            x, y = x
        if x is None and y is None:
            return None
        if x is None or y is None:
            raise self.fail(f"{func}: give both x and y, got x={x!r}, y={y!r}")
        return (self.pixel(x, f"{func} x"), self.pixel(y, f"{func} y"))

    def relative(self, dx: Any, dy: Any, func: str) -> Point:
        pointer = self.gestures.pointer
        if pointer is None:
            raise self.fail(f"{func} moves relative to the pointer, whose position is unknown; pass pointer=(x, y)")
        offsets = [0 if v is None else v for v in (dx, dy)]
        for offset in offsets:
            if isinstance(offset, bool) or not isinstance(offset, (int, float)):
                raise self.fail(f"{func}: offsets must be numbers, got {offset!r}")
        return (self.pixel(pointer[0] + offsets[0], f"{func} x"), self.pixel(pointer[1] + offsets[1], f"{func} y"))

    def read(self, call: Call) -> None:
        if self.clipboard is not None:
            text, self.clipboard = self.clipboard, None
            if call.name == "pyautogui.hotkey" and [str(a).lower() for a in call.args] == ["ctrl", "v"]:
                self.gestures.type_text(text)
                return
            raise self.fail("pyperclip.copy(...) must be followed directly by pyautogui.hotkey('ctrl', 'v')")
        module, _, func = call.name.rpartition(".")
        if module == "time" and func == "sleep":
            self.gestures.wait(self.seconds(bind(call, _SLEEP, raw=self.raw)["seconds"]))
        elif module == "pyperclip" and func == "copy":
            text = bind(call, _COPY, raw=self.raw)["text"]
            if not isinstance(text, str):
                raise self.fail(f"pyperclip.copy needs a string, got {text!r}")
            self.clipboard = text
        elif module != "pyautogui":
            raise self.fail(f"unknown function {call.name!r}; only pyautogui, time.sleep and pyperclip.copy are read")
        elif func == "hotkey":
            self.hotkey(call)
        elif func in _SIGNATURES:
            self.dispatch(func, bind(call, _SIGNATURES[func], raw=self.raw))
        else:
            raise self.fail(f"unsupported pyautogui function {func!r}")

    def seconds(self, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(f"sleep needs a number of seconds, got {value!r}")
        return value

    def hotkey(self, call: Call) -> None:
        extra = set(call.kwargs) - {"interval", "logScreenshot", "_pause"}
        if extra:
            raise self.fail(f"pyautogui.hotkey: unexpected keyword(s) {sorted(extra)}")
        names = call.args
        if len(names) == 1 and isinstance(names[0], (list, tuple)):  # hotkey(['ctrl', 'c'])
            names = tuple(names[0])
        if not names:
            raise self.fail("pyautogui.hotkey needs at least one key")
        self.gestures.press(tuple(self.key(name) for name in names))

    def dispatch(self, func: str, a: dict[str, Any]) -> None:
        g = self.gestures
        if func in ("click", "leftClick", "rightClick", "middleClick", "doubleClick", "tripleClick"):
            count = {"doubleClick": 2, "tripleClick": 3}.get(func, 1)
            if func == "click":
                count = to_count(a["clicks"], what="click clicks", raw=self.raw)
            button = {"leftClick": "left", "rightClick": "right", "middleClick": "middle"}.get(func)
            if isinstance(a["x"], MarkTag) and a["y"] is None:  # pyautogui.click(tag_12): OSWorld's som code
                g.click_mark(a["x"].number, button=button or self.button(a["button"], func), count=count)
                return
            g.click(self.point(a["x"], a["y"], func), button=button or self.button(a["button"], func), count=count)
        elif func == "moveTo":
            point = self.point(a["x"], a["y"], func)
            if point is None:
                raise self.fail("moveTo needs coordinates")
            g.move_to(point)
        elif func in ("moveRel", "move"):
            g.move_to(self.relative(a["xOffset"], a["yOffset"], func))
        elif func in ("dragTo", "dragRel", "drag"):
            if func == "dragTo":
                point = self.point(a["x"], a["y"], func)
                if point is None:
                    raise self.fail("dragTo needs coordinates")
            else:
                point = self.relative(a["xOffset"], a["yOffset"], func)
            if a["mouseDownUp"]:
                g.drag_to(point, button=self.button(a["button"], func))
            else:
                g.move_to(point)
        elif func == "mouseDown":
            g.mouse_down(self.point(a["x"], a["y"], func), button=self.button(a["button"], func))
        elif func == "mouseUp":
            g.mouse_up(self.point(a["x"], a["y"], func), button=self.button(a["button"], func))
        elif func in ("scroll", "vscroll", "hscroll"):
            clicks = to_count(a["clicks"], what=f"{func} clicks", raw=self.raw)
            if clicks == 0:
                raise self.fail(f"{func}(0) scrolls nothing")
            dx, dy = (clicks, 0) if func == "hscroll" else (0, -clicks)
            g.scroll(self.point(a["x"], a["y"], func), dx=dx, dy=dy)
        elif func in ("typewrite", "write"):
            message = a["message"]
            if isinstance(message, (list, tuple)):  # typewrite(['a', 'left', 'enter']): key presses
                for name in message:
                    g.press((self.key(name),))
            elif isinstance(message, str):
                g.type_text(message)
            else:
                raise self.fail(f"{func} needs a string or a list of keys, got {message!r}")
        elif func == "press":
            names = a["keys"] if isinstance(a["keys"], (list, tuple)) else [a["keys"]]
            presses = to_count(a["presses"], what="press presses", raw=self.raw)
            if presses < 1 or not names:
                raise self.fail("press presses nothing")
            for _ in range(presses):
                for name in names:
                    g.press((self.key(name),))
        elif func == "keyDown":
            g.key_down(self.key(a["key"]))
        elif func == "keyUp":
            g.key_up(self.key(a["key"]))
        elif func == "sleep":
            g.wait(self.seconds(a["seconds"]))

    def finish(self) -> list[Action]:
        if self.clipboard is not None:
            raise self.fail("pyperclip.copy(...) is not followed by pyautogui.hotkey('ctrl', 'v')")
        return self.gestures.finish()


def _strip_fence(code: str) -> str:
    """Unwrap one Markdown code fence (```python ... ```), as OSWorld agents return code."""
    text = code.strip()
    if text.startswith("```") and text.endswith("```") and len(text) >= 6:
        text = text[3:-3]
        first, newline, rest = text.partition("\n")
        if newline and (first.strip() == "" or first.strip().isidentifier()):
            text = rest
        text = text.strip()
    return text


def parse_pyautogui(code: str, *, pointer: tuple[int, int] | None = None) -> list[Action]:
    """Read one step of OSWorld pyautogui code (or ``WAIT``/``DONE``/``FAIL``) as canonical actions.

    Args:
        code: the code block; one optional Markdown fence around it is removed.
        pointer: the pointer position before the code runs. Needed only when the code acts
            at the current pointer (``scroll(-3)``, ``click()``, ``dragTo``) before moving it.

    Returns:
        The actions in order (several for multi-line code).

    Raises:
        ActionParseError: the code is not a pure sequence of supported calls, an action is
            invalid, a gesture is left open, or the pointer is needed but unknown. ``.raw``
            holds ``code`` unchanged.
    """
    if not isinstance(code, str):
        raise ActionParseError(f"pyautogui code must be a string, got {type(code).__name__}", repr(code))
    text = _strip_fence(code)
    if text in _SPECIAL:
        if text == "WAIT":
            return [Wait(OSWORLD_WAIT_SECONDS)]
        return [Done(success=text == "DONE")]
    if not text:
        raise ActionParseError("empty code", code)
    reader = _Reader(code, pointer)
    for call in parse_statements(text, raw=code, allowed_imports=frozenset({"pyautogui", "time", "pyperclip"})):
        reader.read(call)
    return reader.finish()


def _point_args(x: int, y: int) -> str:
    return f"{x}, {y}"


def action_to_pyautogui(action: Action) -> str:
    """One OSWorld action string for a canonical action (code, or ``WAIT``/``DONE``/``FAIL``).

    A drag or a diagonal scroll is several lines of one string; :func:`parse_pyautogui`
    reads every string this returns back to the same action.

    Raises:
        ActionError: the action has no OSWorld form: ``Done`` with an ``answer`` (OSWorld's
            pyautogui space has no answer channel).
    """
    if isinstance(action, Click):
        at = f"tag_{action.mark}" if action.mark is not None else _point_args(action.x, action.y)
        if action.button == "left" and action.count == 1:
            return f"pyautogui.click({at})"
        if action.button == "left":
            return f"pyautogui.{'doubleClick' if action.count == 2 else 'tripleClick'}({at})"
        count = f", clicks={action.count}" if action.count != 1 else ""
        return f"pyautogui.click({at}{count}, button={action.button!r})"
    if isinstance(action, Move):
        return f"pyautogui.moveTo({_point_args(action.x, action.y)})"
    if isinstance(action, Drag):
        return (
            f"pyautogui.moveTo({_point_args(action.x1, action.y1)})\n"
            f"pyautogui.dragTo({_point_args(action.x2, action.y2)}, duration={DRAG_DURATION}, button={action.button!r})"
        )
    if isinstance(action, Scroll):
        lines = []
        if action.dy:
            lines.append(f"pyautogui.scroll({-action.dy}, x={action.x}, y={action.y})")
        if action.dx:
            lines.append(f"pyautogui.hscroll({action.dx}, x={action.x}, y={action.y})")
        return "\n".join(lines)
    if isinstance(action, Type):
        return f"pyautogui.write({action.text!r})"
    if isinstance(action, Hotkey):
        keys = [key_to_pyautogui(k) for k in action.keys]
        if len(keys) == 1:
            return f"pyautogui.press({keys[0]!r})"
        return f"pyautogui.hotkey({', '.join(repr(k) for k in keys)})"
    if isinstance(action, Wait):
        if action.seconds == OSWORLD_WAIT_SECONDS:
            return "WAIT"
        return f"time.sleep({action.seconds!r})"
    if isinstance(action, Done):
        if action.answer is not None:
            raise ActionError("done: OSWorld's pyautogui action space has no answer; DONE/FAIL carry none")
        return "DONE" if action.success and not action.handoff else "FAIL"
    raise ActionError(f"not a canonical action: {action!r}")


# -- the reply format ``pyautogui`` --------------------------------------------------------------

#: The action space the SFT prompt of the ``pyautogui`` format lists.
PYAUTOGUI_ACTION_SPACE = """\
## Action space
One or more lines of Python using pyautogui (the screen is the screenshot, in pixels):
pyautogui.click(x, y)   pyautogui.doubleClick(x, y)   pyautogui.tripleClick(x, y)
pyautogui.click(x, y, button='right')   pyautogui.moveTo(x, y)
pyautogui.moveTo(x1, y1) then pyautogui.dragTo(x2, y2, duration=0.5, button='left')
pyautogui.scroll(clicks, x=x, y=y) (positive scrolls up)   pyautogui.hscroll(clicks, x=x, y=y)
pyautogui.write('text')   pyautogui.press('enter')   pyautogui.hotkey('ctrl', 'c')   time.sleep(seconds)
or one of the special answers: WAIT (wait a while), DONE (the task is done), FAIL (it cannot be done)."""


def _write_reply(action: Action, thought: str | None, view: View) -> str:
    return thought_action_reply(thought, action_to_pyautogui(action))


def _parse_reply(text: str, view: View) -> Reply:
    """The thought, then the code after ``Action:`` (OpenCUA's and small VLMs' reply shape)."""
    thought, code = split_thought_action(text)
    try:
        actions = parse_pyautogui(code.strip())
    except ActionParseError as exc:
        raise ActionParseError(exc.reason, text) from None
    return Reply(thought, actions)


#: ``Thought: ...`` then ``Action:`` and OSWorld pyautogui code, in pixels of the screenshot:
#: what small general VLMs (Idefics3/SmolVLM) have seen most of, with no special tokens.
PYAUTOGUI = ActionFormat(
    name="pyautogui", family="OSWorld pyautogui",
    summary="`Action: pyautogui.click(x, y)` (OpenCUA, Idefics3/SmolVLM), screenshot pixels",
    image_size=ScreenPixels(), prompt=lambda view: thought_action_prompt(PYAUTOGUI_ACTION_SPACE),
    writer=_write_reply, parser=_parse_reply, history=history_in_format(_write_reply), sft=True,
    # OSWorld's own words to a set-of-marks agent (mm_agents/prompts.py).
    mark_hint=("You can replace x, y in the code with the tag of the element you want to operate with, "
               "such as: pyautogui.click(tag_2)"),
)
