"""A subprocess we started and own: its own session, stopped by PID, never by name.

Desktop environments start several programs (Xvfb, a window manager, LibreOffice,
Thunderbird). Each one is an :class:`OwnedProcess`:

* it runs in its own session and process group (``start_new_session=True``), so one
  ``killpg`` reaches it and whatever it forked (LibreOffice's ``oosplash`` forks
  ``soffice.bin``), and a scan of ``/proc`` for its session id finds helpers that left
  the group;
* it starts under ``setpriv --pdeathsig KILL`` (when available), forked by the one
  thread of :mod:`gui_agent.envs.spawner` that lives as long as this Python, so it dies
  when Python is killed outright, and not when the thread that asked for it ends; X
  clients that it forked lose their display when Xvfb dies that way, and exit too;
* :meth:`OwnedProcess.stop` sends SIGTERM to the group (SIGCONT first: a stopped
  process keeps SIGTERM pending), waits a grace period, then SIGKILLs the group and every
  member of the session, reaps the main process and waits until no member is left;
* a ``weakref.finalize`` does the same if the object is dropped or the interpreter
  exits without ``stop()``;
* a process may own a private folder (``private_dir``, made by :func:`make_private_dir`):
  whatever carries that folder on its command line counts as one of its members (a
  browser's crash handler daemonises out of the session but not out of its folder), and
  the folder is removed when the process is stopped; :func:`sweep_stale_private_dirs`
  removes the folders of Pythons that were killed before they could.

The PID is only ever signalled while our ``Popen`` has not reaped it, so it cannot
belong to an unrelated process that reused the number.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO

from gui_agent.envs import spawner
from gui_agent.envs.procfs import process_state, processes_mentioning, session_members
from gui_agent.errors import EnvError

#: The file in a private folder that names the PID of the Python that made it.
OWNER_FILE = "owner"


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


def make_private_dir(prefix: str) -> Path:
    """A fresh temporary folder named ``prefix*`` that records this Python's PID as its owner."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    (folder / OWNER_FILE).write_text(str(os.getpid()))
    return folder


def _owner_of(folder: Path) -> int | None:
    try:
        return int((folder / OWNER_FILE).read_text().strip())
    except (OSError, ValueError):
        return None


def sweep_stale_private_dirs(prefix: str, min_age_s: float = 60.0) -> list[Path]:
    """Remove the private folders named ``prefix*`` of Pythons that died without cleaning up.

    A folder is stale when its owner (``os._exit``, SIGKILL) is gone and no live process
    mentions it on its command line; folders younger than ``min_age_s`` are left alone.
    Returns the removed folders.
    """
    removed: list[Path] = []
    now = time.time()
    for folder in Path(tempfile.gettempdir()).glob(prefix + "*"):
        try:
            if now - folder.stat().st_mtime < min_age_s:
                continue
        except OSError:
            continue
        owner = _owner_of(folder)
        if owner is None or owner == os.getpid() or process_state(owner) not in (None, "Z") or processes_mentioning(folder):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def kill_leftovers_of(owner_pid: int, prefix: str) -> list[int]:
    """SIGKILL every process left from the private folders ``prefix*`` that ``owner_pid`` made.

    For a worker that was killed outright: what it started normally dies with it through
    the parent-death signal, but a process frozen by SIGSTOP leaves frozen helpers behind.
    Every process whose command line carries one of the owner's folders is killed (never
    anything by name) and the folders are removed. Refuses to act while ``owner_pid`` runs.
    Returns the PIDs signalled.
    """
    if process_state(owner_pid) not in (None, "Z"):
        return []
    killed: list[int] = []
    for folder in Path(tempfile.gettempdir()).glob(prefix + "*"):
        if _owner_of(folder) != owner_pid:
            continue
        for pid in processes_mentioning(folder):
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except (ProcessLookupError, PermissionError):
                pass
        shutil.rmtree(folder, ignore_errors=True)
    return killed


def _members(pid: int, private_dir: Path | None) -> set[int]:
    """Live members of session ``pid`` and the live processes that mention ``private_dir``."""
    return set(session_members(pid)) | set(processes_mentioning(private_dir))


