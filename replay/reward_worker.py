"""Reward-data building on the evaluation's pools: one work item per source episode.

:class:`gui_agent.workers.local_pool.LocalPool` and :class:`gui_agent.workers.ray_pool.RayPool`
run any worker a *spec* builds (a picklable object with ``build()``; the evaluation's is
:class:`gui_agent.evaluate.worker.WorkerConfig`). :class:`RewardWorkerSpec` builds a
:class:`RewardDataWorker`, which turns a :class:`~gui_agent.workers.work.WorkItem` whose
``key`` is a source episode's folder into that source's records (its replay, its variants,
their step samples), returned to the coordinating process, which alone writes them. So
worker processes, Ray actors, the replacement of dead or stuck workers (the item is
retried, then reported lost) and task affinity (a worker keeps its browser for the next
source of the same task) are the evaluation's, not rewritten here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gui_agent.runner import EnvSlot
from gui_agent.workers.work import WorkItem
from gui_agent.replay.source import SourceEpisode, load_source
from gui_agent.replay.source_records import WORK_DIR, BuildConfig, build_source, donor_actions

#: A reward-data item may take this many task episode timeouts per executed episode
#: (the replay, each variant and its labelling runs) before its worker is presumed stuck.
TIMEOUTS_PER_EPISODE = 3.0


@dataclass(frozen=True)
class RewardWorkerSpec:
    """What every pool worker builds; plain data, so it pickles to a process or a Ray actor.

    Attributes:
        config: the build.
        sources: every source episode folder of the run (donor steps for ``splice_other``).
        done: the units finished before this run, with their success (they are skipped).
    """

    config: BuildConfig
    sources: tuple[str, ...]
    done: tuple[tuple[str, bool], ...] = ()

    def build(self) -> RewardDataWorker:
        return RewardDataWorker(self)


def work_item(source: SourceEpisode, kinds: int) -> WorkItem:
    """The pool's item for one source: keyed by its folder, grouped by its task."""
    limit = source.task.limits.episode_timeout_s or 600.0
    return WorkItem(key=str(source.episode.path), task_file=str(source.episode.path), task_id=source.task.id,
                    repeat=0, seed=source.seed or 0, deadline_s=TIMEOUTS_PER_EPISODE * limit * (1 + kinds))


class RewardDataWorker:
    """Builds one source's records per item, in whichever process the pool put it."""

    def __init__(self, spec: RewardWorkerSpec) -> None:
        self.spec = spec
        self.slot = EnvSlot(headless=spec.config.headless)
        self.loaded = [load_source(p, task_file=spec.config.task_file) for p in spec.sources]
        self.by_path = {str(s.episode.path): s for s in self.loaded}
        self.done = dict(spec.done)
        self.work = Path(spec.config.out) / WORK_DIR / f"worker-{os.getpid()}"
        self.work.mkdir(parents=True, exist_ok=True)

    def run(self, item: WorkItem) -> dict[str, Any]:
        """Build ``item``'s source; its records (as JSON), notes and environment failures."""
        source = self.by_path[item.key]
        records: list[tuple[str, dict[str, Any]]] = []
        notes: list[str] = []
        env_failures: list[str] = []
        try:
            build_source(source, self.spec.config, self.slot, done=self.done, donors=donor_actions(self.loaded, source.task.id),
                         emit=lambda r: records.append((type(r).__name__, r.model_dump(mode="json"))),
                         note=notes.append, env_failed=env_failures.append, work=self.work)
        except Exception as exc:  # noqa: BLE001 - reported to the coordinator; a re-run resumes
            self.slot.discard()
            env_failures.append(f"{source.episode_id}: stopped by {type(exc).__name__}: {exc}; run again to resume")
        return {"key": item.key, "records": records, "notes": notes, "env_failures": env_failures}

    def close(self) -> None:
        self.slot.close()
