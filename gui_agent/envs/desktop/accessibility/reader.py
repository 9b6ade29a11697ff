"""Reading the apps' element trees over AT-SPI, fast and with a deadline.

What is read of each element is what OSWorld's tree has (its ``desktop_env/server/main.py``
walks the same tree with pyatspi): role, name, states, object attributes, the box on the
screen (of visible, showing elements), the text (Text interface), whether it is an image
or holds a selection, its value (Value interface) and its actions with their
descriptions and key bindings.

How, and why so:

* **Pipelined** (:class:`~.connection.Pipeline`): every question is sent as soon as it is
  known, and an answer asks the next ones (an element's children once its child count is
  known), so the app answers back to back instead of waiting on a round trip per
  question. One deadline covers the whole read; an app that stops answering makes the
  read fail with :class:`~gui_agent.errors.EnvHungError`, like any hung part of the desktop.
* **What is on screen** (``complete=False``, what an observation reads): an element that is
  not showing is left out with its subtree (a closed menu's hundreds of items), after one
  question (its states). ``complete=True`` reads everything as OSWorld does (for checks).
* **Huge containers**: an element that manages its descendants or has more than
  :data:`MAX_WIDTH` children (a spreadsheet has 2^31 cells) is never asked for all its
  children (LibreOffice would make an object for each). A table among them gets its
  visible cells: the cells at its top-left and bottom-right visible corners give the row
  and column ranges, and each cell of that range is asked for by row and column. Any
  other gets its first :data:`MAX_WIDTH` children one by one, as OSWorld takes them.
* Limits as OSWorld's: depth :data:`MAX_DEPTH`, :data:`MAX_WIDTH` children per element;
  and :data:`MAX_ELEMENTS` in all.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from gui_agent.envs.desktop.accessibility import atspi
from gui_agent.envs.desktop.accessibility.connection import BusConnection, Call, Pipeline
from gui_agent.envs.desktop.accessibility.wire import Reply
from gui_agent.errors import EnvDiedError, EnvError, EnvHungError

MAX_DEPTH = 50
MAX_WIDTH = 1024
MAX_ELEMENTS = 20000
#: Most cells of one table read (a 1280x800 screen shows about 600 of Calc's).
MAX_CELLS = 4096

Scope = Literal["screen", "focused_window"]
_ON_SCREEN = 1 << atspi.STATE_VISIBLE | 1 << atspi.STATE_SHOWING  # both in the first word of a state set


@dataclass(eq=False)
class Element:
    """One accessible element as read (see the module docstring for what and when)."""

    app: str
    path: str
    depth: int
    role: str = "unknown"
    name: str = ""
    description: str = ""
    states: tuple[int, ...] = (0, 0)
    attributes: dict[str, str] = field(default_factory=dict)
    interfaces: tuple[str, ...] = ()
    extents: tuple[int, int, int, int] | None = None
    text: str | None = None
    actions: list[tuple[str, str, str]] = field(default_factory=list)
    value: dict[str, Any] | None = None
    children: list[Element] = field(default_factory=list)
    child_count: int = 0
    #: Children by position while the read runs (those left out stay None).
    slots: list[Element | None] = field(default_factory=list, repr=False)

    def has(self, state: int) -> bool:
        return atspi.has_state(self.states, state)

    @property
    def on_screen(self) -> bool:
        """Visible and showing: what OSWorld gives a box (and its agents keep)."""
        return bool(self.states[0] & _ON_SCREEN == _ON_SCREEN)


@dataclass
class Desktop:
    """The desktop's tree: one element per app (role ``application``)."""

    apps: list[Element]
    elapsed_s: float = 0.0
    calls: int = 0


