"""The settings of an RL run (``gui-agent train rl``), its tasks, and its ``run.json``."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gui_agent.evaluate.ledger import LEDGER_FILE, read_manifest
from gui_agent.models.rl.learner import LearnerConfig
from gui_agent.models.rl.rewards import RewardSpec
from gui_agent.models.rl.scheduler import TaskRef
from gui_agent.models.rl.starts import is_vlm_start

#: Seconds a worker may need beyond a task's own episode timeout per attempt (browser start, scoring).
ATTEMPT_OVERHEAD_S = 60.0
#: What ``run.json`` says the folder is.
RUN_KIND = "gui-agent/rl-run"
#: Settings a resumed run must share with the run it continues (the rest may change: more
#: updates, another time budget, more workers, a new learning rate).
RESUME_KEYS = ("task_files", "start", "group_size", "seed", "seed_base", "rewards", "vlm")


@dataclass
class RLOptions:
    """The settings of an RL run.

    Attributes:
        suite: task files, folders, or named suites (as ``gui-agent eval`` takes them).
        out_dir: the run's folder.
        start: the pixel checkpoint to start from (None: the shipped policy), or ``hf:PATH``
            (``hf:PATH?options`` as ``--policy`` takes it): a VLM, trained with LoRA.
        updates: stop after this many updates (counted over every session of the run).
        time_budget_s: stop after this much training time (over every session), with a checkpoint.
        group_size: rollouts per group (same task and seed): the baseline's sample.
        groups_per_update: groups in each update's batch.
        max_lag: rollouts acting with weights more than this many versions old are dropped.
        workers / pin_cpus / ray / ray_address: where rollouts run, as for ``gui-agent eval``.
        seed: the run's seed (task draws, sampling, minibatch order, torch).
        seed_base: environment seed of group 0 (group g: ``seed_base + g``); evaluation
            seeds below it stay unseen.
        learner: the policy-gradient step's hyperparameters.
        rewards: what the reward is made of.
        scale_advantages: divide advantages by the group's standard deviation.
        keep_frames_every: keep the frames of every Nth rollout's episode (1: all, 0: none).
        max_attempts: tries of a rollout whose environment failed.
        rollout_deadline_s: longest a worker may take over one rollout, all attempts
            included, before it is presumed stuck, killed and replaced (None: from the
            task's episode timeout).
        wait_deadline_s: longest the learner waits for a group's last rollouts once the
            first is back; then it uses those back (two at least).
        checkpoint_every: keep a numbered checkpoint every this many updates.
        threads: the learner's torch CPU threads.
        headless: override the tasks' headless setting (None keeps it).
        resume: continue the run in ``out_dir``.
        lora_rank: an ``hf:`` start's LoRA rank.
        temperature: an ``hf:`` start's sampling temperature (its actions are scored at it).
    """

    suite: list[str]
    out_dir: Path = Path("runs/rl")
    start: str | None = None
    updates: int = 100
    time_budget_s: float | None = None
    group_size: int = 8
    groups_per_update: int = 4
    max_lag: int = 1
    workers: int = 1
    pin_cpus: bool = True
    ray: bool = False
    ray_address: str | None = None
    seed: int = 0
    seed_base: int = 100_000
    learner: LearnerConfig = field(default_factory=LearnerConfig)
    rewards: RewardSpec = field(default_factory=RewardSpec)
    scale_advantages: bool = True
    keep_frames_every: int = 1
    max_attempts: int = 3
    rollout_deadline_s: float | None = None
    wait_deadline_s: float = 60.0
    checkpoint_every: int = 10
    threads: int = 1
    headless: bool | None = None
    resume: bool = False
    lora_rank: int = 16
    temperature: float = 1.0

    def check(self) -> None:
        """Raises ValueError on settings that cannot work."""
        if self.group_size < 2:
            raise ValueError("--group-size must be at least 2: a group's baseline compares its rollouts")
        if self.updates < 1 or self.groups_per_update < 1 or self.workers < 1 or self.checkpoint_every < 1:
            raise ValueError("--updates, --groups-per-update, --workers and --checkpoint-every must be >= 1")
        if self.max_lag < 0 or self.keep_frames_every < 0:
            raise ValueError("--max-lag and --keep-frames-every must be >= 0")
        if self.lora_rank < 1 or self.temperature <= 0:
            raise ValueError("--lora-rank must be >= 1 and --temperature > 0")


def resolve_tasks(options: RLOptions) -> tuple[list[Path], list[TaskRef]]:
    """The task files of the suite and what the scheduler needs of each.

    Raises:
        ValueError: a bad suite, a task id twice, or a task that nothing can reward.
    """
    from gui_agent.evaluate.suite import resolve_suite
    from gui_agent.task import load_task

    files = resolve_suite(options.suite)
    refs: list[TaskRef] = []
    seen: dict[str, Path] = {}
    for path in files:
        task = load_task(path)
        if task.id in seen:
            raise ValueError(f"task id {task.id!r} is in both {seen[task.id]} and {path}")
        seen[task.id] = path
        if task.evaluator is None and not options.rewards.learned:
            raise ValueError(f"{path}: the task has no evaluator, so the evaluator cannot reward it; "
                             "give --reward-model CKPT or --judge CKPT|hf:MODEL")
        deadline = options.rollout_deadline_s or options.max_attempts * (task.limits.episode_timeout_s + ATTEMPT_OVERHEAD_S)
        refs.append(TaskRef(task_file=str(Path(path).resolve()), task_id=task.id, deadline_s=float(deadline)))
    return files, refs


def settings(options: RLOptions, task_files: list[Path], start: Path | str) -> dict[str, Any]:
    """What ``run.json`` records of the run (plain JSON); ``vlm`` is None for the pixel policy."""
    vlm = {"lora_rank": options.lora_rank, "temperature": options.temperature} if is_vlm_start(str(start)) else None
    return {
        "kind": RUN_KIND, "suite": [str(s) for s in options.suite], "task_files": [str(Path(p).resolve()) for p in task_files],
        "start": str(start), "group_size": options.group_size, "groups_per_update": options.groups_per_update,
        "max_lag": options.max_lag, "seed": options.seed, "seed_base": options.seed_base, "learner": asdict(options.learner),
        "rewards": asdict(options.rewards), "scale_advantages": options.scale_advantages,
        "keep_frames_every": options.keep_frames_every, "max_attempts": options.max_attempts, "vlm": vlm,
    }


def run_manifest(options: RLOptions, out: Path, current: dict[str, Any]) -> dict[str, Any]:
    """The run's ``run.json`` for this session: new, or the resumed run's with its sessions so far.

    Raises:
        ValueError: ``resume`` with no run in ``out``, or with settings that differ from
            the run's; without ``resume``, a run already in ``out``.
    """
    old = read_manifest(out)
    if options.resume:
        if old is None or old.get("kind") != RUN_KIND:
            raise ValueError(f"{out}: no RL run to resume (no run.json of 'gui-agent train rl'); run without --resume first")
        conflicts = [f"{key}: {old.get(key)!r} in run.json, {current.get(key)!r} now" for key in RESUME_KEYS if old.get(key) != current.get(key)]
        if conflicts:
            raise ValueError(f"{out}: the run was made with other settings: " + "; ".join(conflicts))
        return {**current, "sessions": old.get("sessions", [])}
    if old is not None or (out / LEDGER_FILE).exists():
        raise ValueError(f"{out} already holds a run: pass --resume to continue it, or choose another --out")
    return {**current, "sessions": []}


def new_session(options: RLOptions) -> dict[str, Any]:
    return {"started_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "backend": "ray" if options.ray else "local", "workers": options.workers, "resumed": options.resume}
