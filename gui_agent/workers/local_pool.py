"""Local worker processes: each runs episodes with its own browser; a dead worker is replaced.

The coordinating process (the one running ``gui-agent eval``) starts ``N`` worker
processes (``spawn``: a fresh interpreter, no threads inherited) and talks to each over a
pipe: it sends a :class:`~gui_agent.workers.work.WorkItem`, the worker answers with the
ledger record. Only the coordinator writes the ledger. What a worker process runs is
built there from a :class:`~gui_agent.workers.spec.WorkerSpec` (the evaluation's is
:class:`~gui_agent.evaluate.worker.WorkerConfig`; ``gui-agent make-reward-data`` brings
its own), so other work reuses this pool as it is.

Failures handled here, on top of the runner's own retries after environment faults:

* a worker process that dies (killed, crashed) is noticed through its sentinel at once;
  its item goes back to the queue (:class:`~gui_agent.workers.work.LostWork`), what is
  left of its browsers is killed by PID (:func:`~gui_agent.envs.browser.chromium.kill_orphaned_browsers`),
  and a new worker takes its place;
* a worker stuck past its item's deadline (a policy that never returns) is killed by PID
  and handled the same way;
* workers die with the coordinator (parent-death signal), and on Ctrl-C or an error the
  coordinator stops them (SIGTERM: they close their browsers; SIGKILL after a grace period).

CPU pinning: with 2 or more workers and no more workers than CPUs, each worker (and so
its Chromium and Playwright driver, which inherit it) is pinned to a CPU of its own
(:func:`cpu_slots`). One episode is a chain of processes handing work to each other
(Python, Playwright's driver, the browser, the renderer); left to the scheduler, the
chains of two workers migrate across both CPUs and evict each other's caches, and each
episode costs 25-40 % more CPU than with one worker (pinned: about the same), and two pinned
workers run 10-20 % more episodes per second than two floating ones (``scripts/bench_eval.py``).
A single worker is left unpinned: its chain gains from spreading over the CPUs.
"""

from __future__ import annotations

import ctypes
import multiprocessing as mp
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

from gui_agent.errors import GuiAgentError
from gui_agent.workers.spec import WorkerSpec
from gui_agent.workers.work import LostWork, Scheduler, WorkItem

RecordCallback = Callable[[dict[str, Any]], None]
NoteCallback = Callable[[str], None]

#: Seconds a stopping worker gets to close its browser before it is killed.
STOP_GRACE_S = 10.0
#: Workers that die before they are ready, in a row, before the run gives up.
MAX_STARTUP_FAILURES = 3


