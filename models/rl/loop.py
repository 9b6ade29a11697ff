"""``gui-agent train rl``: rollouts on worker pools feed group-relative policy-gradient updates.

The pool (local processes or Ray actors, the same as ``gui-agent eval``'s) runs in a
thread of this process and never waits for the learner: the
:class:`~gui_agent.models.rl.scheduler.RolloutScheduler` keeps handing out rollouts
stamped with the newest weights while the learner updates. Each record arrives here,
goes to the ledger at once, and its decisions into the
:class:`~gui_agent.models.rl.groups.GroupBuffer`; when ``groups_per_update`` groups are
ready the learner takes one step (:mod:`gui_agent.models.rl.learner`), publishes the new
weights, and the run's files are brought up to date. Everything is in the output folder::

    <out>/run.json              the settings, and each session's throughput and drops
    <out>/ledger.jsonl          one line per rollout, as it came back (episode, reward, version, faults)
    <out>/episodes/<task>/g<group>-r<member>/<episode_id>/   each rollout, an ordinary episode
    <out>/policy.pt             the latest policy (pixel checkpoint: --policy pixel:<out>/policy.pt)
    <out>/checkpoints/update-NNNNNN.pt, reference.pt, weights/   numbered copies, the start, published weights
    <out>/policy/, checkpoints/update-NNNNNN/, weights/vNNNNNN/  the same for an ``hf:`` VLM: LoRA adapters
    <out>/model/                a finished VLM run's adapter merged into the model (--policy hf:<out>/model)
    <out>/updates.jsonl, curve.png, per_task.json, per_task.md, disagreements.jsonl

``--from hf:PATH`` trains a VLM's LoRA adapter instead of the pixel network
(:mod:`gui_agent.models.rl.vlm_learner`, :mod:`gui_agent.models.rl.vlm_rollout_policy`):
the loop, the groups, the objective and the files are the same.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import queue
import random
import shutil
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from gui_agent.evaluate.ledger import LEDGER_FILE, MANIFEST_FILE, Ledger, read_ledger, write_manifest
from gui_agent.models.pixel.checkpoint import load_checkpoint
from gui_agent.models.pixel.policy import DEFAULT_CHECKPOINT
from gui_agent.models.rl.checkpoints import (
    CHECKPOINTS_DIR,
    POLICY_FILE,
    REFERENCE_FILE,
    WEIGHTS_DIR,
    RunState,
    copy_reference,
    retire_weights,
    weights_path,
)
from gui_agent.models.rl.groups import GroupBuffer, TrainGroup, group_of, still_fresh
from gui_agent.models.rl.learner import PixelLearner, PolicyLearner
from gui_agent.models.rl.options import RLOptions, new_session, resolve_tasks, run_manifest, settings
from gui_agent.models.rl.report import UPDATES_FILE, write_report
from gui_agent.models.rl.scheduler import RolloutScheduler
from gui_agent.models.rl.starts import is_vlm_start, vlm_start
from gui_agent.models.rl.vlm_learner import MODEL_DIR, POLICY_DIR, start_vlm_learner
from gui_agent.models.rl.worker import ROLLOUT_KEY, RolloutWorkerSpec

DISAGREEMENTS_FILE = "disagreements.jsonl"
#: Seconds the rollouts under way at the end get to come back before the workers are stopped.
WIND_DOWN_S = 30.0
#: Rollouts per task in the running success estimate the progress bar and the curve show.
SUCCESS_WINDOW = 20


@dataclass
class RLResult:
    """What a run (session) did; the same figures are in its folder."""

    out: Path
    state: RunState
    finished: bool
    session: dict[str, Any]
    figures: dict[str, Any] = field(default_factory=dict)


class SuccessTracker:
    """Each task's success over its last :data:`SUCCESS_WINDOW` scored rollouts; the suite's is their mean."""

    def __init__(self) -> None:
        self.tasks: dict[str, deque[bool]] = {}

    def add(self, task: str, success: bool) -> None:
        self.tasks.setdefault(task, deque(maxlen=SUCCESS_WINDOW)).append(success)

    def suite(self) -> float | None:
        rates = [sum(v) / len(v) for v in self.tasks.values() if v]
        return round(sum(rates) / len(rates), 4) if rates else None


class _Rollouts:
    """The worker pool, running in a thread; its records and notes arrive on :attr:`inbox`."""

    def __init__(self, pool: Any, scheduler: RolloutScheduler) -> None:
        self.inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.error: BaseException | None = None
        self.scheduler = scheduler
        self.thread = threading.Thread(target=self._run, args=(pool,), name="gui-agent-rollouts", daemon=True)

    def _run(self, pool: Any) -> None:
        try:
            pool.run(self.scheduler, lambda record: self.inbox.put(("record", record)), lambda text: self.inbox.put(("note", text)))
        except BaseException as exc:  # noqa: BLE001 - handed to the learner's thread, which raises it
            self.error = exc
        finally:
            self.inbox.put(("end", None))


def _pool(options: RLOptions, spec: RolloutWorkerSpec) -> Any:
    if options.ray:
        from gui_agent.workers.ray_pool import RayPool

        return RayPool(spec, workers=options.workers, address=options.ray_address)
    from gui_agent.workers.local_pool import LocalPool

    return LocalPool(spec, workers=options.workers, pin_cpus=options.pin_cpus)


@contextlib.contextmanager
def _ray_session(options: RLOptions) -> Iterator[None]:
    """Join (or start) Ray in this, the main thread, for a ``--ray`` run: the pool's thread then
    finds it initialised, and Ray's signal handling stays where Ctrl-C arrives."""
    if not options.ray:
        yield
        return
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'gui-agent[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=options.ray_address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        if started_here:
            ray.shutdown()


