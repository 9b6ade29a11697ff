"""Fold low-level input events (pointer moves, button and key presses) into canonical actions.

pyautogui code, computer_13 dicts and BrowserGym actions can all express one canonical
action as several events: ``moveTo`` then ``dragTo`` is a drag, ``mouseDown`` / ``moveTo`` /
``mouseUp`` is a drag, ``keyDown('ctrl')`` / ``press('c')`` / ``keyUp('ctrl')`` is a hotkey,
and a ``scroll`` without coordinates happens wherever the pointer is. One builder does this
folding for every format so the rules are the same everywhere:

* A move is held back until the next event. If that event acts "at the current pointer"
  (a click, scroll or button press without coordinates, a ``dragTo``), the move is folded
  into it; otherwise the move becomes its own :class:`Move`.
* Optionally (``fold_diagonal_scrolls``, for pyautogui, which needs two calls for a diagonal
  scroll), a vertical and a horizontal scroll back to back at one point are one
  :class:`Scroll`.
* A button press followed by its release is a :class:`Drag` (or a :class:`Click` when the
  pointer never moved); a key press while other keys are held is a :class:`Hotkey` of all
  of them. Waits *inside* such a gesture are its timing and are dropped.
* What has no canonical form is an error, never guessed: a click while keys are held
  (ctrl+click), typing while keys are held, a button or key still down at the end, an
  action after the episode ended.

The computer-use tools (Anthropic's and OpenAI's) also share what lives at the end of this
module: :class:`DisplayScale` between the display size declared to a tool (the screenshot
the model sees) and the real screen, :func:`fit_display` choosing that size under a
vendor's image limits, :func:`wheel_clicks` for tools that scroll by pixels, and
:class:`ObservationRequest` for a tool call that asks to look rather than act.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, Union

from gui_agent.actions import PIXELS_PER_WHEEL_CLICK, Action, Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.errors import ActionError, ActionParseError

Point = tuple[int, int]


def to_pixel(value: Any, *, what: str, raw: str) -> int:
    """Turn a foreign coordinate (int or float) into a canonical integer pixel.

    Rounds half up (``10.5 -> 11``) rather than Python's half-to-even, so equal inputs in
    every format land on the same pixel.

    Raises:
        ActionParseError: not a finite number, or negative.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ActionParseError(f"{what} must be a number, got {value!r}", raw)
    pixel = math.floor(value + 0.5)
    if pixel < 0:
        raise ActionParseError(f"{what} is negative ({value!r}); pixels start at 0 (top-left)", raw)
    return pixel


