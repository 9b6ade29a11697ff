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
``OUT/.work/``. With ``workers > 1`` the sources are shared out over worker processes, each
with its own environment; only this process writes the JSONL files.
"""

from __future__ import annotations

import multiprocessing as mp
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


# -- worker processes -------------------------------------------------------------------


def _worker(sources: list[str], all_sources: list[str], config: BuildConfig, done: dict[str, bool], index: int, queue: Any) -> None:
    """A worker process: build its share of the sources, sending records back over ``queue``."""
    slot = EnvSlot(headless=config.headless)
    work = Path(config.out) / WORK_DIR / f"worker-{index}"
    work.mkdir(parents=True, exist_ok=True)
    try:
        loaded = [load_source(p, task_file=config.task_file) for p in all_sources]
        mine = [s for s in loaded if str(s.episode.path) in set(sources)]
        for source in mine:
            build_source(source, config, slot, done=done, donors=_donors(loaded, source.task.id),
                         emit=lambda r: queue.put(("record", type(r).__name__, r.model_dump(mode="json"))),
                         note=lambda text: queue.put(("note", text, None)),
                         env_failed=lambda text: queue.put(("env_failure", text, None)), work=work)
            queue.put(("source", str(source.episode.path), None))
    except Exception as exc:  # noqa: BLE001 - reported to the coordinator; a re-run resumes
        queue.put(("env_failure", f"worker {index} stopped: {type(exc).__name__}: {exc}", None))
    finally:
        slot.close()
        queue.put(("finished", index, None))


def _env_failure(report: BuildReport, text: str) -> None:
    report.env_failures += 1
    report.notes.append(text)


_MODELS = {"RewardSample": RewardSample, "OutcomeSample": OutcomeSample, "PreferencePair": PreferencePair}


def make_reward_data(
    episodes: Sequence[str | Path],
    config: BuildConfig,
    *,
    workers: int = 1,
    on_progress: ProgressCallback | None = None,
) -> BuildReport:
    """Build (or resume building) the reward data of ``episodes`` in ``config.out``.

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

        if workers <= 1 or len(sources) <= 1:
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
            _run_workers(sources, config, done, workers, emit, report)
        existing = list(read_outcomes(out))
        for pair in preference_pairs(existing):
            if not writer.has(pair.pair_id):
                writer.add(pair)
                report.preferences += 1
        report.resumed_units = units_before
    shutil.rmtree(out / WORK_DIR, ignore_errors=True)
    return report


def _run_workers(sources: list[SourceEpisode], config: BuildConfig, done: dict[str, bool], workers: int,
                 emit: Callable[[Record], None], report: BuildReport) -> None:
    """Share the sources out (whole tasks together, so each worker keeps its browser) and collect records."""
    by_task: dict[str, list[str]] = defaultdict(list)
    for source in sources:
        by_task[source.task.id].append(str(source.episode.path))
    shares: list[list[str]] = [[] for _ in range(min(workers, len(sources)))]
    for paths in sorted(by_task.values(), key=len, reverse=True):
        for path in paths:
            min(shares, key=len).append(path)
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    all_paths = [str(s.episode.path) for s in sources]
    processes = [ctx.Process(target=_worker, args=(share, all_paths, config, dict(done), i, queue), daemon=True)
                 for i, share in enumerate(shares) if share]
    for process in processes:
        process.start()
    finished = 0
    try:
        while finished < len(processes):
            try:
                kind, first, payload = queue.get(timeout=1.0)
            except Exception:  # noqa: BLE001 - queue.Empty: check the workers are alive
                if not any(p.is_alive() for p in processes):
                    _env_failure(report, "every worker exited without finishing; run again to resume")
                    break
                continue
            if kind == "record":
                emit(_MODELS[first].model_validate(payload))
            elif kind == "note":
                report.notes.append(first)
            elif kind == "env_failure":
                _env_failure(report, first)
            elif kind == "finished":
                finished += 1
    finally:
        for process in processes:
            process.join(10.0)
            if process.is_alive():
                from gui_agent.envs.chromium import kill_orphaned_browsers

                process.kill()
                process.join(5.0)
                kill_orphaned_browsers(process.pid)
