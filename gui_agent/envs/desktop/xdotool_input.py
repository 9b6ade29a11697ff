"""Canonical actions as XTEST input, through one long-lived ``xdotool`` process.

Starting ``xdotool`` (dynamic linking, keymap queries) costs far more than the work of one
action, so one process per display reads commands from its stdin (``xdotool -``
runs each line as it arrives). After every action we send an acknowledgement request and read
its one-line answer: it is a round trip to the X server, so when it comes back the
server has processed every XTEST event of the action. The answer is also the
acknowledgement, so a dead or frozen ``xdotool``/X server is noticed by a deadline.
The acknowledgement is ``getdisplaygeometry`` (``XGetWindowAttributes`` of the root
window: a round trip that prints "W H"), not ``getmouselocation``: that one walks the
window tree under the pointer, and a click that closes a menu destroys that window
meanwhile; the BadWindow error then kills xdotool (Xlib's default error handler exits).
(``getwindowfocus -f`` prints nothing while the focus is PointerRoot.) Should xdotool die anyway while the display lives,
:class:`~gui_agent.errors.XdotoolDiedError` says so and the next action starts a new one.

xdotool splits script lines on spaces and knows no quoting, so text is never passed as
an argument: every character becomes a keysym name (:func:`gui_agent.keys.to_xdotool_key`)
sent with ``key``. On LibreOffice, with no delay between keystrokes a repeated
key is dropped ("aaaaaaaa" arrives as "aa": a release and press of one key at the same
instant reads as auto-repeat), so keys go :data:`KEY_DELAY_MS` apart. Characters outside
the keymap (``é``, ``€``) make xdotool remap a spare keycode for the keystroke; those go
one per command with a longer delay so the client reads the mapping before it is
restored, and with Shift for upper-case letters (X derives the case pair of a lone keysym,
so without Shift "Ä" would arrive as "ä").
"""

from __future__ import annotations

import os
import select
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

from gui_agent.actions import (
    Action,
    Click,
    Done,
    Drag,
    Hotkey,
    Move,
    Scroll,
    Type,
    Wait,
)
from gui_agent.envs.owned_process import OwnedProcess, describe_exit
from gui_agent.errors import EnvError, EnvHungError, XdotoolDiedError
from gui_agent.keys import to_xdotool_key

#: Intermediate pointer positions of a drag (apps start a drag after some motion).
DRAG_STEPS = 8
#: Pause between the intermediate moves of a drag, in seconds.
DRAG_STEP_S = 0.01
#: Keysyms per ``key`` command line (xdotool reads lines of up to 4096 bytes).
_KEYS_PER_LINE = 64
#: Milliseconds between keystrokes of typed text (0 drops repeated keys, see above).
KEY_DELAY_MS = 3
#: Milliseconds between keystrokes that need a temporarily remapped keycode.
_REMAP_DELAY_MS = 25

_BUTTONS = {"left": 1, "middle": 2, "right": 3}
#: The acknowledging round trip (see the module docstring).
_ACK = "getdisplaygeometry"

_CONTROL_CHARS = {"\n": "Return", "\r": "Return", "\t": "Tab"}


def _in_us_keymap(char: str) -> bool:
    return char.isascii() and (char.isprintable() or char in _CONTROL_CHARS)


def text_commands(text: str) -> Iterator[str]:
    """xdotool script lines that type ``text`` exactly (see the module docstring)."""
    batch: list[str] = []
    head = f"key --delay {KEY_DELAY_MS} "
    for char in text:
        if char in _CONTROL_CHARS:
            batch.append(_CONTROL_CHARS[char])
        elif _in_us_keymap(char):
            batch.append(to_xdotool_key(char))
        else:
            if batch:
                yield head + " ".join(batch)
                batch = []
            shift = "shift+" if char.isupper() and char.lower() != char else ""
            yield f"key --delay {_REMAP_DELAY_MS} {shift}{to_xdotool_key(char)}"
            continue
        if len(batch) >= _KEYS_PER_LINE:
            yield head + " ".join(batch)
            batch = []
    if batch:
        yield head + " ".join(batch)


