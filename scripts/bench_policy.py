#!/usr/bin/env python
"""Benchmark the shipped pixel policy against the random policy on unseen MiniWoB++ seeds.

For every task of the suite (default: the named suite ``miniwob-pixel``), both policies
run the same seeds in the same browser, in this run: per-task success, the mean, and
their ratio. Also: CPU inference latency per step of the pixel policy (median and p95,
the network call only) and the training time recorded in the checkpoint.

    .venv/bin/python scripts/bench_policy.py                 # seeds 0-9: a few minutes
    .venv/bin/python scripts/bench_policy.py --seeds 0-49    # the README figures

Seeds 0-49 are never used for training (demonstrations come from seeds >= 1000).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gui_agent.envs.factory import make_env
from gui_agent.evaluate.suite import resolve_suite
from gui_agent.runner import run_episode
from gui_agent.task import load_task


class _Timed:
    """Forwards to a policy and records how long each act() takes."""

    def __init__(self, policy) -> None:  # type: ignore[no-untyped-def]
        self.policy = policy
        self.name = policy.name
        self.seconds: list[float] = []

    def reset(self, task) -> None:  # type: ignore[no-untyped-def]
        self.policy.reset(task)

    def act(self, observation):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        output = self.policy.act(observation)
        self.seconds.append(time.perf_counter() - started)
        return output


def _seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        start, _, end = part.partition("-")
        seeds.extend(range(int(start), int(end) + 1) if end else [int(start)])
    return seeds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint", type=Path, help="pixel checkpoint (default: the shipped one)")
    parser.add_argument("--suite", nargs="+", default=["miniwob-pixel"], help="task files, folders or a named suite")
    parser.add_argument("--seeds", default="0-9", help="evaluation seeds (default: 0-9; README: 0-49)")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads for inference (default: 1)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    import torch

    from gui_agent.models.pixel.policy import PixelPolicy
    from gui_agent.models.policies.random_policy import RandomPolicy

    torch.set_num_threads(args.threads)
    seeds = _seeds(args.seeds)
    pixel = _Timed(PixelPolicy(args.checkpoint))
    random_policy = RandomPolicy(seed=0)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-policy-") as out:
        for path in resolve_suite(args.suite):
            task = load_task(path)
            env = make_env(task)
            try:
                wins = {"pixel": 0, "random": 0}
                for name, policy in (("pixel", pixel), ("random", random_policy)):
                    for seed in seeds:
                        result = run_episode(task, policy, out_dir=Path(out) / name, seed=seed, env=env)
                        if result.env_failed:  # the browser broke (never the policy's fault): rebuild it and rerun once
                            env.close()
                            env = make_env(task)
                            result = run_episode(task, policy, out_dir=Path(out) / name, seed=seed, env=env)
                        wins[name] += bool(result.success)
            finally:
                env.close()
            rows.append({"task": task.id, "pixel": wins["pixel"] / len(seeds), "random": wins["random"] / len(seeds)})
            print(f"{task.id:34s} pixel {100 * rows[-1]['pixel']:5.1f}%   random {100 * rows[-1]['random']:5.1f}%", flush=True)

    mean_pixel = statistics.mean(r["pixel"] for r in rows)
    mean_random = statistics.mean(r["random"] for r in rows)
    latencies = sorted(pixel.seconds)
    p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
    meta = pixel.policy.meta
    figures = {
        "tasks": rows,
        "seeds": args.seeds,
        "mean_success_pixel": round(mean_pixel, 4),
        "mean_success_random": round(mean_random, 4),
        "latency_ms_median": round(1000 * statistics.median(latencies), 2),
        "latency_ms_p95": round(1000 * p95, 2),
        "steps_timed": len(latencies),
        "threads": args.threads,
        "train_seconds": meta.get("train_seconds"),
        "train_epochs": meta.get("epochs_done"),
        "train_samples": (meta.get("data") or {}).get("train_samples"),
        "checkpoint": str(pixel.policy.checkpoint),
    }
    print()
    print(f"mean success over {len(rows)} tasks x {len(seeds)} seeds ({args.seeds}): pixel {100 * mean_pixel:.1f}%  "
          f"random {100 * mean_random:.1f}%  ratio {mean_pixel / mean_random if mean_random else float('inf'):.1f}x")
    print(f"pixel inference per step (CPU, {args.threads} thread(s)): median {figures['latency_ms_median']} ms, "
          f"p95 {figures['latency_ms_p95']} ms over {len(latencies)} steps")
    print(f"training (from the checkpoint): {figures['train_seconds']} s, {figures['train_epochs']} epochs, "
          f"{figures['train_samples']} training steps")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
