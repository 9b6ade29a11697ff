"""What runs an evaluation's episodes, in any process: a local worker or a Ray actor.

An :class:`EpisodeWorker` holds one policy and one open environment (kept across the
episodes of a task, see :class:`gui_agent.runner.EnvSlot`) and turns a
:class:`~gui_agent.workers.work.WorkItem` into a ledger record with
:func:`gui_agent.runner.run_with_retries`: an environment that dies or hangs is torn
down and rebuilt and the episode run again, up to ``max_attempts`` times.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import socket
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gui_agent.registry import load_policy, scorers


@dataclass(frozen=True)
class WorkerConfig:
    """Everything a worker needs; plain data, so it pickles to another process or machine.

    Attributes:
        policy: a policy spec (see :func:`gui_agent.registry.load_policy`).
        out_dir: the run's folder; episodes go to ``<out_dir>/episodes/<task>/<repeat>/``.
        max_attempts: tries of an episode whose environment failed.
        on_loop: the doom-loop guard's action, ``stop`` or ``warn``.
        max_tokens: token budget per episode (None: none).
        max_cost_usd: money budget per episode in US dollars (None: none).
        headless: override the tasks' headless setting (None keeps it).
        judge: judge spec for tasks without an evaluator (see :mod:`gui_agent.evaluate.judging`).
        best_of: candidate decisions per step the reward model chooses among (1: off).
        reward_model: the reward-model checkpoint that chooses (``best_of`` > 1).
        observe: extra observations (``--observe``, see :mod:`gui_agent.envs.observe_modes`),
            set on each task after loading it: the workers read the task files themselves.
    """

    policy: str
    out_dir: str
    max_attempts: int = 3
    on_loop: str = "stop"
    max_tokens: int | None = None
    max_cost_usd: float | None = None
    headless: bool | None = None
    judge: str | None = None
    best_of: int = 1
    reward_model: str | None = None
    observe: tuple[str, ...] = ()

    def build(self) -> EpisodeWorker:
        return EpisodeWorker(self)


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "task"


class EpisodeWorker:
    """Runs work items one after another in this process."""

    def __init__(self, config: WorkerConfig) -> None:
        from gui_agent.guards import Budget  # noqa: F401 - fail early if the package is broken
        from gui_agent.runner import EnvSlot

        self.config = config
        self.policy = load_policy(config.policy)
        if config.best_of > 1:
            self.policy = scorers().best_of_policy(self.policy, str(config.reward_model), config.best_of)
        self._judge: Any = None
        self.slot = EnvSlot(headless=config.headless)
        self.current_task: str | None = None
        self.name = f"{socket.gethostname()}:{os.getpid()}"
        self._tasks: dict[str, Any] = {}

    def run(self, item: Any) -> dict[str, Any]:
        """Run one work item (retrying environment failures) and return its ledger record."""
        from gui_agent.envs.observe_modes import apply_observe
        from gui_agent.errors import PolicyTaskError
        from gui_agent.guards import Budget
        from gui_agent.runner import run_with_retries
        from gui_agent.task import load_task

        task = self._tasks.get(item.task_file)
        if task is None:
            task = self._tasks[item.task_file] = load_task(item.task_file)
            apply_observe(task, self.config.observe, where=item.task_file)
        self.current_task = item.task_id
        out = Path(self.config.out_dir) / "episodes" / _safe(item.task_id) / f"repeat-{item.repeat:03d}"
        record: dict[str, Any] = {"key": item.key, "task_id": item.task_id, "task_file": item.task_file,
                                  "repeat": item.repeat, "seed": item.seed, "worker": self.name}
        try:
            result = run_with_retries(
                task, self.policy, slot=self.slot, out_dir=out, seed=item.seed,
                max_attempts=self.config.max_attempts, on_loop=self.config.on_loop,
                budget=Budget.from_limits(task.limits, max_tokens=self.config.max_tokens, max_cost_usd=self.config.max_cost_usd),
            )
        except PolicyTaskError as exc:  # the policy cannot act on this task: its failure, not the environment's
            record.update(success=False, reward=0.0, steps=0, duration_s=0.0, termination="agent_error", reason=str(exc),
                          fault=None, attempts=1, env_failures=[], usage={}, guard_events=[], episode=None)
        except Exception as exc:  # noqa: BLE001 - a bug must not end the run; it is reported, never scored
            self.slot.discard()
            record.update(success=None, reward=0.0, steps=0, duration_s=0.0, termination="env_error", fault="internal",
                          reason=f"internal error: {type(exc).__name__}: {exc}", traceback=traceback.format_exc(limit=8),
                          attempts=1, env_failures=[], usage={}, guard_events=[], episode=None)
        else:
            record.update(
                success=None if result.env_failed or result.service_failed else result.success,
                reward=result.reward, steps=result.steps, duration_s=result.duration_s,
                termination=result.termination, reason=result.reason, fault=result.fault,
                attempts=result.attempts, env_failures=result.env_failures, usage=result.usage,
                guard_events=[{k: e[k] for k in ("guard", "kind", "message")} for e in result.guard_events],
                episode=str(result.episode_path),
            )
            if self.config.judge and task.evaluator is None and not (result.env_failed or result.service_failed):
                self._judged(record, result.episode_path)
        record["finished_at"] = dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")
        return record

    def _judged(self, record: dict[str, Any], episode_path: Path) -> None:
        """Score an episode of a task without an evaluator by the run's judge (loaded on first use)."""
        from gui_agent.errors import GuiAgentError
        from gui_agent.evaluate.judging import load_judge, record_verdict

        try:
            if self._judge is None:
                self._judge = load_judge(str(self.config.judge))
            verdict = self._judge.judge_episode(episode_path)
        except GuiAgentError as exc:  # the episode stays unjudged (a failure, as without a judge), and says why
            record["judge"] = {"error": str(exc)}
            return
        record_verdict(episode_path, verdict)
        record.update(success=verdict.success, reward=round(float(verdict.score), 6), judge=verdict.to_dict())

    def close(self) -> None:
        self.slot.close()