def action_commands(action: Action) -> list[str]:
    """The xdotool script lines performing one canonical action (none for wait/done)."""
    if isinstance(action, Click):
        button = _BUTTONS[action.button]
        return [f"mousemove {action.x} {action.y}"] + [f"mousedown {button}\nmouseup {button}"] * action.count
    if isinstance(action, Move):
        return [f"mousemove {action.x} {action.y}"]
    if isinstance(action, Drag):
        button = _BUTTONS[action.button]
        lines = [f"mousemove {action.x1} {action.y1}", f"mousedown {button}"]
        for i in range(1, DRAG_STEPS + 1):
            x = round(action.x1 + (action.x2 - action.x1) * i / DRAG_STEPS)
            y = round(action.y1 + (action.y2 - action.y1) * i / DRAG_STEPS)
            lines += [f"sleep {DRAG_STEP_S}", f"mousemove {x} {y}"]
        return lines + [f"mouseup {button}"]
    if isinstance(action, Scroll):
        lines = [f"mousemove {action.x} {action.y}"]
        for amount, negative, positive in ((action.dy, 4, 5), (action.dx, 6, 7)):
            button = positive if amount > 0 else negative
            lines += [f"mousedown {button}\nmouseup {button}"] * abs(amount)
        return lines
    if isinstance(action, Type):
        return list(text_commands(action.text))
    if isinstance(action, Hotkey):
        keys = [to_xdotool_key(k) for k in action.keys]
        return [" ".join(f"keydown {k}" for k in keys) + " " + " ".join(f"keyup {k}" for k in reversed(keys))]
    if isinstance(action, (Wait, Done)):
        return []
    raise TypeError(f"not a canonical action: {action!r}")  # pragma: no cover - the union is closed


class XdotoolInput:
    """XTEST input on one display through a long-lived ``xdotool -`` process.

    Args:
        display: the ``DISPLAY`` value.
        env: environment for xdotool (``DISPLAY`` is set from ``display``).
        timeout_s: how long one batch of commands may take before xdotool (or the X
            server) counts as hung.
    """

    def __init__(
        self, display: str, *, env: Mapping[str, str] | None = None, timeout_s: float = 10.0, log_path: Path | None = None
    ) -> None:
        self.display = display
        self.env = {**(os.environ if env is None else env), "DISPLAY": display}
        self.timeout_s = timeout_s
        self.log_path = log_path
        self._proc: OwnedProcess | None = None
        self._last_script = ""

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def start(self) -> None:
        """Start ``xdotool -`` (in its own session, dying with this Python).

        Raises:
            EnvError: xdotool is not installed.
        """
        proc = OwnedProcess(["xdotool", "-"], name="xdotool", env=self.env, log_path=self.log_path, pipes=True,
                            install_hint="install it with `apt-get install xdotool`")
        proc.start()
        self._proc = proc

    def perform(self, action: Action, *, timeout_s: float | None = None) -> None:
        """Send one action's input and wait until the X server has processed it.

        Raises:
            EnvDiedError: xdotool exited (usually: the display is gone).
            EnvHungError: no acknowledgement within the timeout.
        """
        lines = action_commands(action)
        if lines:
            self.run(lines, timeout_s=timeout_s)

    def run(self, lines: list[str], *, timeout_s: float | None = None) -> str:
        """Run raw xdotool script lines and wait for the acknowledgement; return its text."""
        if self._proc is None:
            self.start()
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        script = "\n".join([*lines, _ACK]) + "\n"
        self._last_script = script
        try:
            proc.stdin.write(script.encode("utf-8"))
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died() from None
        answer = self._read_line(proc, timeout_s if timeout_s is not None else self.timeout_s)
        if not answer.replace(" ", "").isdigit():
            raise EnvError(f"xdotool answered {answer!r} instead of the screen size")
        return answer

    def _read_line(self, proc: OwnedProcess, timeout_s: float) -> str:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout_s
        data = b""
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                raise EnvHungError(f"xdotool did not finish its input within {timeout_s:.1f} s (is the X server frozen?)")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 4096)
                if not chunk:
                    raise self._died()
                data += chunk
        return data.decode("utf-8", "replace").strip().splitlines()[-1]

    def _died(self) -> XdotoolDiedError:
        proc, self._proc = self._proc, None
        code = None
        if proc is not None:
            proc.wait(2.0)
            code = proc.returncode()
            proc.stop(grace_s=0.0)  # reaped already (or SIGKILLed now): nothing of it stays
        said = ""
        if self.log_path is not None:
            try:
                said = self.log_path.read_text(errors="replace").strip()[-300:]
            except OSError:
                pass
        return XdotoolDiedError(
            f"xdotool exited ({describe_exit(code)}) running {self._last_script.strip()!r}"
            + (f"; it said: {said}" if said else "; the display is probably gone")
        )

    def stop(self) -> None:
        """Stop xdotool (SIGKILL by PID if it does not end on EOF); safe to call twice."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        proc.wait(1.0)
        proc.stop(grace_s=0.0)  # not ended on EOF: SIGKILL by PID, and reap