def to_count(value: Any, *, what: str, raw: str) -> int:
    """An integer amount (wheel clicks, repetitions); integral floats such as ``5.0`` pass.

    Raises:
        ActionParseError: not a whole number.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ActionParseError(f"{what} must be a whole number, got {value!r}", raw)
    if value != int(value):
        raise ActionParseError(f"{what} must be a whole number, got {value!r}", raw)
    return int(value)


class GestureBuilder:
    """Collects events of one piece of input (a code block, an action list) into actions.

    Args:
        raw: the complete input, attached to every error.
        pointer: where the pointer is before the first event, if known; needed only when
            an event acts at the current pointer before any move.
        fold_diagonal_scrolls: read a vertical then a horizontal scroll (or the reverse) at
            the same point as one diagonal scroll.
    """

    def __init__(self, *, raw: str, pointer: Point | None = None, fold_diagonal_scrolls: bool = False):
        self._raw = raw
        self._fold_diagonal = fold_diagonal_scrolls
        self._pointer = pointer
        self._pending_move: Point | None = None
        self._button: tuple[str, Point] | None = None  # (button, where it went down)
        self._moved_while_down = False
        self._held: list[str] = []
        self._chord_pending = False
        self._actions: list[Action] = []
        self._finished = False

    # -- helpers -------------------------------------------------------------------------

    def fail(self, reason: str) -> ActionParseError:
        """An ActionParseError for this input, to ``raise``."""
        return ActionParseError(reason, self._raw)

    def _emit(self, cls: type, **fields: Any) -> None:
        if self._finished:
            raise self.fail(f"{getattr(cls, 'kind', cls.__name__)} after the episode already ended (done/fail)")
        try:
            action = cls(**fields)
        except ActionError as exc:
            raise ActionParseError(f"invalid action: {exc}", self._raw) from exc
        self._actions.append(action)
        if isinstance(action, Done):
            self._finished = True

    def _flush_move(self) -> None:
        if self._pending_move is not None:
            x, y = self._pending_move
            self._pending_move = None
            self._emit(Move, x=x, y=y)

    def _at(self, point: Point | None, what: str) -> Point:
        """Where an event happens: its own point, else the current pointer."""
        if point is not None:
            self._flush_move()
            self._pointer = point
            return point
        if self._pending_move is not None:
            self._pending_move = None  # folded into this event
        if self._pointer is None:
            raise self.fail(
                f"{what} has no coordinates and the pointer position is unknown; "
                "pass pointer=(x, y) or move the pointer first"
            )
        return self._pointer

    def _no_gesture(self, what: str) -> None:
        if self._button is not None:
            raise self.fail(f"{what} while the {self._button[0]} mouse button is held has no canonical action")
        if self._held:
            raise self.fail(f"{what} while holding {'+'.join(self._held)} has no canonical action")

    # -- pointer -------------------------------------------------------------------------

    @property
    def pointer(self) -> Point | None:
        """The pointer position after the events so far, if known."""
        return self._pointer

    def move_to(self, point: Point) -> None:
        """Pointer moves to ``point`` (with or without a button held)."""
        if self._button is not None:
            if point != self._pointer:
                self._moved_while_down = True
            self._pointer = point
            return
        self._flush_move()
        self._pending_move = point
        self._pointer = point

    def click(self, point: Point | None, *, button: str, count: int) -> None:
        """A click (``count`` 1-3) at ``point`` or at the current pointer."""
        self._no_gesture("a click")
        x, y = self._at(point, "a click")
        self._emit(Click, x=x, y=y, button=button, count=count)

    def click_mark(self, mark: int, *, button: str, count: int) -> None:
        """A click on set-of-marks element ``mark``: its point is the environment's to resolve,
        so after it the pointer position is unknown here."""
        self._no_gesture("a click")
        self._flush_move()
        self._emit(Click, button=button, count=count, mark=mark)
        self._pointer = None

    def scroll(self, point: Point | None, *, dx: int, dy: int) -> None:
        """Wheel clicks in canonical signs (dy > 0 down, dx > 0 right)."""
        self._no_gesture("a scroll")
        x, y = self._at(point, "a scroll")
        last = self._actions[-1] if self._actions else None
        if (
            self._fold_diagonal
            and isinstance(last, Scroll)
            and (last.x, last.y) == (x, y)
            and ((last.dx == 0 and dy == 0) or (last.dy == 0 and dx == 0))
        ):  # a vertical and a horizontal scroll back to back: one diagonal scroll
            self._actions.pop()
            dx, dy = last.dx + dx, last.dy + dy
        self._emit(Scroll, x=x, y=y, dx=dx, dy=dy)

    def mouse_down(self, point: Point | None, *, button: str) -> None:
        """A button goes down; the matching :meth:`mouse_up` ends the gesture."""
        self._no_gesture("pressing a mouse button")
        start = self._at(point, "a mouse button press")
        self._button = (button, start)
        self._moved_while_down = False

    def mouse_up(self, point: Point | None, *, button: str) -> None:
        """The held button comes up: a drag if the pointer moved, else a click."""
        if self._button is None:
            raise self.fail(f"the {button} mouse button is released but was never pressed")
        held, start = self._button
        if held != button:
            raise self.fail(f"the {button} mouse button is released but {held} is the one held")
        if point is not None:
            self.move_to(point)
        end = self._pointer
        assert end is not None  # set when the button went down
        self._button = None
        if self._moved_while_down or end != start:
            self._emit(Drag, x1=start[0], y1=start[1], x2=end[0], y2=end[1], button=button)
        else:
            self._emit(Click, x=start[0], y=start[1], button=button, count=1)

    def drag_to(self, point: Point, *, button: str) -> None:
        """Press at the current pointer, move to ``point``, release (pyautogui ``dragTo``)."""
        if self._button is not None:  # dragTo(mouseDownUp=False) inside a held gesture
            self.move_to(point)
            return
        self._no_gesture("a drag")
        start = self._at(None, "a drag")
        self._pointer = point
        self._emit(Drag, x1=start[0], y1=start[1], x2=point[0], y2=point[1], button=button)

    # -- keyboard ------------------------------------------------------------------------

    def key_down(self, key: str) -> None:
        """A key goes down and stays down (canonical key name)."""
        if self._button is not None:
            raise self.fail("pressing keys while a mouse button is held has no canonical action")
        if key in self._held:
            raise self.fail(f"key {key!r} is pressed while it is already held")
        self._flush_move()
        self._held.append(key)
        self._chord_pending = True

    def key_up(self, key: str) -> None:
        """A held key comes up; if nothing was pressed with it, it was a plain key press."""
        if key not in self._held:
            raise self.fail(f"key {key!r} is released but was never pressed")
        if self._chord_pending:
            self._emit(Hotkey, keys=tuple(self._held))
            self._chord_pending = False
        self._held.remove(key)

    def press(self, keys: tuple[str, ...]) -> None:
        """Keys pressed together and released (one key: a plain press), plus any held."""
        if self._button is not None:
            raise self.fail("pressing keys while a mouse button is held has no canonical action")
        self._flush_move()
        self._emit(Hotkey, keys=(*self._held, *keys))
        self._chord_pending = False

    def type_text(self, text: str) -> None:
        """Text typed into whatever has focus."""
        self._no_gesture("typing")
        self._flush_move()
        self._emit(Type, text=text)

    # -- other ---------------------------------------------------------------------------

    def wait(self, seconds: float) -> None:
        """A pause; inside a held gesture it is the gesture's timing and is dropped."""
        if self._button is not None or self._held:
            return
        self._flush_move()
        self._emit(Wait, seconds=seconds)

    def done(self, *, success: bool, answer: str | None = None, handoff: bool = False) -> None:
        """The episode ends; nothing may follow."""
        self._no_gesture("ending the episode")
        self._flush_move()
        self._emit(Done, success=success, answer=answer, handoff=handoff)

    def set_raw(self, raw: str) -> None:
        """The input later errors quote, for a builder fed one tool call at a time."""
        self._raw = raw

    @property
    def held_button(self) -> str | None:
        """The mouse button held down (pressed, not yet released), if any."""
        return self._button[0] if self._button is not None else None

    def drain(self) -> list[Action]:
        """The actions completed so far, taken out of the builder.

        Unlike :meth:`finish`, a held mouse button stays held for later events (a tool that
        presses the button in one call and releases it in another); a pending move is
        emitted, since the next call is a separate step.
        """
        self._flush_move()
        actions, self._actions = self._actions, []
        return actions

    def finish(self) -> list[Action]:
        """The actions; raises if a gesture is left open or there was nothing at all."""
        if self._button is not None:
            raise self.fail(f"the {self._button[0]} mouse button is still held at the end (no mouse up)")
        if self._held:
            raise self.fail(f"keys still held at the end: {'+'.join(self._held)} (no key up)")
        self._flush_move()
        if not self._actions:
            raise self.fail("no action found")
        return list(self._actions)


