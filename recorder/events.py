"""Raw input events: what one line of ``events.jsonl`` holds.

Kinds: ``move``, ``down`` / ``up`` (mouse ``button`` at ``x``, ``y``), ``scroll``
(``dx``/``dy`` in wheel clicks, ``dy > 0`` = down as in :mod:`gui_agent.actions`),
``key_down`` / ``key_up`` (``key``: one character as typed, or a canonical key name from
:data:`gui_agent.actions.NAMED_KEYS`; keys we cannot name are ``"?name"``).
``masked`` is true when privacy masking replaced the key (a printable key becomes ``"*"``).
``t`` is recording time (see :mod:`gui_agent.recorder.clock`). Coordinates are pixels of the
recorded screen (the union of all monitors, origin at its top-left).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

EventKind = Literal["move", "down", "up", "scroll", "key_down", "key_up"]
EVENT_KINDS: tuple[str, ...] = ("move", "down", "up", "scroll", "key_down", "key_up")
MODIFIERS: tuple[str, ...] = ("ctrl", "alt", "shift", "meta")


@dataclass(frozen=True)
class RawEvent:
    t: float
    kind: EventKind
    x: int | None = None
    y: int | None = None
    button: str | None = None
    dx: int = 0
    dy: int = 0
    key: str | None = None
    masked: bool = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": round(self.t, 6), "kind": self.kind}
        for name in ("x", "y", "button", "key"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.dx:
            data["dx"] = self.dx
        if self.dy:
            data["dy"] = self.dy
        if self.masked:
            data["masked"] = True
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RawEvent:
        if data.get("kind") not in EVENT_KINDS:
            raise ValueError(f"unknown event kind {data.get('kind')!r}; expected one of {EVENT_KINDS}")
        return cls(**data)


def read_events(path, *, lenient: bool = True) -> list[RawEvent]:  # type: ignore[no-untyped-def]
    """Read ``events.jsonl``. Lenient: a truncated or garbled *last* line (a crash) is dropped."""
    events: list[RawEvent] = []
    try:
        lines = open(path, encoding="utf-8").read().split("\n")
    except FileNotFoundError:
        return events
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            events.append(RawEvent.from_dict(json.loads(line)))
        except (ValueError, TypeError) as exc:
            is_last = all(not rest.strip() for rest in lines[number:])
            if lenient and is_last:
                break
            raise ValueError(f"{path}:{number}: bad event line: {exc}") from None
    return events