class _Walk:
    """One read: the pipeline, the elements made so far, the rules of what to ask."""

    def __init__(self, pipeline: Pipeline, *, complete: bool, screen: tuple[int, int], focused_only: bool) -> None:
        self.pipeline = pipeline
        self.complete = complete
        self.focused_only = focused_only
        self.screen = screen
        self.count = 0
        self.calls = 0

    def ask(self, element: Element, interface: str, member: str, on_reply: Callable[[Any], None],
            signature: str = "", args: tuple[Any, ...] = ()) -> None:
        """Ask ``element`` one question; ``on_reply`` gets the reply's body (not errors)."""
        self.calls += 1

        def answered(reply: Reply) -> None:
            if not reply.is_error:
                on_reply(reply.body)

        self.pipeline.ask(Call(element.app, element.path, interface, member, signature, args), answered)

    # ------------------------------------------------------------------ an element
    def visit(self, element: Element, keep: Callable[[Element], None]) -> None:
        """Read ``element``: states first; ``keep`` is called if it belongs in the tree."""
        self.count += 1
        if self.count > MAX_ELEMENTS:
            return

        def on_states(body: tuple[Any, ...]) -> None:
            element.states = tuple(body[0])
            if self.focused_only and element.depth == 2 and not element.has(atspi.STATE_ACTIVE):
                return  # another top-level window than the focused one
            if self.complete or element.depth <= 1 or element.on_screen:
                keep(element)
                self._describe(element)

        self.ask(element, atspi.ACCESSIBLE, "GetState", on_states)

    def _describe(self, element: Element) -> None:
        def on_role(body: tuple[Any, ...]) -> None:
            element.role = atspi.role_name(body[0])
            if body[0] == atspi.ROLE_EXTENDED:
                self.ask(element, atspi.ACCESSIBLE, "GetRoleName", lambda b: setattr(element, "role", b[0] or "unknown"))

        def on_properties(body: tuple[Any, ...]) -> None:
            props = body[0]
            element.name = str(props.get("Name", ""))
            element.description = str(props.get("Description", ""))
            element.child_count = int(props.get("ChildCount", 0))
            if "Attributes" in props:
                element.attributes = dict(props["Attributes"])
            else:
                self.ask(element, atspi.ACCESSIBLE, "GetAttributes", lambda b: setattr(element, "attributes", dict(b[0])))
            self._children(element)

        def on_interfaces(body: tuple[Any, ...]) -> None:
            element.interfaces = tuple(body[0])
            self._details(element)

        self.ask(element, atspi.ACCESSIBLE, "GetRole", on_role)
        self.ask(element, atspi.PROPERTIES, "GetAll", on_properties, "s", (atspi.ACCESSIBLE,))
        self.ask(element, atspi.ACCESSIBLE, "GetInterfaces", on_interfaces)

    def _details(self, element: Element) -> None:
        """Box, text, actions and value, as the element's interfaces allow."""
        interfaces = element.interfaces
        if atspi.COMPONENT in interfaces and element.on_screen:
            self.ask(element, atspi.COMPONENT, "GetExtents", lambda b: setattr(element, "extents", tuple(b[0])),
                     "u", (atspi.COORD_SCREEN,))
        if atspi.TEXT in interfaces:
            self.ask(element, atspi.TEXT, "GetText", lambda b: setattr(element, "text", b[0]), "ii", (0, -1))
        if atspi.ACTION in interfaces:
            self.ask(element, atspi.ACTION, "GetActions", lambda b: setattr(element, "actions", list(b[0])))
        if atspi.VALUE in interfaces:
            self.ask(element, atspi.PROPERTIES, "GetAll", lambda b: setattr(element, "value", dict(b[0])),
                     "s", (atspi.VALUE,))

    # ------------------------------------------------------------------ children
    def _children(self, element: Element) -> None:
        count = element.child_count
        if count <= 0 or element.depth >= MAX_DEPTH:
            return
        if count <= MAX_WIDTH and not element.has(atspi.STATE_MANAGES_DESCENDANTS):
            self.ask(element, atspi.ACCESSIBLE, "GetChildren", lambda b: self._adopt(element, b[0]))
        elif element.role == "table" or atspi.TABLE in element.interfaces:
            self._visible_cells(element)
        else:
            self._first_children(element, min(count, MAX_WIDTH))

    def _adopt(self, parent: Element, refs: list[tuple[str, str]]) -> None:
        """Visit the children ``refs`` (in order) of ``parent``; those kept fill its slots."""
        refs = refs[:MAX_CELLS if len(refs) > MAX_WIDTH else MAX_WIDTH]
        parent.slots = [None] * len(refs)
        for index, (app, path) in enumerate(refs):
            if path != atspi.NULL_PATH and app == parent.app:
                self.visit(Element(app=app, path=path, depth=parent.depth + 1),
                           lambda child, index=index: parent.slots.__setitem__(index, child))

    def _first_children(self, element: Element, count: int) -> None:
        refs: list[tuple[str, str]] = [("", atspi.NULL_PATH)] * count
        left = [count]

        def got(index: int) -> Callable[[Any], None]:
            def on_child(body: tuple[Any, ...]) -> None:
                refs[index] = tuple(body[0])  # type: ignore[assignment]
                left[0] -= 1
                if left[0] == 0:
                    self._adopt(element, refs)

            return on_child

        for index in range(count):
            self.ask(element, atspi.ACCESSIBLE, "GetChildAtIndex", got(index), "i", (index,))

    def _visible_cells(self, table: Element) -> None:
        """The cells of ``table`` between the ones at its visible corners (row by row)."""

        def on_extents(body: tuple[Any, ...]) -> None:
            x, y, w, h = body[0]
            left, top = max(x, 0), max(y, 0)
            right, bottom = min(x + w, self.screen[0]) - 2, min(y + h, self.screen[1]) - 2
            if right <= left or bottom <= top:
                return
            corners: dict[str, tuple[int, int]] = {}
            for key, point in (("first", (left + 1, top + 1)), ("last", (right, bottom))):
                self.ask(table, atspi.COMPONENT, "GetAccessibleAtPoint",
                         lambda b, key=key: self._corner(table, key, tuple(b[0]), corners), "iiu", (*point, atspi.COORD_SCREEN))

        self.ask(table, atspi.COMPONENT, "GetExtents", on_extents, "u", (atspi.COORD_SCREEN,))

    def _corner(self, table: Element, key: str, ref: tuple[str, str], corners: dict[str, tuple[int, int]]) -> None:
        if ref[1] == atspi.NULL_PATH:
            return
        cell = Element(app=ref[0], path=ref[1], depth=table.depth + 1)

        def on_index(body: tuple[Any, ...]) -> None:
            self.ask(table, atspi.TABLE, "GetRowColumnExtentsAtIndex", on_place, "i", (body[0],))

        def on_place(body: tuple[Any, ...]) -> None:
            ok, row, column = body[0], body[1], body[2]
            if not ok:
                return
            corners[key] = (row, column)
            if len(corners) == 2:
                self._ask_cells(table, corners["first"], corners["last"])

        self.ask(cell, atspi.ACCESSIBLE, "GetIndexInParent", on_index)

    def _ask_cells(self, table: Element, first: tuple[int, int], last: tuple[int, int]) -> None:
        rows = range(first[0], last[0] + 1)
        columns = range(first[1], last[1] + 1)
        places = [(r, c) for r in rows for c in columns][:MAX_CELLS]
        refs: list[tuple[str, str]] = [("", atspi.NULL_PATH)] * len(places)
        left = [len(places)]

        def got(index: int) -> Callable[[Any], None]:
            def on_cell(body: tuple[Any, ...]) -> None:
                refs[index] = tuple(body[0])  # type: ignore[assignment]
                left[0] -= 1
                if left[0] == 0:
                    self._adopt(table, refs)

            return on_cell

        for index, (row, column) in enumerate(places):
            self.ask(table, atspi.TABLE, "GetAccessibleAt", got(index), "ii", (row, column))


