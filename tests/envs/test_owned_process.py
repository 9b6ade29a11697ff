"""An owned process dies with the Python that started it, and only then: not with the
thread that started it (Linux's parent-death signal follows the forking *thread*; the
station starts desktops from AnyIO worker threads that AnyIO retires when idle)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from gui_agent.envs.owned_process import OwnedProcess
from gui_agent.envs.procfs import arguments
from gui_agent.polling import wait_until
from tests.envs.desktop.desktop_helpers import alive, wait_gone
from tests.paths import REPO


def _start_from_a_thread_that_ends(proc: OwnedProcess) -> None:
    """``proc.start()`` on a new thread that ends once the program runs (setpriv has armed the
    death signal and exec'd it); returns once that thread has exited in the kernel too."""
    pause = threading.Event()

    def start() -> None:
        proc.start()
        comm = Path(f"/proc/{proc.pid}/comm")
        while comm.read_text().strip() == "setpriv":
            pause.wait(0.01)

    thread = threading.Thread(target=start, name="short-lived")
    thread.start()
    thread.join()
    task = Path(f"/proc/self/task/{thread.native_id}")
    while task.exists():  # join() returns before the kernel thread is gone, and its exit sends the signal
        pause.wait(0.01)


def test_a_child_outlives_the_thread_that_started_it() -> None:
    proc = OwnedProcess(["sleep", "300"], name="sleep")
    try:
        _start_from_a_thread_that_ends(proc)
        assert proc.pid is not None
        assert not proc.wait(2.0), f"the child died with the thread that started it: {proc}"
        assert alive([proc.pid]) == [proc.pid]
    finally:
        proc.stop(grace_s=0)
    assert proc.returncode() is not None


def test_a_killed_python_takes_its_children_along() -> None:
    """SIGKILL (no finalizer runs) still ends the children, those started from ended threads too."""
    script = textwrap.dedent(f"""
        import sys, threading, time
        sys.path.insert(0, {str(REPO)!r})
        from tests.envs.test_owned_process import _start_from_a_thread_that_ends
        from gui_agent.envs.owned_process import OwnedProcess
        procs = [OwnedProcess(["sleep", "300"], name="sleep") for _ in range(2)]
        _start_from_a_thread_that_ends(procs[0])
        procs[1].start()  # from the main thread
        print(" ".join(str(p.pid) for p in procs), flush=True)
        time.sleep(300)
    """)
    python = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        line = python.stdout.readline()  # type: ignore[union-attr]
        pids = [int(p) for p in line.split()]
        assert len(pids) == 2, line
        assert python.poll() is None and alive(pids) == pids
        # setpriv arms the parent-death signal and then becomes `sleep`: wait for that, or a
        # loaded machine can kill Python before the signal is armed (a window this test is not about).
        wait_until(lambda: all((arguments(pid) or [""])[0].endswith("sleep") for pid in pids), timeout_s=10.0,
                   what="setpriv to become sleep")
    finally:
        python.kill()
        python.wait()
    try:
        assert wait_gone(pids, timeout_s=15.0) == []
    finally:
        for pid in alive(pids):  # only if the assertion failed: ours, orphaned
            os.kill(pid, signal.SIGKILL)
