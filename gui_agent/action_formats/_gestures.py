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
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from gui_agent.actions import Action, Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
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
