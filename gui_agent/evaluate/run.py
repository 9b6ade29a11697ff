"""An evaluation run from start to results: plan, resume, run on workers, stream, report.

:func:`evaluate_suite` is what ``gui-agent eval`` calls. It plans one
:class:`~gui_agent.workers.work.WorkItem` per task and try, skips those the ledger
already has (``resume``), runs the rest on local workers or Ray, appends each record to
the ledger the moment it arrives, and finally writes ``results.json``, ``results.md``
and the plot. Everything is in the output folder::

    <out>/run.json                 what the run is, and each session's throughput
    <out>/ledger.jsonl             one line per finished episode (streamed)
    <out>/episodes/<task>/repeat-NNN/<episode_id>/   the trajectories (one per attempt)
    <out>/results.json, results.md, cost_effectiveness.png
"""

from __future__ import annotations

import datetime as dt
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gui_agent.evaluate.ledger import (
    LEDGER_FILE,
    MANIFEST_FILE,
    Ledger,
    LedgerRecord,
    read_manifest,
    read_records,
    resume_conflicts,
    write_manifest,
)
from gui_agent.evaluate.plot import PLOT_FILE, plot_cost_effectiveness
from gui_agent.evaluate.report import summarize, write_results
from gui_agent.evaluate.suite import resolve_suite
from gui_agent.evaluate.worker import WorkerConfig
from gui_agent.registry import check_policy, scorers
from gui_agent.workers.work import Scheduler, WorkItem, item_key

#: Seconds a worker may need beyond the task's own limits per attempt (browser start, evaluation).
ATTEMPT_OVERHEAD_S = 60.0


@dataclass
class EvalOptions:
    """The settings of an evaluation run (the ``gui-agent eval`` options).

    Attributes:
        suite: task files, folders, or named suites.
        policy: policy spec (see :func:`gui_agent.registry.load_policy`).
        repeats: tries per task (k).
        out_dir: the run's folder.
        workers: parallel workers.
        pin_cpus: pin local workers to a CPU each (see :func:`gui_agent.workers.local_pool.cpu_slots`).
        ray: run the workers as Ray actors; ``ray_address`` picks the cluster.
        resume: continue the run in ``out_dir``, redoing only unfinished episodes and those
            whose policy service was down.
        seed: seed of try 0; try r uses ``seed + r`` (or ``seed`` with ``same_seed``).
        seeds: explicit seeds, one per try (overrides repeats, seed and same_seed).
        max_attempts: tries of an episode whose environment failed.
        on_loop / max_tokens / max_cost_usd / headless: see :class:`~gui_agent.evaluate.worker.WorkerConfig`.
        max_run_cost_usd: once the recorded episodes' cost reaches it, no new episode
            starts (those under way finish); ``--resume`` with a larger budget runs the rest.
        judge / best_of / reward_model / observe: see :class:`~gui_agent.evaluate.worker.WorkerConfig`.
    """

    suite: list[str]
    policy: str = "oracle"
    repeats: int = 1
    out_dir: Path = Path("runs/eval")
    workers: int = 1
    pin_cpus: bool = True
    ray: bool = False
    ray_address: str | None = None
    resume: bool = False
    seed: int = 0
    same_seed: bool = False
    seeds: list[int] | None = None
    max_attempts: int = 3
    on_loop: str = "stop"
    max_tokens: int | None = None
    max_cost_usd: float | None = None
    max_run_cost_usd: float | None = None
    headless: bool | None = None
    judge: str | None = None
    best_of: int = 1
    reward_model: str | None = None
    observe: tuple[str, ...] = ()


def plan(task_files: list[Path], options: EvalOptions) -> list[WorkItem]:
    """One work item per task and try, tasks in suite order."""
    from gui_agent.envs.observe_modes import apply_observe
    from gui_agent.task import load_task

    items: list[WorkItem] = []
    seen: dict[str, Path] = {}
    for path in task_files:
        task = load_task(path)
        apply_observe(task, options.observe, where=str(path))  # a kind the task cannot observe: refused before any start
        if task.id in seen:
            raise ValueError(f"task id {task.id!r} is in both {seen[task.id]} and {path}")
        seen[task.id] = path
        per_attempt = task.limits.episode_timeout_s + ATTEMPT_OVERHEAD_S
        for repeat in range(options.repeats):
            if options.seeds:
                seed = options.seeds[repeat]
            else:
                seed = options.seed if options.same_seed else options.seed + repeat
            items.append(WorkItem(key=item_key(task.id, repeat), task_file=str(path), task_id=task.id, repeat=repeat,
                                  seed=seed, deadline_s=options.max_attempts * per_attempt))
    return items


