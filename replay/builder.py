"""``gui-agent make-reward-data``: episodes in, reward-model data out (layout: gui_agent.export.reward).

For each source episode: replay it (:mod:`gui_agent.replay.replayer`); when the replay succeeds,
run the human simulator's variants (:mod:`gui_agent.replay.simulator`). Every executed episode is
kept under ``OUT/episodes/``; each gets an outcome sample, its steps get step samples
(labels from :mod:`gui_agent.replay.labels`), and at the end every task's executed trajectories
are paired into preferences: a success over a failure, and of two successes the one with
fewer steps.

Resumable: a unit of work is one executed episode (a replay or one variant) and is done
when its outcome line exists. Episodes are written to ``OUT/.work/`` and moved into
``OUT/episodes/`` only when finished, then their samples are written (ids already present
are not written again), then the outcome line. A re-run skips finished units and clears
``OUT/.work/``. With ``workers > 1`` (or Ray) the sources go to the evaluation's pools
(:class:`gui_agent.workers.local_pool.LocalPool`, :class:`gui_agent.workers.ray_pool.RayPool`),
one work item per source (:mod:`gui_agent.replay.reward_worker`; each source's records are made by :mod:`gui_agent.replay.source_records`), each worker with its own
environment; only this process writes the JSONL files, as each source's records arrive.
"""

from __future__ import annotations

import shutil
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gui_agent.export.reward import OutcomeSample, PreferencePair, RewardDataWriter, RewardSample, read_outcomes
from gui_agent.runner import EnvSlot
from gui_agent.replay.reward_worker import RewardWorkerSpec, work_item
from gui_agent.replay.source import SourceEpisode, load_source
from gui_agent.replay.source_records import WORK_DIR, BuildConfig, Record, build_source, donor_actions

#: At most this many preference pairs per source trajectory's group.
MAX_PAIRS_PER_GROUP = 40
#: Progress: (units done, units in all, what just finished).
ProgressCallback = Callable[[int, int, str], None]


@dataclass
class BuildReport:
    """Counts of what a build wrote (this run only) and what went wrong."""

    out: Path
    sources: int = 0
    replays: int = 0
    replays_succeeded: int = 0
    variants: int = 0
    variants_succeeded: int = 0
    step_samples: int = 0
    preferences: int = 0
    resumed_units: int = 0
    env_failures: int = 0
    notes: list[str] = field(default_factory=list)


def preference_pairs(outcomes: Sequence[OutcomeSample]) -> list[PreferencePair]:
    """Pairs within each group (one source and its variants): success over failure; of two
    successes, fewer steps over more. At most :data:`MAX_PAIRS_PER_GROUP` per group."""
    groups: dict[str, list[OutcomeSample]] = defaultdict(list)
    for outcome in outcomes:
        groups[outcome.group or outcome.sample_id].append(outcome)
    pairs: list[PreferencePair] = []
    for members in groups.values():
        made = 0
        for better in members:
            for worse in members:
                if made >= MAX_PAIRS_PER_GROUP:
                    break
                steps_b, steps_w = better.detail.get("steps", 0), worse.detail.get("steps", 0)
                if better.success and not worse.success:
                    reason = "the task's evaluator accepted the chosen trajectory and rejected the other"
                elif better.success and worse.success and steps_b < steps_w:
                    reason = f"both succeed; the chosen one takes {steps_w - steps_b} fewer step(s)"
                else:
                    continue
                pairs.append(PreferencePair(
                    pair_id=f"{better.sample_id}>{worse.sample_id}", task_id=better.task_id, instruction=better.instruction,
                    chosen=better.episode, rejected=worse.episode, chosen_reward=better.reward,
                    rejected_reward=worse.reward, reason=reason,
                ))
                made += 1
    return pairs


def _env_failure(report: BuildReport, text: str) -> None:
    report.env_failures += 1
    report.notes.append(text)


_MODELS = {"RewardSample": RewardSample, "OutcomeSample": OutcomeSample, "PreferencePair": PreferencePair}