def _shift(element: Element, dx: int, dy: int) -> None:
    stack = [element]
    while stack:
        node = stack.pop()
        if node.extents is not None:
            x, y, w, h = node.extents
            node.extents = (x + dx, y + dy, w, h)
        stack.extend(node.children)


def align_embedded_roots(element: Element) -> None:
    """Move each root pane drawn inside a toolkit container of its size to that container.

    LibreOffice's GTK 3 plugin hosts its own widgets (toolbars, the sheet's cells) in a
    GTK container below GTK's menu bar, and reports their boxes as if that container began
    at the top of the window: 25 pixels too high under the menu bar. The container's box
    comes from GTK (right); the root pane inside it has the same size and must sit where
    it does, so the root pane's subtree is moved by the difference.
    """
    stack = [element]
    while stack:
        node = stack.pop()
        for child in node.children:
            if (child.role == "root pane" and node.extents is not None and child.extents is not None
                    and node.extents[2:] == child.extents[2:] and node.extents[:2] != child.extents[:2]):
                _shift(child, node.extents[0] - child.extents[0], node.extents[1] - child.extents[1])
        stack.extend(node.children)


def _settle(element: Element) -> None:
    """Turn the slots filled during the read into the children lists, all the way down."""
    stack = [element]
    while stack:
        node = stack.pop()
        node.children = [c for c in node.slots if c is not None]
        node.slots = []
        stack.extend(node.children)


