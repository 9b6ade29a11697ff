"""``gui-agent make-reward-data``: episodes in, reward-model data out (layout: gui_agent.export.reward).

For each source episode: replay it (:mod:`replay.replayer`); when the replay succeeds,
run the human simulator's variants (:mod:`replay.simulator`). Every executed episode is
kept under ``OUT/episodes/``; each gets an outcome sample, its steps get step samples
(labels from :mod:`replay.labels`), and at the end every task's executed trajectories
are paired into preferences: a success over a failure, and of two successes the one with
fewer steps.

Resumable: a unit of work is one executed episode (a replay or one variant) and is done
when its outcome line exists. Episodes are written to ``OUT/.work/`` and moved into
``OUT/episodes/`` only when finished, then their samples are written (ids already present
are not written again), then the outcome line. A re-run skips finished units and clears
``OUT/.work/``. With ``workers > 1`` (or Ray) the sources go to the evaluation's pools
(:class:`gui_agent.evaluate.local_pool.LocalPool`, :class:`gui_agent.evaluate.ray_pool.RayPool`),
one work item per source (:mod:`replay.reward_worker`), each worker with its own
environment; only this process writes the JSONL files, as each source's records arrive.
"""

from __future__ import annotations

import os
import shutil
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gui_agent.actions import Action, Click, Type
from gui_agent.episode import read_episode
from gui_agent.errors import EnvError
from gui_agent.export.reward import (
    EPISODES_DIR,
    OutcomeSample,
    PreferencePair,
    RewardDataWriter,
    RewardSample,
    read_outcomes,
)
from gui_agent.runner import EnvSlot, RunResult
from replay.labels import StepVerdict
from replay.perturb import VARIANT_KINDS, PlannedStep
from replay.replayer import replay_episode
from replay.simulator import Simulator
from replay.source import SourceEpisode, load_source

WORK_DIR = ".work"
#: At most this many preference pairs per source trajectory's group.
MAX_PAIRS_PER_GROUP = 40

Record = RewardSample | OutcomeSample | PreferencePair
#: Progress: (units done, units in all, what just finished).
ProgressCallback = Callable[[int, int, str], None]


@dataclass(frozen=True)
class BuildConfig:
    """What to build; plain data so it reaches worker processes.

    Attributes:
        out: the output folder.
        kinds: the simulator's variant kinds to run.
        seed: varies which step each variant changes.
        task_file: task file for every source (default: each episode's own).
        headless: browser display override (None: as the task says).
    """

    out: str
    kinds: tuple[str, ...] = VARIANT_KINDS
    seed: int = 0
    task_file: str | None = None
    headless: bool | None = None


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


def replay_id(source_id: str) -> str:
    return f"{source_id}/replay"


def variant_id(source_id: str, kind: str) -> str:
    return f"{source_id}/{kind}"


def _donors(sources: Sequence[SourceEpisode], own_task: str) -> list[Action]:
    """One click and one typed text from each other task's source (splice material)."""
    donors: list[Action] = []
    seen: set[str] = set()
    for other in sources:
        if other.task.id == own_task or other.task.id in seen:
            continue
        seen.add(other.task.id)
        for kind in (Click, Type):
            found = next((a for a in other.actions if isinstance(a, kind)), None)
            if found is not None:
                donors.append(found)
    return donors


def _move_in(run: RunResult, out: Path) -> str:
    """Move a finished episode from the scratch folder into OUT/episodes/; its relative path."""
    target = out / EPISODES_DIR / run.episode_path.name
    os.replace(run.episode_path, target)
    run.episode_path = target
    return f"{EPISODES_DIR}/{target.name}"


def _step_samples(
    unit_id: str, relative: str, episode_dir: Path, planned: Sequence[PlannedStep], verdicts: Sequence[StepVerdict],
    *, kind: str | None, source: str, group: str,
) -> list[RewardSample]:
    episode = read_episode(episode_dir)
    samples = []
    for index, (step, verdict) in enumerate(zip(episode.steps, verdicts)):
        plan = planned[index] if index < len(planned) else None
        samples.append(RewardSample(
            sample_id=f"{unit_id}/{index}", episode=relative, step_index=index, action=step.action,
            label=verdict.label, reward=verdict.reward,  # type: ignore[arg-type]
            perturbation=kind if plan is not None and plan.changed else None,
            source=source, group=group,  # type: ignore[arg-type]
            detail={"variant": kind, "original_step": plan.original if plan is not None else None,
                    "feasible_before": verdict.feasible_before, "feasible_after": verdict.feasible_after},
        ))
    return samples


