"""Anthropic's computer-use tool (``computer_20250124``, ``computer_20251124``) <-> canonical actions.

Source format: the computer use tool page of Claude's docs
(https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool: "Available
actions", "Modifier keys with click and scroll actions", "Tool parameters", "Size
screenshots to fit image limits"), the tool's input schema as the API describes it
(restated in vercel/ai ``packages/anthropic/src/tool/computer_20251124.ts``), and the
reference implementation (anthropics/anthropic-quickstarts
``computer-use-demo/computer_use_demo/tools/computer.py``) for what each action does.
Claude sends one ``tool_use`` block per action; its ``input`` is the dict read here:

=================  ==========================================  ===============================
action             fields (``?`` optional)                     canonical
=================  ==========================================  ===============================
left_click         coordinate?, text? (keys held)              ``Click(x, y)``
right_click        coordinate?, text?                          ``Click(button="right")``
middle_click       coordinate?, text?                          ``Click(button="middle")``
double_click       coordinate?, text?                          ``Click(count=2)``
triple_click       coordinate?, text?                          ``Click(count=3)``
mouse_move         coordinate                                  ``Move``
left_click_drag    start_coordinate?, coordinate               ``Drag`` (left button)
left_mouse_down    coordinate?                                 } with the ``left_mouse_up``
left_mouse_up      coordinate?                                 } after it: ``Drag`` or ``Click``
scroll             coordinate?, scroll_direction,              ``Scroll``, ``scroll_amount``
                   scroll_amount, text?                        wheel clicks
type               text                                        ``Type``
key                text (xdotool syntax)                       ``Hotkey`` (one per chord)
wait               duration (seconds)                          ``Wait``
hold_key           text, duration                              refused (no held keys)
screenshot         --                                          ``ObservationRequest``
cursor_position    --                                          ``ObservationRequest``
zoom (20251124)    region ``[x1, y1, x2, y2]``                 ``ObservationRequest`` (region
                                                               in screen pixels)
=================  ==========================================  ===============================

Conventions the reader must know:

* Coordinates are pixels of the declared display (``display_width_px`` x
  ``display_height_px``, the size of the screenshots Claude gets); a :class:`DisplayScale`
  maps them to the screen (:func:`anthropic_display_scale` picks the display size).
* A click or scroll without ``coordinate`` happens at the pointer (as the reference
  implementation does it), so the pointer must be known. ``left_click_drag`` without
  ``start_coordinate`` drags from the pointer (the reference implementation ignores
  ``start_coordinate``).
* ``text`` on a click or scroll holds modifier keys while it happens (``"shift"``,
  ``"ctrl"``, ``"super"``). The canonical space has no modifier-click, so a non-empty
  ``text`` there is an :class:`~gui_agent.errors.ActionParseError`, never dropped. So is
  ``hold_key``: holding keys for a duration is not a key press.
* ``key`` uses xdotool's syntax: ``"ctrl+s"``, ``"Return"``, ``"alt+Tab"``, ``"Page_Down"``;
  several chords separated by spaces (``"ctrl+a BackSpace"``) are pressed in turn. Key
  names go through :data:`gui_agent.keys.XDOTOOL_KEYS` / ``XDOTOOL_CHARS`` (the tables
  the desktop environment presses with) and :func:`gui_agent.actions.normalize_key`.
  Letters keep their case, as xdotool keeps it (``"ctrl+S"`` is ctrl with a capital S).
* ``left_mouse_down`` ... ``left_mouse_up`` arrive as separate tool calls (one per
  step); :class:`AnthropicComputerReader` carries the held button from call to call and
  emits one ``Drag`` (or ``Click``) at the release. :func:`parse_anthropic_computer` reads
  one self-contained input and refuses a button left held.
* A vertical and a horizontal ``scroll`` back to back at one point in one input are one
  diagonal ``Scroll`` (the writer emits a diagonal that way).

Writing (canonical -> tool) is the inverse, for demonstrations in the tool's format;
round trips are exact for every action both sides can express.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from gui_agent.action_formats._gestures import (
    COMPUTER_USE_CLICKS,
    ComputerUseItem,
    DisplayScale,
    GestureBuilder,
    GestureReader,
    ObservationRequest,
    Point,
    fit_display,
    to_count,
)
from gui_agent.action_formats.browsergym import split_playwright_keys
from gui_agent.actions import Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait, normalize_key
from gui_agent.errors import ActionError, ActionParseError
from gui_agent.keys import XDOTOOL_CHARS, XDOTOOL_KEYS, to_xdotool_key

AnthropicToolVersion = Literal["computer_20250124", "computer_20251124"]
TOOL_VERSIONS: tuple[str, ...] = ("computer_20250124", "computer_20251124")

#: Longest image edge earlier models take (the computer use tool page: "earlier models
#: accept up to 1568 pixels on the long edge and approximately 1.15 megapixels total").
ANTHROPIC_MAX_LONG_EDGE = 1568
#: Total pixels earlier models take (the documented ``get_scale_factor`` uses 1_150_000).
ANTHROPIC_MAX_PIXELS = 1_150_000
#: Longest edge Claude Opus 4.7 and later take ("accept up to 2576 pixels on the long edge").
ANTHROPIC_MAX_LONG_EDGE_HIGH_RES = 2576

#: Fields each action takes: (required, optional). ``text`` on clicks and scrolls is keys held.
_CLICK_FIELDS = (frozenset(), frozenset({"coordinate", "text"}))
FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "key": (frozenset({"text"}), frozenset()),
    "hold_key": (frozenset({"text", "duration"}), frozenset()),
    "type": (frozenset({"text"}), frozenset()),
    "cursor_position": (frozenset(), frozenset()),
    "mouse_move": (frozenset({"coordinate"}), frozenset()),
    "left_mouse_down": _CLICK_FIELDS,
    "left_mouse_up": _CLICK_FIELDS,
    "left_click": _CLICK_FIELDS,
    "left_click_drag": (frozenset({"coordinate"}), frozenset({"start_coordinate", "text"})),
    "right_click": _CLICK_FIELDS,
    "middle_click": _CLICK_FIELDS,
    "double_click": _CLICK_FIELDS,
    "triple_click": _CLICK_FIELDS,
    "scroll": (frozenset({"scroll_direction", "scroll_amount"}), frozenset({"coordinate", "text"})),
    "wait": (frozenset({"duration"}), frozenset()),
    "screenshot": (frozenset(), frozenset()),
    "zoom": (frozenset({"region"}), frozenset()),
}
#: The actions of each tool version (``zoom`` is new in ``computer_20251124``).
ACTIONS: dict[str, frozenset[str]] = {
    "computer_20250124": frozenset(FIELDS) - {"zoom"},
    "computer_20251124": frozenset(FIELDS),
}
_CLICKS = COMPUTER_USE_CLICKS
_CLICK_NAMES = {value: name for name, value in _CLICKS.items()}
#: scroll_direction -> canonical (dx, dy) per wheel click (xdotool buttons 4-7).
_DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}

# X keysym names read back to canonical keys: the inverse of the desktop environment's own
# tables, so what Claude names and what the environment presses cannot drift apart.
_FROM_XDOTOOL: dict[str, str] = {
    **{keysym: key for key, keysym in XDOTOOL_KEYS.items()},
    **{keysym: char for char, keysym in XDOTOOL_CHARS.items()},
}
_FROM_XDOTOOL_FOLDED: dict[str, str] = {name.lower(): key for name, key in _FROM_XDOTOOL.items()}
# Spellings Claude writes that neither table nor normalize_key knows.
_FROM_XDOTOOL_FOLDED.update({"meta_l": "meta", "meta_r": "meta", "hyper_l": "meta", "hyper_r": "meta"})
_UNICODE_KEYSYM = re.compile(r"U([0-9A-Fa-f]{4,6})")


def key_from_xdotool(name: str) -> str:
    """Canonical name of one xdotool key name (``'Return'`` -> ``'enter'``, ``'slash'`` -> ``'/'``).

    Raises:
        ActionError: a key the canonical space does not have (``'KP_0'``, ``'XF86AudioMute'``).
    """
    if not isinstance(name, str) or not name:
        raise ActionError(f"a key name must be a non-empty string, got {name!r}")
    if len(name) == 1:
        return normalize_key(name)
    if name in _FROM_XDOTOOL:  # exact keysym first: "Left" is the arrow
        return _FROM_XDOTOOL[name]
    unicode = _UNICODE_KEYSYM.fullmatch(name)
    if unicode:
        return normalize_key(chr(int(unicode.group(1), 16)))
    return _FROM_XDOTOOL_FOLDED.get(name.lower()) or normalize_key(name)


def key_to_xdotool(key: str) -> str:
    """The xdotool name of a canonical key (``'enter'`` -> ``'Return'``, ``'meta'`` -> ``'super'``).

    The table is :func:`gui_agent.keys.to_xdotool_key`'s, the one the desktop environment presses with.
    """
    return to_xdotool_key(key)


def split_xdotool_keys(text: str) -> list[list[str]]:
    """``'ctrl+a BackSpace'`` -> ``[['ctrl', 'a'], ['BackSpace']]``: chords in turn, keys within.

    A ``+`` right after a ``+`` (or alone) is the plus key, as in ``'ctrl++'``.
    """
    return [split_playwright_keys(chord) for chord in text.split()]


def anthropic_display_scale(
    screen_width: int,
    screen_height: int,
    *,
    max_long_edge: int = ANTHROPIC_MAX_LONG_EDGE,
    max_pixels: int | None = ANTHROPIC_MAX_PIXELS,
) -> DisplayScale:
    """The display to declare for a screen, following Anthropic's documented guidance.

    The computer use tool page ("Size screenshots to fit image limits"): the API downscales
    larger screenshots itself and Claude answers in the downscaled image, so resize the
    screenshot yourself, declare the resized size as ``display_width_px`` /
    ``display_height_px`` and scale Claude's coordinates back. Earlier models take up to
    1568 px on the long edge and about 1.15 megapixels (``get_scale_factor``: ``min(1.0,
    1568 / long_edge, sqrt(1_150_000 / (width * height)))``, sides truncated with ``int``);
    Claude Opus 4.7 and later take up to 2576 px on the long edge (pass
    ``max_long_edge=ANTHROPIC_MAX_LONG_EDGE_HIGH_RES``, and ``max_pixels`` for that model's
    total). The page's own example: a 1512x982 screen is declared as 1330x864; 1920x1080
    becomes 1429x804. The same page recommends 1024x768 to 1366x768 displays and nothing
    above 1920x1080.
    """
    width, height = fit_display(screen_width, screen_height, max_long_edge=max_long_edge, max_pixels=max_pixels)
    return DisplayScale(width, height, screen_width, screen_height)


def anthropic_computer_tool(
    scale: DisplayScale,
    *,
    version: AnthropicToolVersion = "computer_20251124",
    enable_zoom: bool = False,
    display_number: int | None = None,
) -> dict[str, Any]:
    """The tool definition for a request's ``tools`` list (``name`` must be ``"computer"``).

    Raises:
        ValueError: an unknown version, or ``enable_zoom`` with ``computer_20250124``.
    """
    _check_version(version)
    tool: dict[str, Any] = {
        "type": version,
        "name": "computer",
        "display_width_px": scale.display_width,
        "display_height_px": scale.display_height,
    }
    if display_number is not None:
        tool["display_number"] = display_number
    if enable_zoom:
        if version != "computer_20251124":
            raise ValueError("enable_zoom needs computer_20251124")
        tool["enable_zoom"] = True
    return tool


def _check_version(version: str) -> None:
    if version not in TOOL_VERSIONS:
        raise ValueError(f"unknown computer tool version {version!r}; expected one of {TOOL_VERSIONS}")


def _dump(value: Any) -> str:
    return json.dumps(value, default=repr, ensure_ascii=False)


class _Reader(GestureReader):
    """Turns the tool inputs of one read into gesture events."""

    def __init__(self, raw: str, gestures: GestureBuilder, scale: DisplayScale, version: str):
        self.raw = raw
        self.gestures = gestures
        self.scale = scale
        self.version = version

    def split(self, item: Any) -> tuple[str, dict[str, Any]]:
        if not isinstance(item, Mapping) or "action" not in item:
            raise self.fail(f"a computer tool input must be a dict with 'action', got {_dump(item)}")
        kind = item["action"]
        if kind not in ACTIONS[self.version]:
            if kind in FIELDS:
                raise self.fail(f"{kind!r} is not an action of {self.version} (it needs computer_20251124)")
            raise self.fail(f"unknown action {kind!r}; {self.version} has {sorted(ACTIONS[self.version])}")
        fields = {k: v for k, v in item.items() if k != "action" and v is not None}
        required, optional = FIELDS[kind]
        missing, unknown = required - set(fields), set(fields) - required - optional
        if missing or unknown:
            raise self.fail(
                f"{kind}: missing {sorted(missing)} / unknown {sorted(unknown)} fields; "
                f"expected {sorted(required)} and optionally {sorted(optional)}"
            )
        return kind, fields

    def point(self, value: Any, what: str) -> Point:
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise self.fail(f"{what} must be [x, y], got {_dump(value)}")
        return self.display_point(self.scale, value[0], value[1], what)

    def optional_point(self, fields: Mapping[str, Any], name: str, kind: str) -> Point | None:
        return self.point(fields[name], f"{kind} {name}") if name in fields else None

    def text(self, value: Any, kind: str) -> str:
        if not isinstance(value, str) or value == "":
            raise self.fail(f"{kind} needs a non-empty text string, got {_dump(value)}")
        return value

    def no_modifiers(self, fields: Mapping[str, Any], kind: str) -> None:
        held = fields.get("text")
        if held not in (None, ""):
            raise self.fail(
                f"{kind} with keys held (text={held!r}) has no canonical action: the canonical action "
                "space has no modifier-click or modifier-scroll"
            )

    def seconds(self, value: Any, kind: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 60:
            raise self.fail(f"{kind} duration must be a number of seconds between 0 and 60, got {_dump(value)}")
        return value

    def chords(self, text: Any, kind: str) -> list[tuple[str, ...]]:
        text = self.text(text, kind)
        chords = split_xdotool_keys(text)
        if not chords or any("" in chord for chord in chords):
            raise self.fail(f"{kind}: cannot read key combination {text!r}")
        return [tuple(self.key_name(name, key_from_xdotool, where=f"{kind}: ") for name in chord) for chord in chords]

    def read(self, item: Any) -> ObservationRequest | None:
        """Feed one tool input; an observation request is returned, not fed."""
        kind, f = self.split(item)
        g = self.gestures
        if kind in _CLICKS:
            self.no_modifiers(f, kind)
            button, count = _CLICKS[kind]
            g.click(self.optional_point(f, "coordinate", kind), button=button, count=count)
        elif kind == "mouse_move":
            g.move_to(self.point(f["coordinate"], f"{kind} coordinate"))
        elif kind == "left_click_drag":
            self.no_modifiers(f, kind)
            start = self.optional_point(f, "start_coordinate", kind)
            end = self.point(f["coordinate"], f"{kind} coordinate")
            if g.held_button is not None:
                raise self.fail(f"{kind} while the {g.held_button} mouse button is held")
            if start is not None:
                g.move_to(start)
            g.drag_to(end, button="left")
        elif kind in ("left_mouse_down", "left_mouse_up"):
            self.no_modifiers(f, kind)
            point = self.optional_point(f, "coordinate", kind)
            if kind == "left_mouse_down":
                g.mouse_down(point, button="left")
            else:
                g.mouse_up(point, button="left")
        elif kind == "scroll":
            self.no_modifiers(f, kind)
            direction = f["scroll_direction"]
            if direction not in _DIRECTIONS:
                raise self.fail(f"scroll_direction must be one of {sorted(_DIRECTIONS)}, got {_dump(direction)}")
            amount = to_count(f["scroll_amount"], what="scroll_amount", raw=self.raw)
            if amount <= 0:
                raise self.fail(f"scroll_amount must be a positive number of wheel clicks, got {amount}")
            ux, uy = _DIRECTIONS[direction]
            g.scroll(self.optional_point(f, "coordinate", kind), dx=ux * amount, dy=uy * amount)
        elif kind == "type":
            g.type_text(self.text(f["text"], kind))
        elif kind == "key":
            for chord in self.chords(f["text"], kind):
                g.press(chord)
        elif kind == "wait":
            g.wait(self.seconds(f["duration"], kind))
        elif kind == "hold_key":
            raise self.fail(
                f"hold_key holds {f['text']!r} down for {f['duration']} s; the canonical action space has "
                "no held keys (a hotkey presses and releases)"
            )
        elif kind == "zoom":
            region = f["region"]
            if not isinstance(region, (list, tuple)) or len(region) != 4:
                raise self.fail(f"zoom region must be [x1, y1, x2, y2], got {_dump(region)}")
            x1, y1 = self.display_point(self.scale, region[0], region[1], "zoom region top-left")
            x2, y2 = self.display_point(self.scale, region[2], region[3], "zoom region bottom-right")
            if not (x1 < x2 and y1 < y2):
                raise self.fail(f"zoom region {_dump(region)} must have x1 < x2 and y1 < y2")
            return ObservationRequest("zoom", region=(x1, y1, x2, y2))
        else:  # screenshot, cursor_position
            return ObservationRequest(kind)
        return None


class AnthropicComputerReader:
    """Reads Claude's computer tool calls one step at a time, carrying a held button across steps.

    ``left_mouse_down``, ``mouse_move`` and ``left_mouse_up`` come as separate tool calls,
    each answered with a screenshot; the press and the moves produce nothing yet and the
    release produces the whole ``Drag`` (or a ``Click`` when the pointer never moved).

    Args:
        scale: the declared display and the screen.
        version: the tool version in the request.
        pointer: the pointer position (screen pixels) before the first call, needed only
            when a call acts at the pointer before any coordinate was given.

    Raises:
        ValueError: an unknown version.
    """

    def __init__(
        self,
        *,
        scale: DisplayScale,
        version: AnthropicToolVersion = "computer_20251124",
        pointer: Point | None = None,
    ):
        _check_version(version)
        self.scale = scale
        self.version = version
        self._gestures = GestureBuilder(raw="", pointer=pointer, fold_diagonal_scrolls=True)

    @property
    def pointer(self) -> Point | None:
        """Where the pointer is after the calls so far (screen pixels), if known."""
        return self._gestures.pointer

    @property
    def button_held(self) -> bool:
        """True between a ``left_mouse_down`` and its ``left_mouse_up``."""
        return self._gestures.held_button is not None

    def read(self, tool_input: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> list[ComputerUseItem]:
        """The canonical actions and observation requests of one call (or a response's calls).

        Args:
            tool_input: a ``tool_use`` block's ``input`` dict, or the inputs of all the
                ``tool_use`` blocks of one response, in order.

        Returns:
            In order, canonical actions in screen pixels and :class:`ObservationRequest` s;
            empty while a button is held and nothing else happened.

        Raises:
            ActionParseError: an unknown action or field, a bad value, a modifier held during
                a click or scroll, ``hold_key``, or an unknown pointer; ``.raw`` is the input
                as JSON. The reader is then as it was before this call.
        """
        items = [tool_input] if isinstance(tool_input, Mapping) else tool_input
        raw = _dump(tool_input)
        if isinstance(items, (str, bytes)) or not isinstance(items, Sequence) or not items:
            raise ActionParseError("expected a computer tool input dict or a non-empty list of them", raw)
        saved = copy.deepcopy(self._gestures)
        self._gestures.set_raw(raw)
        reader = _Reader(raw, self._gestures, self.scale, self.version)
        out: list[ComputerUseItem] = []
        try:
            for item in items:
                observation = reader.read(item)
                if observation is not None:
                    out.extend(self._gestures.drain())
                    out.append(observation)
            out.extend(self._gestures.drain())
        except ActionParseError:
            self._gestures = saved
            raise
        return out


def parse_anthropic_computer(
    tool_input: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    scale: DisplayScale,
    version: AnthropicToolVersion = "computer_20251124",
    pointer: Point | None = None,
) -> list[ComputerUseItem]:
    """Read one self-contained computer tool input (or a response's inputs) as canonical actions.

    Args:
        tool_input: a ``tool_use`` block's ``input``, e.g. ``{"action": "left_click",
            "coordinate": [640, 400]}``, or a list of them.
        scale: the declared display and the screen (:func:`anthropic_display_scale`).
        version: ``"computer_20250124"`` or ``"computer_20251124"`` (which adds ``zoom``).
        pointer: the pointer position (screen pixels), needed only for a click, scroll or
            drag without coordinates.

    Returns:
        Canonical actions in screen pixels and :class:`ObservationRequest` s, in order.

    Raises:
        ActionParseError: as :meth:`AnthropicComputerReader.read`, and a ``left_mouse_down``
            without its ``left_mouse_up`` (use :class:`AnthropicComputerReader` across steps).
    """
    reader = AnthropicComputerReader(scale=scale, version=version, pointer=pointer)
    items = reader.read(tool_input)
    if reader.button_held:
        raise ActionParseError(
            "left_mouse_down without left_mouse_up; use AnthropicComputerReader to carry a held "
            "button from one tool call to the next",
            _dump(tool_input),
        )
    return items


def _coordinate(scale: DisplayScale, x: int, y: int) -> list[int]:
    return list(scale.to_display(x, y))


def action_to_anthropic_computer(
    item: ComputerUseItem,
    *,
    scale: DisplayScale,
    version: AnthropicToolVersion = "computer_20251124",
) -> list[dict[str, Any]]:
    """The tool inputs performing one canonical action (or observation request), in order.

    A diagonal scroll is two ``scroll`` inputs (vertical, then horizontal) at one point;
    everything else is one.

    Raises:
        ActionError: no tool form: a right or middle multi-click, a non-left drag, ``Done``
            (Claude ends by answering without a tool call), ``zoom`` on ``computer_20250124``,
            or a point off the screen.
        ValueError: an unknown version.
    """
    _check_version(version)
    if isinstance(item, Click):
        name = _CLICK_NAMES.get((item.button, item.count))
        if name is None:
            raise ActionError(f"click: the computer tool has no {item.button} click with count={item.count}")
        return [{"action": name, "coordinate": _coordinate(scale, item.x, item.y)}]
    if isinstance(item, Move):
        return [{"action": "mouse_move", "coordinate": _coordinate(scale, item.x, item.y)}]
    if isinstance(item, Drag):
        if item.button != "left":
            raise ActionError(f"drag: the computer tool drags with the left button only, got {item.button!r}")
        return [
            {
                "action": "left_click_drag",
                "start_coordinate": _coordinate(scale, item.x1, item.y1),
                "coordinate": _coordinate(scale, item.x2, item.y2),
            }
        ]
    if isinstance(item, Scroll):
        at = _coordinate(scale, item.x, item.y)
        out = []
        if item.dy:
            direction = "down" if item.dy > 0 else "up"
            out.append({"action": "scroll", "coordinate": at, "scroll_direction": direction, "scroll_amount": abs(item.dy)})
        if item.dx:
            direction = "right" if item.dx > 0 else "left"
            out.append(
                {"action": "scroll", "coordinate": list(at), "scroll_direction": direction, "scroll_amount": abs(item.dx)}
            )
        return out
    if isinstance(item, Type):
        return [{"action": "type", "text": item.text}]
    if isinstance(item, Hotkey):
        return [{"action": "key", "text": "+".join(key_to_xdotool(k) for k in item.keys)}]
    if isinstance(item, Wait):
        return [{"action": "wait", "duration": item.seconds}]
    if isinstance(item, Done):
        raise ActionError("done: the computer tool has no 'done'; Claude ends by replying without a tool call")
    if isinstance(item, ObservationRequest):
        if item.kind != "zoom":
            return [{"action": item.kind}]
        if version != "computer_20251124":
            raise ActionError(f"zoom: {version} has no zoom action (it needs computer_20251124)")
        assert item.region is not None  # checked when the request was built
        x1, y1, x2, y2 = item.region
        return [{"action": "zoom", "region": [*scale.to_display(x1, y1), *scale.to_display(x2, y2)]}]
    raise ActionError(f"not a canonical action or observation request: {item!r}")


def actions_to_anthropic_computer(
    items: Sequence[ComputerUseItem],
    *,
    scale: DisplayScale,
    version: AnthropicToolVersion = "computer_20251124",
) -> list[dict[str, Any]]:
    """All tool inputs for a sequence of actions, concatenated in order."""
    return [out for item in items for out in action_to_anthropic_computer(item, scale=scale, version=version)]
