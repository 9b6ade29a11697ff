#!/usr/bin/env python
"""Benchmark the reward model: step and outcome F1 on MiniWoB++ tasks held out of training.

One run does everything, each stage timed:

1. **Demonstrations**: the scripted oracle solves every task on seeds ``0..SEEDS-1`` through
   the real runner (real Chromium), as ``gui-agent run --policy oracle`` does.
2. **Reward data**: ``gui-agent make-reward-data`` replays each demonstration and executes
   the human simulator's variants (click offsets, skipped/swapped/repeated steps, wrong
   text, early stop, recovery...), labels every step by executing prefixes and every
   episode by the task's evaluator. Cached in ``--data`` (a re-run reuses it).
3. **Training** (``gui-agent train reward``'s code) on the training tasks only, on
   ``--threads`` CPU threads; its wall time is reported.
4. **Held-out figures**: step F1 (``progress`` vs the rest) and outcome F1 (success) on
   the held-out tasks' samples, next to trivial baselines computed on the same samples in
   the same run: always-positive (the best constant for F1), and "the screen changed"
   (step: the step changed the screen; outcome: the final screen differs from the first).

Usage:
    python scripts/bench_reward.py                       # defaults: 6 seeds, 8 epochs; ~10 min on 2 cores
    python scripts/bench_reward.py --data /tmp/reward-bench --seeds 10 --epochs 8 --json out.json
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
    from gui_agent.runner import EnvSlot, run_with_retries
    from gui_agent.task import load_task
    from models.policies import load_policy

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("/tmp/gui-agent-reward-bench"), help="work folder (demos/, data/, ckpt/); reused")
    parser.add_argument("--seeds", type=int, default=6, help="demonstrations per task (default: 6)")
    parser.add_argument("--train-tasks", default="all",
                        help="training tasks: all (every MiniWoB++ task but the held-out ones, default), twelve, or a comma-separated list")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--train-seed", type=int, default=0, help="seed of the network's initialisation and shuffling (default: 0)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="make-reward-data workers")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    import torch

    from models.reward.data import load_reward_data
    from models.reward.metrics import binary_scores
    from models.reward.model import RewardModel
    from models.reward.training import (
        TrainOptions,
        predict_outcomes,
        predict_steps,
        train_reward_model,
    )

    torch.set_num_threads(args.threads)
    tasks = train_tasks(args.train_tasks) + list(HELD_OUT)
    demos, data_dir, ckpt = args.data / "demos", args.data / "data", args.data / "ckpt"
    timings: dict[str, float] = {}
    if not (data_dir / "outcomes.jsonl").exists():
        print(f"demonstrations: oracle x {len(tasks)} tasks x {args.seeds} seeds", flush=True)
        timings["demos_s"] = make_demos(tasks, args.seeds, demos)
        print("reward data: gui-agent make-reward-data", flush=True)
        timings["data_s"] = make_data(demos, data_dir, args.workers)
    else:
        print(f"reusing the reward data in {data_dir}", flush=True)
    started = time.monotonic()
    data = load_reward_data([data_dir])
    timings["load_s"] = time.monotonic() - started
    held = [f"miniwob/{t}" for t in HELD_OUT]
    train, test = data.only_tasks(set(data.tasks) - set(held)), data.only_tasks(held)
    print(f"data: {len(data.steps)} steps, {len(data.outcomes)} outcomes, {len(data.tasks)} tasks; "
          f"held out: {len(test.steps)} steps, {len(test.outcomes)} outcomes of {', '.join(HELD_OUT)}", flush=True)
    if ckpt.exists():
        import shutil

        shutil.rmtree(ckpt)
    started = time.monotonic()
    train_reward_model(train, TrainOptions(out=ckpt, epochs=args.epochs, threads=args.threads, seed=args.train_seed))
    timings["train_s"] = time.monotonic() - started
    model = RewardModel.load(ckpt)

    step_truth = [e.label == 0 for e in test.steps]
    step_probs = predict_steps(model.step_net, test.steps, progress=True)
    step_model = binary_scores([s >= model.step_threshold for s in step_probs], step_truth)
    step_changed = binary_scores([e.changed for e in test.steps], step_truth)
    step_always = binary_scores([True] * len(step_truth), step_truth)
    out_truth = [e.success for e in test.outcomes]
    out_probs = predict_outcomes(model.outcome_net, test.outcomes)
    out_model = binary_scores([p >= model.outcome_threshold for p in out_probs], out_truth)
    per_task = {}
    for task in held:
        steps = [i for i, e in enumerate(test.steps) if e.task_id == task]
        outs = [i for i, e in enumerate(test.outcomes) if e.task_id == task]
        per_task[task] = {
            "step_f1": round(binary_scores([step_probs[i] >= model.step_threshold for i in steps], [step_truth[i] for i in steps]).f1, 3),
            "outcome_f1": round(binary_scores([out_probs[i] >= model.outcome_threshold for i in outs], [out_truth[i] for i in outs]).f1, 3),
        }
    out_changed = binary_scores([not e.ended_unchanged for e in test.outcomes], out_truth)
    out_always = binary_scores([True] * len(out_truth), out_truth)

    load = os.getloadavg()
    print()
    print(f"held-out tasks: {', '.join(HELD_OUT)}  (trained on {len(train.tasks)} others)")
    print(f"step    ({step_model.count} samples, {step_model.positives} progress): model {_f(step_model)} | "
          f"screen changed {_f(step_changed)} | always progress {_f(step_always)}")
    print(f"outcome ({out_model.count} episodes, {out_model.positives} successes): model {_f(out_model)} | "
          f"screen changed {_f(out_changed)} | always success {_f(out_always)}")
    print("per held-out task: " + "; ".join(f"{t.split('/')[-1]} step {v['step_f1']:.3f} outcome {v['outcome_f1']:.3f}" for t, v in per_task.items()))
    print(f"training: {timings['train_s']:.1f} s for {args.epochs} epochs on {args.threads} threads "
          f"({len(train.steps)} steps, {len(train.outcomes)} outcomes); load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"command: python scripts/bench_reward.py --data {args.data} --seeds {args.seeds} --train-tasks {args.train_tasks} "
          f"--epochs {args.epochs} --threads {args.threads} --train-seed {args.train_seed}")
    if args.json:
        figures = {"held_out": list(HELD_OUT), "train_tasks": train.tasks, "timings_s": {k: round(v, 2) for k, v in timings.items()},
                   "step": {"model": step_model.to_dict(), "screen_changed": step_changed.to_dict(), "always": step_always.to_dict()},
                   "outcome": {"model": out_model.to_dict(), "screen_changed": out_changed.to_dict(), "always": out_always.to_dict()},
                   "per_task": per_task, "load_average": load}
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
