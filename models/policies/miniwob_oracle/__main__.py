"""Measure the oracle: success rate per MiniWoB++ task file over a range of seeds.

    python -m gui_agent.models.policies.miniwob_oracle                      # every file, seeds 0-49
    python -m gui_agent.models.policies.miniwob_oracle click-tab drag-box --seeds 0-9

Each task file in ``datasets/tasks/miniwob`` is run through the runner exactly as
``gui-agent run`` runs it; success is the task's evaluator (raw reward 1.0).
"""

from __future__ import annotations

import argparse
import difflib
import tempfile
import time
from pathlib import Path

from gui_agent.cli.arguments import seed_range
from gui_agent.envs.factory import make_env
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from gui_agent.models.policies.miniwob_oracle.policy import MiniWobOraclePolicy

TASK_DIR = Path(__file__).resolve().parents[3] / "datasets" / "tasks" / "miniwob"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gui_agent.models.policies.miniwob_oracle", description=__doc__.split("\n")[0])
    parser.add_argument("tasks", nargs="*", help="task names (default: every file in datasets/tasks/miniwob)")
    parser.add_argument("--seeds", type=seed_range, default=list(range(50)),
                        help="seeds, e.g. 0-49 or 1,5,7, as 'gui-agent run --seeds' takes them (default: 0-49)")
    parser.add_argument("--dir", type=Path, default=TASK_DIR, help="folder of the task files")
    args = parser.parse_args(argv)
    paths = [_task_file(parser, args.dir, name) for name in args.tasks] or sorted(args.dir.glob("*.yaml"))
    policy = MiniWobOraclePolicy()
    below = []
    for path in paths:
        task = load_task(path)
        started, solved, failed = time.monotonic(), 0, []
        env = make_env(task)
        try:
            with tempfile.TemporaryDirectory() as out_dir:
                for seed in args.seeds:
                    result = run_episode(task, policy, out_dir=out_dir, seed=seed, env=env)
                    if result.success:
                        solved += 1
                    else:
                        failed.append(seed)
        finally:
            env.close()
        rate = solved / len(args.seeds)
        if rate < 0.95:
            below.append(task.id)
        shown = f"  failed seeds: {failed}" if failed else ""
        print(f"{task.id:36s} {solved:3d}/{len(args.seeds)}  {rate:6.1%}  ({time.monotonic() - started:.0f} s){shown}", flush=True)
    if below:
        print(f"below 95%: {', '.join(below)}")
    return 1 if below else 0


def _task_file(parser: argparse.ArgumentParser, folder: Path, name: str) -> Path:
    """``folder/NAME.yaml``; an unknown name is a usage error (exit 2) naming the close ones."""
    name = name.removeprefix("miniwob/").removesuffix(".yaml")
    path = folder / f"{name}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in folder.glob("*.yaml"))
        close = difflib.get_close_matches(name, known, n=5, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else f"; the names are the files in {folder}"
        parser.error(f"no MiniWoB++ task file {name!r} in {folder}{hint}")
    return path


if __name__ == "__main__":
    raise SystemExit(main())
