"""BrowserGym's coordinate ("coord") actions, as the Python call strings agents send.

Source format: ServiceNow/BrowserGym ``browsergym/core/action/functions.py`` (the functions
of the ``coord``, ``chat`` and ``infeas`` subsets of ``highlevel.py``)::

    mouse_move(x, y)                    mouse_click(x, y, button='left')
    mouse_down(x, y, button='left')     mouse_dblclick(x, y, button='left')
    mouse_up(x, y, button='left')       mouse_drag_and_drop(from_x, from_y, to_x, to_y)
    scroll(delta_x, delta_y)            keyboard_press(key)       keyboard_type(text)
    keyboard_down(key)                  keyboard_up(key)          keyboard_insert_text(text)
    noop(wait_ms=1000)                  send_msg_to_user(text)    report_infeasible(reason)

Several actions may be given one per line (BrowserGym's ``multiaction``).

Conventions the reader must know:

* ``scroll`` takes **pixels** (``page.mouse.wheel``), positive = right/down, at the current
  mouse position. Canonical scrolls count wheel clicks of
  :data:`gui_agent.actions.PIXELS_PER_WHEEL_CLICK` pixels, so reading rounds
  ``delta / PIXELS_PER_WHEEL_CLICK`` half away from zero and never to 0 for a non-zero
  delta: at most half a click (50 px) of error, none for multiples of 100 px. A canonical
  scroll is written as ``mouse_move(x, y)`` + ``scroll(...)``; reading folds them back.
* Keys use Playwright's names (``Control+Shift+t``, ``ArrowDown``, ``KeyA``), split on ``+``
  exactly as Playwright does (so ``Shift++`` is Shift and ``+``).
* ``send_msg_to_user(text)`` ends the episode with ``Done(answer=text)``;
  ``report_infeasible(reason)`` with ``Done(success=False, answer=reason)``. An empty text
  reads as no answer.
* ``keyboard_insert_text`` reads as typing (the canonical space has one way to enter
  text); writing always uses ``keyboard_type``.
* Element actions (``click('a51')``, ``fill``...) name DOM nodes by ``bid``, not pixels, and
  navigation (``goto``, tabs) has no canonical action: both are refused.
"""

from __future__ import annotations

import inspect
import math
import textwrap
from collections.abc import Sequence
from typing import Any

