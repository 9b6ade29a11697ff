#!/usr/bin/env python
"""Benchmark the reward model: step and outcome F1 on MiniWoB++ tasks held out of training.

One run does everything, each stage timed:

1. **Demonstrations**: the scripted oracle solves every task on seeds ``0..SEEDS-1`` through
   the real runner (real Chromium), as ``gui-agent run --policy oracle`` does.
2. **Reward data**: ``gui-agent make-reward-data`` replays each demonstration and executes
   the human simulator's variants (click offsets, skipped/swapped/repeated steps, wrong
   text, early stop, recovery...), labels every step by executing prefixes and every
   episode by the task's evaluator. Cached in ``--data``: a re-run reuses it and adds
   only the tasks it has no demonstrations of.
3. **Training** (``gui-agent train reward``'s code) on the training tasks only, on
   ``--threads`` CPU threads; its wall time is reported.
4. **Held-out figures**: step F1 (``progress`` vs the rest) and outcome F1 (success) on
   the held-out tasks' samples, next to trivial baselines computed on the same samples in
   the same run: always-positive (the best constant for F1), and "the screen changed"
   (step: the step changed the screen; outcome: the final screen differs from the first).

With ``--cv K`` it also cross-validates over the *training* tasks: they are dealt into K
folds, K more models are trained, each on the other folds, and each task is scored by the
model that never saw it. The pooled F1 covers every training task (71) instead of five, and the five
held-out tasks take no part in it, so it is the figure to choose design variants on while
the five stay an untouched test.

Usage:
    python scripts/bench_reward.py                       # defaults: 12 seeds, 3 epochs; ~30 min on 2 cores
    python scripts/bench_reward.py --data /tmp/reward-bench --seeds 10 --epochs 3 --json out.json
    python scripts/bench_reward.py --data /tmp/reward-bench --cv 5   # + 5 trainings: each training task held out once
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TASKS_DIR = REPO / "datasets" / "tasks" / "miniwob"
HELD_OUT = ("click-link", "click-dialog-2", "enter-password", "focus-text-2", "click-tab-2")
#: The first, smaller training set (``--train-tasks twelve``).
TWELVE_TASKS = ("click-button", "click-button-sequence", "click-checkboxes", "click-dialog", "click-option", "click-tab",
                "click-test", "click-test-2", "enter-text", "focus-text", "login-user", "click-collapsible")


def train_tasks(spec: str) -> list[str]:
    """``all``: every MiniWoB++ task file but the held-out ones; ``twelve``; or a comma-separated list."""
    if spec == "all":
        return sorted(p.stem for p in TASKS_DIR.glob("*.yaml") if p.stem not in HELD_OUT)
    names = list(TWELVE_TASKS) if spec == "twelve" else [t.strip() for t in spec.split(",") if t.strip()]
    overlap = sorted(set(names) & set(HELD_OUT))
    if overlap:
        raise SystemExit(f"--train-tasks must not name held-out tasks: {', '.join(overlap)}")
    return names


def make_demos(tasks: list[str], seeds: int, out: Path) -> float:
    from gui_agent.registry import load_policy
    from gui_agent.runner import EnvSlot, run_with_retries
    from gui_agent.task import load_task

    started = time.monotonic()
    slot = EnvSlot()
    try:
        policy = load_policy("oracle")
        for name in tasks:
            task = load_task(TASKS_DIR / f"{name}.yaml")
            for seed in range(seeds):
                result = run_with_retries(task, policy, slot=slot, out_dir=out / name, seed=seed)
                if not result.success:
                    print(f"  note: the oracle failed {name} seed {seed}; it is not a demonstration", flush=True)
    finally:
        slot.close()
    return time.monotonic() - started


def make_data(demos: Path, data: Path, workers: int) -> float:
    started = time.monotonic()
    episodes = sorted(str(p) for p in demos.glob("*/*") if (p / "episode.json").exists())
    command = [sys.executable, "-m", "gui_agent", "make-reward-data", *episodes, "--out", str(data), "--workers", str(workers)]
    completed = subprocess.run(command, cwd=REPO, check=False)
    if completed.returncode not in (0, 1):
        raise SystemExit(f"make-reward-data failed with exit status {completed.returncode}")
    return time.monotonic() - started


def _f(scores) -> str:  # type: ignore[no-untyped-def]
    return f"F1 {scores.f1:.3f} (P {scores.precision:.3f}, R {scores.recall:.3f}, acc {scores.accuracy:.3f})"


def train_and_predict(train, test, ckpt: Path, args: argparse.Namespace) -> tuple[list[float], list[float], float]:  # type: ignore[no-untyped-def]
    """Train on ``train`` into ``ckpt`` (replacing it); P(progress) of ``test``'s steps, P(success) of its outcomes, the training time.

    The decisions are made at :data:`DECISION_THRESHOLD`, which is what the checkpoint stores.
    """
    import shutil

    from gui_agent.models.reward.model import RewardModel
    from gui_agent.models.reward.training import (
        DECISION_THRESHOLD,
        TrainOptions,
        predict_outcomes,
        predict_steps,
        train_reward_model,
    )

    if ckpt.exists():
        shutil.rmtree(ckpt)
    started = time.monotonic()
    train_reward_model(train, TrainOptions(out=ckpt, epochs=args.epochs, threads=args.threads, seed=args.train_seed))
    seconds = time.monotonic() - started
    model = RewardModel.load(ckpt)
    if (model.step_threshold, model.outcome_threshold) != (DECISION_THRESHOLD, DECISION_THRESHOLD):
        raise SystemExit(f"the checkpoint's thresholds are not {DECISION_THRESHOLD}; this benchmark decides at {DECISION_THRESHOLD}")
    return predict_steps(model.step_net, test.steps, progress=True), predict_outcomes(model.outcome_net, test.outcomes), seconds


def score(test, step_probs: list[float], out_probs: list[float]) -> dict:  # type: ignore[no-untyped-def,type-arg]
    """The model's step and outcome scores on ``test`` (decided at even odds), the baselines' on the same samples, F1 and AUC per task."""
    from gui_agent.models.reward.metrics import binary_scores, roc_auc
    from gui_agent.models.reward.training import DECISION_THRESHOLD

    step_pred = [p >= DECISION_THRESHOLD for p in step_probs]
    out_pred = [p >= DECISION_THRESHOLD for p in out_probs]

    step_truth = [e.label == 0 for e in test.steps]
    out_truth = [e.success for e in test.outcomes]
    per_task = {}
    for task in test.tasks:
        steps = [i for i, e in enumerate(test.steps) if e.task_id == task]
        outs = [i for i, e in enumerate(test.outcomes) if e.task_id == task]
        per_task[task] = {
            "step_f1": round(binary_scores([step_pred[i] for i in steps], [step_truth[i] for i in steps]).f1, 3),
            "outcome_f1": round(binary_scores([out_pred[i] for i in outs], [out_truth[i] for i in outs]).f1, 3),
            "step_auc": roc_auc([step_probs[i] for i in steps], [step_truth[i] for i in steps]),
            "outcome_auc": roc_auc([out_probs[i] for i in outs], [out_truth[i] for i in outs]),
        }
    return {
        "step": {"model": binary_scores(step_pred, step_truth),
                 "screen_changed": binary_scores([e.changed for e in test.steps], step_truth),
                 "always": binary_scores([True] * len(step_truth), step_truth)},
        "outcome": {"model": binary_scores(out_pred, out_truth),
                    "screen_changed": binary_scores([not e.ended_unchanged for e in test.outcomes], out_truth),
                    "always": binary_scores([True] * len(out_truth), out_truth)},
        "per_task": per_task,
    }


def print_scores(scores: dict) -> None:  # type: ignore[type-arg]
    step, out = scores["step"], scores["outcome"]
    aucs = {level: [v[f"{level}_auc"] for v in scores["per_task"].values() if v[f"{level}_auc"] is not None] for level in ("step", "outcome")}
    print(f"step    ({step['model'].count} samples, {step['model'].positives} progress): model {_f(step['model'])} | "
          f"screen changed {_f(step['screen_changed'])} | always progress {_f(step['always'])}")
    print(f"outcome ({out['model'].count} episodes, {out['model'].positives} successes): model {_f(out['model'])} | "
          f"screen changed {_f(out['screen_changed'])} | always success {_f(out['always'])}")
    print("ranking within a task (AUC, mean over tasks): " + ", ".join(
        f"{level} {sum(v) / len(v):.3f}" for level, v in aucs.items() if v))


def as_json(scores: dict) -> dict:  # type: ignore[type-arg]
    return {level: {k: v.to_dict() for k, v in scores[level].items()} for level in ("step", "outcome")} | {"per_task": scores["per_task"]}


def cross_validate(data, folds: int, args: argparse.Namespace) -> dict:  # type: ignore[no-untyped-def,type-arg]
    """Every task scored by a model trained on the other folds (checkpoints in ckpt-cv/); tasks dealt round-robin in name order."""
    tasks = sorted(data.tasks)
    if not 2 <= folds <= len(tasks):
        raise SystemExit(f"--cv must be between 2 and the number of tasks ({len(tasks)})")
    step_prob: dict[str, float] = {}
    out_prob: dict[str, float] = {}
    seconds = []
    for fold in range(folds):
        held = tasks[fold::folds]
        print(f"cross-validation fold {fold + 1}/{folds}: holding out {', '.join(t.split('/')[-1] for t in held)}", flush=True)
        test = data.only_tasks(held)
        steps, outcomes, took = train_and_predict(data.only_tasks(set(tasks) - set(held)), test, args.data / "ckpt-cv", args)
        seconds.append(took)
        step_prob |= {e.sample_id: p for e, p in zip(test.steps, steps)}
        out_prob |= {e.sample_id: p for e, p in zip(test.outcomes, outcomes)}
    pooled = score(data, [step_prob[e.sample_id] for e in data.steps], [out_prob[e.sample_id] for e in data.outcomes])
    return pooled | {"folds": folds, "train_s": seconds, "fold_tasks": [tasks[f::folds] for f in range(folds)]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("/tmp/gui-agent-reward-bench"), help="work folder (demos/, data/, ckpt/, ckpt-cv/); reused: only tasks with no demonstrations there are added")
    parser.add_argument("--seeds", type=int, default=12, help="demonstrations per task (default: 12)")
    parser.add_argument("--train-tasks", default="all",
                        help="training tasks: all (every MiniWoB++ task but the held-out ones, default), twelve, or a comma-separated list")
    parser.add_argument("--epochs", type=int, default=3, help="training passes (default: 3, what gui-agent train reward does)")
    parser.add_argument("--train-seed", type=int, default=0, help="seed of the network's initialisation and shuffling (default: 0)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="make-reward-data workers")
    parser.add_argument("--cv", type=int, default=0, metavar="K",
                        help="also cross-validate over the training tasks in K folds (K more trainings; each held out once)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    import torch

    from gui_agent.models.reward.data import load_reward_data

    torch.set_num_threads(args.threads)
    tasks = train_tasks(args.train_tasks) + list(HELD_OUT)
    demos, data_dir = args.data / "demos", args.data / "data"
    timings: dict[str, float] = {}
    # Tasks with no demonstrations yet (all of them on a first run, a task file added since
    # on a later one) get them; make-reward-data then resumes, doing only the new episodes.
    missing = [t for t in tasks if not (demos / t).is_dir()]
    if missing or not (data_dir / "outcomes.jsonl").exists():
        if missing:
            print(f"demonstrations: oracle x {len(missing)} tasks x {args.seeds} seeds" +
                  (f" ({', '.join(missing)})" if len(missing) < len(tasks) else ""), flush=True)
            timings["demos_s"] = make_demos(missing, args.seeds, demos)
        print("reward data: gui-agent make-reward-data", flush=True)
        timings["data_s"] = make_data(demos, data_dir, args.workers)
    else:
        print(f"reusing the reward data in {data_dir}", flush=True)
    started = time.monotonic()
    data = load_reward_data([data_dir]).only_tasks(f"miniwob/{t}" for t in tasks)
    timings["load_s"] = time.monotonic() - started
    held = [f"miniwob/{t}" for t in HELD_OUT]
    train, test = data.only_tasks(set(data.tasks) - set(held)), data.only_tasks(held)
    print(f"data: {len(data.steps)} steps, {len(data.outcomes)} outcomes, {len(data.tasks)} tasks; "
          f"held out: {len(test.steps)} steps, {len(test.outcomes)} outcomes of {', '.join(HELD_OUT)}", flush=True)
    step_probs, out_probs, timings["train_s"] = train_and_predict(train, test, args.data / "ckpt", args)
    held_out = score(test, step_probs, out_probs)
    crossed = cross_validate(train, args.cv, args) if args.cv else None

    load = os.getloadavg()
    print()
    print(f"held-out tasks: {', '.join(HELD_OUT)}  (trained on {len(train.tasks)} others)")
    print_scores(held_out)
    print("per held-out task: " + "; ".join(f"{t.split('/')[-1]} step {v['step_f1']:.3f} outcome {v['outcome_f1']:.3f}"
                                            for t, v in held_out["per_task"].items()))
    print(f"training: {timings['train_s']:.1f} s for {args.epochs} epochs on {args.threads} threads "
          f"({len(train.steps)} steps, {len(train.outcomes)} outcomes); load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    if crossed is not None:
        print(f"\n{args.cv}-fold cross-validation over the {len(train.tasks)} training tasks (each scored by the model that did not train on it):")
        print_scores(crossed)
        worst = sorted(crossed["per_task"].items(), key=lambda kv: kv[1]["outcome_f1"])[:8]
        print("lowest outcome F1: " + "; ".join(f"{t.split('/')[-1]} {v['outcome_f1']:.3f}" for t, v in worst))
        print(f"training: {', '.join(f'{s:.0f}' for s in crossed['train_s'])} s per fold")
    print(f"command: python scripts/bench_reward.py --data {args.data} --seeds {args.seeds} --train-tasks {args.train_tasks} "
          f"--epochs {args.epochs} --threads {args.threads} --train-seed {args.train_seed}" + (f" --cv {args.cv}" if args.cv else ""))
    if args.json:
        figures = {"held_out": list(HELD_OUT), "train_tasks": train.tasks, "timings_s": {k: round(v, 2) for k, v in timings.items()},
                   **as_json(held_out), "load_average": load}
        if crossed is not None:
            figures["cross_validation"] = as_json(crossed) | {k: crossed[k] for k in ("folds", "train_s", "fold_tasks")}
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
