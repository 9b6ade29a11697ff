"""The one canonical action space, in pixels of the observation.

Every other action format (pyautogui code, OSWorld computer_13, BrowserGym, UI-TARS) is a
converter at the edge, in :mod:`gui_agent.action_formats`. Each action class's docstring
is the single source of the text a model is prompted with (see
:func:`action_space_prompt`), so the prompt can never drift from what the code accepts.

Coordinates are integer pixels of the screenshot the agent saw, origin top-left.
Scroll amounts are wheel clicks ("notches"); positive ``dy`` scrolls *down* (content moves
up), matching the browser's ``deltaY`` and the opposite of ``pyautogui.scroll``.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Union

from gui_agent.errors import ActionError

MouseButton = Literal["left", "right", "middle"]
MOUSE_BUTTONS: tuple[str, ...] = ("left", "right", "middle")

#: Pixels one wheel click scrolls, used where a format counts pixels (BrowserGym, Playwright).
PIXELS_PER_WHEEL_CLICK = 100

#: Canonical key names. Single printable characters are keys too ("a", "1", "/").
NAMED_KEYS: frozenset[str] = frozenset(
    {
        "ctrl", "alt", "shift", "meta",
        "enter", "escape", "backspace", "delete", "tab", "space", "insert",
        "up", "down", "left", "right", "home", "end", "pageup", "pagedown",
        "capslock", "printscreen", "menu",
        *(f"f{i}" for i in range(1, 13)),
    }
)

#: Spellings seen in model output and other tools, mapped to the canonical name.
KEY_ALIASES: dict[str, str] = {
    "control": "ctrl", "ctl": "ctrl", "lctrl": "ctrl", "rctrl": "ctrl", "ctrlleft": "ctrl",
    "ctrlright": "ctrl", "control_l": "ctrl", "control_r": "ctrl",
    "option": "alt", "altleft": "alt", "altright": "alt", "alt_l": "alt", "alt_r": "alt",
    "shiftleft": "shift", "shiftright": "shift", "shift_l": "shift", "shift_r": "shift",
    "win": "meta", "super": "meta", "cmd": "meta", "command": "meta", "winleft": "meta",
    "winright": "meta", "super_l": "meta", "super_r": "meta", "windows": "meta",
    "return": "enter", "kp_enter": "enter", "esc": "escape", "del": "delete",
    "back": "backspace", "bksp": "backspace", "spacebar": "space", " ": "space",
    "arrowup": "up", "arrowdown": "down", "arrowleft": "left", "arrowright": "right",
    "pgup": "pageup", "pgdn": "pagedown", "page_up": "pageup", "page_down": "pagedown",
    "prior": "pageup", "next": "pagedown", "caps_lock": "capslock", "print": "printscreen",
    "prtsc": "printscreen", "prtscr": "printscreen", "ins": "insert", "apps": "menu",
    "contextmenu": "menu", "controlormeta": "ctrl", "optionleft": "alt", "optionright": "alt",
    "prntscrn": "printscreen",
}

#: Single characters that are really named keys.
_CONTROL_CHARACTER_KEYS: dict[str, str] = {" ": "space", "\n": "enter", "\r": "enter", "\t": "tab"}


def normalize_key(name: str) -> str:
    """Return the canonical name of a key, or raise ActionError naming the bad key."""
    if len(name) == 1:
        return _CONTROL_CHARACTER_KEYS.get(name, name)
    lowered = name.strip().lower()
    if len(lowered) == 1:
        return lowered
    canonical = KEY_ALIASES.get(lowered, lowered)
    if canonical not in NAMED_KEYS:
        raise ActionError(f"unknown key {name!r}; expected one character or one of {sorted(NAMED_KEYS)}")
    return canonical


def _check_point(name: str, x: Any, y: Any) -> None:
    for axis, value in (("x", x), ("y", y)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ActionError(f"{name}: {axis} must be an integer pixel, got {value!r}")
        if value < 0:
            raise ActionError(f"{name}: {axis} must be >= 0, got {value}")


class _NoPoint(int):
    """The placeholder of a click's x and y when it names a mark instead (it reads as 0)."""