def train_rl(options: RLOptions, *, on_update: Callable[[dict[str, Any]], None] | None = None,
             on_record: Callable[[dict[str, Any]], None] | None = None, on_note: Callable[[str], None] | None = None) -> RLResult:
    """Run (or resume) an RL run; see the module doc.

    Args:
        on_update: called with each update's figures (a line of ``updates.jsonl``).
        on_record: called with each rollout's ledger record.
        on_note: called with notes (a worker replaced, a group used before all came back...).

    Raises:
        ValueError: bad suite or settings, a run already in the folder, a resume with other settings.
        PolicyCheckpointError / RewardCheckpointError / ModelError: a model that cannot load.
        RuntimeError: the workers could not start.
    """
    options.check()
    out = Path(options.out_dir)
    task_files, tasks = resolve_tasks(options)
    _check_rewards(options)
    start = vlm_start(options.start) if is_vlm_start(options.start) else Path(options.start or DEFAULT_CHECKPOINT)
    manifest = run_manifest(options, out, settings(options, task_files, start))
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    trainer = None
    try:
        trainer = Trainer(options, out, tasks, manifest, on_update=on_update, on_record=on_record, on_note=on_note)
        return trainer.run()
    except Exception:
        if not options.resume and (trainer is None or trainer.state.rollouts == 0):
            _release(out, created=created)  # nothing ran: the same command may be run again as it is
        raise


def _release(out: Path, *, created: bool) -> None:
    """Undo a new run that failed before any rollout came back (workers that could not start)."""
    if created:
        shutil.rmtree(out, ignore_errors=True)
        return
    for name in (MANIFEST_FILE, LEDGER_FILE, POLICY_FILE, REFERENCE_FILE, UPDATES_FILE, DISAGREEMENTS_FILE):
        (out / name).unlink(missing_ok=True)
    for folder in (WEIGHTS_DIR, CHECKPOINTS_DIR, POLICY_DIR, MODEL_DIR):
        shutil.rmtree(out / folder, ignore_errors=True)


def _check_rewards(options: RLOptions) -> None:
    """Refuse a reward model or judge that cannot work before any worker starts."""
    from gui_agent.registry import scorers

    if options.rewards.reward_model:
        scorers().check_reward_model(options.rewards.reward_model)
    if options.rewards.judge:
        scorers().check_judge(options.rewards.judge)


