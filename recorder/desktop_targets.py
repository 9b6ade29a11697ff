"""Desktop recording with accessibility: each step's target element, and the key mask while
a password field has the focus.

A browser step knows its target from the page (:mod:`gui_agent.recorder.browser`); a desktop
step learns it from the apps' element trees over AT-SPI
(:mod:`gui_agent.envs.desktop.accessibility`), when the recorded desktop has an
accessibility bus (a :class:`~gui_agent.envs.desktop.session.DesktopSession` started with
``accessibility=True``, or a user's desktop: ``AT_SPI_BUS_ADDRESS``).

* **Targets.** A worker thread reads the whole screen's tree every ``interval_s`` and keeps
  the last few reads with the recording-clock time each read started. A step's target is
  the element under its point (:func:`~gui_agent.envs.desktop.accessibility.locate.element_at`)
  in the newest tree whose read ended before the action began, so the tree shows the screen
  the person acted on, like the keyframe; a typing step's target is the focused element. The target
  gives role, name, states, the box on the screen, the app and the window, never the
  element's text (a field's value stays out). The tree itself is written beside the step
  (``a11y/NNNNNN.xml.gz``, named by ``info.a11y_tree``) for the grounding export.
* **Password mask.** Before each printable key is recorded (and each frame kept),
  :meth:`password_focused` says whether the focused element is a ``password text``; while
  it is, the session masks keys and blanks frames, as a focused password input does in the
  browser, whatever the window's title. The worker's newest tree answers when no click or
  focus-moving key came since its read began; else the focused window is read there and
  then (a read costs ~0.2 s in Calc on a loaded machine, so it is not done per frame).

A tree that cannot be read (an app hung, the bus gone) gives no target and is counted in
``errors``; it never stops the recording. The stored trees are scrubbed: no password
field keeps its text.
"""

from __future__ import annotations

import collections
import gzip
import threading
import time
from pathlib import Path
from typing import Any

from lxml import etree

from gui_agent.envs.desktop.accessibility.locate import element_at
from gui_agent.envs.desktop.accessibility.osworld_xml import NAMESPACES, to_element
from gui_agent.envs.desktop.accessibility.reader import TreeReader
from gui_agent.recorder.reduce import Reduced

_ST, _CP = NAMESPACES["st"], NAMESPACES["cp"]
#: The folder, in the episode, of each step's tree.
A11Y_DIR = "a11y"
PASSWORD_TAG = "password-text"
_WINDOW_TAGS = ("frame", "dialog", "window", "alert", "file-chooser")
#: A read older than this when the action began is not the screen it acted on.
MAX_TREE_AGE_S = 3.0
#: The newest tree answers the password question for this long after its read began (a
#: window that opens by itself with a password field focused is seen within it).
FOCUS_TREE_AGE_S = 1.0


def states_of(node: etree._Element) -> list[str]:
    """The names of the states set on ``node``."""
    prefix = f"{{{_ST}}}"
    return sorted(k[len(prefix):] for k, v in node.attrib.items() if k.startswith(prefix) and v == "true")


def box_of(node: etree._Element) -> list[int] | None:
    """``[x, y, width, height]`` on the screen, or None."""
    coord, size = node.get(f"{{{_CP}}}screencoord"), node.get(f"{{{_CP}}}size")
    if coord is None or size is None:
        return None
    try:
        return [int(v) for text in (coord, size) for v in text.strip("()").split(",")]
    except ValueError:
        return None


def describe(node: etree._Element) -> dict[str, Any]:
    """A step's target from a tree node: role, name, states, box, app and window (never its text).

    The window is the nearest window-like element that has a name: an unnamed dialog
    drawn inside a window (Thunderbird's account hub) is part of that window, as a
    person sees it."""
    app = window = None
    for up in node.iterancestors():
        if up.tag == "application":
            app = up.get("name")
        elif not window and up.tag in _WINDOW_TAGS:
            window = up.get("name") or None
    if node.tag in _WINDOW_TAGS and not window:
        window = node.get("name") or None
    return {"source": "a11y", "role": str(node.tag).replace("-", " "), "name": node.get("name", ""),
            "states": states_of(node), "bbox_screen": box_of(node), "app": app, "window": window}


def focused_node(root: etree._Element) -> etree._Element | None:
    """The deepest focused element in ``root`` (None when nothing has the focus)."""
    found = None
    for node in root.iter():
        if isinstance(node.tag, str) and node.get(f"{{{_ST}}}focused") == "true":
            found = node
    return found


def password_focused_in(root: etree._Element) -> bool:
    """True if a password field has the focus in an active window of the tree."""
    for node in root.iter(PASSWORD_TAG):
        if node.get(f"{{{_ST}}}focused") == "true" and any(up.get(f"{{{_ST}}}active") == "true" for up in node.iterancestors()):
            return True
    return False


def scrub(root: etree._Element) -> etree._Element:
    """Drop the text of every password field (in place)."""
    for node in root.iter(PASSWORD_TAG):
        node.text = None
    return root


