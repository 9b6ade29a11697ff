#!/usr/bin/env python
"""Check that a reused MiniWoB++ page starts an episode exactly as a fresh page does.

For each task file: the oracle plays seed ``--after`` in one environment, which then resets
to seed ``--seed``; a second, fresh environment resets to the same seed; the two first
screens must be equal (no channel differing by more than 16). Replays and the reward data
rely on this: a recording made on a reused page must start from the screen a replay sees.

Usage:
    python scripts/check_reset_fidelity.py                       # every file in datasets/tasks/miniwob
    python scripts/check_reset_fidelity.py email-inbox-delete choose-date-easy
Exit status 1 when any task's screens differ.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
TASKS_DIR = REPO / "datasets" / "tasks" / "miniwob"
sys.path.insert(0, str(REPO))


def differing_pixels(name: str, after: int, seed: int) -> int:
    from gui_agent.envs.factory import make_env
    from gui_agent.runner import run_episode
    from gui_agent.task import load_task
    from gui_agent.models.policies.miniwob_oracle import MiniWobOraclePolicy

    task = load_task(TASKS_DIR / f"{name}.yaml")
    reused, fresh = make_env(task), make_env(task)
    try:
        with tempfile.TemporaryDirectory() as out:
            run_episode(task, MiniWobOraclePolicy(), out_dir=out, seed=after, env=reused)
        again, _ = reused.reset(seed=seed)
        first, _ = fresh.reset(seed=seed)
    finally:
        reused.close()
        fresh.close()
    changed = np.abs(again.screenshot[..., :3].astype(np.int16) - first.screenshot[..., :3].astype(np.int16)).max(axis=2) > 16
    return int(changed.sum())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tasks", nargs="*", help="task names (default: every file in datasets/tasks/miniwob)")
    parser.add_argument("--after", type=int, default=10, help="seed of the oracle episode played first (default 10)")
    parser.add_argument("--seed", type=int, default=11, help="seed of the episode compared (default 11)")
    args = parser.parse_args()
    names = args.tasks or sorted(p.stem for p in TASKS_DIR.glob("*.yaml"))
    bad = []
    for name in names:
        count = differing_pixels(name, args.after, args.seed)
        print(f"{name:28s} {'same first screen' if count == 0 else f'{count} pixels differ'}", flush=True)
        if count:
            bad.append(name)
    print(f"{len(names) - len(bad)} of {len(names)} tasks start the same on a reused page" + (f"; differ: {', '.join(bad)}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