class GestureReader:
    """What every format's reader shares: the input its errors quote and the gestures it builds.

    Each format (pyautogui code, computer_13 lists, UI-TARS calls, BrowserGym calls)
    subclasses it with the ``read`` of its own syntax.

    Args:
        raw: the complete input, attached to every error.
        pointer: where the pointer is before the first event, if known.
        fold_diagonal_scrolls: as in :class:`GestureBuilder`.
    """

    def __init__(self, raw: str, pointer: Point | None, *, fold_diagonal_scrolls: bool = False):
        self.raw = raw
        self.gestures = GestureBuilder(raw=raw, pointer=pointer, fold_diagonal_scrolls=fold_diagonal_scrolls)

    def fail(self, reason: str) -> ActionParseError:
        """The error to raise for ``reason``, carrying the raw input."""
        return ActionParseError(reason, self.raw)

    def pixel(self, value: Any, what: str) -> int:
        """A coordinate of the input as a canonical pixel (see :func:`to_pixel`)."""
        return to_pixel(value, what=what, raw=self.raw)

    def key_name(self, name: Any, convert: Callable[[str], str], *, where: str = "") -> str:
        """A key name of the format as a canonical key; a bad one fails with ``where`` in front."""
        try:
            return convert(name)
        except ActionError as exc:
            raise self.fail(f"{where}invalid key: {exc}") from exc

    def display_point(self, scale: DisplayScale, x: Any, y: Any, what: str) -> Point:
        """A point of a computer-use tool's display as a screen pixel (see :class:`DisplayScale`)."""
        try:
            return scale.to_screen(x, y)
        except ActionError as exc:
            raise self.fail(f"{what}: {exc}") from exc