def _die_with_parent(sig: int) -> None:
    """Ask Linux to send ``sig`` to this process when its parent exits (no-op elsewhere)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, sig, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass


def cpu_slots(workers: int, allowed: set[int] | None = None) -> list[int | None]:
    """The CPU each of ``workers`` workers is pinned to (None: not pinned).

    Pinned only when there are 2+ workers and a CPU for each among ``allowed`` (this
    process's affinity by default); otherwise workers would share CPUs unevenly, and the
    scheduler balances them better.
    """
    cpus = sorted(os.sched_getaffinity(0) if allowed is None else allowed)
    if workers < 2 or workers > len(cpus):
        return [None] * workers
    return list(cpus[:workers])


def _worker_main(conn: Connection, config: WorkerSpec, parent_pid: int, cpu: int | None = None) -> None:
    """A worker process: pin to ``cpu`` (if given), build the worker, then run items until told to stop."""
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})  # before anything starts: browsers and drivers inherit it
    _die_with_parent(signal.SIGTERM)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the coordinator's to handle
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # unwinds: the browser is closed
    if os.getppid() != parent_pid:  # the parent died before the death signal was armed
        return
    worker = None
    try:
        try:
            worker = config.build()
        except Exception as exc:  # noqa: BLE001 - reported to the coordinator, which stops the run
            # A policy or model refusing its settings says why in its message (PolicyEntry.build's
            # contract): that is bad input, shown as one line. Anything else is a bug: its traceback.
            said = isinstance(exc, (ValueError, GuiAgentError))
            conn.send(("fatal", f"{type(exc).__name__}: {exc}" + ("" if said else f"\n{traceback.format_exc(limit=5)}")))
            return
        conn.send(("ready", os.getpid()))
        while True:
            try:
                item = conn.recv()
            except (EOFError, OSError):
                break
            if item is None:
                break
            conn.send(("done", worker.run(item)))
    except (BrokenPipeError, EOFError):
        pass
    finally:
        if worker is not None:
            worker.close()


class _Worker:
    def __init__(self, ctx: Any, config: WorkerSpec, name: str, cpu: int | None) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.cpu = cpu
        self.process = ctx.Process(target=_worker_main, args=(child, config, os.getpid(), cpu), name=name, daemon=True)
        self.process.start()
        child.close()
        self.pid = self.process.pid
        self.ready = False
        self.item: WorkItem | None = None
        self.started = 0.0
        self.task: str | None = None

    @property
    def label(self) -> str:
        return f"{self.process.name} (pid {self.pid})"


class LocalPool:
    """Runs work items on ``workers`` local processes.

    Args:
        config: what each worker runs (the evaluation's :class:`WorkerConfig`: policy,
            output folder, retries; or any other :class:`WorkerSpec`).
        workers: number of processes.
        max_losses: times an item may lose its worker before it is recorded as failed.
        pin_cpus: pin each worker to a CPU of its own where :func:`cpu_slots` allows it.
    """

    def __init__(self, config: WorkerSpec, *, workers: int = 1, max_losses: int = 2, pin_cpus: bool = True) -> None:
        if workers < 1:
            raise ValueError("workers must be >= 1")
        self.config = config
        self.workers = workers
        self.max_losses = max_losses
        self.cpus = cpu_slots(workers) if pin_cpus else [None] * workers
        self._ctx = mp.get_context("spawn")
        self._count = 0

    def _spawn(self, cpu: int | None) -> _Worker:
        self._count += 1
        return _Worker(self._ctx, self.config, f"gui-agent-worker-{self._count}", cpu)

    def run(self, scheduler: Scheduler, on_record: RecordCallback, on_note: NoteCallback | None = None) -> None:
        """Run everything in ``scheduler``; ``on_record`` gets each record as it arrives (in this process)."""
        note = on_note or (lambda _text: None)
        lost = LostWork(self.max_losses)
        startup_failures = 0
        pool = [self._spawn(cpu) for cpu in self.cpus]
        try:
            while len(scheduler) or any(w.item is not None for w in pool):
                for worker in pool:
                    self._assign(worker, scheduler)
                handles: list[Any] = [w.conn for w in pool] + [w.process.sentinel for w in pool]
                ready = set(wait(handles, timeout=0.5))
                now = time.monotonic()
                for index, worker in enumerate(pool):
                    why = None
                    if worker.conn in ready:
                        try:
                            kind, payload = worker.conn.recv()
                        except (EOFError, OSError):
                            kind, payload = "eof", None
                        if kind == "ready":
                            worker.ready, startup_failures = True, 0
                        elif kind == "done":
                            item, worker.item = worker.item, None
                            if item is not None:
                                scheduler.done(item)
                                worker.task = item.task_id
                            # The record first, then the next episode: the record may withdraw
                            # the rest (a run's money budget spent), and nothing may start after it.
                            on_record(payload)
                            self._assign(worker, scheduler)
                        elif kind == "fatal":
                            raise RuntimeError(f"a worker could not start: {payload}")
                    if worker.item is not None and now - worker.started > worker.item.deadline_s:
                        why = f"stuck for more than {worker.item.deadline_s:.0f} s on {worker.item.key}; killed"
                        worker.process.kill()
                    if worker.process.sentinel in ready or why is not None or not worker.process.is_alive():
                        worker.process.join(5.0)
                        why = why or f"exit code {worker.process.exitcode}"
                        if not worker.ready:
                            startup_failures += 1
                            if startup_failures >= MAX_STARTUP_FAILURES:
                                raise RuntimeError(f"workers keep dying while starting ({why})")
                        self._lost(worker, why, scheduler, lost, on_record, note)
                        pool[index] = self._spawn(worker.cpu)  # the replacement takes its CPU
        finally:
            self._stop(pool)

    @staticmethod
    def _assign(worker: _Worker, scheduler: Scheduler) -> None:
        """Send an idle, started worker its next episode, if any is left."""
        if worker.ready and worker.item is None:
            item = scheduler.take(worker.task)
            if item is not None:
                worker.item, worker.started = item, time.monotonic()
                worker.conn.send(item)

    def _lost(self, worker: _Worker, why: str, scheduler: Scheduler, lost: LostWork, on_record: RecordCallback, note: NoteCallback) -> None:
        from gui_agent.envs.browser.chromium import kill_orphaned_browsers

        leftovers = kill_orphaned_browsers(worker.pid)
        extra = f"; killed {len(leftovers)} leftover browser process(es)" if leftovers else ""
        item, worker.item = worker.item, None
        if item is None:
            note(f"worker {worker.label} died ({why}){extra}; replacing it")
            return
        scheduler.done(item)
        record = lost.lost(item, why, worker.label)
        if record is None:
            scheduler.add(item, front=True)
            note(f"worker {worker.label} died ({why}) during {item.key}{extra}; replacing it and retrying the episode")
        else:
            note(f"worker {worker.label} died ({why}) during {item.key}{extra}; giving the episode up")
            on_record(record)

    def _stop(self, pool: list[_Worker]) -> None:
        """Stop every worker: ask politely, then SIGTERM, then SIGKILL (all by PID)."""
        for worker in pool:
            try:
                worker.conn.send(None)
            except (OSError, ValueError):
                pass
        deadline = time.monotonic() + STOP_GRACE_S
        for worker in pool:
            if worker.item is not None and worker.process.is_alive():
                worker.process.terminate()  # mid-episode: SIGTERM makes it close its browser
        for worker in pool:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(5.0)
            worker.conn.close()
        from gui_agent.envs.browser.chromium import kill_orphaned_browsers

        for worker in pool:
            kill_orphaned_browsers(worker.pid)
