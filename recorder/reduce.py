"""Raw input events -> canonical actions. Pure: no clock, no I/O, no threads.

:class:`Reducer` is fed events one by one (their index in ``events.jsonl`` is the count
fed so far) and hands back :class:`Reduced` actions as soon as each is certain; batch and
streaming use give the same result because timeouts are judged on event times
(:meth:`Reducer.flush` with ``now`` closes what timed out by then).

Rules:

* **Clicks**: press + release closer than ``drag_px`` is a click at the press point;
  presses of the same button within ``multi_click_s`` and ``multi_click_px`` of the
  previous one raise ``count`` (2 = double, 3 = triple; a triple is emitted at once).
* **Drags**: the pointer went ``drag_px`` or more from the press point before release:
  ``Drag(press point -> release point)``.
* **Scrolls**: wheel events with gaps under ``scroll_gap_s`` and the same direction merge
  into one ``Scroll`` at the first event's point.
* **Typing**: printable keys (no ctrl/alt/meta held) build one ``Type``; backspace
  removes the last typed character; Enter ends the text with ``"\\n"``; a pause longer
  than ``type_idle_s``, a click, a scroll or a shortcut ends it. Text erased entirely
  yields no action.
* **Hotkeys**: any other key, or a character with ctrl/alt/meta held, is a ``Hotkey``
  with the held modifiers first (ctrl, alt, shift, meta order). Lone modifiers are no action.

Every action carries ``start``/``end``: its ``[start, end)`` range of event indices, and
``t``: the time of its first event (the moment its keyframe must precede; for a
shortcut, its main key).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gui_agent.actions import NAMED_KEYS, Action, Click, Drag, Hotkey, Scroll, Type
from gui_agent.recorder.events import MODIFIERS, RawEvent


@dataclass(frozen=True)
class ReduceConfig:
    multi_click_s: float = 0.5
    multi_click_px: int = 4
    drag_px: int = 5
    scroll_gap_s: float = 0.5
    type_idle_s: float = 2.0


@dataclass(frozen=True)
class Reduced:
    """One canonical action and the raw events it came from."""

    action: Action
    start: int
    end: int
    t: float
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def anchor(self) -> int:
        """Index of the event at time ``t`` (a shortcut's main key, else the first event)."""
        return self.end - 1 if isinstance(self.action, Hotkey) else self.start


@dataclass
class _Clicks:
    button: str
    x: int
    y: int
    count: int
    start: int
    end: int
    t: float
    last_down_t: float
    modifiers: tuple[str, ...]


@dataclass
class _Press:
    button: str
    x: int
    y: int
    start: int
    t: float
    max_dist: float = 0.0
    continues: bool = False  # this press may add to the pending clicks


@dataclass
class _Typing:
    text: str
    start: int
    end: int
    t: float
    last_t: float
    masked: bool = False


@dataclass
class _Scrolling:
    x: int
    y: int
    dx: int
    dy: int
    start: int
    end: int
    t: float
    last_t: float


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


class Reducer:
    """Streaming reducer; see the module docstring for the rules.

    Example:
        >>> r = Reducer()
        >>> out = [a for e in events for a in r.feed(e)] + r.flush()
    """

    def __init__(self, config: ReduceConfig | None = None) -> None:
        self.config = config or ReduceConfig()
        self.n_events = 0
        self._held: dict[str, int] = {}  # modifier -> event index where it went down
        self._press: _Press | None = None
        self._clicks: _Clicks | None = None
        self._typing: _Typing | None = None
        self._scroll: _Scrolling | None = None

    # ------------------------------------------------------------------ public
    def feed(self, event: RawEvent) -> list[Reduced]:
        index = self.n_events
        self.n_events += 1
        out = self.flush(event.t)
        handler = getattr(self, f"_on_{event.kind}")
        handler(event, index, out)
        return out

    def flush(self, now: float | None = None) -> list[Reduced]:
        """Emit what is complete by ``now`` (None: everything pending, e.g. at stop)."""
        out: list[Reduced] = []
        cfg = self.config
        if self._clicks and (now is None or now - self._clicks.last_down_t > cfg.multi_click_s) and self._press is None:
            self._end_clicks(out)
        if self._typing and (now is None or now - self._typing.last_t > cfg.type_idle_s):
            self._end_typing(out)
        if self._scroll and (now is None or now - self._scroll.last_t > cfg.scroll_gap_s):
            self._end_scroll(out)
        return out

    def pending_start(self) -> int | None:
        """Index of the first event not yet in an emitted action's range, if any is pending."""
        starts = [p.start for p in (self._press, self._clicks, self._typing, self._scroll) if p is not None]
        return min(starts) if starts else None

    # ------------------------------------------------------------------ closing
    def _mods(self) -> tuple[str, ...]:
        return tuple(m for m in MODIFIERS if m in self._held)

    def _end_clicks(self, out: list[Reduced]) -> None:
        c = self._clicks
        if c is None:
            return
        self._clicks = None
        info = {"modifiers": list(c.modifiers)} if c.modifiers else {}
        out.append(Reduced(Click(c.x, c.y, button=c.button, count=c.count), c.start, c.end, c.t, info))  # type: ignore[arg-type]

    def _end_typing(self, out: list[Reduced]) -> None:
        ty = self._typing
        if ty is None:
            return
        self._typing = None
        if ty.text:
            out.append(Reduced(Type(ty.text), ty.start, ty.end, ty.t, {"masked": True} if ty.masked else {}))

    def _end_scroll(self, out: list[Reduced]) -> None:
        s = self._scroll
        if s is None:
            return
        self._scroll = None
        if s.dx or s.dy:
            out.append(Reduced(Scroll(s.x, s.y, dx=s.dx, dy=s.dy), s.start, s.end, s.t))

    def _end_all_but_clicks(self, out: list[Reduced]) -> None:
        self._end_typing(out)
        self._end_scroll(out)

    # ------------------------------------------------------------------ mouse
    def _on_move(self, e: RawEvent, index: int, out: list[Reduced]) -> None:
        p = self._press
        if p is not None and e.x is not None and e.y is not None:
            p.max_dist = max(p.max_dist, ((e.x - p.x) ** 2 + (e.y - p.y) ** 2) ** 0.5)

    def _on_down(self, e: RawEvent, index: int, out: list[Reduced]) -> None:
        if self._press is not None or e.x is None or e.y is None:
            return  # a second button during a press: part of the first gesture
        self._end_all_but_clicks(out)
        c = self._clicks
        cfg = self.config
        continues = (
            c is not None
            and c.button == e.button
            and c.count < 3
            and e.t - c.last_down_t <= cfg.multi_click_s
            and abs(e.x - c.x) <= cfg.multi_click_px
            and abs(e.y - c.y) <= cfg.multi_click_px
        )
        if not continues:
            self._end_clicks(out)
        self._press = _Press(e.button or "left", e.x, e.y, index, e.t, continues=continues)

    def _on_up(self, e: RawEvent, index: int, out: list[Reduced]) -> None:
        p = self._press
        if p is None or e.button != p.button:
            return
        self._press = None
        x = p.x if e.x is None else e.x
        y = p.y if e.y is None else e.y
        dist = max(p.max_dist, ((x - p.x) ** 2 + (y - p.y) ** 2) ** 0.5)
        if dist >= self.config.drag_px:
            self._end_clicks(out)
            info = {"modifiers": list(self._mods())} if self._held else {}
            out.append(Reduced(Drag(p.x, p.y, x, y, button=p.button), p.start, index + 1, p.t, info))  # type: ignore[arg-type]
            return
        if p.continues and self._clicks is not None:
            self._clicks.count += 1
            self._clicks.end = index + 1
            self._clicks.last_down_t = p.t
        else:
            self._clicks = _Clicks(p.button, p.x, p.y, 1, p.start, index + 1, p.t, p.t, self._mods())
        if self._clicks.count >= 3:
            self._end_clicks(out)

    def _on_scroll(self, e: RawEvent, index: int, out: list[Reduced]) -> None:
        self._end_typing(out)
        self._end_clicks(out)
        s = self._scroll
        same = s is not None and e.t - s.last_t <= self.config.scroll_gap_s and (
            (not e.dy or not s.dy or _sign(e.dy) == _sign(s.dy)) and (not e.dx or not s.dx or _sign(e.dx) == _sign(s.dx))
        )
        if s is not None and same:
            s.dx += e.dx
            s.dy += e.dy
            s.end = index + 1
            s.last_t = e.t
            return
        self._end_scroll(out)
        self._scroll = _Scrolling(e.x or 0, e.y or 0, e.dx, e.dy, index, index + 1, e.t, e.t)

    # ------------------------------------------------------------------ keyboard
    def _on_key_up(self, e: RawEvent, index: int, out: list[Reduced]) -> None:
        if e.key in MODIFIERS:
            self._held.pop(e.key, None)

    def _on_key_down(self, e: RawEvent, index: int, out: list[Reduced]) -> None:
        key = e.key
        if key is None or key.startswith("?") and len(key) > 1:
            return  # a key we cannot name (media keys, ...): no action
        if key in MODIFIERS:
            self._held.setdefault(key, index)
            return
        shortcut_mods = [m for m in ("ctrl", "alt", "meta") if m in self._held]
        printable = len(key) == 1 or key == "space"
        if printable and not shortcut_mods:
            self._type(" " if key == "space" else key, e, index, out)
            return
        ty = self._typing
        if key == "backspace" and not self._held and ty is not None and ty.text:
            ty.text = ty.text[:-1]
            ty.end = index + 1
            ty.last_t = e.t
            return
        if key == "enter" and not self._held and ty is not None and ty.text:
            self._type("\n", e, index, out)
            self._end_typing(out)
            return
        self._end_typing(out)
        self._end_scroll(out)
        self._end_clicks(out)
        mods = self._mods()
        if key not in NAMED_KEYS and len(key) != 1:
            return
        start = min([self._held[m] for m in mods] + [index])
        keys = (*mods, key.lower() if len(key) == 1 and mods else key)
        # t is the main key's time: a shortcut takes effect at its last key, not its modifiers.
        out.append(Reduced(Hotkey(keys), start, index + 1, e.t))

    def _type(self, ch: str, e: RawEvent, index: int, out: list[Reduced]) -> None:
        self._end_scroll(out)
        self._end_clicks(out)
        ty = self._typing
        if ty is None:
            ty = self._typing = _Typing("", index, index + 1, e.t, e.t)
        ty.text += ch
        ty.end = index + 1
        ty.last_t = e.t
        ty.masked = ty.masked or e.masked


def reduce_events(events: list[RawEvent], config: ReduceConfig | None = None) -> list[Reduced]:
    """Reduce a whole event list (batch form of :class:`Reducer`)."""
    reducer = Reducer(config)
    out: list[Reduced] = []
    for event in events:
        out.extend(reducer.feed(event))
    out.extend(reducer.flush())
    return out