#: A click's x or y left out: allowed only with a mark (``Click(mark=12)``), never ``Click()``.
_NO_POINT = _NoPoint(0)


@dataclass(frozen=True)
class Click:
    """click(x, y, button="left", count=1)
    Click at pixel (x, y) of the screenshot. button is "left", "right" or "middle";
    count=2 double-clicks, count=3 triple-clicks (selects a line).
    Examples: click(120, 45); click(300, 200, button="right"); click(88, 14, count=2)
    """

    x: int = dataclasses.field(default=_NO_POINT, metadata={"positional": True})
    y: int = dataclasses.field(default=_NO_POINT, metadata={"positional": True})
    button: MouseButton = "left"
    count: int = 1
    #: With a set-of-marks observation, the number of the element to click instead of a point
    #: (``click(mark=12)``): the environment that drew the marks clicks its centre.
    mark: int | None = dataclasses.field(default=None, metadata={"omitted_when_none": True})
    kind: ClassVar[str] = "click"

    def __post_init__(self) -> None:
        _check_point("click", self.x, self.y)
        if self.mark is None and (self.x is _NO_POINT or self.y is _NO_POINT):
            raise ActionError("click: give the point (x, y), or mark= on a set-of-marks observation")
        if self.mark is not None and (isinstance(self.mark, bool) or not isinstance(self.mark, int) or self.mark < 1):
            raise ActionError(f"click: mark must be a mark's number (1 or more), got {self.mark!r}")
        if self.button not in MOUSE_BUTTONS:
            raise ActionError(f"click: button must be one of {MOUSE_BUTTONS}, got {self.button!r}")
        if isinstance(self.count, bool) or not isinstance(self.count, int) or not 1 <= self.count <= 3:
            raise ActionError(f"click: count must be 1, 2 or 3, got {self.count!r}")


@dataclass(frozen=True)
class Move:
    """move(x, y)
    Move the mouse pointer to pixel (x, y) without clicking, e.g. to open a hover menu.
    Example: move(400, 12)
    """

    x: int
    y: int
    kind: ClassVar[str] = "move"

    def __post_init__(self) -> None:
        _check_point("move", self.x, self.y)


@dataclass(frozen=True)
class Drag:
    """drag(x1, y1, x2, y2, button="left")
    Press the mouse button at (x1, y1), move to (x2, y2) and release: drag-and-drop,
    sliders, selecting a range of cells.
    Example: drag(50, 100, 250, 100)
    """

    x1: int
    y1: int
    x2: int
    y2: int
    button: MouseButton = "left"
    kind: ClassVar[str] = "drag"

    def __post_init__(self) -> None:
        _check_point("drag start", self.x1, self.y1)
        _check_point("drag end", self.x2, self.y2)
        if self.button not in MOUSE_BUTTONS:
            raise ActionError(f"drag: button must be one of {MOUSE_BUTTONS}, got {self.button!r}")