def make_reward_data(
    episodes: Sequence[str | Path],
    config: BuildConfig,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_progress: ProgressCallback | None = None,
) -> BuildReport:
    """Build (or resume building) the reward data of ``episodes`` in ``config.out``.

    ``workers`` > 1 runs the sources on local worker processes; ``ray_address`` (``""``:
    the cluster ``ray.init()`` finds, or a local one) on Ray actors instead.

    Raises:
        ReplayError / TaskFileError: an episode cannot be read or its task not found
            (checked for every episode before anything is written).
    """
    sources = [load_source(p, task_file=config.task_file) for p in episodes]
    out = Path(config.out)
    report = BuildReport(out=out, sources=len(sources))
    shutil.rmtree(out / WORK_DIR, ignore_errors=True)
    with RewardDataWriter(out) as writer:
        done = {o.sample_id: o.success for o in read_outcomes(out)} if (out / "outcomes.jsonl").exists() else {}
        total = len(sources) * (1 + len(config.kinds))
        progress = {"n": 0}
        units_before = sum(1 for key in done if key.rpartition("/")[2] in ("replay", *config.kinds))

        def emit(record: Record) -> None:
            if isinstance(record, RewardSample) and writer.has(record.sample_id):
                return
            writer.add(record)
            if isinstance(record, RewardSample):
                report.step_samples += 1
            elif isinstance(record, OutcomeSample):
                done[record.sample_id] = record.success
                if record.perturbation is None:
                    report.replays += 1
                    report.replays_succeeded += int(record.success)
                else:
                    report.variants += 1
                    report.variants_succeeded += int(record.success)
                progress["n"] += 1
                if on_progress is not None:
                    on_progress(units_before + progress["n"], total, record.sample_id)

        if ray_address is None and (workers <= 1 or len(sources) <= 1):
            slot = EnvSlot(headless=config.headless)
            work = out / WORK_DIR / "worker-0"
            work.mkdir(parents=True, exist_ok=True)
            try:
                for source in sources:
                    build_source(source, config, slot, done=done, donors=donor_actions(sources, source.task.id),
                                 emit=emit, note=report.notes.append, env_failed=lambda text: _env_failure(report, text),
                                 work=work)
            finally:
                slot.close()
        else:
            _run_pool(sources, config, done, emit, report, workers=workers, ray_address=ray_address)
        existing = list(read_outcomes(out))
        for pair in preference_pairs(existing):
            if not writer.has(pair.pair_id):
                writer.add(pair)
                report.preferences += 1
        report.resumed_units = units_before
    shutil.rmtree(out / WORK_DIR, ignore_errors=True)
    return report


def _run_pool(sources: list[SourceEpisode], config: BuildConfig, done: dict[str, bool], emit: Callable[[Record], None],
              report: BuildReport, *, workers: int, ray_address: str | None) -> None:
    """Run one work item per source on the evaluation's pool; write each source's records as they arrive."""
    from gui_agent.workers.work import Scheduler

    spec = RewardWorkerSpec(config=config, sources=tuple(str(s.episode.path) for s in sources), done=tuple(done.items()))
    scheduler = Scheduler(work_item(s, len(config.kinds)) for s in sources)
    if ray_address is not None:
        from gui_agent.workers.ray_pool import RayPool

        pool: Any = RayPool(spec, workers=workers, address=ray_address or None)
    else:
        from gui_agent.workers.local_pool import LocalPool

        pool = LocalPool(spec, workers=min(workers, len(sources)))

    def on_record(record: dict[str, Any]) -> None:
        if record.get("fault") == "worker_lost":  # the pool gave the source up after its workers died
            _env_failure(report, f"{record['key']}: {record['reason']}; run again to resume")
            return
        for name, data in record["records"]:
            emit(_MODELS[name].model_validate(data))
        report.notes.extend(record["notes"])
        for text in record["env_failures"]:
            _env_failure(report, text)

    try:
        pool.run(scheduler, on_record, on_note=report.notes.append)
    except RuntimeError as exc:  # workers that cannot start, or no Ray
        _env_failure(report, f"the workers stopped: {exc}; run again to resume")
