"""A virtual X display of our own: Xvfb on a free display number.

``Xvfb -displayfd FD`` picks the first free display number itself (it tries to bind
each one, so two environments starting at once cannot race for the same number) and
writes it to FD once it accepts connections. So there is no guessing from lock files,
and "started" means "ready".

Example:
    >>> with XvfbDisplay(width=1280, height=800) as xvfb:
    ...     print(xvfb.name)        # ":3"
"""

from __future__ import annotations

import os
import select
import time
from pathlib import Path

from gui_agent.envs.owned_process import OwnedProcess, describe_exit
from gui_agent.errors import EnvDiedError, EnvError

#: Colour depth of the screen; mss captures 32-bit BGRX either way.
DEPTH = 24

_INSTALL_HINT = "install it with `apt-get install xvfb`"


class XvfbDisplay:
    """An Xvfb server we started, with its display name once running.

    Args:
        width, height: screen size in pixels.
        start_timeout_s: how long Xvfb may take to accept connections.
        log_path: where its output goes (for error messages).
    """

    def __init__(self, *, width: int, height: int, start_timeout_s: float = 15.0, log_path: str | Path | None = None) -> None:
        for label, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int) or not 8 <= value <= 8192:
                raise ValueError(f"screen {label} must be an integer from 8 to 8192, got {value!r}")
        self.width = width
        self.height = height
        self.start_timeout_s = start_timeout_s
        self.log_path = log_path
        self.number: int | None = None
        self._proc: OwnedProcess | None = None

    @property
    def name(self) -> str:
        """The ``DISPLAY`` value (``":3"``)."""
        if self.number is None:
            raise RuntimeError("Xvfb is not running")
        return f":{self.number}"

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def is_alive(self) -> bool:
        return self._proc is not None and self._proc.is_alive()

    def is_stopped(self) -> bool:
        return self._proc is not None and self._proc.is_stopped()

    def wait(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for Xvfb to exit; True if it has (or never started)."""
        return self._proc.wait(timeout_s) if self._proc is not None else True

    def exit_description(self) -> str:
        return describe_exit(self._proc.returncode()) if self._proc is not None else "not started"

    def start(self) -> str:
        """Start Xvfb and return its display name once it accepts connections.

        Raises:
            EnvError: Xvfb is missing, exits during start-up, or is not ready in time.
        """
        if self._proc is not None:
            raise RuntimeError("this XvfbDisplay was already started")
        read_fd, write_fd = os.pipe()
        argv = [
            "Xvfb", "-displayfd", str(write_fd),
            "-screen", "0", f"{self.width}x{self.height}x{DEPTH}",
            "-nolisten", "tcp",  # clients connect through the unix socket only
            "-noreset",  # keep the server when the last client disconnects
        ]
        self._proc = OwnedProcess(argv, name="Xvfb", log_path=self.log_path, pass_fds=(write_fd,), install_hint=_INSTALL_HINT)
        try:
            self._proc.start()
        finally:
            os.close(write_fd)
        try:
            self.number = self._read_display_number(read_fd)
        except BaseException:
            self.stop()
            raise
        finally:
            os.close(read_fd)
        return self.name

    def _read_display_number(self, read_fd: int) -> int:
        assert self._proc is not None
        deadline = time.monotonic() + self.start_timeout_s
        data = b""
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                raise EnvError(f"Xvfb did not accept connections within {self.start_timeout_s:.0f} s: {self._proc.log_tail()}")
            ready, _, _ = select.select([read_fd], [], [], min(left, 0.1))
            if ready:
                chunk = os.read(read_fd, 64)
                if not chunk:  # Xvfb closed the pipe without a number: it exited
                    self._proc.wait(1.0)
                    raise EnvDiedError(
                        f"Xvfb exited during start-up ({describe_exit(self._proc.returncode())}): "
                        f"{self._proc.log_tail() or '(no output)'}"
                    )
                data += chunk
            elif not self._proc.is_alive():
                raise EnvDiedError(
                    f"Xvfb exited during start-up ({describe_exit(self._proc.returncode())}): "
                    f"{self._proc.log_tail() or '(no output)'}"
                )
        try:
            return int(data.strip())
        except ValueError:
            raise EnvError(f"Xvfb wrote {data!r} instead of a display number") from None

    def kill(self) -> None:
        """SIGKILL Xvfb at once (its clients lose the display); no waiting."""
        if self._proc is not None:
            self._proc.kill()

    def stop(self) -> None:
        """Stop Xvfb and reap it; safe to call twice."""
        if self._proc is not None:
            self._proc.stop(grace_s=2.0)

    def __enter__(self) -> XvfbDisplay:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
