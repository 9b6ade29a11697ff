"""A read-only view of one DOM snapshot, with the geometry a solver needs to click.

Solvers locate elements by tag, id, class and text (see :mod:`gui_agent.envs.browser.dom_snapshot`
for the element dicts) and turn them into pixel points: the centre of the part of an
element that is on screen, optionally avoiding boxes that lie on top of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gui_agent.actions import Action, Click
from gui_agent.models.errors import OracleError

Element = dict[str, Any]
#: x, y, width, height in viewport pixels.
Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Plan:
    """A solver's answer for one observation: what it is doing, and the actions to do it."""

    thought: str
    actions: list[Action]


def parse(pattern: str, instruction: str) -> re.Match[str]:
    """``re.search`` the instruction, or raise OracleError quoting both."""
    match = re.search(pattern, instruction)
    if match is None:
        raise OracleError(f"instruction {instruction!r} does not match {pattern!r}")
    return match


def intersect(a: Rect, b: Rect) -> Rect | None:
    """The overlap of two rectangles, or None when they do not overlap."""
    x1, y1 = max(a[0], b[0]), max(a[1], b[1])
    x2, y2 = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    if x2 - x1 < 1 or y2 - y1 < 1:
        return None
    return (x1, y1, x2 - x1, y2 - y1)


def _inside(x: float, y: float, rect: Rect, margin: float) -> bool:
    return rect[0] - margin <= x <= rect[0] + rect[2] + margin and rect[1] - margin <= y <= rect[1] + rect[3] + margin


class PageView:
    """Query helpers over a flat DOM snapshot (one observation's ``dom``)."""

    def __init__(self, dom: Sequence[Element], viewport: tuple[int, int]):
        """Args:
        dom: the element dicts of one snapshot.
        viewport: (width, height) of the screenshot, the bounds of every click.
        """
        self.elements = list(dom)
        self.viewport = viewport
        self._by_ref = {el["ref"]: el for el in self.elements}

    # ---- structure -------------------------------------------------------------------
    def parent(self, el: Element) -> Element | None:
        return self._by_ref.get(el["parent"]) if el["parent"] is not None else None

    def ancestors(self, el: Element) -> Iterable[Element]:
        node = self.parent(el)
        while node is not None:
            yield node
            node = self.parent(node)

    def is_within(self, el: Element, ancestor: Element) -> bool:
        return any(a["ref"] == ancestor["ref"] for a in self.ancestors(el))

    def children(self, el: Element) -> list[Element]:
        return [c for c in self.elements if c["parent"] == el["ref"]]

    # ---- lookup ----------------------------------------------------------------------
    def find(
        self,
        tag: str | None = None,
        *,
        id: str | None = None,
        cls: str | None = None,
        text: str | None = None,
        within: Element | None = None,
        visible: bool | None = True,
        where: Callable[[Element], bool] | None = None,
    ) -> list[Element]:
        """Elements matching every given criterion, in document order.

        ``cls`` is one class name; ``text`` is the exact own text; ``visible=None``
        accepts hidden elements too.
        """
        found = []
        for el in self.elements:
            if tag is not None and el["tag"] != tag:
                continue
            if id is not None and el["id"] != id:
                continue
            if cls is not None and cls not in el["classes"].split():
                continue
            if text is not None and el["text"] != text:
                continue
            if visible is not None and bool(el["visible"]) != visible:
                continue
            if within is not None and not self.is_within(el, within):
                continue
            if where is not None and not where(el):
                continue
            found.append(el)
        return found

    def one(self, tag: str | None = None, **criteria: Any) -> Element:
        """The first element matching :meth:`find`'s criteria, or OracleError naming them."""
        found = self.find(tag, **criteria)
        if not found:
            shown = ", ".join(f"{k}={v!r}" for k, v in {"tag": tag, **criteria}.items() if v is not None)
            raise OracleError(f"no element with {shown} on the page")
        return found[0]

    def by_id(self, element_id: str, *, visible: bool | None = True) -> Element:
        return self.one(id=element_id, visible=visible)

    # ---- geometry --------------------------------------------------------------------
    def visible_rect(self, el: Element) -> Rect | None:
        """The part of an element inside the viewport and its scrolled containers."""
        if not el["visible"]:
            return None
        rect: Rect | None = tuple(el["bbox"])  # type: ignore[assignment]
        rect = intersect(rect, (0, 0, self.viewport[0], self.viewport[1]))
        for ancestor in self.ancestors(el):
            if rect is None:
                return None
            if ancestor.get("scroll") is not None:
                x, y = ancestor["bbox"][:2]
                client_w, client_h = ancestor["scroll"][4], ancestor["scroll"][5]
                rect = intersect(rect, (x, y, client_w, client_h))
        return rect

    def on_screen(self, el: Element, min_size: float = 4) -> bool:
        rect = self.visible_rect(el)
        return rect is not None and rect[2] >= min_size and rect[3] >= min_size

    def point(self, el: Element, avoid: Sequence[Element] = ()) -> tuple[int, int]:
        """A pixel inside the element's on-screen part, as central as possible, outside ``avoid``.

        ``avoid`` are elements known to lie on top of this one (a later sibling drawn over
        it); a point within 2 px of them is not taken.
        """
        rect = self.visible_rect(el)
        if rect is None:
            raise OracleError(f"<{el['tag']} id={el['id']!r} text={el['text']!r}> is not on screen")
        x, y, w, h = rect
        cx, cy = x + w / 2, y + h / 2
        blockers = [tuple(a["bbox"]) for a in avoid if a["visible"]]
        candidates = [(cx, cy)]
        inset = min(2.0, w / 4, h / 4)
        steps = 12
        for i in range(steps + 1):
            for j in range(steps + 1):
                candidates.append((x + inset + (w - 2 * inset) * i / steps, y + inset + (h - 2 * inset) * j / steps))
        candidates.sort(key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2)
        for px, py in candidates:
            if not any(_inside(px, py, b, 2) for b in blockers):  # type: ignore[arg-type]
                return self.pixel(px, py)
        raise OracleError(f"<{el['tag']} id={el['id']!r} text={el['text']!r}> is covered by another element")

    def click(self, el: Element, avoid: Sequence[Element] = ()) -> Click:
        """A left click at :meth:`point`."""
        return Click(*self.point(el, avoid))

    def pixel(self, x: float, y: float) -> tuple[int, int]:
        """The viewport pixel at (x, y), kept on the screen."""
        width, height = self.viewport
        return min(max(int(x), 0), width - 1), min(max(int(y), 0), height - 1)