class Trainer:
    """One session of an RL run: the learner's side of the loop (see the module doc)."""

    def __init__(self, options: RLOptions, out: Path, tasks: list[Any], manifest: dict[str, Any], *,
                 on_update: Callable[[dict[str, Any]], None] | None = None,
                 on_record: Callable[[dict[str, Any]], None] | None = None, on_note: Callable[[str], None] | None = None) -> None:
        self.options, self.out, self.manifest = options, out, manifest
        self.on_update, self.on_record, self.note = on_update, on_record, on_note or (lambda _text: None)
        torch.set_num_threads(options.threads)
        torch.manual_seed(options.seed)
        self.state, self.learner, version_zero = _start_learner(options, out, str(manifest["start"]))
        # A run killed outright may have rollouts past its last save: never reuse their group numbers.
        self.state.next_group = max(self.state.next_group, _next_group_in_ledger(out / LEDGER_FILE))
        self.rng = random.Random(options.seed * 7919 + self.state.update)
        self.buffer = GroupBuffer(options.group_size, max_lag=options.max_lag, deadline_s=options.wait_deadline_s,
                                  scale=options.scale_advantages)
        self.buffer.dropped.update(self.state.dropped)
        self.scheduler = RolloutScheduler(tasks, group_size=options.group_size, seed=options.seed, seed_base=options.seed_base,
                                          max_groups_out=options.groups_per_update * (options.max_lag + 1),
                                          next_group=self.state.next_group, keep_frames_every=options.keep_frames_every)
        self.spec = RolloutWorkerSpec(checkpoint=version_zero, out_dir=str(out.resolve()), rewards=options.rewards,
                                      max_attempts=options.max_attempts, headless=options.headless, temperature=options.temperature)
        self.success = SuccessTracker()
        self.ready: list[TrainGroup] = []
        self.session = new_session(options)
        self.manifest["sessions"].append(self.session)
        self.counts = {"rollouts": 0, "env_steps": 0, "updates": 0, "workers_replaced": 0}
        self.started = self.saved_at = time.monotonic()
        self.idle = self.idle_saved = 0.0
        self._publish()

    # -- the loop --------------------------------------------------------------------

    def run(self) -> RLResult:
        write_manifest(self.out, self.manifest)
        with _ray_session(self.options):
            return self._run()

    def _run(self) -> RLResult:
        rollouts = _Rollouts(_pool(self.options, self.spec), self.scheduler)
        interrupted = False
        with Ledger(self.out / LEDGER_FILE) as self.ledger:
            rollouts.thread.start()
            try:
                self._learn(rollouts)
            except KeyboardInterrupt:
                interrupted = True
                self.note("interrupted: stopping the workers and saving the policy; continue with --resume")
            finally:
                self._wind_down(rollouts, abort=interrupted)
                self._save(finished=not interrupted and self._done(), keep_copy=True)
        figures = write_report(self.out)
        if interrupted:
            raise KeyboardInterrupt
        return RLResult(out=self.out, state=self.state, finished=self._done(), session=self.session, figures=figures)

    def _done(self) -> bool:
        budget = self.options.time_budget_s
        return self.state.update >= self.options.updates or bool(budget and self._train_seconds() >= budget)

    def _train_seconds(self) -> float:
        return self.state.train_seconds + time.monotonic() - self.saved_at

    def _learn(self, rollouts: _Rollouts) -> None:
        while not self._done():
            waiting = time.monotonic()
            try:
                kind, payload = rollouts.inbox.get(timeout=0.5)
            except queue.Empty:
                kind, payload = "", None
            self.idle += time.monotonic() - waiting
            if rollouts.error is not None:
                raise RuntimeError(f"the rollout workers stopped: {rollouts.error}") from rollouts.error
            if kind == "record":
                self._record(payload)
            elif kind == "note":
                self._pool_note(payload)
            elif kind == "end":
                raise RuntimeError("the rollout workers stopped")
            self._collect()
            if len(self.ready) >= self.options.groups_per_update:
                self._update()

    def _wind_down(self, rollouts: _Rollouts, *, abort: bool) -> None:
        """Stop handing out rollouts; file those under way as they come back (not trained on);
        stop the workers after :data:`WIND_DOWN_S` (at once when ``abort``)."""
        self.scheduler.abort() if abort else self.scheduler.close()
        deadline = time.monotonic() + (0 if abort else WIND_DOWN_S)
        while rollouts.thread.is_alive():
            if time.monotonic() > deadline:
                self.scheduler.abort()
            try:
                kind, payload = rollouts.inbox.get(timeout=0.5)
            except queue.Empty:
                continue
            if kind == "record":
                payload.pop(ROLLOUT_KEY, None)
                payload["after_end"] = True
                self._record(payload)
            elif kind == "note":
                self._pool_note(payload)
        rollouts.thread.join(timeout=5.0)

    # -- records and updates ---------------------------------------------------------

    def _record(self, record: dict[str, Any]) -> None:
        """File a rollout's record: ledger, disagreements, figures, and the buffer."""
        entry = {k: v for k, v in record.items() if k != ROLLOUT_KEY}
        entry["learner_version"] = self.state.version
        _relative(entry, self.out)
        self.ledger.append(entry)
        if entry.get("disagreement"):
            with open(self.out / DISAGREEMENTS_FILE, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({k: entry.get(k) for k in ("key", "task_id", "seed", "version", "rewards", "evaluator_success",
                                                                    "learned", "disagreement", "episode")}, default=str) + "\n")
        self.state.rollouts += 1
        self.counts["rollouts"] += 1
        for failure in entry.get("env_failures") or []:  # a broken attempt: rebuilt, its partial episode never trained on
            fault = str(failure.get("fault") if isinstance(failure, dict) else "error")
            self.state.broken_attempts[fault] = self.state.broken_attempts.get(fault, 0) + 1
        steps = int(entry.get("steps") or 0)
        self.state.env_steps += steps
        self.counts["env_steps"] += steps
        if entry.get("success") is not None:
            self.scheduler.observe(str(entry["task_id"]), bool(entry["success"]))
            self.success.add(str(entry["task_id"]), bool(entry["success"]))
        if not entry.get("after_end"):
            self.buffer.add(record)
        elif entry.get("success") is not None:
            self.buffer.dropped["after_end"] += 1
        if self.on_record is not None:
            self.on_record(entry)

    def _pool_note(self, text: str) -> None:
        if "replacing it" in text:
            self.counts["workers_replaced"] += 1
        self.note(text)

    def _collect(self) -> None:
        """Move ready groups out of the buffer; tell the scheduler which groups it may replace."""
        ready = self.buffer.ready(self.state.version)
        for group in ready:
            if len(group.rollouts) < self.options.group_size:
                self.note(f"group {group.number} ({group.task_id}) used with {len(group.rollouts)} of {self.options.group_size} "
                          f"rollouts: the rest were dropped or not back within {self.options.wait_deadline_s:g} s")
        self.ready.extend(ready)
        waiting = {group.number for group in self.ready}
        for number in self.buffer.closed_groups():
            if number not in waiting:  # dropped: room for a new group now (a ready one makes room once trained on)
                self.scheduler.group_closed(number)

    def _update(self) -> None:
        batch_size = self.options.groups_per_update
        groups = still_fresh(self.ready[:batch_size], self.state.version, self.options.max_lag, self.buffer.dropped,
                             scale=self.options.scale_advantages)
        for group in self.ready[:batch_size]:
            self.scheduler.group_closed(group.number)
        self.ready = self.ready[batch_size:]
        lags = [self.state.version - r.version for g in groups for r in g.rollouts]
        started = time.monotonic()
        figures = self.learner.update(groups, self.rng) if groups else {"decisions": 0}
        learn_s = time.monotonic() - started
        if figures.get("decisions"):
            self.state.version += 1
            self._publish()
        self.state.update += 1
        self.counts["updates"] += 1
        row = self._update_row(groups, figures, learn_s)
        row["lag_mean"] = round(sum(lags) / len(lags), 3) if lags else None
        with open(self.out / UPDATES_FILE, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
        self.state.history.append({k: v for k, v in row.items() if not isinstance(v, dict)})
        if self.state.update % self.options.checkpoint_every == 0:
            self._save(finished=False, keep_copy=True)
            write_report(self.out)
        if self.on_update is not None:
            self.on_update(row)

    def _update_row(self, groups: list[TrainGroup], figures: dict[str, Any], learn_s: float) -> dict[str, Any]:
        rollouts = [r for g in groups for r in g.rollouts]
        wall = time.monotonic() - self.started
        return {
            "update": self.state.update, "version": self.state.version, "env_steps": self.state.env_steps,
            "rollouts": len(rollouts), "groups": len(groups), "informative_groups": sum(g.informative for g in groups),
            "success_rate": round(sum(bool(r.record.get("success")) for r in rollouts) / len(rollouts), 4) if rollouts else None,
            "suite_success": self.success.suite(),
            "mean_reward": round(sum(r.reward for r in rollouts) / len(rollouts), 4) if rollouts else None,
            **figures, "learn_s": round(learn_s, 3), "wall_s": round(wall, 1), "train_s": round(self._train_seconds(), 1),
            "env_steps_per_s": round(self.counts["env_steps"] / wall, 3) if wall > 0 else None,
            "learner_idle_fraction": round(self.idle / wall, 4) if wall > 0 else None,
            "dropped": dict(self.buffer.dropped), "broken_attempts": dict(self.state.broken_attempts),
            "at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        }

    # -- weights and checkpoints -----------------------------------------------------

    def _publish(self) -> None:
        """Make the current weights the ones new rollouts act with; retire those no rollout may use."""
        path = weights_path(self.out, self.state.version, self.learner.weights_suffix)
        self.learner.publish(path)
        self.scheduler.publish(self.state.version, str(path.resolve()))
        retire_weights(self.out, keep_from=self.state.version - self.options.max_lag - 2)

    def _save(self, *, finished: bool, keep_copy: bool) -> None:
        now = time.monotonic()
        self.state.train_seconds += now - self.saved_at
        self.state.idle_seconds += self.idle - self.idle_saved
        self.saved_at, self.idle_saved = now, self.idle
        self.state.next_group = self.scheduler.next_group
        self.state.dropped = dict(self.buffer.dropped)
        self.session.update(self._session_figures(now - self.started))
        self.learner.save(self.out, self.state, settings=self.manifest_settings(), finished=finished, keep_copy=keep_copy)
        write_manifest(self.out, self.manifest)

    def _session_figures(self, wall: float) -> dict[str, Any]:
        total, idle = wall, self.idle
        counts = {k: self.counts[k] for k in self.counts}
        return {"finished_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), "wall_s": round(total, 3),
                **counts, "env_steps_per_s": round(counts["env_steps"] / total, 4) if total > 0 else None,
                "learner_idle_s": round(idle, 3), "learner_idle_fraction": round(idle / total, 4) if total > 0 else None,
                "dropped": dict(self.buffer.dropped), "broken_attempts": dict(self.state.broken_attempts)}

    def manifest_settings(self) -> dict[str, Any]:
        return {k: v for k, v in self.manifest.items() if k != "sessions"}


def _start_learner(options: RLOptions, out: Path, start: str) -> tuple[RunState, PolicyLearner, str]:
    """The run's state, its learner (resumed from the run's checkpoint with ``--resume``), and
    what the workers load as version 0: the pixel checkpoint copied into the run, or the ``hf:`` model."""
    if is_vlm_start(start):
        state, learner = start_vlm_learner(start, out, options.learner, lora_rank=options.lora_rank,
                                           temperature=options.temperature, resume=options.resume)
        return state, learner, start
    reference = copy_reference(Path(start), out)
    if options.resume and (out / POLICY_FILE).exists():
        loaded = load_checkpoint(out / POLICY_FILE)
        state, model, training = RunState.from_meta(loaded.meta), loaded.model, loaded.training or {}
    else:  # a new run, or one killed before its first save: from the start
        state, model, training = RunState(), load_checkpoint(reference).model, {}
    learner = PixelLearner(model, load_checkpoint(reference).model, options.learner)
    learner.load_state(training)
    return state, learner, str(reference.resolve())


def _next_group_in_ledger(path: Path) -> int:
    """One past the highest group number in the ledger (0 without one)."""
    groups = [group_of(record) for record in read_ledger(path).values()]
    return max((g for g in groups if g is not None), default=-1) + 1


def _relative(entry: dict[str, Any], out: Path) -> None:
    """Name the record's episode folders relative to the run's folder, when inside it."""
    def relative(path: Any) -> Any:
        try:
            return str(Path(path).resolve().relative_to(out.resolve())) if path else path
        except ValueError:
            return path

    entry["episode"] = relative(entry.get("episode"))
    for failure in entry.get("env_failures") or []:
        if isinstance(failure, dict):
            failure["episode"] = relative(failure.get("episode"))