def _outcome(unit_id: str, relative: str, source: SourceEpisode, run: RunResult, *, kind: str | None, group: str, detail: dict[str, Any]) -> OutcomeSample:
    instruction = read_episode(run.episode_path).meta.task.instruction
    return OutcomeSample(
        sample_id=unit_id, episode=relative, task_id=source.task.id, instruction=instruction, success=run.success,
        reward=run.reward, perturbation=kind, source="simulator" if kind else "replay", group=group,
        detail={**detail, "steps": run.steps, "termination": run.termination},
    )


def build_source(
    source: SourceEpisode,
    config: BuildConfig,
    slot: EnvSlot,
    *,
    done: dict[str, bool],
    donors: Sequence[Action],
    emit: Callable[[Record], None],
    note: Callable[[str], None],
    env_failed: Callable[[str], None],
    work: Path,
) -> None:
    """Replay one source and run its variants, emitting records; ``done`` maps finished unit ids to success.

    ``note`` hears about sources that give no variants, ``env_failed`` about work left
    undone because the environment broke (a re-run resumes it).
    """
    out = Path(config.out)
    group = source.episode_id
    rid = replay_id(group)
    if rid not in done:
        result = replay_episode(source, out_dir=work, env=slot.get(source.task))
        run = result.run
        if run.env_failed:
            slot.discard()
            env_failed(f"{group}: the environment failed during the replay ({run.reason}); run again to retry")
            return
        relative = _move_in(run, out)
        if run.success:
            planned = [PlannedStep(a, i) for i, a in enumerate(source.actions)]
            verdicts = [StepVerdict("progress", True, True)] * run.steps
            for sample in _step_samples(rid, relative, run.episode_path, planned, verdicts, kind=None, source="replay", group=group):
                emit(sample)
        emit(_outcome(rid, relative, source, run, kind=None, group=group,
                      detail={"refused": result.refused, "first_divergent_step": result.first_divergent_step}))
        done[rid] = run.success
    if not done[rid]:
        note(f"{group}: the replay did not succeed, so no variants are made from it")
        return
    simulator = Simulator(source, env=slot.get(source.task), seed=config.seed, donors=donors)
    variants = simulator.variants(work, config.kinds, skip=lambda k: variant_id(group, k) in done)
    while True:
        try:
            kind, simulated = next(variants)
        except StopIteration:
            return
        except EnvError as exc:  # a labelling execution found the environment broken
            slot.discard()
            env_failed(f"{group}: the environment failed while labelling ({exc}); run again to retry")
            return
        if simulated is None:
            continue
        run = simulated.run
        if run.env_failed:
            slot.discard()
            env_failed(f"{group}/{kind}: the environment failed ({run.reason}); run again to retry")
            return
        uid = variant_id(group, kind)
        relative = _move_in(run, out)
        for sample in _step_samples(uid, relative, run.episode_path, simulated.variant.steps, simulated.verdicts,
                                    kind=kind, source="simulator", group=group):
            emit(sample)
        emit(_outcome(uid, relative, source, run, kind=kind, group=group, detail=simulated.variant.detail))
        done[uid] = run.success


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
                    build_source(source, config, slot, done=done, donors=_donors(sources, source.task.id),
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
    from gui_agent.evaluate.work import Scheduler
    from replay.reward_worker import RewardWorkerSpec, work_item

    spec = RewardWorkerSpec(config=config, sources=tuple(str(s.episode.path) for s in sources), done=tuple(done.items()))
    scheduler = Scheduler(work_item(s, len(config.kinds)) for s in sources)
    if ray_address is not None:
        from gui_agent.evaluate.ray_pool import RayPool

        pool: Any = RayPool(spec, workers=workers, address=ray_address or None)
    else:
        from gui_agent.evaluate.local_pool import LocalPool

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
