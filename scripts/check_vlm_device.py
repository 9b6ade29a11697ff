#!/usr/bin/env python
"""Check the VLM paths on an accelerator: fine-tune on it, then serve in its default dtype.

The test suite runs every VLM family on the CPU in fp32. On a GPU the same code takes other
branches: ``gui-agent train vlm`` trains under bf16 autocast, and ``--policy hf:DIR`` loads
the weights in bf16 (``load_vlm``'s default on a GPU) while the processor still hands out
fp32 pixels. This script drives those branches for every family with a tiny model built
offline (no hub), so a machine with a GPU and no browser can check them:

1. a tiny model of the family is fine-tuned on one oracle demonstration on ``--device``
   until its loss is near zero;
2. it is loaded back through ``load_policy("hf:DIR")`` with the default dtype for that
   device, and asked to act on the demonstration's first screen;
3. its action must be the demonstration's (what the CPU test asserts, in fp32 there).

Make the demonstration where a browser runs, then copy it over:

    gui-agent run datasets/tasks/miniwob/click-button.yaml --policy oracle --seed 0 --out runs/demo
    python scripts/check_vlm_device.py runs/demo                # default: cuda, every family
    python scripts/check_vlm_device.py runs/demo --device cpu   # the same on a CPU (fp32)

Prints one line per family and a JSON summary; the exit status is 1 if any family fails.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def check_family(family: str, demo: Path, device: str, work: Path, epochs: int) -> dict[str, object]:
    """Fine-tune, reload with the device's default dtype, act; the figures and whether the action matched."""
    import torch

    from gui_agent.actions import action_to_dict
    from gui_agent.envs.base import Observation
    from gui_agent.episode import read_episode
    from gui_agent.policy import TaskContext
    from gui_agent.registry import load_policy
    from gui_agent.models.vlm.sft_train import TrainConfig, train_vlm

    started = time.monotonic()
    report = train_vlm(TrainConfig(inputs=(str(demo),), out=str(work / family), model=f"tiny:{family}",
                                   epochs=epochs, lr=5e-3, device=device))
    policy = load_policy(f"hf:{work / family}?max_new_tokens=48&device={device}")
    parameter_dtype = str(next(policy.vlm.model.parameters()).dtype).removeprefix("torch.")
    episode = read_episode(next(p.parent for p in demo.rglob("episode.json")))
    first = episode.steps[0]
    if first.frame_before is None:
        raise SystemExit(f"{episode.path}: its first step has no frame")
    policy.reset(TaskContext(task_id=episode.meta.task.id, instruction=episode.meta.task.instruction))
    output = policy.act(Observation(screenshot=episode.load_frame(first.frame_before), instruction=episode.meta.task.instruction))
    wanted = [action_to_dict(a) for a in episode.actions()[:1]]
    got = [action_to_dict(a) for a in output.actions][:1]
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    return {
        "family": family, "device": policy.vlm.device, "dtype": policy.vlm.dtype, "parameter_dtype": parameter_dtype,
        "first_loss": report.epoch_losses[0], "last_loss": report.epoch_losses[-1], "train_s": report.seconds,
        "wanted": wanted, "got": got, "thought": output.thought, "usage": output.usage.model_dump() if output.usage else None,
        "matched": got == wanted, "seconds": round(time.monotonic() - started, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("demo", type=Path, help="a folder holding one oracle episode (click-button, seed 0 is the one the tests use)")
    parser.add_argument("--device", default="cuda", help="cuda, cuda:N or cpu (default: cuda)")
    parser.add_argument("--families", help="comma-separated (default: every family gui_agent.models.vlm.families knows)")
    parser.add_argument("--epochs", type=int, default=60, help="fine-tuning passes over the demonstration (default: 60)")
    parser.add_argument("--json", type=Path, help="also write the summary here")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import torch

    from gui_agent.models.vlm.families import FAMILIES

    if args.device.startswith("cuda") and not torch.cuda.is_available():
        raise SystemExit("--device cuda: torch sees no GPU here (use --device cpu to run the same check on the CPU)")
    results = []
    with tempfile.TemporaryDirectory(prefix="vlm-device-") as work:
        names = [f.strip() for f in args.families.split(",") if f.strip()] if args.families else list(FAMILIES)
        for family in names:
            result = check_family(family, args.demo, args.device, Path(work), args.epochs)
            results.append(result)
            print(f"{family}: {'OK' if result['matched'] else 'MISMATCH'} on {result['device']} in {result['dtype']} "
                  f"(parameters {result['parameter_dtype']}); loss {result['first_loss']:.3f} -> {result['last_loss']:.4f} "
                  f"in {result['train_s']:.1f} s; acted {result['got']} (demonstration: {result['wanted']})", flush=True)
    summary = {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
               "results": results}
    print(json.dumps(summary, indent=1, default=str))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1, default=str))
    return 0 if all(r["matched"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
