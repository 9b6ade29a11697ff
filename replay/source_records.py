"""One source episode's reward-data records: its replay, its variants, their samples.

:func:`build_source` is what both ways of building run for each source: in the
coordinating process (:func:`gui_agent.replay.builder.make_reward_data`) or in a pool's worker
(:mod:`gui_agent.replay.reward_worker`). It emits records; the caller alone writes them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gui_agent.actions import Action, Click, Type
from gui_agent.episode import read_episode
from gui_agent.errors import EnvError
from gui_agent.export.reward import EPISODES_DIR, OutcomeSample, PreferencePair, RewardSample
from gui_agent.runner import EnvSlot, RunResult
from gui_agent.replay.labels import StepVerdict, marked_mistakes, with_mistakes
from gui_agent.replay.perturb import VARIANT_KINDS, PlannedStep
from gui_agent.replay.replayer import replay_episode
from gui_agent.replay.simulator import Simulator
from gui_agent.replay.source import SourceEpisode

#: Scratch folder under OUT where episodes are written until they are finished.
WORK_DIR = ".work"

Record = RewardSample | OutcomeSample | PreferencePair


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


def replay_id(source_id: str) -> str:
    return f"{source_id}/replay"


def variant_id(source_id: str, kind: str) -> str:
    return f"{source_id}/{kind}"


def donor_actions(sources: Sequence[SourceEpisode], own_task: str) -> list[Action]:
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
        detail = {"variant": kind, "original_step": plan.original if plan is not None else None,
                  "feasible_before": verdict.feasible_before, "feasible_after": verdict.feasible_after}
        if verdict.mistake:
            detail["mistake"] = True
        samples.append(RewardSample(
            sample_id=f"{unit_id}/{index}", episode=relative, step_index=index, action=step.action,
            label=verdict.label, reward=verdict.reward,  # type: ignore[arg-type]
            perturbation=kind if plan is not None and plan.changed else None,
            source="human" if verdict.mistake else source, group=group,  # type: ignore[arg-type]
            detail=detail,
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
    mistakes = marked_mistakes(source.episode)  # steps a person marked in review: labelled harmful
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
            verdicts = with_mistakes([StepVerdict("progress", True, True)] * run.steps, planned, mistakes)
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
        verdicts = with_mistakes(simulated.verdicts, simulated.variant.steps, mistakes)
        for sample in _step_samples(uid, relative, run.episode_path, simulated.variant.steps, verdicts,
                                    kind=kind, source="simulator", group=group):
            emit(sample)
        emit(_outcome(uid, relative, source, run, kind=kind, group=group, detail=simulated.variant.detail))
        done[uid] = run.success
