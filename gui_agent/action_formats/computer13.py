"""OSWorld's ``computer_13`` action dicts.

Source format: xlang-ai/OSWorld ``desktop_env/actions.py`` (``ACTION_SPACE``) for the fields,
and ``desktop_env/controllers/python.py`` (``PythonController.execute_action``) for what
each one does:

==============  ==============================  ========================================
action_type     parameters                      executed as
==============  ==============================  ========================================
MOVE_TO         x, y                            ``pyautogui.moveTo(x, y, ...)``
CLICK           button?, x?, y?, num_clicks?    ``pyautogui.click(button=, x=, y=, clicks=)``
MOUSE_DOWN/UP   button?                         ``pyautogui.mouseDown/mouseUp(button=)``
RIGHT_CLICK     x?, y?                          ``pyautogui.rightClick(x=, y=)``
DOUBLE_CLICK    x?, y?                          ``pyautogui.doubleClick(x=, y=)``
DRAG_TO         x, y                            ``pyautogui.dragTo(x, y, duration=1.0,
                                                button='left', mouseDownUp=True)``
SCROLL          dx, dy (wheel clicks)           ``pyautogui.hscroll(dx)``; ``vscroll(dy)``
TYPING          text                            ``pyautogui.typewrite(text)``
PRESS           key                             ``pyautogui.press(key)``
KEY_DOWN/UP     key                             ``pyautogui.keyDown/keyUp(key)``
HOTKEY          keys (list)                     ``pyautogui.hotkey(*keys)``
WAIT            --                              ``DesktopEnv.step`` sleeps ``pause`` (2 s)
FAIL, DONE      --                              end the episode
==============  ==============================  ========================================

Sign conventions follow pyautogui: ``SCROLL`` ``dy > 0`` scrolls **up** (canonical
``dy = -dy``), ``dx > 0`` scrolls right (canonical ``dx = dx``). ``SCROLL`` and a ``CLICK``
without x/y act at the current pointer, so canonical actions that carry a position become
``MOVE_TO`` + the action, and reading folds them back (see ``_gestures``). Parameters may be
nested under ``"parameters"`` or given flat beside ``action_type``, as
``execute_action`` accepts both; the strings ``"WAIT"``, ``"DONE"``, ``"FAIL"`` are accepted
as OSWorld's agents return them. Key names are pyautogui's (OSWorld's ``KEYBOARD_KEYS``, where
the space bar is ``" "``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from gui_agent.action_formats._gestures import GestureReader, Point, to_count
from gui_agent.action_formats.pyautogui import OSWORLD_WAIT_SECONDS, key_from_pyautogui, key_to_pyautogui
from gui_agent.actions import Action, Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError

Computer13Action = dict[str, Any] | str

#: Parameters each action type accepts (OSWorld ``ACTION_SPACE``), required ones first.
PARAMETERS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "MOVE_TO": (frozenset({"x", "y"}), frozenset()),
    "CLICK": (frozenset(), frozenset({"button", "x", "y", "num_clicks"})),
    "MOUSE_DOWN": (frozenset(), frozenset({"button"})),
    "MOUSE_UP": (frozenset(), frozenset({"button"})),
    "RIGHT_CLICK": (frozenset(), frozenset({"x", "y"})),
    "DOUBLE_CLICK": (frozenset(), frozenset({"x", "y"})),
    "DRAG_TO": (frozenset({"x", "y"}), frozenset()),
    "SCROLL": (frozenset(), frozenset({"dx", "dy"})),
    "TYPING": (frozenset({"text"}), frozenset()),
    "PRESS": (frozenset({"key"}), frozenset()),
    "KEY_DOWN": (frozenset({"key"}), frozenset()),
    "KEY_UP": (frozenset({"key"}), frozenset()),
    "HOTKEY": (frozenset({"keys"}), frozenset()),
    "WAIT": (frozenset(), frozenset()),
    "FAIL": (frozenset(), frozenset()),
    "DONE": (frozenset(), frozenset()),
}
_BUTTONS = ("left", "right", "middle")


def _dump(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, default=repr, ensure_ascii=False)


class _Reader(GestureReader):
    def key(self, name: Any) -> str:
        return self.key_name(name, key_from_pyautogui)

    def button(self, params: Mapping[str, Any], kind: str) -> str:
        button = params.get("button", "left")
        if button not in _BUTTONS:
            raise self.fail(f"{kind}: button must be one of {_BUTTONS}, got {button!r}")
        return button

    def point(self, params: Mapping[str, Any], kind: str) -> Point | None:
        has_x, has_y = "x" in params, "y" in params
        if not has_x and not has_y:
            return None
        if has_x != has_y:
            raise self.fail(f"{kind}: give x and y together, got {dict(params)!r}")
        return (self.pixel(params["x"], f"{kind} x"), self.pixel(params["y"], f"{kind} y"))

    def split(self, item: Any) -> tuple[str, dict[str, Any]]:
        if isinstance(item, str):
            if item in ("WAIT", "DONE", "FAIL"):
                return item, {}
            raise self.fail(f"unknown action string {item!r}; expected WAIT, DONE or FAIL")
        if not isinstance(item, Mapping) or "action_type" not in item:
            raise self.fail(f"an action must be a dict with 'action_type', got {_dump(item)}")
        kind = item["action_type"]
        if kind not in PARAMETERS:
            raise self.fail(f"unknown action_type {kind!r}; expected one of {sorted(PARAMETERS)}")
        if "parameters" in item:
            extra = set(item) - {"action_type", "parameters"}
            params = item["parameters"] if item["parameters"] is not None else {}
            if extra or not isinstance(params, Mapping):
                raise self.fail(f"{kind}: 'parameters' must be the only other field and a dict")
        else:
            params = {k: v for k, v in item.items() if k != "action_type"}
        required, optional = PARAMETERS[kind]
        missing = required - set(params)
        unknown = set(params) - required - optional
        if missing or unknown:
            raise self.fail(
                f"{kind}: missing {sorted(missing)} / unknown {sorted(unknown)} parameters; "
                f"expected {sorted(required)} and optionally {sorted(optional)}"
            )
        return kind, dict(params)

    def read(self, item: Any) -> None:
        kind, p = self.split(item)
        g = self.gestures
        if kind == "MOVE_TO":
            point = self.point(p, kind)
            assert point is not None  # required parameters
            g.move_to(point)
        elif kind in ("CLICK", "RIGHT_CLICK", "DOUBLE_CLICK"):
            button = {"RIGHT_CLICK": "right", "DOUBLE_CLICK": "left"}.get(kind) or self.button(p, kind)
            count = 2 if kind == "DOUBLE_CLICK" else to_count(p.get("num_clicks", 1), what="num_clicks", raw=self.raw)
            g.click(self.point(p, kind), button=button, count=count)
        elif kind == "MOUSE_DOWN":
            g.mouse_down(None, button=self.button(p, kind))
        elif kind == "MOUSE_UP":
            g.mouse_up(None, button=self.button(p, kind))
        elif kind == "DRAG_TO":
            point = self.point(p, kind)
            assert point is not None
            g.drag_to(point, button="left")
        elif kind == "SCROLL":
            if "dx" not in p and "dy" not in p:
                raise self.fail("SCROLL needs dx or dy")
            dx = to_count(p.get("dx", 0), what="SCROLL dx", raw=self.raw)
            dy = to_count(p.get("dy", 0), what="SCROLL dy", raw=self.raw)
            if dx == 0 and dy == 0:
                raise self.fail("SCROLL with dx=0 and dy=0 scrolls nothing")
            g.scroll(None, dx=dx, dy=-dy)
        elif kind == "TYPING":
            if not isinstance(p["text"], str):
                raise self.fail(f"TYPING text must be a string, got {p['text']!r}")
            g.type_text(p["text"])
        elif kind == "PRESS":
            g.press((self.key(p["key"]),))
        elif kind == "KEY_DOWN":
            g.key_down(self.key(p["key"]))
        elif kind == "KEY_UP":
            g.key_up(self.key(p["key"]))
        elif kind == "HOTKEY":
            keys = p["keys"]
            if not isinstance(keys, (list, tuple)) or not keys:
                raise self.fail(f"HOTKEY keys must be a non-empty list, got {keys!r}")
            g.press(tuple(self.key(k) for k in keys))
        elif kind == "WAIT":
            g.wait(OSWORLD_WAIT_SECONDS)
        else:  # DONE / FAIL
            g.done(success=kind == "DONE")


def parse_computer13(
    actions: Computer13Action | Sequence[Computer13Action], *, pointer: tuple[int, int] | None = None
) -> list[Action]:
    """Read computer_13 actions (one dict/string, or a step's list of them) as canonical actions.

    Args:
        actions: what an OSWorld computer_13 agent returned for a step.
        pointer: the pointer position before these actions, needed only when one acts at
            the current pointer (SCROLL, CLICK without x/y, MOUSE_DOWN) before a MOVE_TO.

    Raises:
        ActionParseError: unknown action type or parameter, invalid value, an open gesture,
            or an unknown pointer. ``.raw`` is the whole input as JSON (strings verbatim).
    """
    items = [actions] if isinstance(actions, (str, Mapping)) else list(actions)
    reader = _Reader(_dump(actions if isinstance(actions, (str, Mapping)) else items), pointer)
    for item in items:
        reader.read(item)
    return reader.gestures.finish()


def key_to_computer13(key: str) -> str:
    """OSWorld ``KEYBOARD_KEYS`` spelling of a canonical key (space is ``" "`` there)."""
    return " " if key == "space" else key_to_pyautogui(key)


def _at(x: int, y: int) -> dict[str, Any]:
    return {"action_type": "MOVE_TO", "parameters": {"x": x, "y": y}}


def action_to_computer13(action: Action) -> list[dict[str, Any]]:
    """The computer_13 dicts performing one canonical action, in order.

    Positioned actions that computer_13 runs at the current pointer get a ``MOVE_TO``
    first (a scroll, a non-left drag); :func:`parse_computer13` folds them back.

    Raises:
        ActionError: no computer_13 form: a wait other than OSWorld's fixed
            ``OSWORLD_WAIT_SECONDS`` (``WAIT`` has no duration), or ``Done`` with an answer.
    """
    if isinstance(action, Click):
        params = {"button": action.button, "x": action.x, "y": action.y, "num_clicks": action.count}
        return [{"action_type": "CLICK", "parameters": params}]
    if isinstance(action, Move):
        return [_at(action.x, action.y)]
    if isinstance(action, Drag):
        if action.button == "left":
            return [
                _at(action.x1, action.y1),
                {"action_type": "DRAG_TO", "parameters": {"x": action.x2, "y": action.y2}},
            ]
        button = {"button": action.button}
        return [
            _at(action.x1, action.y1),
            {"action_type": "MOUSE_DOWN", "parameters": dict(button)},
            _at(action.x2, action.y2),
            {"action_type": "MOUSE_UP", "parameters": dict(button)},
        ]
    if isinstance(action, Scroll):
        return [_at(action.x, action.y), {"action_type": "SCROLL", "parameters": {"dx": action.dx, "dy": -action.dy}}]
    if isinstance(action, Type):
        return [{"action_type": "TYPING", "parameters": {"text": action.text}}]
    if isinstance(action, Hotkey):
        keys = [key_to_computer13(k) for k in action.keys]
        if len(keys) == 1:
            return [{"action_type": "PRESS", "parameters": {"key": keys[0]}}]
        return [{"action_type": "HOTKEY", "parameters": {"keys": keys}}]
    if isinstance(action, Wait):
        if action.seconds != OSWORLD_WAIT_SECONDS:
            raise ActionError(
                f"wait: computer_13's WAIT has no duration (it lasts one step pause, "
                f"{OSWORLD_WAIT_SECONDS} s); cannot express {action.seconds} s"
            )
        return [{"action_type": "WAIT", "parameters": {}}]
    if isinstance(action, Done):
        if action.answer is not None:
            raise ActionError("done: computer_13's DONE/FAIL carry no answer")
        return [{"action_type": "DONE" if action.success and not action.handoff else "FAIL", "parameters": {}}]
    raise ActionError(f"not a canonical action: {action!r}")


def actions_to_computer13(actions: Sequence[Action]) -> list[dict[str, Any]]:
    """All dicts for a sequence of actions, concatenated in order."""
    return [item for action in actions for item in action_to_computer13(action)]
