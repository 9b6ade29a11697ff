"""Mouse and keyboard through pynput's X backend (XRecord), turned into :class:`RawEvent`.

pynput picks its backend and opens an X connection when it is *imported*, so it is
imported here lazily, after ``DISPLAY`` is known. Its callbacks run on pynput's own
threads; they only stamp the time, convert and hand the event to ``sink``, which must be
fast (the session's sink appends to a queue).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from gui_agent.actions import KEY_ALIASES, NAMED_KEYS
from gui_agent.recorder.clock import Clock
from gui_agent.recorder.events import RawEvent

def _ending_quietly(listener_class: type) -> type:
    """``listener_class`` (a pynput listener) whose thread ends without a traceback when the
    X server goes away under it (the desktop died, or was closed first).

    The recording learns of a dead display from its screen capture, which reports it; the
    listener's own ``BrokenPipeError`` from a broken X connection would only print a
    traceback per thread on the station's or recorder's stderr.
    """
    from Xlib.error import ConnectionClosedError

    class Listener(listener_class):  # type: ignore[misc, valid-type]
        def _run(self) -> None:
            try:
                super()._run()
            except (ConnectionClosedError, OSError):
                pass

    return Listener


#: pynput ``Key`` names that our aliases do not already cover.
_PYNPUT_KEYS = {"cmd": "meta", "cmd_l": "meta", "cmd_r": "meta", "alt_gr": "alt", "print_screen": "printscreen",
                "ctrl_l": "ctrl", "ctrl_r": "ctrl", "shift_l": "shift", "shift_r": "shift"}
_BUTTONS = {"left": "left", "right": "right", "middle": "middle"}


def key_name(key: Any) -> str:
    """A pynput key as our event key: one character as typed, a canonical name, or ``"?name"``."""
    name = getattr(key, "name", None)
    if name is not None:  # pynput.keyboard.Key member
        name = _PYNPUT_KEYS.get(name, name)
        canonical = KEY_ALIASES.get(name, name)
        return canonical if canonical in NAMED_KEYS else f"?{name}"
    char = getattr(key, "char", None)
    if char:
        if len(char) == 1 and ord(char) < 32:  # ctrl+letter reported as a control character
            return {"\r": "enter", "\n": "enter", "\t": "tab", "\x08": "backspace", "\x1b": "escape"}.get(
                char, chr(ord(char) + 96))
        return char if len(char) == 1 else f"?{char}"
    return f"?vk{getattr(key, 'vk', '')}"


class InputCapture:
    """Mouse + keyboard listeners writing :class:`RawEvent` to ``sink``.

    Args:
        clock: the recording clock.
        sink: called with each event on a listener thread.
        mask_keys: called on each key event; True replaces printable keys by ``"*"``.
    """

    def __init__(self, clock: Clock, sink: Callable[[RawEvent], None], *, mask_keys: Callable[[], bool] | None = None):
        self.clock = clock
        self.sink = sink
        self.mask_keys = mask_keys or (lambda: False)
        self._mouse: Any = None
        self._keyboard: Any = None
        self._lock = threading.Lock()

    def start(self, timeout_s: float = 5.0) -> None:
        from pynput import keyboard, mouse

        self._mouse = _ending_quietly(mouse.Listener)(on_move=self._on_move, on_click=self._on_click, on_scroll=self._on_scroll)
        self._keyboard = _ending_quietly(keyboard.Listener)(on_press=self._on_press, on_release=self._on_release)
        self._mouse.daemon = self._keyboard.daemon = True
        self._mouse.start()
        self._keyboard.start()
        for listener in (self._mouse, self._keyboard):
            listener.wait()  # until its XRecord context is live: no first event lost
        if not (self._mouse.is_alive() and self._keyboard.is_alive()):
            raise RuntimeError("the input listeners did not start (does the X server offer the RECORD extension?)")

    def stop(self) -> None:
        for listener in (self._mouse, self._keyboard):
            if listener is not None:
                listener.stop()
        for listener in (self._mouse, self._keyboard):
            if listener is not None and listener.is_alive() and listener is not threading.current_thread():
                listener.join(2.0)

    # pynput callbacks (listener threads) -------------------------------------------
    def _emit(self, event: RawEvent) -> None:
        self.sink(event)

    def _on_move(self, x: int, y: int, *rest: Any) -> None:
        self._emit(RawEvent(self.clock.now(), "move", x=int(x), y=int(y)))

    def _on_click(self, x: int, y: int, button: Any, pressed: bool, *rest: Any) -> None:
        name = _BUTTONS.get(getattr(button, "name", ""), getattr(button, "name", "?"))
        self._emit(RawEvent(self.clock.now(), "down" if pressed else "up", x=int(x), y=int(y), button=name))

    def _on_scroll(self, x: int, y: int, dx: int, dy: int, *rest: Any) -> None:
        # pynput: dy > 0 is wheel up; ours (gui_agent.actions): dy > 0 is down.
        self._emit(RawEvent(self.clock.now(), "scroll", x=int(x), y=int(y), dx=int(dx), dy=-int(dy)))

    def _key(self, key: Any, kind: str) -> None:
        t = self.clock.now()
        name = key_name(key)
        masked = False
        if len(name) == 1 and self.mask_keys():
            name, masked = "*", True
        self._emit(RawEvent(t, kind, key=name, masked=masked))  # type: ignore[arg-type]

    def _on_press(self, key: Any, *rest: Any) -> None:
        self._key(key, "key_down")

    def _on_release(self, key: Any, *rest: Any) -> None:
        self._key(key, "key_up")