def _kill_all(pid: int, private_dir: Path | None, sig: int) -> None:
    """Signal the process group ``pid``, every member of its session and of its private folder."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
    for member in _members(pid, private_dir):
        try:
            os.kill(member, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _emergency_stop(proc: subprocess.Popen[bytes], private_dir: Path | None) -> None:
    """Finalizer: SIGKILL a process (and its members) that was never stopped, reap it, remove its folder."""
    if proc.poll() is None:
        _kill_all(proc.pid, private_dir, signal.SIGKILL)
        try:
            proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL not delivered?
            pass
    if private_dir is not None:
        shutil.rmtree(private_dir, ignore_errors=True)


class OwnedProcess:
    """One program we start, in its own session, and stop by PID.

    Args:
        argv: the command line; ``argv[0]`` is looked up on ``PATH``.
        name: what to call it in messages (``"LibreOffice Calc"``).
        env: the child's environment (default: ours).
        cwd: its working directory.
        log_path: file its stdout and stderr go to (default: discarded).
        pass_fds: file descriptors to keep open in the child (Xvfb's ``-displayfd``).
        die_with_parent: start under ``setpriv --pdeathsig KILL`` when setpriv exists,
            from the spawner thread (:func:`gui_agent.envs.spawner.popen`): it dies with
            this Python process, whichever thread calls :meth:`start`.
        install_hint: appended to the error when the program is missing.
        private_dir: a folder of its own (see :func:`make_private_dir`): processes that
            mention it are members too, and it is removed once the process is stopped.
        terminate_group: :meth:`stop` sends SIGTERM to the whole process group (True) or
            to the main process only, for programs that shut their helpers down themselves
            (a browser: helpers signalled directly outlive their parents as zombies).
        pipes: its stdin and stdout are pipes to this Python (:attr:`stdin`,
            :attr:`stdout`), for a program that takes commands and answers them (``xdotool
            -``); its stderr still goes to ``log_path``. Both are closed by :meth:`stop`.

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
        private_dir: Path | None = None,
        terminate_group: bool = True,
        pipes: bool = False,
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
        self.private_dir = private_dir
        self.terminate_group = terminate_group
        self.pipes = pipes
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

    @property
    def stdin(self) -> IO[bytes] | None:
        """The pipe to its standard input (with ``pipes=True``, once started; else None)."""
        return self._proc.stdin if self._proc is not None else None

    @property
    def stdout(self) -> IO[bytes] | None:
        """The pipe from its standard output (with ``pipes=True``, once started; else None)."""
        return self._proc.stdout if self._proc is not None else None

    def members(self) -> list[int]:
        """Live PIDs of its session and private folder (itself and what it forked), while not stopped by us."""
        if self._proc is None or self._stopped:
            return []
        return sorted(_members(self._proc.pid, self.private_dir))

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
        spawn = spawner.popen if self.die_with_parent else subprocess.Popen
        log = open(self.log_path, "ab") if self.log_path is not None else subprocess.DEVNULL  # noqa: SIM115
        try:
            self._proc = spawn(
                argv,
                stdin=subprocess.PIPE if self.pipes else subprocess.DEVNULL,
                stdout=subprocess.PIPE if self.pipes else log,
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
        self._finalizer = weakref.finalize(self, _emergency_stop, self._proc, self.private_dir)

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
            _kill_all(self._proc.pid, self.private_dir, signal.SIGKILL)

    def stop(self, grace_s: float = 2.0) -> None:
        """SIGTERM, SIGKILL what is left after ``grace_s``, reap, remove the private folder.

        Safe to call twice and after the process died on its own.
        """
        proc = self._proc
        if proc is None:
            return
        if not self._stopped:
            self._terminate_and_reap(proc, grace_s)
            # From here on the PID may be reused by an unrelated process: never signal it again.
            self._stopped = True
        if self._finalizer is not None:
            self._finalizer()  # kills nothing now (the process is reaped); removes the private folder
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                try:
                    pipe.close()
                except OSError:  # a write buffered for a reader that is gone
                    pass

    def _terminate_and_reap(self, proc: subprocess.Popen[bytes], grace_s: float) -> None:
        if grace_s > 0 and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGCONT)  # a stopped process keeps SIGTERM pending
                if self.terminate_group:
                    os.killpg(proc.pid, signal.SIGTERM)
                else:
                    proc.send_signal(signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                proc.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                pass
        # Helpers may outlive the main process (or left its group): none may stay.
        _kill_all(proc.pid, self.private_dir, signal.SIGKILL)
        try:
            proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL not delivered?
            pass
        deadline = time.monotonic() + 3.0
        while _members(proc.pid, self.private_dir) and time.monotonic() < deadline:
            _kill_all(proc.pid, self.private_dir, signal.SIGKILL)
            time.sleep(0.02)

    def __repr__(self) -> str:
        state = "not started" if self._proc is None else describe_exit(self.returncode())
        return f"OwnedProcess({self.name!r}, pid={self.pid}, {state})"


__all__ = [
    "OwnedProcess",
    "describe_exit",
    "kill_leftovers_of",
    "make_private_dir",
    "sweep_stale_private_dirs",
]
