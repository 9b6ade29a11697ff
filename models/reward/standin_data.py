"""Reward data from the oracle and the random policy: a STAND-IN until the simulator's labels are used.

``gui-agent make-reward-data`` (``replay/``) labels each step by executing prefixes of
perturbed demonstrations; that is the real data, and what ``scripts/bench_reward.py``
trains and scores on. For tests that need a small mixed set in seconds, this module runs
two real policies through the real runner on real MiniWoB++ pages and labels what they did:

* outcomes are the task evaluator's verdict: real labels;
* steps use a STAND-IN labelling: every oracle step is ``progress``; a random step
  that changed nothing on the screen is ``neutral``; a random step that changed it is
  ``harmful`` (what the simulator would usually find: the oracle's remaining steps no
  longer finish the task after a stray click or stray typing, but not always).

It writes the same layout and records (:mod:`gui_agent.export.reward`) as
``make-reward-data``, so training code reads both the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from gui_agent.episode import read_episode
from gui_agent.episode.labels import SEED
from gui_agent.export.reward import (
    LABEL_REWARD,
    OutcomeSample,
    RewardDataWriter,
    RewardSample,
)
from gui_agent.registry import load_policy
from gui_agent.runner import EnvSlot, run_with_retries
from gui_agent.task import load_task
from gui_agent.models.reward.transitions import screen_changed


def _step_label(policy: str, before: np.ndarray, after: np.ndarray) -> str:
    if policy == "oracle":
        return "progress"
    return "harmful" if screen_changed(before, after) else "neutral"


def build_standin_data(task_files: Iterable[str | Path], out: str | Path, *, seeds: Iterable[int], random_seeds: Iterable[int] | None = None,
                       on_episode: Callable[[str, str, int, bool], None] | None = None) -> Path:
    """Run the oracle (``seeds``) and the random policy (``random_seeds``, default ``seeds``) on each task and write reward data to ``out``."""
    out = Path(out)
    seeds = list(seeds)
    random_seeds = list(seeds if random_seeds is None else random_seeds)
    slot = EnvSlot()
    try:
        with RewardDataWriter(out) as writer:
            for task_file in task_files:
                task = load_task(task_file)
                for spec, spec_seeds in (("oracle", seeds), ("random:1", random_seeds)):
                    policy = load_policy(spec)
                    for seed in spec_seeds:
                        result = run_with_retries(task, policy, slot=slot, out_dir=writer.episodes_dir / task.id.replace("/", "-"), seed=seed)
                        if result.env_failed:
                            continue
                        _write_records(writer, result.episode_path, spec.split(":")[0], task.id, result.success, result.reward)
                        if on_episode is not None:
                            on_episode(task.id, spec, seed, result.success)
    finally:
        slot.close()
    return out


def _write_records(writer: RewardDataWriter, episode_path: Path, policy: str, task_id: str, success: bool, reward: float) -> None:
    episode = read_episode(episode_path)
    relative = writer.relative(episode_path)
    names = [s.frame_before for s in episode.steps] + [episode.final_frame]
    frames = [episode.load_frame(n) if n else None for n in names]
    group = f"{task_id}|{SEED.stored(episode.meta.labels)}"  # a group key: the seed as written
    for step in episode.steps:
        before, after = frames[step.index], frames[step.index + 1]
        if before is None or after is None:
            continue
        label = _step_label(policy, before, after)
        writer.add(RewardSample(sample_id=f"{episode.meta.episode_id}:{step.index}", episode=relative, step_index=step.index,
                                action=step.action, label=label, reward=LABEL_REWARD[label], perturbation=None if policy == "oracle" else "random",
                                source="replay", group=group, detail={"standin_labels": True, "policy": policy}))
    writer.add(OutcomeSample(sample_id=episode.meta.episode_id, episode=relative, task_id=task_id, instruction=episode.meta.task.instruction,
                             success=success, reward=reward, perturbation=None if policy == "oracle" else "random", source="replay",
                             group=group, detail={"policy": policy}))
