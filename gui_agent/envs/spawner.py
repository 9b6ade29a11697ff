"""Start the children that must die with this Python, from one thread that lives as long as it.

Why a thread of its own. A child asks to be killed when its parent dies through Linux's
parent-death signal (``prctl(PR_SET_PDEATHSIG)``, which ``setpriv --pdeathsig KILL`` sets
before it ``exec``s the program). Linux sends that signal when the *thread* that forked
the child exits, not when the process does (prctl(2): "the parent thread"). Threads come
and go while the Python runs on: the station's actions run on AnyIO worker threads, which
AnyIO retires after they sit idle for a while; a thread pool's threads end with the pool;
a browser environment's event-loop thread ends with the environment. A desktop, x11vnc or
browser forked from such a thread was SIGKILLed when that thread ended, while the Python
that owned it (and would have stopped it by PID) carried on: an annotator's live view died
because another annotator's click made AnyIO retire an idle thread.

So every fork that asks to die with its parent is made here, on one daemon thread started
on first use, which never returns (it waits for the next request). It ends only when the
Python process ends, and so the signal fires only then: when Python exits or is killed
outright (SIGKILL, the OOM killer) and nothing else could stop the children. The thread is
process-wide by nature (one process, one thread whose lifetime is the process's), which is
why it is the one piece of module state here: a child process made by ``os.fork`` (which
copies only the forking thread) starts its own on first use.

Why the parent-death signal at all, rather than:

* nothing: a Python killed outright leaves its Xvfb, LibreOffice and Chromium running for
  ever (they run in their own sessions, finalizers never run, nobody else knows their
  PIDs);
* a pipe the child watches (it exits when the pipe's far end closes): Xvfb, x11vnc and
  Chromium watch no pipe of ours, so each would need a wrapper process between us and the
  program, and the PID we own and signal would be the wrapper's, not the program's;
* a child subreaper or a PID namespace: the first only adopts orphans (it kills nothing),
  the second needs privileges this project does not assume.

``setpriv`` execs the program itself, so the PID is the program's and nothing stays in
between; the one catch, the thread, is what this module handles.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from queue import SimpleQueue
from typing import Any, TypeVar

T = TypeVar("T")

#: The signal the children get when this Python dies.
DEATH_SIGNAL = "KILL"


def die_with_parent_prefix() -> list[str]:
    """The command prefix that arms the parent-death signal (``setpriv --pdeathsig KILL --``),
    or ``[]`` where util-linux's setpriv is missing (then children outlive a killed Python)."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", DEATH_SIGNAL, "--"] if setpriv else []


class _SpawnerThread:
    """The thread that runs the start-up calls, one after another, for this process."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self._requests: SimpleQueue[tuple[Callable[[], Any], Future[Any]]] = SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="gui-agent-spawner", daemon=True)
        self._thread.start()

    def usable(self) -> bool:
        return self.pid == os.getpid() and self._thread.is_alive()

    def submit(self, start: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        self._requests.put((start, future))
        return future

    def _serve(self) -> None:
        while True:  # never returns: its children must not get the death signal before the process dies
            start, future = self._requests.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = start()
            except BaseException as exc:  # noqa: BLE001 - handed to the caller, the thread goes on
                future.set_exception(exc)
            else:
                future.set_result(result)
            del start, future


class _Holder:
    """Where this process keeps its spawner thread (a fresh one after ``os.fork``)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.spawner: _SpawnerThread | None = None

    def get(self) -> _SpawnerThread:
        with self.lock:
            if self.spawner is None or not self.spawner.usable():
                self.spawner = _SpawnerThread()
            return self.spawner

    def forget(self) -> None:
        """In a forked child: the thread was not copied and the lock may be held by a thread that was not either."""
        self.lock = threading.Lock()
        self.spawner = None


_HOLDER = _Holder()
os.register_at_fork(after_in_child=_HOLDER.forget)


def _kill_unclaimed(future: Future[subprocess.Popen[bytes]]) -> None:
    """A child started for a caller who stopped waiting: SIGKILL its session's group and reap it."""
    if future.cancelled() or future.exception() is not None:
        return
    proc = future.result()
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            proc.kill()
    proc.wait()


def popen(argv: Sequence[str], **options: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(argv, **options)`` under ``setpriv --pdeathsig KILL``, started on
    the spawner thread: the child dies when this Python process dies, not before.

    ``argv[0]`` must be the program's full path. Pass ``start_new_session=True`` when
    the child may fork helpers: a caller interrupted while waiting gets the child's whole
    group killed and reaped instead of an unowned process.

    Raises:
        OSError: the program could not be started (as from ``Popen``).
    """
    command = [*die_with_parent_prefix(), *argv]
    future = _HOLDER.get().submit(lambda: subprocess.Popen(command, **options))
    try:
        return future.result()
    except BaseException:
        if not future.done() or future.exception() is None:
            future.add_done_callback(_kill_unclaimed)
        raise


__all__ = ["DEATH_SIGNAL", "die_with_parent_prefix", "popen"]