# -- computer-use tools: display scaling, pixel scrolls, observation requests ---------------


def wheel_clicks(pixels: float | Fraction) -> int:
    """Screen pixels of scrolling as wheel clicks of :data:`PIXELS_PER_WHEEL_CLICK` pixels.

    Rounds half away from zero and never to 0 for a non-zero amount (30 px is one click):
    at most half a click of error, none for multiples of 100 px. The same rule as
    BrowserGym's ``scroll(delta_x, delta_y)``.
    """
    if pixels == 0:
        return 0
    clicks = max(1, math.floor(abs(Fraction(pixels)) / PIXELS_PER_WHEEL_CLICK + Fraction(1, 2)))
    return clicks if pixels > 0 else -clicks


def _round_half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


def _exact(value: Any, what: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ActionError(f"{what} must be a number, got {value!r}")
    return Fraction(value)


@dataclass(frozen=True)
class DisplayScale:
    """Maps between a computer-use tool's declared display and the real screen, exactly.

    A computer-use model sees screenshots resized to the display declared in the tool
    definition (``display_width_px`` / ``display_width``) and answers in that image's pixels;
    canonical actions are in pixels of the screen. Each axis scales on its own, in exact
    rational arithmetic:

    * :meth:`to_screen`: ``x * screen_width / display_width``, rounded half up and clamped
      inside the screen. A model coordinate outside ``0..display_width`` is an error.
    * :meth:`to_display`: the inverse, rounded half up and clamped inside the display.

    When the screen is at least as large as the display (the usual case), display -> screen
    -> display is the identity for every point inside the display; screen -> display ->
    screen lands within ``ratio / 2 + 1 / 2`` screen pixels (``ratio = screen / display``;
    one pixel up to 1.5x), and is the identity without scaling.

    Args:
        display_width: width declared to the tool, the width of the screenshots it gets.
        display_height: height declared to the tool.
        screen_width: width of the real screen (the observation).
        screen_height: height of the real screen.

    Raises:
        ValueError: a size that is not a positive integer.
    """

    display_width: int
    display_height: int
    screen_width: int
    screen_height: int

    def __post_init__(self) -> None:
        for name in ("display_width", "display_height", "screen_width", "screen_height"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"DisplayScale {name} must be a positive integer, got {value!r}")

    @classmethod
    def identity(cls, width: int, height: int) -> DisplayScale:
        """No scaling: the tool is told the screen's own size."""
        return cls(width, height, width, height)

    @property
    def display_size(self) -> tuple[int, int]:
        """(width, height) to declare to the tool and to resize screenshots to."""
        return self.display_width, self.display_height

    @property
    def is_identity(self) -> bool:
        """True when display and screen are the same size."""
        return (self.display_width, self.display_height) == (self.screen_width, self.screen_height)

    def to_screen(self, x: Any, y: Any) -> Point:
        """A point of the display (int or float) as a screen pixel.

        Raises:
            ActionError: not a finite number, negative, or beyond the display's edge.
        """
        fx, fy = _exact(x, "x"), _exact(y, "y")
        if not (0 <= fx <= self.display_width and 0 <= fy <= self.display_height):
            raise ActionError(
                f"point ({x}, {y}) is outside the {self.display_width}x{self.display_height} display"
            )
        sx = _round_half_up(fx * self.screen_width / self.display_width)
        sy = _round_half_up(fy * self.screen_height / self.display_height)
        return min(sx, self.screen_width - 1), min(sy, self.screen_height - 1)

    def to_display(self, x: int, y: int) -> Point:
        """A screen pixel as a point of the display.

        Raises:
            ActionError: the pixel is not on the screen.
        """
        if not (0 <= x < self.screen_width and 0 <= y < self.screen_height):
            raise ActionError(f"point ({x}, {y}) is outside the {self.screen_width}x{self.screen_height} screen")
        dx = _round_half_up(Fraction(x) * self.display_width / self.screen_width)
        dy = _round_half_up(Fraction(y) * self.display_height / self.screen_height)
        return min(dx, self.display_width - 1), min(dy, self.display_height - 1)

    def length_to_screen(self, value: Any, axis: Literal["x", "y"]) -> Fraction:
        """A distance along ``axis`` in display pixels (a pixel scroll) as exact screen pixels.

        Raises:
            ActionError: not a finite number.
        """
        exact = _exact(value, f"{axis} distance")
        if axis == "x":
            return exact * self.screen_width / self.display_width
        return exact * self.screen_height / self.display_height

    def length_to_display(self, pixels: int, axis: Literal["x", "y"]) -> int:
        """A distance along ``axis`` in screen pixels as whole display pixels (half away from zero)."""
        if axis == "x":
            exact = Fraction(abs(pixels)) * self.display_width / self.screen_width
        else:
            exact = Fraction(abs(pixels)) * self.display_height / self.screen_height
        return _round_half_up(exact) * (1 if pixels >= 0 else -1)


def fit_display(
    screen_width: int, screen_height: int, *, max_long_edge: int | None = None, max_pixels: int | None = None
) -> tuple[int, int]:
    """The largest display size with the screen's aspect ratio within the limits.

    ``scale = min(1, max_long_edge / long_edge, sqrt(max_pixels / (width * height)))`` and
    each side is ``int(side * scale)``: the arithmetic of Anthropic's documented
    ``get_scale_factor``. No limit given means the screen's own size.

    Raises:
        ValueError: a non-positive screen size or limit.
    """
    for name, value in (("screen_width", screen_width), ("screen_height", screen_height)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    scale = 1.0
    if max_long_edge is not None:
        if max_long_edge <= 0:
            raise ValueError(f"max_long_edge must be positive, got {max_long_edge!r}")
        scale = min(scale, max_long_edge / max(screen_width, screen_height))
    if max_pixels is not None:
        if max_pixels <= 0:
            raise ValueError(f"max_pixels must be positive, got {max_pixels!r}")
        scale = min(scale, math.sqrt(max_pixels / (screen_width * screen_height)))
    if scale >= 1.0:
        return screen_width, screen_height
    return max(1, int(screen_width * scale)), max(1, int(screen_height * scale))


ObservationKind = Literal["screenshot", "cursor_position", "zoom"]


@dataclass(frozen=True)
class ObservationRequest:
    """A computer-use tool call that asks to look rather than act.

    Not a canonical action: the policy answers it (a new screenshot, the pointer position
    in display pixels, a full-resolution crop) without stepping the environment.

    Attributes:
        kind: ``"screenshot"``, ``"cursor_position"`` or ``"zoom"``.
        region: for ``"zoom"``, ``(x1, y1, x2, y2)`` in *screen* pixels, top-left and
            bottom-right corners; ``None`` otherwise.
    """

    kind: ObservationKind
    region: tuple[int, int, int, int] | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("screenshot", "cursor_position", "zoom"):
            raise ActionError(f"observation kind must be screenshot, cursor_position or zoom, got {self.kind!r}")
        if self.kind == "zoom":
            region = self.region
            if (
                not isinstance(region, tuple)
                or len(region) != 4
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in region)
            ):
                raise ActionError(f"zoom: region must be four non-negative integer pixels, got {region!r}")
            if not (region[0] < region[2] and region[1] < region[3]):
                raise ActionError(f"zoom: region {region} must have x1 < x2 and y1 < y2")
        elif self.region is not None:
            raise ActionError(f"{self.kind}: only zoom has a region")


#: What a computer-use tool call reads as: canonical actions and requests to look, in order.
ComputerUseItem = Union[Action, ObservationRequest]


#: Click actions by name, as Anthropic's computer tool and Qwen's computer_use tool (which
#: follows it) both spell them: name -> (canonical button, click count).
COMPUTER_USE_CLICKS: dict[str, tuple[str, int]] = {
    "left_click": ("left", 1),
    "right_click": ("right", 1),
    "middle_click": ("middle", 1),
    "double_click": ("left", 2),
    "triple_click": ("left", 3),
}
