"""The same work as :mod:`.local_pool`, on a Ray cluster: one Ray actor per worker.

Each actor holds the worker its :class:`~gui_agent.workers.spec.WorkerSpec` builds
(for an evaluation an :class:`~gui_agent.evaluate.worker.EpisodeWorker`: its own policy
and browser) on whichever node Ray places it; the driver (this process) hands out items
with the same :class:`~gui_agent.workers.work.Scheduler`, receives each record as the
actor's call returns, and alone writes the ledger, so results and ``--resume`` work as
with local workers. An actor that dies (its process killed, its node lost) or is stuck
past its item's deadline is killed and replaced, and the item retried
(:class:`~gui_agent.workers.work.LostWork`).

``address=None`` joins the cluster ``ray.init()`` finds (``RAY_ADDRESS``) or starts a
local one; a Ray already initialised in this process is used as it is and left running.
Ray is an optional dependency: ``pip install 'gui-agent[ray]'``.
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass
from typing import Any

from gui_agent.workers.local_pool import MAX_STARTUP_FAILURES, NoteCallback, RecordCallback
from gui_agent.workers.spec import WorkerSpec
from gui_agent.workers.work import LostWork, Scheduler, WorkItem

#: Seconds an actor gets to close its browser at the end before it is killed.
STOP_GRACE_S = 10.0


class _ActorBody:
    """What runs inside a Ray actor."""

    def __init__(self, config: WorkerSpec) -> None:
        self.worker = config.build()

    def where(self) -> tuple[str, int]:
        return socket.gethostname(), os.getpid()

    def run(self, item: WorkItem) -> dict[str, Any]:
        return self.worker.run(item)

    def close(self) -> None:
        self.worker.close()


@dataclass
class _Actor:
    handle: Any
    future: Any  # the pending call: where() while starting, then run(item)
    name: str
    ready: bool = False
    host: str = ""
    pid: int = 0
    item: WorkItem | None = None
    started: float = 0.0
    task: str | None = None
    killed_because: str | None = None


class RayPool:
    """Runs work items on ``workers`` Ray actors.

    Args:
        config: what each worker runs (a :class:`WorkerSpec`).
        workers: number of actors.
        address: the cluster to join (``ray://...`` or ``host:port``); None: see the module doc.
        cpus_per_worker: CPUs Ray reserves per actor (a browser and a policy).
        max_losses: times an item may lose its actor before it is recorded as failed.
    """

    def __init__(self, config: WorkerSpec, *, workers: int = 1, address: str | None = None,
                 cpus_per_worker: float = 1.0, max_losses: int = 2) -> None:
        if workers < 1:
            raise ValueError("workers must be >= 1")
        self.config = config
        self.workers = workers
        self.address = address
        self.cpus_per_worker = cpus_per_worker
        self.max_losses = max_losses
        self._count = 0

    def run(self, scheduler: Scheduler, on_record: RecordCallback, on_note: NoteCallback | None = None) -> None:
        """Run everything in ``scheduler`` on the cluster; ``on_record`` gets each record in this process."""
        try:
            import ray
        except ImportError:
            raise RuntimeError("--ray needs Ray: pip install 'gui-agent[ray]'") from None

        note = on_note or (lambda _text: None)
        started_here = not ray.is_initialized()
        if started_here:
            ray.init(address=self.address, include_dashboard=False, log_to_driver=False, configure_logging=False)
        try:
            self._run(ray, scheduler, on_record, note)
        finally:
            if started_here:
                ray.shutdown()

    def _spawn(self, ray: Any, actor_class: Any) -> _Actor:
        self._count += 1
        handle = actor_class.remote(self.config)
        return _Actor(handle=handle, future=handle.where.remote(), name=f"ray-worker-{self._count}")

    def _run(self, ray: Any, scheduler: Scheduler, on_record: RecordCallback, note: NoteCallback) -> None:
        from ray.exceptions import GetTimeoutError, RayActorError, RayError

        actor_class = ray.remote(num_cpus=self.cpus_per_worker, max_restarts=0, max_task_retries=0)(_ActorBody)
        cpus = ray.cluster_resources().get("CPU", 0)
        workers = self.workers
        if cpus and workers * self.cpus_per_worker > cpus:
            workers = max(1, int(cpus // self.cpus_per_worker))
            note(f"the cluster has {cpus:g} CPUs: running {workers} workers instead of {self.workers}")
        lost = LostWork(self.max_losses)
        startup_failures = 0
        actors = [self._spawn(ray, actor_class) for _ in range(workers)]
        try:
            while len(scheduler) or any(a.item is not None for a in actors):
                for actor in actors:
                    if actor.ready and actor.item is None and actor.future is None:
                        item = scheduler.take(actor.task)
                        if item is not None:
                            actor.item, actor.started = item, time.monotonic()
                            actor.future = actor.handle.run.remote(item)
                pending = [a.future for a in actors if a.future is not None]
                done = set(ray.wait(pending, num_returns=1, timeout=0.5)[0]) if pending else set()
                now = time.monotonic()
                for index, actor in enumerate(actors):
                    if actor.item is not None and actor.killed_because is None and now - actor.started > actor.item.deadline_s:
                        actor.killed_because = f"stuck for more than {actor.item.deadline_s:.0f} s on {actor.item.key}; killed"
                        ray.kill(actor.handle, no_restart=True)  # its pending call now fails
                    if actor.future is None or actor.future not in done:
                        continue
                    future, actor.future = actor.future, None
                    try:
                        value = ray.get(future, timeout=5.0)
                    except (RayActorError, RayError, GetTimeoutError) as exc:
                        why = actor.killed_because or f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
                        if not actor.ready:
                            startup_failures += 1
                            if startup_failures >= MAX_STARTUP_FAILURES:
                                raise RuntimeError(f"Ray workers keep dying while starting ({why})") from exc
                        self._lost(ray, actor, why, scheduler, lost, on_record, note)
                        actors[index] = self._spawn(ray, actor_class)
                        continue
                    if not actor.ready:
                        actor.ready, (actor.host, actor.pid), startup_failures = True, value, 0
                        continue
                    item, actor.item = actor.item, None
                    if item is not None:
                        scheduler.done(item)
                        actor.task = item.task_id
                    on_record(value)
        finally:
            self._stop(ray, actors)

    def _lost(self, ray: Any, actor: _Actor, why: str, scheduler: Scheduler, lost: LostWork,
              on_record: RecordCallback, note: NoteCallback) -> None:
        try:
            ray.kill(actor.handle, no_restart=True)
        except Exception:  # noqa: BLE001 - already gone
            pass
        label = f"{actor.name} (pid {actor.pid} on {actor.host})" if actor.ready else actor.name
        extra = ""
        if actor.ready and actor.host == socket.gethostname():
            from gui_agent.envs.browser.chromium import kill_orphaned_browsers

            from gui_agent.envs.procfs import process_state
            from gui_agent.polling import poll

            # Ray reaps the actor's process asynchronously.
            poll(lambda: process_state(actor.pid) in (None, "Z"), timeout_s=5.0, interval_s=0.05)
            leftovers = kill_orphaned_browsers(actor.pid)
            extra = f"; killed {len(leftovers)} leftover browser process(es)" if leftovers else ""
        item, actor.item = actor.item, None
        if item is None:
            note(f"Ray worker {label} died ({why}){extra}; replacing it")
            return
        scheduler.done(item)
        record = lost.lost(item, why, label)
        if record is None:
            scheduler.add(item, front=True)
            note(f"Ray worker {label} died ({why}) during {item.key}{extra}; replacing it and retrying the episode")
        else:
            note(f"Ray worker {label} died ({why}) during {item.key}{extra}; giving the episode up")
            on_record(record)

    def _stop(self, ray: Any, actors: list[_Actor]) -> None:
        """Let idle actors close their browsers, then kill every actor."""
        closing = [a.handle.close.remote() for a in actors if a.ready and a.item is None]
        if closing:
            ray.wait(closing, num_returns=len(closing), timeout=STOP_GRACE_S)
        for actor in actors:
            try:
                ray.kill(actor.handle, no_restart=True)
            except Exception:  # noqa: BLE001 - already dead
                pass
