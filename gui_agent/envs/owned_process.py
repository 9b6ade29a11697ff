"""A subprocess we started and own: its own session, stopped by PID, never by name.

Desktop environments start several programs (Xvfb, a window manager, LibreOffice,
Thunderbird). Each one is an :class:`OwnedProcess`:

* it runs in its own session and process group (``start_new_session=True``), so one
  ``killpg`` reaches it and whatever it forked (LibreOffice's ``oosplash`` forks
  ``soffice.bin``), and a scan of ``/proc`` for its session id finds helpers that left
  the group;
* it starts under ``setpriv --pdeathsig KILL`` (when available), so it dies with the
  thread that started it if Python is killed outright; X clients that it forked lose
  their display when Xvfb dies that way, and exit too;
* :meth:`OwnedProcess.stop` sends SIGTERM to the group (SIGCONT first: a stopped
  process keeps SIGTERM pending), waits a grace period, then SIGKILLs the group and every
  member of the session, reaps the main process and waits until no member is left;
* a ``weakref.finalize`` does the same if the object is dropped or the interpreter
  exits without ``stop()``.

The PID is only ever signalled while our ``Popen`` has not reaped it, so it cannot
belong to an unrelated process that reused the number.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path

from gui_agent.envs.chromium import _session_members, process_state
from gui_agent.errors import EnvError

__all__ = ["OwnedProcess", "describe_exit", "process_state"]


def describe_exit(code: int | None) -> str:
    """``"exit code 1"``, ``"killed by SIGSEGV"`` or ``"still running"``."""
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def _kill_session(pid: int, sig: int) -> None:
    """Signal the process group ``pid`` and every live member of session ``pid``."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
    for member in _session_members(pid):
        try:
            os.kill(member, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _emergency_stop(proc: subprocess.Popen[bytes]) -> None:
    """Finalizer: SIGKILL a process (and its session) that was never stopped, and reap it."""
    if proc.poll() is None:
        _kill_session(proc.pid, signal.SIGKILL)
        try:
            proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL not delivered?
            pass


class OwnedProcess:
    """One program we start, in its own session, and stop by PID.

    Args:
        argv: the command line; ``argv[0]`` is looked up on ``PATH``.
        name: what to call it in messages (``"LibreOffice Calc"``).
        env: the child's environment (default: ours).
        cwd: its working directory.
        log_path: file its stdout and stderr go to (default: discarded).
        pass_fds: file descriptors to keep open in the child (Xvfb's ``-displayfd``).
        die_with_parent: start under ``setpriv --pdeathsig KILL`` when setpriv exists.
        install_hint: appended to the error when the program is missing.

    Example:
        >>> proc = OwnedProcess(["openbox"], name="openbox", env={"DISPLAY": ":5"})
        >>> proc.start()
        >>> proc.stop()
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        name: str,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        log_path: str | Path | None = None,
        pass_fds: Sequence[int] = (),
        die_with_parent: bool = True,
        install_hint: str = "",
    ) -> None:
        if not argv:
            raise ValueError("argv must not be empty")
        self.argv = [str(a) for a in argv]
        self.name = name
        self.env = dict(os.environ if env is None else env)
        self.cwd = cwd
        self.log_path = Path(log_path) if log_path is not None else None
        self.pass_fds = tuple(pass_fds)
        self.die_with_parent = die_with_parent
        self.install_hint = install_hint
        self._proc: subprocess.Popen[bytes] | None = None
        self._stopped = False
        self._finalizer: weakref.finalize | None = None

    # ------------------------------------------------------------------ state
    @property
    def pid(self) -> int | None:
        """The main process's PID (also its process group and session id), once started."""
        return self._proc.pid if self._proc is not None else None

    def is_alive(self) -> bool:
        """True while the main process runs (a stopped, frozen one counts as alive)."""
        return self._proc is not None and self._proc.poll() is None

    def is_stopped(self) -> bool:
        """True if the main process is stopped by a signal (SIGSTOP)."""
        return self.is_alive() and process_state(self.pid) in ("T", "t")  # type: ignore[arg-type]

    def returncode(self) -> int | None:
        return self._proc.poll() if self._proc is not None else None

    def members(self) -> list[int]:
        """Live PIDs of its session (itself and whatever it forked), while not stopped by us."""
        if self._proc is None or self._stopped:
            return []
        return _session_members(self._proc.pid)

    def log_tail(self, max_chars: int = 1500) -> str:
        """The end of what it wrote to its log, for error messages."""
        if self.log_path is None:
            return ""
        try:
            data = self.log_path.read_bytes()
        except OSError:
            return ""
        return data[-max_chars:].decode("utf-8", "replace").strip()

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Start the program.

        Raises:
            EnvError: the program is not installed or cannot be executed.
        """
        if self._proc is not None:
            raise RuntimeError(f"{self.name} was already started; make a new OwnedProcess")
        exe = shutil.which(self.argv[0], path=self.env.get("PATH", os.defpath))
        if exe is None:
            hint = f": {self.install_hint}" if self.install_hint else ""
            raise EnvError(f"{self.name} is not installed ({self.argv[0]!r} not found on PATH){hint}")
        argv = [exe, *self.argv[1:]]
        setpriv = shutil.which("setpriv")
        if self.die_with_parent and setpriv:
            argv = [setpriv, "--pdeathsig", "KILL", "--", *argv]
        log = open(self.log_path, "ab") if self.log_path is not None else subprocess.DEVNULL  # noqa: SIM115
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log if log is not subprocess.DEVNULL else subprocess.DEVNULL,
                env=self.env,
                cwd=self.cwd,
                pass_fds=self.pass_fds,
                start_new_session=True,
                close_fds=True,
            )
        except OSError as exc:
            raise EnvError(f"could not start {self.name} ({self.argv[0]!r}): {exc}") from None
        finally:
            if log is not subprocess.DEVNULL:
                log.close()  # the child has its own copy
        self._finalizer = weakref.finalize(self, _emergency_stop, self._proc)

    def wait(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for the main process to exit; True if it has."""
        if self._proc is None:
            return True
        try:
            self._proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return False
        return True

    def kill(self) -> None:
        """SIGKILL it and its session at once (also works on a stopped one); no waiting."""
        if self._proc is not None and not self._stopped:
            _kill_session(self._proc.pid, signal.SIGKILL)

    def stop(self, grace_s: float = 2.0) -> None:
        """SIGTERM the group, SIGKILL what is left after ``grace_s``, reap; safe to call twice."""
        proc = self._proc
        if proc is None or self._stopped:
            return
        if grace_s > 0 and proc.poll() is None:
            for sig in (signal.SIGCONT, signal.SIGTERM):
                try:
                    os.killpg(proc.pid, sig)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                proc.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                pass
        # Helpers may outlive the main process (or left its group): none may stay.
        _kill_session(proc.pid, signal.SIGKILL)
        try:
            proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL not delivered?
            pass
        deadline = time.monotonic() + 3.0
        while _session_members(proc.pid) and time.monotonic() < deadline:
            _kill_session(proc.pid, signal.SIGKILL)
            time.sleep(0.02)
        # From here on the PID may be reused by an unrelated process: never signal it again.
        self._stopped = True
        if self._finalizer is not None:
            self._finalizer.detach()

    def __repr__(self) -> str:
        state = "not started" if self._proc is None else describe_exit(self.returncode())
        return f"OwnedProcess({self.name!r}, pid={self.pid}, {state})"