from gui_agent.action_formats._call_syntax import bind, parse_statements, signature
from gui_agent.action_formats._gestures import GestureReader, Point
from gui_agent.actions import (
    PIXELS_PER_WHEEL_CLICK,
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
from gui_agent.keys import to_playwright_key

_BUTTONS = ("left", "middle", "right")
_ELEMENT_ACTIONS = frozenset(
    {
        "click",
        "dblclick",
        "fill",
        "hover",
        "press",
        "focus",
        "clear",
        "drag_and_drop",
        "select_option",
        "check",
        "uncheck",
        "upload_file",
        "get_element_html",
    }
)
_NAVIGATION = frozenset({"goto", "go_back", "go_forward", "new_tab", "tab_close", "tab_focus", "mouse_upload_file"})

_PLAYWRIGHT_TO_CANONICAL = {
    "control": "ctrl",
    "controlormeta": "ctrl",
    "contextmenu": "menu",
    "space": "space",
    "backquote": "`",
    "minus": "-",
    "equal": "=",
    "backslash": "\\",
    "bracketleft": "[",
    "bracketright": "]",
    "semicolon": ";",
    "quote": "'",
    "comma": ",",
    "period": ".",
    "slash": "/",
}


def split_playwright_keys(combo: str) -> list[str]:
    """Split ``'Control+Shift+t'`` the way Playwright's keyboard does (``'Shift++'`` -> Shift, +)."""
    keys: list[str] = []
    building = ""
    for char in combo:
        if char == "+" and building:
            keys.append(building)
            building = ""
        else:
            building += char
    keys.append(building)
    return keys


def key_from_playwright(name: str) -> str:
    """Canonical name of one Playwright key (``'ArrowDown'`` -> ``'down'``, ``'KeyA'`` -> ``'a'``).

    Raises:
        ActionError: a key the canonical space does not have (``'NumpadAdd'``, ``'AudioVolumeUp'``).
    """
    if len(name) == 4 and name.startswith("Key") and name[3].isalpha():
        return name[3].lower()
    if len(name) == 6 and name.startswith("Digit") and name[5].isdigit():
        return name[5]
    if len(name) > 1:
        name = _PLAYWRIGHT_TO_CANONICAL.get(name.lower(), name)
    return normalize_key(name)


def key_to_playwright(key: str) -> str:
    """Playwright's name of a canonical key (``'ctrl'`` -> ``'Control'``, ``'up'`` -> ``'ArrowUp'``).

    The table is :data:`gui_agent.keys.PLAYWRIGHT_KEYS`, the one the browser environment presses
    with, so what BrowserGym strings say and what the environment presses cannot drift apart.
    """
    return to_playwright_key(key)


# The real BrowserGym signatures (functions.py).
_BUTTON_POINT = signature("x", "y", button="left")
_TEXT = signature("text")
_KEY = signature("key")
_SIGNATURES: dict[str, inspect.Signature] = {
    "noop": signature(wait_ms=1000),
    "send_msg_to_user": _TEXT,
    "report_infeasible": signature("reason"),
    "scroll": signature("delta_x", "delta_y"),
    "mouse_move": signature("x", "y"),
    "mouse_up": _BUTTON_POINT,
    "mouse_down": _BUTTON_POINT,
    "mouse_click": _BUTTON_POINT,
    "mouse_dblclick": _BUTTON_POINT,
    "mouse_drag_and_drop": signature("from_x", "from_y", "to_x", "to_y"),
    "keyboard_press": _KEY,
    "keyboard_up": _KEY,
    "keyboard_down": _KEY,
    "keyboard_type": _TEXT,
    "keyboard_insert_text": _TEXT,
}


def _wheel_clicks(pixels: float) -> int:
    """Pixels to wheel clicks: round half away from zero; a non-zero delta is at least 1 click."""
    if pixels == 0:
        return 0
    clicks = max(1, math.floor(abs(pixels) / PIXELS_PER_WHEEL_CLICK + 0.5))
    return clicks if pixels > 0 else -clicks


class _Reader(GestureReader):
    def point(self, x: Any, y: Any, func: str) -> Point:
        return (self.pixel(x, f"{func} x"), self.pixel(y, f"{func} y"))

    def button(self, value: Any, func: str) -> str:
        if value not in _BUTTONS:
            raise self.fail(f"{func}: button must be one of {_BUTTONS}, got {value!r}")
        return value

    def keys(self, combo: Any, func: str) -> tuple[str, ...]:
        if not isinstance(combo, str) or not combo:
            raise self.fail(f"{func} needs a key name, got {combo!r}")
        return tuple(self.key_name(name, key_from_playwright, where=f"{func}: ") for name in split_playwright_keys(combo))

    def text(self, value: Any, func: str) -> str:
        if not isinstance(value, str):
            raise self.fail(f"{func} needs a string, got {value!r}")
        return value

    def number(self, value: Any, what: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.fail(f"{what} must be a number, got {value!r}")
        return value

    def read(self, name: str, a: dict[str, Any]) -> None:
        g = self.gestures
        if name == "mouse_move":
            g.move_to(self.point(a["x"], a["y"], name))
        elif name in ("mouse_click", "mouse_dblclick"):
            count = 2 if name == "mouse_dblclick" else 1
            g.click(self.point(a["x"], a["y"], name), button=self.button(a["button"], name), count=count)
        elif name == "mouse_down":
            g.mouse_down(self.point(a["x"], a["y"], name), button=self.button(a["button"], name))
        elif name == "mouse_up":
            g.mouse_up(self.point(a["x"], a["y"], name), button=self.button(a["button"], name))
        elif name == "mouse_drag_and_drop":
            g.move_to(self.point(a["from_x"], a["from_y"], name))
            g.drag_to(self.point(a["to_x"], a["to_y"], name), button="left")
        elif name == "scroll":
            dx = _wheel_clicks(self.number(a["delta_x"], "scroll delta_x"))
            dy = _wheel_clicks(self.number(a["delta_y"], "scroll delta_y"))
            if dx == 0 and dy == 0:
                raise self.fail("scroll(0, 0) scrolls nothing")
            g.scroll(None, dx=dx, dy=dy)
        elif name == "keyboard_press":
            g.press(self.keys(a["key"], name))
        elif name in ("keyboard_down", "keyboard_up"):
            keys = self.keys(a["key"], name)
            if len(keys) != 1:
                raise self.fail(f"{name} takes one key, got {a['key']!r}")
            (g.key_down if name == "keyboard_down" else g.key_up)(keys[0])
        elif name in ("keyboard_type", "keyboard_insert_text"):
            g.type_text(self.text(a["text"], name))
        elif name == "noop":
            g.wait(self.number(a["wait_ms"], "noop wait_ms") / 1000)
        elif name == "send_msg_to_user":
            g.done(success=True, answer=self.text(a["text"], name) or None)
        elif name == "report_infeasible":
            g.done(success=False, answer=self.text(a["reason"], name) or None)


def parse_browsergym(code: str, *, pointer: tuple[int, int] | None = None) -> list[Action]:
    """Read BrowserGym coordinate actions (one per line) as canonical actions.

    Args:
        code: the action string an agent sent to ``env.step``.
        pointer: the mouse position before it, needed only for a ``scroll`` before any
            mouse action (BrowserGym scrolls wherever the mouse is).

    Raises:
        ActionParseError: not a pure list of supported calls, element/navigation actions,
            invalid values, an open gesture or an unknown pointer. ``.raw`` holds ``code``.
    """
    if not isinstance(code, str):
        raise ActionParseError(f"BrowserGym actions must be a string, got {type(code).__name__}", repr(code))
    reader = _Reader(code, pointer)
    for call in parse_statements(textwrap.dedent(code).strip(), raw=code):
        if call.name in _SIGNATURES:
            reader.read(call.name, bind(call, _SIGNATURES[call.name], raw=code))
        elif call.name in _ELEMENT_ACTIONS:
            raise ActionParseError(
                f"{call.name}() targets a DOM element by bid, not pixels; only coordinate actions convert", code
            )
        elif call.name in _NAVIGATION:
            raise ActionParseError(f"{call.name}() has no canonical action (browser navigation/tabs)", code)
        else:
            raise ActionParseError(f"unknown BrowserGym action {call.name!r}", code)
    return reader.gestures.finish()


def _num(value: float) -> str:
    return repr(int(value)) if float(value).is_integer() else repr(value)


def action_to_browsergym(action: Action) -> str:
    """The BrowserGym action string for one canonical action (a scroll takes two lines).

    Raises:
        ActionError: no BrowserGym form: a triple click (``mouse_click`` has no click count),
            or ``Done(handoff=True)`` (BrowserGym cannot hand over to a human).
    """
    if isinstance(action, Click):
        if action.count == 3:
            raise ActionError("click: BrowserGym has no triple click (mouse_click/mouse_dblclick only)")
        func = "mouse_dblclick" if action.count == 2 else "mouse_click"
        button = f", {action.button!r}" if action.button != "left" else ""
        return f"{func}({action.x}, {action.y}{button})"
    if isinstance(action, Move):
        return f"mouse_move({action.x}, {action.y})"
    if isinstance(action, Drag):
        if action.button == "left":
            return f"mouse_drag_and_drop({action.x1}, {action.y1}, {action.x2}, {action.y2})"
        return (
            f"mouse_down({action.x1}, {action.y1}, {action.button!r})\n"
            f"mouse_up({action.x2}, {action.y2}, {action.button!r})"
        )
    if isinstance(action, Scroll):
        dx, dy = action.dx * PIXELS_PER_WHEEL_CLICK, action.dy * PIXELS_PER_WHEEL_CLICK
        return f"mouse_move({action.x}, {action.y})\nscroll({dx}, {dy})"
    if isinstance(action, Type):
        return f"keyboard_type({action.text!r})"
    if isinstance(action, Hotkey):
        return f"keyboard_press({'+'.join(key_to_playwright(k) for k in action.keys)!r})"
    if isinstance(action, Wait):
        return f"noop(wait_ms={_num(action.seconds * 1000)})"
    if isinstance(action, Done):
        if action.handoff:
            raise ActionError("done: BrowserGym has no hand-over to a human")
        func = "send_msg_to_user" if action.success else "report_infeasible"
        return f"{func}({(action.answer or '')!r})"
    raise ActionError(f"not a canonical action: {action!r}")


def actions_to_browsergym(actions: Sequence[Action]) -> str:
    """Several actions as one multi-action string, one call per line."""
    return "\n".join(action_to_browsergym(action) for action in actions)
