#!/usr/bin/env python
"""Benchmark ``gui-agent train rl``: success before and after, throughput against eval, faults.

One run, every number from the same machine and the same workers:

1. **before** -- ``gui-agent eval SUITE --policy pixel`` (the shipped checkpoint, greedy) on
   evaluation seeds never used in training (RL draws its seeds from 100000 up);
2. **train** -- ``gui-agent train rl SUITE`` from the shipped checkpoint with evaluator
   rewards for ``--minutes`` of training time (``--faults``: one of the workers is SIGKILLed
   and one browser SIGSTOPped a third of the way in);
3. **after** -- the same eval with ``--policy pixel:OUT/rl/policy.pt``;
4. with ``--reward-model CKPT``: steps 2-3 again with the reward model as the reward, and
   the evaluator-measured gain against the evaluator-rewarded one, plus the share of
   rollouts the reward model called successes that the evaluator failed.

Figures printed (and written with ``--json``): mean success over the suite before and
after and per task; environment steps per second while training against eval's with the
same workers (the ratio; target >= 0.8); the learner's idle fraction; rollouts dropped
and attempts broken (with ``--faults``: the time the broken attempts cost).

    .venv/bin/python scripts/bench_rl.py --minutes 50                         # the issue's run (~70 min in all)
    .venv/bin/python scripts/bench_rl.py --minutes 3 --seeds 0-9 --suite datasets/tasks/miniwob-pixel/click-option.yaml
    .venv/bin/python scripts/bench_rl.py --minutes 50 --reward-model runs/reward-ckpt --faults --json runs/bench-rl.json
    .venv/bin/python scripts/bench_rl.py --minutes 50 --reward-model runs/reward-ckpt --reuse runs/bench-rl.json  # the reward-model half only
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gui_agent.envs import procfs  # noqa: E402

WATCHED = ("miniwob/click-option", "miniwob/click-checkboxes", "miniwob/click-link")


def _gui_agent(args: list[str], tmpdir: str, log: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "TMPDIR": tmpdir}
    handle = open(log, "w", encoding="utf-8")  # noqa: SIM115 - closed by the caller's wait
    return subprocess.Popen([sys.executable, "-m", "gui_agent", *args], env=env, stdout=handle, stderr=subprocess.STDOUT, text=True)


def _wait(proc: subprocess.Popen[str], what: str, log: Path) -> None:
    code = proc.wait()
    if code not in (0, 3):  # eval exits 3 when some episodes could not be scored: still a result
        raise SystemExit(f"{what} failed (exit {code}); see {log}:\n{log.read_text()[-3000:]}")


def _lines(path: Path) -> list[dict[str, Any]]:
    rows = []
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return rows


def evaluate(name: str, policy: str, args: argparse.Namespace, out: Path, tmpdir: str) -> dict[str, Any]:
    """``gui-agent eval`` of ``policy``: per-task success, mean over tasks, env steps/s."""
    folder = out / name
    log = out / f"{name}.log"
    started = time.monotonic()
    _wait(_gui_agent(["eval", *args.suite, "--policy", policy, "--seeds", args.seeds, "--workers", str(args.workers),
                      "--out", str(folder), "--quiet"], tmpdir, log), f"eval {name}", log)
    results = json.loads((folder / "results.json").read_text())
    session = json.loads((folder / "run.json").read_text())["sessions"][-1]
    steps = sum(int(r.get("steps") or 0) for r in _lines(folder / "ledger.jsonl"))
    tasks = {t["task_id"]: t["pass@1"] for t in results["tasks"]}
    scored = [v for v in tasks.values() if v is not None]
    return {"policy": policy, "mean_success": round(sum(scored) / len(scored), 4) if scored else None, "tasks": tasks,
            "env_steps": steps, "wall_s": session.get("wall_s"), "env_steps_per_s": round(steps / session["wall_s"], 3),
            "elapsed_s": round(time.monotonic() - started, 1)}


def _browser_pids(tmpdir: str) -> list[int]:
    pids = []
    for pid in procfs.processes_mentioning(tmpdir):
        stat = procfs.read_stat(pid)
        cmd = procfs.command_line(pid) or ""
        if stat is not None and stat.session == pid and "--user-data-dir" in cmd and "crashpad" not in cmd:
            pids.append(pid)
    return pids


def _inject_faults(run: Path, tmpdir: str, at_s: float, done: threading.Event, notes: list[str]) -> None:
    """A third of the way in: SIGKILL one worker (from the ledger), then SIGSTOP one browser."""
    if done.wait(at_s):
        return
    workers = sorted({int(r["worker"].rsplit(":", 1)[1]) for r in _lines(run / "ledger.jsonl") if r.get("worker")})
    if workers:
        os.kill(workers[0], signal.SIGKILL)
        notes.append(f"SIGKILL worker {workers[0]} at {at_s:.0f} s")
    if done.wait(20):
        return
    browsers = _browser_pids(tmpdir)
    if browsers:
        os.killpg(browsers[0], signal.SIGSTOP)
        notes.append(f"SIGSTOP browser {browsers[0]} at {at_s + 20:.0f} s")


def train(name: str, args: argparse.Namespace, out: Path, tmpdir: str, extra: list[str]) -> dict[str, Any]:
    """``gui-agent train rl`` for ``--minutes``; its throughput, idle fraction, drops and faults."""
    run = out / name
    log = out / f"{name}.log"
    command = ["train", "rl", *args.suite, "--workers", str(args.workers), "--time-budget", str(args.minutes),
               "--updates", "1000000", "--keep-frames-every", "10", "--out", str(run), "--quiet", *args.rl_args.split(), *extra]
    started = time.monotonic()
    proc = _gui_agent(command, tmpdir, log)
    done, notes = threading.Event(), []
    injector = None
    if args.faults:
        injector = threading.Thread(target=_inject_faults, args=(run, tmpdir, args.minutes * 20, done, notes), daemon=True)
        injector.start()
    try:
        _wait(proc, f"train {name}", log)
    finally:
        done.set()
    session = json.loads((run / "run.json").read_text())["sessions"][-1]
    per_task = json.loads((run / "per_task.json").read_text())
    lost_s = 0.0
    for record in _lines(run / "ledger.jsonl"):
        for failure in record.get("env_failures") or []:
            meta = run / str(failure.get("episode")) / "episode.json"
            if meta.exists():
                lost_s += float((json.loads(meta.read_text()).get("stats") or {}).get("duration_s") or 0.0)
    return {"policy": f"pixel:{run / 'policy.pt'}", "updates": session.get("updates"), "rollouts": session.get("rollouts"),
            "env_steps": session.get("env_steps"), "env_steps_per_s": session.get("env_steps_per_s"),
            "learner_idle_fraction": session.get("learner_idle_fraction"), "dropped": session.get("dropped"),
            "broken_attempts": session.get("broken_attempts"), "workers_replaced": session.get("workers_replaced"),
            "broken_attempts_s": round(lost_s, 1), "faults_injected": notes, "hacking_rate": per_task["overall"].get("hacking_rate"),
            "learned_success_evaluator_failed": per_task["overall"].get("learned_success_evaluator_failed"),
            "elapsed_s": round(time.monotonic() - started, 1)}


def _print(figures: dict[str, Any]) -> None:
    before, after = figures["before"], figures["after"]
    print(f"\n{'task':34s} {'before':>8s} {'after':>8s}")
    for task in sorted(before["tasks"]):
        b, a = before["tasks"][task], after["tasks"].get(task)
        mark = " *" if task in WATCHED else ""
        print(f"{task:34s} {100 * (b or 0):7.1f}% {100 * (a or 0):7.1f}%{mark}")
    print(f"\nmean success over {len(before['tasks'])} tasks, seeds {figures['seeds']}: before {100 * before['mean_success']:.1f}%  "
          f"after {100 * after['mean_success']:.1f}%  ratio {after['mean_success'] / max(before['mean_success'], 1e-9):.3f}x")
    rl = figures["train"]
    ratio = (rl["env_steps_per_s"] or 0) / before["env_steps_per_s"] if before["env_steps_per_s"] else None
    print(f"throughput: training {rl['env_steps_per_s']} env steps/s vs eval {before['env_steps_per_s']} with "
          f"{figures['workers']} workers: {ratio:.2f}x (target >= 0.8); learner idle {100 * (rl['learner_idle_fraction'] or 0):.1f}%")
    print(f"training: {rl['updates']} updates, {rl['rollouts']} rollouts, {rl['env_steps']} env steps in {rl['elapsed_s']:.0f} s; "
          f"dropped {rl['dropped']}; broken attempts {rl['broken_attempts']} ({rl['broken_attempts_s']} s); "
          f"workers replaced {rl['workers_replaced']}; faults {rl['faults_injected'] or 'none'}")
    if "after_rm" in figures:
        gain = after["mean_success"] - before["mean_success"]
        gain_rm = figures["after_rm"]["mean_success"] - before["mean_success"]
        print(f"reward model as reward: after {100 * figures['after_rm']['mean_success']:.1f}% (evaluator-measured); gain "
              f"{100 * gain_rm:+.1f} points vs {100 * gain:+.1f} with evaluator rewards ({gain_rm / gain if gain else float('nan'):.2f} of it, "
              f"target >= 0.5); rollouts it called successes that the evaluator failed: {figures['train_rm']['hacking_rate']}")
    figures["throughput_ratio"] = round(ratio, 3) if ratio else None


def _reused(args: argparse.Namespace) -> dict[str, Any]:
    """The evaluator-rewarded half of an earlier run, refused unless it ran the same way."""
    if not args.reward_model:
        raise SystemExit("--reuse runs only the reward-model part: give --reward-model CKPT")
    earlier = json.loads(args.reuse.read_text())
    for key in ("suite", "seeds", "workers", "minutes", "faults", "rl_args"):
        if key in earlier and earlier[key] != getattr(args, key):
            raise SystemExit(f"--reuse {args.reuse}: it ran with {key}={earlier.get(key)!r}, this run with {getattr(args, key)!r}")
    return {key: earlier[key] for key in ("before", "train", "after")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", nargs="+", default=["miniwob-pixel"], help="task files, folders or a named suite")
    parser.add_argument("--seeds", default="0-49", help="evaluation seeds, never trained on (default: 0-49)")
    parser.add_argument("--workers", type=int, default=2, help="workers for eval and training alike (default: 2)")
    parser.add_argument("--minutes", type=float, default=50.0, help="training time budget (default: 50)")
    parser.add_argument("--reward-model", help="also train with this reward model as the reward, and compare")
    parser.add_argument("--faults", action="store_true", help="SIGKILL a worker and SIGSTOP a browser during training")
    parser.add_argument("--reuse", type=Path, metavar="JSON",
                        help="take before/train/after from an earlier run's --json (same suite, seeds, workers and minutes) "
                             "and run only the --reward-model part")
    parser.add_argument("--rl-args", default="", help="more 'gui-agent train rl' options, e.g. '--lr 1e-4 --group-size 8'")
    parser.add_argument("--out", type=Path, help="where the runs go (default: runs/bench-rl-<time>)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    out = args.out or REPO / "runs" / f"bench-rl-{dt.datetime.now().strftime('%Y%m%dT%H%M%S')}"
    out.mkdir(parents=True, exist_ok=True)
    figures: dict[str, Any] = {"suite": args.suite, "seeds": args.seeds, "workers": args.workers, "minutes": args.minutes,
                               "faults": args.faults, "rl_args": args.rl_args, "machine": {"cpus": os.cpu_count()},
                               "date": dt.date.today().isoformat()}
    if args.reuse:
        figures.update(_reused(args))
    with tempfile.TemporaryDirectory(prefix="bench-rl-", dir="/tmp") as tmpdir:
        if not args.reuse:
            figures["before"] = evaluate("before", "pixel", args, out, tmpdir)
            print(f"before: {figures['before']['mean_success']}", flush=True)
            figures["train"] = train("rl", args, out, tmpdir, [])
            figures["after"] = evaluate("after", figures["train"]["policy"], args, out, tmpdir)
        if args.reward_model:
            figures["train_rm"] = train("rl-rm", args, out, tmpdir, ["--reward-model", args.reward_model])
            figures["after_rm"] = evaluate("after-rm", figures["train_rm"]["policy"], args, out, tmpdir)
    _print(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    print(f"runs and logs: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