def _manifest(options: EvalOptions, task_files: list[Path]) -> dict[str, Any]:
    return {"suite": [str(s) for s in options.suite], "task_files": [str(p) for p in task_files], "policy": options.policy,
            "repeats": options.repeats, "seed": options.seed, "same_seed": options.same_seed, "seeds": options.seeds,
            "max_attempts": options.max_attempts, "on_loop": options.on_loop, "max_tokens": options.max_tokens,
            "max_cost_usd": options.max_cost_usd, "judge": options.judge, "best_of": options.best_of if options.best_of > 1 else None,
            "reward_model": options.reward_model if options.best_of > 1 else None,
            "observe": sorted(options.observe) or None, "sessions": []}


def evaluate_suite(
    options: EvalOptions,
    *,
    on_start: Callable[[int, int], None] | None = None,
    on_record: Callable[[LedgerRecord], None] | None = None,
    on_note: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run (or resume) an evaluation and write its results; return them (see :func:`summarize`).

    Args:
        options: the run's settings.
        on_start: called with (episodes to run now, episodes in the plan).
        on_record: called with each ledger record as it is written.
        on_note: called with notes (a worker replaced...).

    Raises:
        ValueError: bad suite or settings, an existing run without ``resume``, or a
            resume with settings that differ from the run's.
        RuntimeError: workers could not start.
    """
    out = Path(options.out_dir)
    if options.seeds:
        options.repeats = len(options.seeds)
    task_files = resolve_suite(options.suite)
    items = plan(task_files, options)
    manifest = _run_manifest(options, out, task_files)
    _check_models(options, task_files, on_note)
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    done = read_records(out / LEDGER_FILE)
    pending = _to_run(items, done)
    session: dict[str, Any] = {"started_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                               "backend": "ray" if options.ray else "local", "workers": options.workers,
                               "resumed": options.resume, "planned": len(items), "to_run": len(pending)}
    manifest["sessions"].append(session)
    write_manifest(out, manifest)
    if on_start is not None:
        on_start(len(pending), len(items))
    config = WorkerConfig(policy=options.policy, out_dir=str(out.resolve()), max_attempts=options.max_attempts,
                          on_loop=options.on_loop, max_tokens=options.max_tokens, max_cost_usd=options.max_cost_usd,
                          headless=options.headless,
                          judge=options.judge, best_of=options.best_of, reward_model=options.reward_model,
                          observe=tuple(sorted(options.observe)))
    pool = _pool(options, config)
    finished = 0
    started = time.monotonic()
    scheduler = Scheduler(pending)
    spent = {"usd": sum(r.cost_usd for r in done.values())}

    def record(entry: dict[str, Any]) -> None:
        nonlocal finished
        _relative_episode(entry, out)
        ledger.append(entry)  # the line as the worker wrote it
        typed = done[entry["key"]] = LedgerRecord.parse(entry)
        finished += 1
        if on_record is not None:
            on_record(typed)
        spent["usd"] += typed.cost_usd
        over_budget()

    def over_budget() -> None:
        """Once the money spent reaches ``--max-run-cost``, nothing more starts (the pools
        hand out the next episode only after the record that may spend the budget)."""
        limit = options.max_run_cost_usd
        if limit is not None and spent["usd"] >= limit and "stopped" not in session:
            dropped = scheduler.withdraw()
            session["stopped"] = f"run cost budget reached (${spent['usd']:.4f} of ${limit:g}); {dropped} episodes not started"
            if on_note is not None:
                on_note(session["stopped"] + " (raise --max-run-cost and --resume to run them)")

    over_budget()  # a resumed run whose ledger has already spent it starts nothing

    try:
        with Ledger(out / LEDGER_FILE) as ledger:
            try:
                if len(scheduler):  # none left when the budget was spent before this session
                    pool.run(scheduler, record, on_note)
            finally:
                wall = time.monotonic() - started
                session.update(finished_at=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                               wall_s=round(wall, 3), episodes=finished,
                               episodes_per_s=round(finished / wall, 4) if wall > 0 and finished else None)
                write_manifest(out, manifest)
    except Exception:
        if not options.resume and finished == 0:
            _release(out, created=created)  # nothing ran: the same command may be run again as it is
        raise
    return report(out, items=items, k=options.repeats)


def _run_manifest(options: EvalOptions, out: Path, task_files: list[Path]) -> dict[str, Any]:
    """The run's ``run.json`` for this session: new, or the resumed run's with its sessions so far.

    Raises:
        ValueError: ``resume`` with no run in ``out`` or with other settings than the
            run's; or, without ``resume``, a run already in ``out``.
    """
    manifest = _manifest(options, task_files)
    old = read_manifest(out)
    if options.resume:
        if old is None:
            raise ValueError(f"{out}: nothing to resume (no run.json); run without --resume first")
        conflicts = resume_conflicts(old, manifest)
        if conflicts:
            raise ValueError(f"{out}: the run was made with other settings: " + "; ".join(conflicts))
        manifest["sessions"] = old.get("sessions", [])
    elif old is not None or (out / LEDGER_FILE).exists():
        raise ValueError(f"{out} already holds a run: pass --resume to continue it, or choose another --out")
    return manifest


def _pool(options: EvalOptions, config: WorkerConfig) -> Any:
    """The workers the run asks for: Ray actors, or local processes."""
    if options.ray:
        from gui_agent.workers.ray_pool import RayPool

        return RayPool(config, workers=options.workers, address=options.ray_address)
    from gui_agent.workers.local_pool import LocalPool

    return LocalPool(config, workers=options.workers, pin_cpus=options.pin_cpus)


def _to_run(items: list[WorkItem], done: dict[str, LedgerRecord]) -> list[WorkItem]:
    """The items a (resumed) run still has to run: those without a record, and those whose
    policy's model service was down (worth asking again; an episode that ran is not)."""
    return [item for item in items if item.key not in done or done[item.key].termination == "service_error"]


def _relative_episode(entry: dict[str, Any], out: Path) -> None:
    """Name the record's episode folder relative to the run's folder, when it is inside it."""
    episode = entry.get("episode")
    if episode:
        try:
            entry["episode"] = str(Path(episode).resolve().relative_to(out.resolve()))
        except ValueError:
            pass


def _release(out: Path, *, created: bool) -> None:
    """Undo a new run that failed before any episode finished (workers that could not start).

    The run's files are what make ``--out`` "already hold a run"; the folder goes too
    when this run created it. A folder the user made keeps everything else in it.
    """
    if created:
        shutil.rmtree(out, ignore_errors=True)
        return
    for name in (MANIFEST_FILE, LEDGER_FILE):
        (out / name).unlink(missing_ok=True)


def _check_models(options: EvalOptions, task_files: list[Path], on_note: Callable[[str], None] | None) -> None:
    """Refuse a task file, policy spec, judge or reward model that cannot work before any worker starts (loads no weights).

    A policy that cannot act on some of the tasks at all (a scripted oracle) is refused
    here, as bad input: run as episodes, each would only end without a verdict.
    """
    if options.best_of > 1 and not options.reward_model:
        raise ValueError("--best-of needs a reward model: --reward-model CKPT (or a checkpoint as --judge)")
    from gui_agent.envs.observe_modes import apply_observe, observed
    from gui_agent.task import load_task

    tasks = [load_task(p) for p in task_files]
    for path, task in zip(task_files, tasks):
        apply_observe(task, options.observe, where=str(path))
    check_policy(options.policy, [task.id for task in tasks],  # e.g. the MiniWoB++ oracle on desktop tasks
                 observed={task.id: observed(task) for task in tasks})
    if options.best_of > 1:
        scorers().check_reward_model(str(options.reward_model))
    if options.judge:
        scorers().check_judge(options.judge)
        if on_note is not None and all(task.evaluator is not None for task in tasks):
            on_note("every task has an evaluator, so the judge is not used (it judges tasks without one)")


def report(out: Path, *, items: list[WorkItem] | None = None, k: int | None = None) -> dict[str, Any]:
    """(Re)compute and write the results of the run in ``out`` from its ledger."""
    manifest = read_manifest(out) or {}
    records = read_records(out / LEDGER_FILE)
    if items is not None:
        wanted = {item.key for item in items}
        records = {key: r for key, r in records.items() if key in wanted}
    k = k or int(manifest.get("repeats", 1))
    last = (manifest.get("sessions") or [{}])[-1]
    run = {key: manifest.get(key) for key in ("suite", "policy", "repeats", "seed", "same_seed", "seeds", "max_attempts", "on_loop", "max_tokens", "max_cost_usd",
                                              "judge", "best_of", "reward_model", "observe")}
    run.update(workers=last.get("workers"), backend=last.get("backend"), episodes_per_s=last.get("episodes_per_s"), stopped=last.get("stopped"),
               planned=len(items) if items is not None else None, finished=len(records))
    results = summarize(records.values(), k=k, run=run)
    write_results(out, results)
    plot_cost_effectiveness(results, out / PLOT_FILE)
    return results


__all__ = ["EvalOptions", "evaluate_suite", "plan", "report"]
