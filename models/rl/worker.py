"""The rollout workers: each runs sampled episodes with its own open environment and scores them.

A :class:`RolloutWorkerSpec` is the plain data a pool (local processes or Ray actors,
:mod:`gui_agent.workers`) sends to each worker; there it builds a
:class:`RolloutWorker`, which turns a :class:`~gui_agent.models.rl.scheduler.RolloutItem`
into a record, as an evaluation's worker does:

* it loads the item's weights when they are newer than its own;
* it runs the episode with :func:`gui_agent.runner.run_with_retries`, in the environment
  it keeps open across episodes: an environment that dies or hangs mid-episode is
  classified (``dead``/``hung``), torn down and rebuilt, and the episode run again. The
  broken attempt stays on disk as an ``env_error`` episode, counted in the record's
  ``env_failures``, and none of its decisions reaches the learner;
* it scores the finished episode (:mod:`gui_agent.models.rl.rewards`), and returns the
  record with the decisions the learner trains on under ``rollout`` (the coordinator
  takes them out before the record goes to the ledger).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import socket
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gui_agent.models.rl.rewards import RewardScorer, RewardSpec

#: The record key the decisions travel under (never written to the ledger).
ROLLOUT_KEY = "rollout"


@dataclass(frozen=True)
class RolloutWorkerSpec:
    """Everything a rollout worker needs; plain data, so it pickles to another process or machine.

    Attributes:
        checkpoint: the pixel checkpoint the run started from (network sizes, version 0), or
            ``hf:PATH[?options]``: a VLM, whose published weights are LoRA adapters.
        out_dir: the run's folder; episodes go to ``<out_dir>/episodes/<task>/g<group>-r<member>/``.
        rewards: what the reward is made of.
        max_attempts: tries of a rollout whose environment failed.
        headless: override the tasks' headless setting (None keeps it).
        threads: torch CPU threads of the worker's policy.
        temperature: a VLM's sampling temperature.
    """

    checkpoint: str
    out_dir: str
    rewards: RewardSpec = field(default_factory=RewardSpec)
    max_attempts: int = 3
    headless: bool | None = None
    threads: int = 1
    temperature: float = 1.0

    def build(self) -> RolloutWorker:
        return RolloutWorker(self)


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "task"


class RolloutWorker:
    """Runs rollouts one after another in this process (see the module doc)."""

    def __init__(self, spec: RolloutWorkerSpec) -> None:
        import torch

        from gui_agent.models.rl.starts import VLM_PREFIX
        from gui_agent.runner import EnvSlot

        torch.set_num_threads(spec.threads)
        self.spec = spec
        self.policy: Any
        if spec.checkpoint.startswith(VLM_PREFIX):
            from gui_agent.models.rl.vlm_rollout_policy import VlmRolloutPolicy

            self.policy = VlmRolloutPolicy(spec.checkpoint[len(VLM_PREFIX):], temperature=spec.temperature)
        else:
            from gui_agent.models.rl.rollout_policy import PixelRolloutPolicy

            self.policy = PixelRolloutPolicy(spec.checkpoint)
        self.scorer = RewardScorer(spec.rewards)
        self.slot = EnvSlot(headless=spec.headless)
        self.name = f"{socket.gethostname()}:{os.getpid()}"
        self._tasks: dict[str, Any] = {}

    def run(self, item: Any) -> dict[str, Any]:
        """Run one rollout (retrying environment failures), score it, return its record."""
        record: dict[str, Any] = {"key": item.key, "task_id": item.task_id, "task_file": item.task_file, "repeat": item.repeat,
                                  "seed": item.seed, "group": item.group, "version": item.version, "worker": self.name}
        try:
            self._use_weights(item)
        except (OSError, RuntimeError) as exc:  # the weights were retired: the rollout would be too stale anyway
            record.update(success=None, reward=0.0, steps=0, termination="stale", fault=None, attempts=0, env_failures=[],
                          reason=f"weights v{item.version} unavailable: {type(exc).__name__}: {exc}", episode=None)
            return self._finished(record)
        try:
            self._rollout(item, record)
        except Exception as exc:  # noqa: BLE001 - a bug must not end the run; reported, never trained on
            self.slot.discard()
            record.update(success=None, reward=0.0, steps=0, termination="env_error", fault="internal", attempts=1,
                          env_failures=[], reason=f"internal error: {type(exc).__name__}: {exc}", episode=None,
                          traceback=traceback.format_exc(limit=8))
            record.pop(ROLLOUT_KEY, None)
        return self._finished(record)

    def _use_weights(self, item: Any) -> None:
        if item.version != self.policy.version:
            self.policy.load_weights(item.weights or None, item.version)  # no weights: version 0, the start

    def _rollout(self, item: Any, record: dict[str, Any]) -> None:
        from gui_agent.guards import Budget
        from gui_agent.models.rl.frames import drop_frames
        from gui_agent.runner import run_with_retries
        from gui_agent.task import load_task

        task = self._tasks.get(item.task_file)
        if task is None:
            task = self._tasks[item.task_file] = load_task(item.task_file)
        out = Path(self.spec.out_dir) / "episodes" / _safe(item.task_id) / f"g{item.group:06d}-r{item.repeat}"
        self.policy.seed(item.sample_seed)
        result = run_with_retries(task, self.policy, slot=self.slot, out_dir=out, seed=item.seed,
                                  max_attempts=self.spec.max_attempts, budget=Budget.from_limits(task.limits))
        broken = result.env_failed or result.service_failed
        record.update(success=None, reward=0.0, steps=result.steps, duration_s=result.duration_s, termination=result.termination,
                      reason=result.reason, fault=result.fault, attempts=result.attempts, env_failures=result.env_failures,
                      episode=str(result.episode_path))
        if not broken:
            judged = task.evaluator is not None
            scores = self.scorer.score(result.episode_path, evaluator_reward=result.reward if judged else None,
                                       evaluator_success=result.success if judged else None)
            record.update(success=scores["success"], reward=scores["reward"], rewards=scores["sources"],
                          evaluator_success=result.success if judged else None)
            if scores["learned"]:
                record["learned"] = scores["learned"]
            if scores["disagreement"]:
                record["disagreement"] = scores["disagreement"]
            record[ROLLOUT_KEY] = self.policy.steps()
        if not item.keep_frames:
            for folder in [result.episode_path, *(Path(f["episode"]) for f in result.env_failures if f.get("episode"))]:
                drop_frames(folder)

    def _finished(self, record: dict[str, Any]) -> dict[str, Any]:
        record["finished_at"] = dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")
        return record

    def close(self) -> None:
        self.slot.close()