@dataclass(frozen=True)
class Scroll:
    """scroll(x, y, dx=0, dy=0)
    Turn the mouse wheel with the pointer at (x, y). dy > 0 scrolls down, dy < 0 up;
    dx > 0 scrolls right. Amounts are wheel clicks; 3 clicks move about a third of a page.
    Examples: scroll(640, 360, dy=3); scroll(200, 300, dy=-5)
    """

    x: int
    y: int
    dx: int = 0
    dy: int = 0
    kind: ClassVar[str] = "scroll"

    def __post_init__(self) -> None:
        _check_point("scroll", self.x, self.y)
        for axis, value in (("dx", self.dx), ("dy", self.dy)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ActionError(f"scroll: {axis} must be an integer number of wheel clicks, got {value!r}")
        if self.dx == 0 and self.dy == 0:
            raise ActionError("scroll: dx and dy are both 0; give a direction")


@dataclass(frozen=True)
class Type:
    """type(text)
    Type text with the keyboard into whatever has focus; click the field first.
    A trailing "\\n" presses Enter.
    Example: type("hello world\\n")
    """

    text: str
    kind: ClassVar[str] = "type"

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or self.text == "":
            raise ActionError(f"type: text must be a non-empty string, got {self.text!r}")


@dataclass(frozen=True)
class Hotkey:
    """hotkey(*keys)
    Press keys together and release them in reverse order; one key is a plain key press.
    Key names: ctrl, alt, shift, meta, enter, escape, backspace, delete, tab, space,
    up, down, left, right, home, end, pageup, pagedown, f1..f12, or one character.
    Examples: hotkey("enter"); hotkey("ctrl", "c"); hotkey("ctrl", "shift", "t")
    """

    keys: tuple[str, ...]
    kind: ClassVar[str] = "hotkey"

    def __post_init__(self) -> None:
        if isinstance(self.keys, str) or not self.keys:
            raise ActionError(f"hotkey: keys must be a non-empty sequence of key names, got {self.keys!r}")
        object.__setattr__(self, "keys", tuple(normalize_key(k) for k in self.keys))


@dataclass(frozen=True)
class Wait:
    """wait(seconds=1.0)
    Do nothing for a while, e.g. until a page finishes loading.
    Example: wait(2)
    """

    seconds: float = 1.0
    kind: ClassVar[str] = "wait"

    def __post_init__(self) -> None:
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, (int, float)) or not 0 <= self.seconds <= 60:
            raise ActionError(f"wait: seconds must be a number between 0 and 60, got {self.seconds!r}")


@dataclass(frozen=True)
class Done:
    """done(success=True, answer=None)
    End the episode. success=False says the task cannot be done; answer carries a reply
    when the task asks a question. handoff=True hands control to a human instead.
    Examples: done(); done(success=False); done(answer="42")
    """

    success: bool = True
    answer: str | None = None
    handoff: bool = False
    kind: ClassVar[str] = "done"

    def __post_init__(self) -> None:
        if not isinstance(self.success, bool):
            raise ActionError(f"done: success must be true or false, got {self.success!r}")
        if self.answer is not None and not isinstance(self.answer, str):
            raise ActionError(f"done: answer must be a string, got {self.answer!r}")


Action = Union[Click, Move, Drag, Scroll, Type, Hotkey, Wait, Done]

#: Every action class, in prompt order; the registry the (de)serialisers use.
ACTION_TYPES: tuple[type, ...] = (Click, Move, Drag, Scroll, Type, Hotkey, Wait, Done)
_BY_KIND: dict[str, Any] = {cls.kind: cls for cls in ACTION_TYPES}  # type: ignore[attr-defined]


def off_screen_error(action: Action, width: int, height: int) -> str | None:
    """Why ``action`` cannot be performed on a ``width`` x ``height`` screen, or None if it can.

    Environments report this as ``last_action_error`` instead of acting. A click that still
    names a mark is one no environment resolved (only one that made marks can): it has no
    point to click.
    """
    if isinstance(action, Click) and action.mark is not None:
        return f"click(mark={action.mark}): this environment's observations have no marks; click a point"
    if isinstance(action, Drag):
        points = [(action.x1, action.y1), (action.x2, action.y2)]
    elif isinstance(action, (Click, Move, Scroll)):
        points = [(action.x, action.y)]
    else:
        return None
    for x, y in points:
        if not (0 <= x < width and 0 <= y < height):
            return f"{action.kind} at ({x}, {y}) is outside the {width}x{height} screen"
    return None


def action_to_dict(action: Action) -> dict[str, Any]:
    """Serialise an action as ``{"kind": ..., **fields}`` (the form in steps.jsonl)."""
    data: dict[str, Any] = {"kind": action.kind}
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        if value is None and field.metadata.get("omitted_when_none", False):
            continue  # a click without a mark is recorded as before marks existed
        data[field.name] = list(value) if isinstance(value, tuple) else value
    return data