class TreeReader:
    """Reads the desktop's tree through the accessibility bus at ``address``.

    Each app is read over a connection of its own, straight to the app (AT-SPI's
    ``GetApplicationBusAddress``: the toolkit bridge serves one), which spares every
    question a trip through the bus daemon; an app that serves none is read through the
    bus. Connections are kept between reads; close the reader with :meth:`close`.

    Args:
        address: the accessibility bus (:attr:`~.bus.AccessibilityBus.address`).
        screen: the screen's size (a table's visible cells are those on it).
    """

    def __init__(self, address: str, *, screen: tuple[int, int] = (1280, 800)) -> None:
        self.address = address
        self.screen = screen
        self._bus: BusConnection | None = None
        self._peers: dict[str, BusConnection] = {}

    def _connection_to(self, app: str, deadline: float) -> BusConnection:
        """The direct connection to ``app`` (made on first use), or the bus."""
        assert self._bus is not None
        if app in self._peers:
            return self._peers[app]
        ask = Call(app, atspi.ROOT_PATH, atspi.APPLICATION, "GetApplicationBusAddress")
        (reply,) = self._bus.call_many([ask], deadline=deadline)
        if reply is None or reply.is_error or not reply.body or not reply.body[0]:
            return self._bus
        try:
            peer = BusConnection(str(reply.body[0]), timeout_s=max(0.1, deadline - time.monotonic()), peer=True)
        except EnvError:
            return self._bus
        self._peers[app] = peer
        return peer

    def _apps(self, deadline: float) -> list[tuple[str, str]]:
        if self._bus is None:
            self._bus = BusConnection(self.address, timeout_s=max(0.1, deadline - time.monotonic()))
        ask = Call(atspi.REGISTRY, atspi.ROOT_PATH, atspi.ACCESSIBLE, "GetChildren")
        (reply,) = self._bus.call_many([ask], deadline=deadline)
        if reply is None or reply.is_error:
            return []
        return [tuple(ref) for ref in reply.body[0] if ref[1] != atspi.NULL_PATH]  # type: ignore[misc]

    def read(self, *, scope: Scope = "screen", complete: bool = False, timeout_s: float = 5.0) -> Desktop:
        """Read the tree of every app (``screen``) or of the focused window only.

        ``focused_window`` reads, of each app, only its top-level windows that are active
        (the focused one); an app with none is left out. An app that closes during the
        read is left out too (closing an app is a state of the desktop, not a fault).

        Raises:
            EnvHungError: the read did not finish within ``timeout_s`` (an app does not answer).
            EnvDiedError: the bus went away.
        """
        started = time.monotonic()
        deadline = started + timeout_s
        kept: list[Element] = []
        calls = 0
        for name, path in self._apps(deadline):
            connection = self._connection_to(name, deadline)
            walk = _Walk(Pipeline(connection), complete=complete, screen=self.screen,
                         focused_only=scope == "focused_window")
            app = Element(app=name, path=path, depth=1)
            walk.visit(app, kept.append)
            try:
                walk.pipeline.run(deadline=deadline)
            except EnvHungError:
                raise EnvHungError(f"the accessibility tree was not read within {timeout_s:g} s: "
                                   f"the app {app.name or name} did not answer") from None
            except EnvDiedError:
                if connection is self._bus:
                    raise
                self._forget(name)  # the app closed its end: it is gone
                kept = [k for k in kept if k is not app]
            calls += walk.calls
        for app in kept:
            _settle(app)
            align_embedded_roots(app)
        if scope == "focused_window":
            kept = [a for a in kept if a.children]
        return Desktop(apps=kept, elapsed_s=time.monotonic() - started, calls=calls)

    def _forget(self, app: str) -> None:
        peer = self._peers.pop(app, None)
        if peer is not None:
            peer.close()

    def close(self) -> None:
        """Close every connection (safe to call twice)."""
        for app in list(self._peers):
            self._forget(app)
        if self._bus is not None:
            self._bus.close()
            self._bus = None

    def __enter__(self) -> TreeReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["MAX_CELLS", "MAX_DEPTH", "MAX_ELEMENTS", "MAX_WIDTH", "Desktop", "Element", "Scope", "TreeReader"]
