#!/usr/bin/env python
"""Benchmark a VLM policy step against bare transformers generation, in one run.

For each family (Qwen2-VL, Qwen2.5-VL, Idefics3) a tiny model is taught one oracle
demonstration (MiniWoB++ click-button, seed 0, real Chromium) with ``train_vlm``, saved,
and loaded back as ``--policy hf:DIR``. Then, on the demonstration's screenshot:

* policy step: ``VlmPolicy.act`` -- SFT prompt built, chat template, processor (resize,
  patches), greedy generation, reply parsed into canonical actions, history updated;
* baseline: ``model.generate`` alone on the same prompt's precomputed inputs, with the
  same generation arguments (so the same tokens come out).

Calls alternate, so a shared machine loads both alike. Prints median / p95 of each, the
ratio (the policy's overhead over bare generation), tokens per step, the one-row training
step time, the load average and the command line.

Usage:
    python scripts/bench_vlm.py [--steps 30] [--threads 1] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=30, help="timed calls of each kind per family (default: 30)")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (default: 1)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    import numpy as np
    import torch
    from PIL import Image

    from gui_agent.envs.base import Observation
    from gui_agent.episode import read_episode
    from gui_agent.policy import TaskContext
    from gui_agent.registry import load_policy
    from gui_agent.runner import run_episode
    from gui_agent.task import load_task
    from gui_agent.models.vlm.generation import end_token_ids, prepare_inputs
    from gui_agent.models.vlm.sft_train import TrainConfig, train_vlm

    torch.set_num_threads(args.threads)
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-vlm-") as tmp:
        root = Path(tmp)
        demo = run_episode(load_task(ROOT / "datasets/tasks/miniwob/click-button.yaml"), load_policy("oracle"),
                           out_dir=root / "demo", seed=0)
        episode = read_episode(demo.episode_path)
        frame = np.asarray(Image.open(demo.episode_path / episode.steps[0].frame_before).convert("RGB"))
        task = TaskContext(task_id=episode.meta.task.id, instruction=episode.meta.task.instruction, seed=0)
        for family in ("qwen2_vl", "qwen2_5_vl", "idefics3"):
            out = root / family
            report = train_vlm(TrainConfig(inputs=(str(demo.episode_path),), out=str(out), model=f"tiny:{family}",
                                           epochs=60, lr=5e-3))
            policy = load_policy(f"hf:{out}?max_new_tokens=64")
            observation = Observation(screenshot=frame)
            policy.reset(task)
            messages, images = policy.prompt(observation)
            inputs = prepare_inputs(policy.vlm, messages, images)
            ends = end_token_ids(policy.vlm)
            pad = policy.vlm.tokenizer.pad_token_id
            step_s, bare_s, tokens = [], [], None
            for _ in range(args.steps):
                policy.reset(task)
                started = time.perf_counter()
                output = policy.act(observation)
                step_s.append(time.perf_counter() - started)
                tokens = (output.usage.input_tokens, output.usage.output_tokens)
                started = time.perf_counter()
                with torch.inference_mode():
                    policy.vlm.model.generate(**inputs, max_new_tokens=64, eos_token_id=ends, pad_token_id=pad,
                                              do_sample=False)
                bare_s.append(time.perf_counter() - started)
            figures[family] = {
                "step_median_ms": statistics.median(step_s) * 1000, "step_p95_ms": _pct(step_s, 0.95) * 1000,
                "bare_median_ms": statistics.median(bare_s) * 1000, "bare_p95_ms": _pct(bare_s, 0.95) * 1000,
                "ratio": statistics.median(step_s) / statistics.median(bare_s),
                "input_tokens": tokens[0], "output_tokens": tokens[1],
                "train_row_ms": report.seconds / (report.epochs * report.rows) * 1000,
                "parameters": report.parameters,
            }
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"load average: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}, threads {args.threads}")
    print(f"{'family':11s} {'params':>8s} {'tokens in/out':>13s} {'policy step med/p95 ms':>23s} "
          f"{'bare generate med/p95 ms':>25s} {'ratio':>6s} {'train row ms':>12s}")
    for family, f in figures.items():
        print(f"{family:11s} {f['parameters']:8d} {f['input_tokens']:6d}/{f['output_tokens']:<6d} "
              f"{f['step_median_ms']:11.1f}/{f['step_p95_ms']:<11.1f} {f['bare_median_ms']:12.1f}/{f['bare_p95_ms']:<12.1f} "
              f"{f['ratio']:6.2f} {f['train_row_ms']:12.1f}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