def action_from_dict(data: dict[str, Any]) -> Action:
    """Inverse of :func:`action_to_dict`; unknown kinds or fields raise ActionError."""
    if not isinstance(data, dict) or "kind" not in data:
        raise ActionError(f"an action must be a mapping with a 'kind', got {data!r}")
    kind = data["kind"]
    cls = _BY_KIND.get(kind)
    if cls is None:
        raise ActionError(f"unknown action kind {kind!r}; expected one of {sorted(_BY_KIND)}")
    fields = {f.name for f in dataclasses.fields(cls)}
    extra = set(data) - fields - {"kind"}
    if extra:
        raise ActionError(f"{kind}: unknown field(s) {sorted(extra)}; expected {sorted(fields)}")
    kwargs = {k: v for k, v in data.items() if k != "kind"}
    unplaced = [f.name for f in dataclasses.fields(cls) if f.metadata.get("positional", False) and f.name not in kwargs]
    if unplaced and kwargs.get("mark") is None:
        raise ActionError(f"{kind}: missing {', '.join(unplaced)} (a point, or mark= on a set-of-marks observation)")
    if cls is Hotkey and "keys" in kwargs and isinstance(kwargs["keys"], list):
        kwargs["keys"] = tuple(kwargs["keys"])
    try:
        return cls(**kwargs)
    except TypeError as exc:  # missing required field
        raise ActionError(f"{kind}: {exc}") from None


def action_to_text(action: Action) -> str:
    """The call-like text of an action, as written in the prompt's examples."""
    fields = dataclasses.fields(action)
    parts: list[str] = []
    if isinstance(action, Hotkey):
        parts = [json.dumps(k) for k in action.keys]
    else:
        marked = getattr(action, "mark", None) is not None
        for field in fields:
            value = getattr(action, field.name)
            positional = field.default is dataclasses.MISSING or field.metadata.get("positional", False)
            if marked and field.name in ("x", "y") or not positional and value == field.default:
                continue  # a click on a mark is written click(mark=12), its point being the mark's
            text = json.dumps(value) if isinstance(value, str) else repr(value)
            parts.append(text if positional else f"{field.name}={text}")
    return f"{action.kind}({', '.join(parts)})"


def action_space_prompt() -> str:
    """The action space described for a model, built from the action docstrings."""
    blocks = [inspect.cleandoc(cls.__doc__ or "") for cls in ACTION_TYPES]
    return "\n\n".join(blocks)


#: JSON-schema types of the action fields' annotations (``from __future__`` makes them text).
_FIELD_SCHEMAS: dict[str, dict[str, Any]] = {
    "int": {"type": "integer"},
    "float": {"type": "number"},
    "bool": {"type": "boolean"},
    "str": {"type": "string"},
    "str | None": {"type": ["string", "null"]},
    "int | None": {"type": ["integer", "null"]},
    "MouseButton": {"type": "string", "enum": list(MOUSE_BUTTONS)},
    "tuple[str, ...]": {"type": "array", "items": {"type": "string"}, "minItems": 1},
}


def action_tool_schemas() -> list[dict[str, Any]]:
    """Every action as a function a tool-calling model may call, from the action classes.

    One function per action kind, named by it (``click``, ``hotkey``...), described by its
    docstring (the same text as :func:`action_space_prompt`), with one parameter per field:
    required where the field has no default. A call's arguments plus ``kind`` are exactly
    what :func:`action_from_dict` reads, so the schema cannot drift from the code.
    """
    tools = []
    for cls in ACTION_TYPES:
        properties: dict[str, Any] = {}
        required: list[str] = []
        for field in dataclasses.fields(cls):
            properties[field.name] = dict(_FIELD_SCHEMAS[str(field.type)])
            if field.default is dataclasses.MISSING:  # click's x and y may give way to a mark
                required.append(field.name)
        tools.append({
            "name": cls.kind,  # type: ignore[attr-defined]
            "description": inspect.cleandoc(cls.__doc__ or ""),
            "parameters": {"type": "object", "properties": properties, "required": required, "additionalProperties": False},
        })
    return tools
