"""Privacy on the desktop: mask keys and blank frames while a sensitive window has focus.

:class:`TitleMask` asks the X server (python-xlib, its own connection) for the focused
window's title and matches it against a regular expression (case-insensitive), e.g. the
default ``password|passwort|mot de passe|login|sign in|keychain|1password|keepass``. The
answer is cached for ``cache_s`` so a burst of keys costs one round trip. Browser pages
mask password fields themselves (see :mod:`gui_agent.recorder.browser`) through :meth:`force`.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

DEFAULT_MASK_PATTERN = r"password|passwort|mot de passe|sign in|log ?in|keychain|1password|keepass|bitwarden"


def window_title(display: Any, window: Any) -> str | None:
    """The title of ``window`` or of its nearest named ancestor."""
    net_name = display.intern_atom("_NET_WM_NAME")
    utf8 = display.intern_atom("UTF8_STRING")
    for _ in range(16):
        if window is None or isinstance(window, int):
            return None
        try:
            prop = window.get_full_property(net_name, utf8)
            if prop is not None and prop.value:
                value = prop.value
                return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
            name = window.get_wm_name()
            if name:
                return name.decode("latin-1") if isinstance(name, bytes) else str(name)
            tree = window.query_tree()
        except Exception:  # noqa: BLE001 - the window went away
            return None
        if tree.parent == 0 or tree.parent == tree.root:
            return None
        window = tree.parent
    return None


class TitleMask:
    """``masked()`` is True while the focused window's title matches ``pattern`` (or while forced)."""

    def __init__(self, pattern: str | None = DEFAULT_MASK_PATTERN, *, display_name: str | None = None, cache_s: float = 0.05):
        self.regex = re.compile(pattern, re.IGNORECASE) if pattern else None
        self.display_name = display_name
        self.cache_s = cache_s
        self._display: Any = None
        self._lock = threading.Lock()
        self._cached = (0.0, False)
        self._forced: set[str] = set()
        #: More reasons to mask, asked on each call (e.g. a focused password field, from the
        #: accessibility tree: :class:`gui_agent.recorder.desktop_targets.DesktopTargets`).
        self.probes: list[Callable[[], bool]] = []
        self.last_title: str | None = None

    def force(self, reason: str, on: bool) -> None:
        """Mask regardless of the title while any reason is on (e.g. a focused password field)."""
        with self._lock:
            (self._forced.add if on else self._forced.discard)(reason)

    def masked(self) -> bool:
        if self._forced:
            return True
        if any(probe() for probe in list(self.probes)):
            return True
        if self.regex is None:
            return False
        now = time.monotonic()
        with self._lock:
            at, value = self._cached
            if now - at < self.cache_s:
                return value
            title = self.focused_title()
            value = bool(title and self.regex.search(title))
            self._cached = (now, value)
            self.last_title = title
            return value

    def focused_title(self) -> str | None:
        from Xlib import X
        from Xlib import display as xdisplay

        if self._display is None:
            self._display = xdisplay.Display(self.display_name)
        d = self._display
        root = d.screen().root
        active = None
        try:
            prop = root.get_full_property(d.intern_atom("_NET_ACTIVE_WINDOW"), X.AnyPropertyType)
            if prop is not None and prop.value is not None and len(prop.value) and prop.value[0]:
                active = d.create_resource_object("window", int(prop.value[0]))
        except Exception:  # noqa: BLE001
            active = None
        title = window_title(d, active) if active is not None else None
        if title is None:
            focus = d.get_input_focus().focus
            title = window_title(d, focus)
        return title

    def close(self) -> None:
        with self._lock:
            if self._display is not None:
                self._display.close()
                self._display = None
