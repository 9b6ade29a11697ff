"""OpenAI's Responses API computer tool (``computer_use_preview``, and ``computer``) <-> canonical actions.

Source format: the ``action`` of a ``computer_call`` output item, as the openai-python SDK
types it (``openai/types/responses/response_computer_tool_call.py``: ``ActionClick`` ...
``ActionWait``), the computer use guide
(https://platform.openai.com/docs/guides/tools-computer-use) and OpenAI's sample app
(openai/openai-cua-sample-app ``computers/shared/base_playwright.py``) for what each one
does. The GA ``computer`` tool sends the same actions batched in ``actions``; pass either
the one ``action`` or the ``actions`` list.

==============  ==================================  =====================================
type            fields (``?`` optional)             canonical
==============  ==================================  =====================================
click           button, x, y, keys?                 ``Click``; button left / right /
                                                    wheel (the middle button)
double_click    x, y, keys?                         ``Click(count=2)``
drag            path ``[{x, y}, ...]``, keys?       ``Drag`` from the first point to the
                                                    last (left button)
move            x, y, keys?                         ``Move``
scroll          x, y, scroll_x, scroll_y, keys?     ``Scroll``; pixels -> wheel clicks
keypress        keys (pressed together)             ``Hotkey``
type            text                                ``Type``
wait            --                                  ``Wait(OPENAI_WAIT_SECONDS)``
screenshot      --                                  ``ObservationRequest("screenshot")``
==============  ==================================  =====================================

Conventions the reader must know:

* Coordinates are pixels of the declared display (``display_width`` x ``display_height``
  of ``computer_use_preview``; for ``computer``, the screenshots sent); a
  :class:`DisplayScale` maps them to the screen (:func:`openai_display_scale`).
* ``scroll_x`` / ``scroll_y`` are **pixels** of the display, positive right / down (the
  sample app runs ``window.scrollBy(scroll_x, scroll_y)``). They are scaled to the screen
  like lengths and counted as wheel clicks of :data:`gui_agent.actions.PIXELS_PER_WHEEL_CLICK`
  pixels, rounding half away from zero and never to 0 (:func:`~gui_agent.action_formats._gestures.wheel_clicks`).
* ``keys`` on a click, double click, drag, move or scroll holds keys during it (the SDK:
  "The keys being held while clicking"). The canonical space has no modifier-click, so a
  non-empty ``keys`` there is an :class:`~gui_agent.errors.ActionParseError`, never dropped.
* Buttons ``back`` and ``forward`` (browser history) have no canonical action: refused.
* ``wait`` has no duration; the guide's handler sleeps :data:`OPENAI_WAIT_SECONDS` (2 s).
* Key names are the CUA's (``"CTRL"``, ``"ENTER"``, ``"ARROWDOWN"``, ``"ESC"``, ``"CMD"``,
  ``"SPACE"``), read case-insensitively through :func:`gui_agent.actions.normalize_key`.
  Keys are *named*, so a letter ``"A"`` is the A key (``"a"``); a capital is typed with
  ``type`` or pressed as ``SHIFT`` + ``A``.

Writing (canonical -> tool) is the inverse, for demonstrations in the tool's format;
round trips are exact for every action both sides can express.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from gui_agent.action_formats._gestures import (
    ComputerUseItem,
    DisplayScale,
    GestureBuilder,
    GestureReader,
    ObservationRequest,
    Point,
    fit_display,
    wheel_clicks,
)
from gui_agent.actions import PIXELS_PER_WHEEL_CLICK, Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait, normalize_key
from gui_agent.errors import ActionError, ActionParseError

OpenAIEnvironment = Literal["windows", "mac", "linux", "ubuntu", "browser"]

#: Seconds a ``wait`` lasts: the computer use guide's action handler sleeps 2 s.
OPENAI_WAIT_SECONDS = 2.0

#: Fields each action type takes: (required, optional); ``keys`` on pointer actions is keys held.
FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "click": (frozenset({"button", "x", "y"}), frozenset({"keys"})),
    "double_click": (frozenset({"x", "y"}), frozenset({"keys"})),
    "drag": (frozenset({"path"}), frozenset({"keys"})),
    "keypress": (frozenset({"keys"}), frozenset()),
    "move": (frozenset({"x", "y"}), frozenset({"keys"})),
    "screenshot": (frozenset(), frozenset()),
    "scroll": (frozenset({"x", "y", "scroll_x", "scroll_y"}), frozenset({"keys"})),
    "type": (frozenset({"text"}), frozenset()),
    "wait": (frozenset(), frozenset()),
}
ACTIONS: frozenset[str] = frozenset(FIELDS)
_BUTTONS = {"left": "left", "right": "right", "wheel": "middle"}
_TO_BUTTON = {canonical: name for name, canonical in _BUTTONS.items()}
_NO_CANONICAL_BUTTONS = ("back", "forward")

#: Canonical key -> the CUA's spelling. Every name is one the sample app's
#: ``CUA_KEY_TO_PLAYWRIGHT_KEY`` (or Playwright itself, for F1..F12) understands.
_TO_OPENAI: dict[str, str] = {
    "ctrl": "CTRL",
    "alt": "ALT",
    "shift": "SHIFT",
    "meta": "SUPER",
    "enter": "ENTER",
    "escape": "ESC",
    "backspace": "BACKSPACE",
    "delete": "DELETE",
    "tab": "TAB",
    "space": "SPACE",
    "insert": "INSERT",
    "up": "ARROWUP",
    "down": "ARROWDOWN",
    "left": "ARROWLEFT",
    "right": "ARROWRIGHT",
    "home": "HOME",
    "end": "END",
    "pageup": "PAGEUP",
    "pagedown": "PAGEDOWN",
    "capslock": "CAPSLOCK",
    "printscreen": "PRINTSCREEN",
    "menu": "MENU",
    **{f"f{i}": f"F{i}" for i in range(1, 13)},
}


def key_from_openai(name: str) -> str:
    """Canonical name of one CUA key name (``'CTRL'`` -> ``'ctrl'``, ``'ARROWDOWN'`` -> ``'down'``, ``'A'`` -> ``'a'``).

    Raises:
        ActionError: a key the canonical space does not have (``'NUMLOCK'``).
    """
    if not isinstance(name, str) or not name:
        raise ActionError(f"a key name must be a non-empty string, got {name!r}")
    if len(name) == 1 and name.isascii() and name.isalpha():
        return name.lower()  # a named key, not a character: "A" is the A key
    return normalize_key(name)


def key_to_openai(key: str) -> str:
    """The CUA spelling of a canonical key (``'ctrl'`` -> ``'CTRL'``, ``'a'`` -> ``'A'``).

    Raises:
        ActionError: a capital letter (keypress names keys: press ``shift`` and the letter).
    """
    if len(key) == 1:
        if key.isascii() and key.isalpha():
            if key.isupper():
                raise ActionError(
                    f"keypress names keys, not characters: {key!r} is shift + {key.lower()!r} (or type it)"
                )
            return key.upper()
        return key
    try:
        return _TO_OPENAI[key]
    except KeyError:
        raise ActionError(f"no OpenAI computer key for {key!r}; expected a canonical key name") from None


def openai_display_scale(
    screen_width: int,
    screen_height: int,
    *,
    max_long_edge: int | None = None,
    max_pixels: int | None = None,
) -> DisplayScale:
    """The display to declare for a screen (``display_width`` / ``display_height``).

    ``computer_use_preview`` takes any ``display_width`` / ``display_height`` (the SDK's
    ``ComputerUsePreviewTool``; the guide's examples declare 1024x768) and the model answers
    in pixels of the screenshots, so the default is the screen's own size, no scaling. Pass
    limits to send smaller screenshots; the size then follows :func:`fit_display`.
    """
    width, height = fit_display(screen_width, screen_height, max_long_edge=max_long_edge, max_pixels=max_pixels)
    return DisplayScale(width, height, screen_width, screen_height)


def openai_computer_tool(scale: DisplayScale, *, environment: OpenAIEnvironment = "linux") -> dict[str, Any]:
    """The ``computer_use_preview`` tool definition for a request's ``tools`` list.

    Raises:
        ValueError: an environment the API does not accept.
    """
    if environment not in ("windows", "mac", "linux", "ubuntu", "browser"):
        raise ValueError(f"environment must be windows, mac, linux, ubuntu or browser, got {environment!r}")
    return {
        "type": "computer_use_preview",
        "display_width": scale.display_width,
        "display_height": scale.display_height,
        "environment": environment,
    }


def _dump(value: Any) -> str:
    return json.dumps(value, default=repr, ensure_ascii=False)


class _Reader(GestureReader):
    def __init__(self, raw: str, scale: DisplayScale):
        super().__init__(raw, None)
        self.scale = scale

    def split(self, item: Any) -> tuple[str, dict[str, Any]]:
        if not isinstance(item, Mapping) or "type" not in item:
            raise self.fail(f"a computer action must be a dict with 'type', got {_dump(item)}")
        kind = item["type"]
        if kind not in FIELDS:
            raise self.fail(f"unknown computer action type {kind!r}; expected one of {sorted(FIELDS)}")
        fields = {k: v for k, v in item.items() if k != "type" and v is not None}
        required, optional = FIELDS[kind]
        missing, unknown = required - set(fields), set(fields) - required - optional
        if missing or unknown:
            raise self.fail(
                f"{kind}: missing {sorted(missing)} / unknown {sorted(unknown)} fields; "
                f"expected {sorted(required)} and optionally {sorted(optional)}"
            )
        return kind, fields

    def point(self, x: Any, y: Any, what: str) -> Point:
        return self.display_point(self.scale, x, y, what)

    def no_modifiers(self, fields: Mapping[str, Any], kind: str) -> None:
        held = fields.get("keys")
        if held is not None and held != []:
            raise self.fail(
                f"{kind} with keys held (keys={_dump(held)}) has no canonical action: the canonical action "
                "space has no modifier-click, -drag, -move or -scroll"
            )

    def read(self, item: Any) -> ObservationRequest | None:
        kind, f = self.split(item)
        g = self.gestures
        if kind in ("click", "double_click", "drag", "move", "scroll"):
            self.no_modifiers(f, kind)
        if kind == "click":
            button = f["button"]
            if button in _NO_CANONICAL_BUTTONS:
                raise self.fail(f"click with the {button} button (browser history) has no canonical action")
            if button not in _BUTTONS:
                raise self.fail(f"click: button must be one of {sorted(_BUTTONS)}, got {_dump(button)}")
            g.click(self.point(f["x"], f["y"], kind), button=_BUTTONS[button], count=1)
        elif kind == "double_click":
            g.click(self.point(f["x"], f["y"], kind), button="left", count=2)
        elif kind == "move":
            g.move_to(self.point(f["x"], f["y"], kind))
        elif kind == "drag":
            path = f["path"]
            if not isinstance(path, (list, tuple)) or len(path) < 2:
                raise self.fail(f"drag path must be a list of at least two {{x, y}} points, got {_dump(path)}")
            points = []
            for i, p in enumerate(path):
                if not isinstance(p, Mapping) or set(p) != {"x", "y"}:
                    raise self.fail(f"drag path point {i} must be {{'x': ..., 'y': ...}}, got {_dump(p)}")
                points.append(self.point(p["x"], p["y"], f"drag path point {i}"))
            g.move_to(points[0])
            g.drag_to(points[-1], button="left")  # the points between are where the pointer passes
        elif kind == "scroll":
            at = self.point(f["x"], f["y"], kind)
            try:
                dx = wheel_clicks(self.scale.length_to_screen(f["scroll_x"], "x"))
                dy = wheel_clicks(self.scale.length_to_screen(f["scroll_y"], "y"))
            except ActionError as exc:
                raise self.fail(f"scroll: {exc}") from exc
            if dx == 0 and dy == 0:
                raise self.fail("scroll with scroll_x=0 and scroll_y=0 scrolls nothing")
            g.scroll(at, dx=dx, dy=dy)
        elif kind == "keypress":
            keys = f["keys"]
            if isinstance(keys, str) or not isinstance(keys, (list, tuple)) or not keys:
                raise self.fail(f"keypress keys must be a non-empty list of key names, got {_dump(keys)}")
            g.press(tuple(self.key_name(k, key_from_openai, where="keypress: ") for k in keys))
        elif kind == "type":
            text = f["text"]
            if not isinstance(text, str) or text == "":
                raise self.fail(f"type needs a non-empty text string, got {_dump(text)}")
            g.type_text(text)
        elif kind == "wait":
            g.wait(OPENAI_WAIT_SECONDS)
        else:  # screenshot
            return ObservationRequest("screenshot")
        return None


def parse_openai_computer(
    action: Mapping[str, Any] | Sequence[Mapping[str, Any]], *, scale: DisplayScale
) -> list[ComputerUseItem]:
    """Read a ``computer_call``'s ``action`` (or its batched ``actions``) as canonical actions.

    Args:
        action: ``item["action"]`` of a ``computer_call`` output item, e.g.
            ``{"type": "click", "button": "left", "x": 640, "y": 400}``, or ``item["actions"]``.
        scale: the declared display and the screen (:func:`openai_display_scale`).

    Returns:
        Canonical actions in screen pixels and :class:`ObservationRequest` s, in order.

    Raises:
        ActionParseError: an unknown type or field, a missing field, a bad value (coordinate
            off the display, unknown button or key), keys held during a pointer action, the
            ``back`` / ``forward`` buttons. ``.raw`` is the input as JSON.
    """
    items = [action] if isinstance(action, Mapping) else action
    raw = _dump(action)
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence) or not items:
        raise ActionParseError("expected a computer action dict or a non-empty list of them", raw)
    reader = _Reader(raw, scale)
    gestures: GestureBuilder = reader.gestures
    out: list[ComputerUseItem] = []
    for item in items:
        observation = reader.read(item)
        if observation is not None:
            out.extend(gestures.drain())
            out.append(observation)
    out.extend(gestures.drain())
    return out


def action_to_openai_computer(item: ComputerUseItem, *, scale: DisplayScale) -> dict[str, Any]:
    """The ``computer_call`` action performing one canonical action (or a screenshot request).

    Raises:
        ActionError: no tool form: a triple click, a right or middle double click, a
            non-left drag, a wait other than ``OPENAI_WAIT_SECONDS`` (``wait`` has no
            duration), a capital letter key, ``Done``, a cursor-position or zoom request,
            or a point off the screen.
    """
    if isinstance(item, Click):
        x, y = scale.to_display(item.x, item.y)
        if item.count == 1:
            return {"type": "click", "button": _TO_BUTTON[item.button], "x": x, "y": y}
        if item.count == 2 and item.button == "left":
            return {"type": "double_click", "x": x, "y": y}
        raise ActionError(f"click: the computer tool has no {item.button} click with count={item.count}")
    if isinstance(item, Move):
        x, y = scale.to_display(item.x, item.y)
        return {"type": "move", "x": x, "y": y}
    if isinstance(item, Drag):
        if item.button != "left":
            raise ActionError(f"drag: the computer tool drags with the left button only, got {item.button!r}")
        (x1, y1), (x2, y2) = scale.to_display(item.x1, item.y1), scale.to_display(item.x2, item.y2)
        return {"type": "drag", "path": [{"x": x1, "y": y1}, {"x": x2, "y": y2}]}
    if isinstance(item, Scroll):
        x, y = scale.to_display(item.x, item.y)
        return {
            "type": "scroll",
            "x": x,
            "y": y,
            "scroll_x": scale.length_to_display(item.dx * PIXELS_PER_WHEEL_CLICK, "x"),
            "scroll_y": scale.length_to_display(item.dy * PIXELS_PER_WHEEL_CLICK, "y"),
        }
    if isinstance(item, Type):
        return {"type": "type", "text": item.text}
    if isinstance(item, Hotkey):
        return {"type": "keypress", "keys": [key_to_openai(k) for k in item.keys]}
    if isinstance(item, Wait):
        if item.seconds != OPENAI_WAIT_SECONDS:
            raise ActionError(
                f"wait: the computer tool's wait has no duration (it lasts {OPENAI_WAIT_SECONDS} s); "
                f"cannot express {item.seconds} s"
            )
        return {"type": "wait"}
    if isinstance(item, Done):
        raise ActionError("done: the computer tool has no 'done'; the model ends by replying without a computer_call")
    if isinstance(item, ObservationRequest):
        if item.kind == "screenshot":
            return {"type": "screenshot"}
        raise ActionError(f"{item.kind}: the OpenAI computer tool has no such action (screenshot only)")
    raise ActionError(f"not a canonical action or observation request: {item!r}")


def actions_to_openai_computer(items: Sequence[ComputerUseItem], *, scale: DisplayScale) -> list[dict[str, Any]]:
    """A batched ``actions`` list (the GA ``computer`` tool) for a sequence of actions."""
    return [action_to_openai_computer(item, scale=scale) for item in items]
