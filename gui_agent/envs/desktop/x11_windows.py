"""Top-level windows of an X display: titles, the active one, activating and closing.

Read through python-xlib (pure Python, one socket): a few round trips per observation,
and a display that dies raises a Python exception instead of calling ``exit()``
the way libX11's default I/O error handler does. With an EWMH window manager (openbox)
the lists come from ``_NET_CLIENT_LIST`` and ``_NET_ACTIVE_WINDOW``; without one, from
the mapped children of the root window and the input focus.

All methods raise :class:`~gui_agent.errors.EnvDiedError` when the display is gone. Use
one instance from one thread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gui_agent.errors import EnvDiedError
from gui_agent.polling import poll


@dataclass(frozen=True)
class WindowInfo:
    """One top-level window.

    Attributes:
        id: the X window id.
        title: ``_NET_WM_NAME`` (UTF-8) or ``WM_NAME``; "" if it has none.
        wm_class: the class part of ``WM_CLASS`` (``"libreoffice-calc"``, ``"thunderbird"``).
        pid: ``_NET_WM_PID`` when the client sets it.
    """

    id: int
    title: str
    wm_class: str = ""
    pid: int | None = None


def _xlib() -> Any:
    from Xlib import X, Xatom, display, error, protocol

    return X, Xatom, display, error, protocol


class X11Windows:
    """Window queries and commands on one display.

    Args:
        display_name: ``":3"``.
    """

    def __init__(self, display_name: str) -> None:
        X, _, display, error, _ = _xlib()
        self._errors = (error.ConnectionClosedError, ConnectionError, OSError, EOFError)
        self._bad = (error.BadWindow, error.BadDrawable, error.BadValue, error.BadMatch)
        self.display_name = display_name
        try:
            self._dpy = display.Display(display_name)
        except Exception as exc:  # noqa: BLE001 - DisplayConnectionError and socket errors
            raise EnvDiedError(f"cannot connect to X display {display_name}: {exc}") from None
        self._root = self._dpy.screen().root
        atom = self._dpy.intern_atom
        self._atoms = {
            name: atom(name)
            for name in (
                "_NET_CLIENT_LIST", "_NET_ACTIVE_WINDOW", "_NET_WM_NAME", "UTF8_STRING", "_NET_WM_PID",
                "_NET_SUPPORTING_WM_CHECK", "_NET_CLOSE_WINDOW", "WM_STATE",
            )
        }
        self._any = X.AnyPropertyType

    # ------------------------------------------------------------------ reading
    def has_window_manager(self) -> bool:
        """True once a window manager redirects the root window's children and has
        announced itself (EWMH).

        The redirect is what matters: openbox sets ``_NET_SUPPORTING_WM_CHECK`` a moment
        before it selects SubstructureRedirect, and a window mapped in between is never
        managed (no frame, no focus, not in the window list). Whether some client holds
        the redirect is in the root window's ``all_event_masks``.
        """
        X = _xlib()[0]

        def check() -> bool:
            redirected = bool(self._root.get_attributes().all_event_masks & X.SubstructureRedirectMask)
            announced = self._root.get_full_property(self._atoms["_NET_SUPPORTING_WM_CHECK"], self._any) is not None
            return redirected and announced

        return self._guard(check)

    def wait_until_managing(self, timeout_s: float) -> bool:
        """Map a 1x1 probe window and wait until the window manager lists it (then destroy it).

        Proof that the window manager's event loop runs and manages new windows: openbox
        holds the redirect and announces itself before its event loop runs, and a map
        request arriving in between is dropped: that window stays unmanaged for ever (no
        frame, no focus, not in ``_NET_CLIENT_LIST``; seen in ~1 of 10 starts with a
        real app). The probe is unmapped and mapped again until it is managed.
        """
        import time

        X = _xlib()[0]

        def managed(window_id: int) -> bool:
            prop = self._root.get_full_property(self._atoms["_NET_CLIENT_LIST"], self._any)
            return prop is not None and window_id in [int(w) for w in prop.value]

        def run() -> bool:
            screen = self._dpy.screen()
            probe = self._root.create_window(0, 0, 1, 1, 0, screen.root_depth, X.InputOutput, X.CopyFromParent)
            probe.set_wm_name("gui-agent-probe")
            deadline = time.monotonic() + timeout_s
            ok = False
            while not ok and time.monotonic() < deadline:
                probe.map()
                self._dpy.sync()
                ok = bool(poll(lambda: managed(probe.id), timeout_s=min(0.1, deadline - time.monotonic()), interval_s=0.005))
                if not ok:
                    probe.unmap()  # the map request was dropped: ask again
                    self._dpy.sync()
            probe.destroy()
            self._dpy.sync()
            poll(lambda: not managed(probe.id), timeout_s=deadline + 1.0 - time.monotonic(), interval_s=0.005)
            return ok

        return self._guard(run)

    def windows(self) -> list[WindowInfo]:
        """Every managed top-level window, oldest first."""
        return self._guard(self._windows)

    def active(self) -> WindowInfo | None:
        """The focused top-level window, or None (nothing focused)."""
        return self._guard(self._active)

    def find(self, title_regex: str) -> list[WindowInfo]:
        """Windows whose title matches ``title_regex`` (``re.search``)."""
        pattern = re.compile(title_regex)
        return [w for w in self.windows() if pattern.search(w.title)]

    # ------------------------------------------------------------------ commands
    def activate(self, window_id: int) -> None:
        """Ask the window manager to raise and focus a window (EWMH, as a pager would)."""
        self._guard(lambda: self._client_message(window_id, "_NET_ACTIVE_WINDOW", [2, 0, 0, 0, 0]))

    def close(self, window_id: int) -> None:
        """Ask the window manager to close a window politely (like its close button)."""
        self._guard(lambda: self._client_message(window_id, "_NET_CLOSE_WINDOW", [0, 2, 0, 0, 0]))

    def close_connection(self) -> None:
        try:
            self._dpy.close()
        except Exception:  # noqa: BLE001 - the display may be gone already
            pass

    # ------------------------------------------------------------------ internals
    def _guard(self, fn: Any) -> Any:
        try:
            return fn()
        except self._errors as exc:
            raise EnvDiedError(f"the X display {self.display_name} is gone: {exc or type(exc).__name__}") from None

    def _window_ids(self) -> list[int]:
        prop = self._root.get_full_property(self._atoms["_NET_CLIENT_LIST"], self._any)
        if prop is not None:
            return [int(w) for w in prop.value]
        # No window manager: mapped children of the root that carry WM_STATE or a name.
        ids = []
        for child in self._root.query_tree().children:
            try:
                if child.get_attributes().map_state == 2 and (child.get_wm_name() or child.get_wm_class()):
                    ids.append(child.id)
            except self._bad:
                continue
        return ids

    def _info(self, window_id: int) -> WindowInfo | None:
        window = self._dpy.create_resource_object("window", window_id)
        try:
            name = window.get_full_property(self._atoms["_NET_WM_NAME"], self._atoms["UTF8_STRING"])
            if name is not None and name.value:
                value = name.value
                title = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
            else:
                legacy = window.get_wm_name()
                title = legacy.decode("latin-1") if isinstance(legacy, bytes) else (legacy or "")
            wm_class = window.get_wm_class()
            pid_prop = window.get_full_property(self._atoms["_NET_WM_PID"], self._any)
        except self._bad:
            return None  # closed while we looked
        pid = int(pid_prop.value[0]) if pid_prop is not None and len(pid_prop.value) else None
        return WindowInfo(id=window_id, title=title, wm_class=wm_class[1] if wm_class else "", pid=pid)

    def _windows(self) -> list[WindowInfo]:
        return [info for info in (self._info(w) for w in self._window_ids()) if info is not None]

    def _active(self) -> WindowInfo | None:
        prop = self._root.get_full_property(self._atoms["_NET_ACTIVE_WINDOW"], self._any)
        if prop is not None:
            window_id = int(prop.value[0]) if len(prop.value) else 0
            # With no client focused openbox names its own support window: not an app window.
            clients = self._root.get_full_property(self._atoms["_NET_CLIENT_LIST"], self._any)
            managed = [int(w) for w in clients.value] if clients is not None else []
            return self._info(window_id) if window_id and window_id in managed else None
        # No window manager: the top-level ancestor of the input focus.
        focus = self._dpy.get_input_focus().focus
        if not hasattr(focus, "id") or focus.id in (0, 1, self._root.id):
            return None
        window = focus
        try:
            while True:
                parent = window.query_tree().parent
                if parent is None or parent.id == self._root.id or parent.id == 0:
                    break
                window = parent
        except self._bad:
            return None
        return self._info(window.id)

    def _client_message(self, window_id: int, atom_name: str, data: list[int]) -> None:
        X, _, _, _, protocol = _xlib()
        window = self._dpy.create_resource_object("window", window_id)
        event = protocol.event.ClientMessage(window=window, client_type=self._atoms[atom_name], data=(32, data))
        self._root.send_event(event, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
        self._dpy.sync()