class DesktopTargets:
    """The accessibility side of one desktop recording (see the module docstring).

    Args:
        session: the :class:`~gui_agent.recorder.session.RecordingSession` (its clock, mask,
            writer); :meth:`attach` sets its ``target_for`` hook and the mask's probe.
        address: the accessibility bus.
        screen: the screen's size, for the reader.
        interval_s: time between two reads of the screen's tree.
        keep_trees: write each step's tree into the episode.
    """

    def __init__(self, session: Any, address: str, *, screen: tuple[int, int] = (1280, 800), interval_s: float = 0.4,
                 timeout_s: float = 3.0, mask_cache_s: float = 0.1, keep_trees: bool = True) -> None:
        self.session = session
        self.address = address
        self.interval_s = interval_s
        self.timeout_s = timeout_s
        self.mask_cache_s = mask_cache_s
        self.keep_trees = keep_trees
        self._reader = TreeReader(address, screen=screen)
        self._focus_reader = TreeReader(address, screen=screen)
        self._read_lock = threading.Lock()
        self._focus_lock = threading.Lock()
        #: (read started, read ended, tree) on the recording's clock, oldest first.
        self._trees: collections.deque[tuple[float, float, etree._Element]] = collections.deque(maxlen=16)
        #: Whether the newest tree's active window has a focused password field, and when its read began.
        self._latest_password: tuple[float, bool] = (-1.0, False)
        self._focus_cache = (-1.0, False)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.errors = 0
        self.read_s: list[float] = []

    def attach(self) -> DesktopTargets:
        """Hook into the session and start the worker."""
        self.session.target_for = self.target_for
        self.session.mask.probes.append(self.password_focused)
        self._thread = threading.Thread(target=self._run, name="a11y-targets", daemon=True)
        self._thread.start()
        return self

    # ------------------------------------------------------------------ reading
    def _read(self) -> etree._Element | None:
        with self._read_lock:
            started = self.session.clock.now()
            try:
                desktop = self._reader.read(scope="screen", timeout_s=self.timeout_s)
            except Exception:  # noqa: BLE001 - a hung app or a gone bus: no target, the recording goes on
                self.errors += 1
                self._reader.close()
                return None
            self.read_s.append(desktop.elapsed_s)
            root = scrub(to_element(desktop))
            self._trees.append((started, self.session.clock.now(), root))
            self._latest_password = (started, password_focused_in(root))
            return root

    def _run(self) -> None:
        while not self._stop.is_set():
            if not getattr(self.session, "paused", False):
                self._read()
            self._stop.wait(self.interval_s)

    def tree_before(self, t: float) -> etree._Element | None:
        """The screen's tree as the action at ``t`` found it: the newest read that ended
        before ``t`` (a read takes a while: one still running at ``t`` may hold boxes of the
        screen the action changed, as a keyframe grabbed across a click would); else the
        newest that began before ``t``; else a tree read now. None older than
        :data:`MAX_TREE_AGE_S`."""
        trees = [entry for entry in self._trees if t - entry[0] <= MAX_TREE_AGE_S]
        for rule in (lambda e: e[1] <= t, lambda e: e[0] <= t):
            found = [entry for entry in trees if rule(entry)]
            if found:
                return found[-1][2]
        return self._read()

    # ------------------------------------------------------------------ hooks
    def target_for(self, r: Reduced) -> dict[str, Any] | None:
        """The session's ``target_for`` hook: the element at the action's point (click, drag,
        scroll) or the focused one (typing, keys); stores the tree for the step."""
        action = r.action
        root = self.tree_before(r.t)
        if root is None:
            return None
        x = getattr(action, "x", getattr(action, "x1", None))
        y = getattr(action, "y", getattr(action, "y1", None))
        if action.kind in ("click", "drag", "scroll", "move") and x is not None and y is not None:
            node = element_at(root, int(x), int(y))
        elif action.kind in ("type", "hotkey", "key"):
            node = focused_node(root)
        else:
            node = None
        target = describe(node) if node is not None else None
        if self.keep_trees:
            rel = self._store(root)
            if rel is not None:
                r.info["a11y_tree"] = rel
        return target

    def _store(self, root: etree._Element) -> str | None:
        writer = self.session.writer
        if writer is None:
            return None
        rel = f"{A11Y_DIR}/{writer.n_steps:06d}.xml.gz"
        path = Path(writer.path) / rel
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(gzip.compress(etree.tostring(root, encoding="utf-8"), compresslevel=5))
        return rel

    def password_focused(self) -> bool:
        """True while the focused element of the focused window is a password field.

        The worker's newest tree answers when its read began after the last input that can
        move the focus (a click, a key other than a character: :attr:`RecordingSession.last_focus_event_t`)
        and less than :data:`FOCUS_TREE_AGE_S` ago; else the focused window is read now
        (cached ``mask_cache_s``), so a click into a password field masks the very next key.
        """
        started, focused = self._latest_password
        now = self.session.clock.now()
        if started > getattr(self.session, "last_focus_event_t", float("inf")) and now - started < FOCUS_TREE_AGE_S:
            return focused
        with self._focus_lock:
            at, value = self._focus_cache
            now = time.monotonic()
            if now - at < self.mask_cache_s:
                return value
            try:
                root = to_element(self._focus_reader.read(scope="focused_window", timeout_s=self.timeout_s))
                node = focused_node(root)
                value = node is not None and node.tag == PASSWORD_TAG
            except Exception:  # noqa: BLE001 - unreadable: keep the last answer (a password stays masked)
                self._focus_reader.close()
                self.errors += 1
            self._focus_cache = (time.monotonic(), value)
            return value

    def close(self) -> None:
        """Stop the worker and close the connections (safe to call twice)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.timeout_s + 1)
            self._thread = None
        with self._read_lock:
            self._reader.close()
        with self._focus_lock:
            self._focus_reader.close()


__all__ = ["A11Y_DIR", "DesktopTargets", "box_of", "describe", "focused_node", "password_focused_in", "scrub", "states_of"]
