#!/usr/bin/env python
"""Benchmark evaluation at scale: ``gui-agent eval`` against BrowserGym, same tasks and seeds, one run.

Measured on this machine, for 1 and 2 workers, with the MiniWoB++ oracle acting on both:

* **gui-agent**: :func:`gui_agent.evaluate.run.evaluate_suite` (what ``gui-agent eval`` runs):
  worker processes, each with its own Chromium, every episode written in the trajectory
  format (every frame a PNG), the ledger streamed; episodes/s = episodes / the pool's wall
  time, worker start-up included. Step latency: one environment step (act + settle +
  observe with the DOM snapshot) from the episodes' step timings.
* **BrowserGym** (``browsergym-miniwob``): it pins playwright 1.44, so it runs in its own
  virtualenv (``--browsergym-python``; ``--setup-browsergym`` creates it), on the same
  Debian Chromium (``pw_chromium_kwargs={"executable_path": "/usr/bin/chromium"}``, and the
  same for its chat window's browser), with the same oracle: the DOM is read with the same
  snapshot script from BrowserGym's page, and the oracle's actions are converted to
  BrowserGym coordinate actions (``mouse_click``...) by ``gui_agent.action_formats.browsergym``
  (scaled by BrowserGym's MiniWoB screenshot zoom). N workers are N processes, each running
  its share of the episodes; episodes/s = episodes / wall time, start-up included. Step
  latency: the wall time of ``env.step``. Measured twice: as shipped (its MiniWoB tasks set
  ``slow_mo=100`` ms, the env waits ``pre_observation_delay=0.5`` s per step) and tuned (both
  0), which is the fairer raw-speed comparison.

CPU pinning: with 2 workers on a 2-CPU machine, gui-agent pins each worker (and its
browser) to a CPU of its own (``gui_agent.workers.local_pool.cpu_slots``); BrowserGym's two
worker processes are pinned the same way, and ``gui-agent floating`` measures gui-agent's 2
workers unpinned (``--no-pin-cpus``) to show what the pinning brings.

Same instances: BrowserGym seeds a page with ``Math.seedrandom(RandomState(seed).randint(0,
10**6))``, gui-agent with ``Math.seedrandom(seed)``; gui-agent is given those page seeds, and
the instructions both sides saw are compared.

Usage:
    python scripts/bench_eval.py [--seeds 4] [--rounds 3] [--tasks click-test,...] [--json out.json]
    python scripts/bench_eval.py --rounds 2 --seeds 10 --passes 5 --skip-shipped   # the README figures (~10 min)
    python scripts/bench_eval.py --setup-browsergym      # once: the BrowserGym virtualenv
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
DEFAULT_TASKS = ("click-test", "click-button", "click-link", "focus-text", "enter-text", "click-dialog")
DEFAULT_BG_PYTHON = Path.home() / ".cache" / "gui-agent" / "browsergym-venv" / "bin" / "python"
#: BrowserGym's MiniWoB tasks zoom screenshots by this (``page._bgym_scale_factor``).
BG_SCALE = 1.5


def page_seeds(n: int) -> list[int]:
    """The page seeds BrowserGym uses for its seeds 0..n-1 (``task.random.randint(0, 1000000)``)."""
    import numpy as np

    return [int(np.random.RandomState(seed).randint(0, 1000000)) for seed in range(n)]


def stats(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    if not ordered:
        return {"median_ms": float("nan"), "p95_ms": float("nan"), "n": 0}
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]
    return {"median_ms": statistics.median(ordered) * 1000, "p95_ms": p95 * 1000, "n": len(ordered)}


def steady_rate(arrivals: list[float]) -> float:
    """Episodes per second once the workers are up: from the first result to the last.

    Start-up (interpreter, imports, Chromium: ~2.5 s a worker) is paid once per run, so
    at a few dozen episodes it hides how the pool scales; a long evaluation sees this rate.
    """
    if len(arrivals) < 2 or arrivals[-1] <= arrivals[0]:
        return float("nan")
    return (len(arrivals) - 1) / (arrivals[-1] - arrivals[0])


# --------------------------------------------------------------------------- gui-agent side
def bench_gui_agent(tasks: list[str], seeds: list[int], workers: int, pin_cpus: bool = True, passes: int = 1) -> dict[str, Any]:
    from gui_agent.evaluate.ledger import read_manifest, read_records
    from gui_agent.evaluate.run import EvalOptions, evaluate_suite

    files = [str(REPO / "datasets" / "tasks" / "miniwob" / f"{task}.yaml") for task in tasks]
    with tempfile.TemporaryDirectory(prefix="bench-eval-") as tmp:
        out = Path(tmp) / "run"
        arrivals: list[float] = []
        evaluate_suite(EvalOptions(suite=files, policy="oracle", seeds=seeds * passes, out_dir=out, workers=workers, pin_cpus=pin_cpus),
                       on_record=lambda _record: arrivals.append(time.monotonic()))
        session = read_manifest(out)["sessions"][-1]
        records = list(read_records(out / "ledger.jsonl").values())
        step_s, instructions = [], {}
        for record in records:
            episode = out / str(record.episode)
            meta = json.loads((episode / "episode.json").read_text())
            instructions[f"{record.task_id.split('/')[-1]}#{record.seed}"] = meta["task"]["instruction"]
            for line in (episode / "steps.jsonl").read_text().splitlines():
                timings = json.loads(line).get("timings", {})
                step_s.append(sum(timings.get(k, 0.0) for k in ("act_s", "settle_s", "observe_s")))
    return {
        "episodes": session["episodes"], "wall_s": session["wall_s"], "episodes_per_s": session["episodes"] / session["wall_s"],
        "steady_episodes_per_s": steady_rate(arrivals),
        "successes": sum(1 for r in records if r.success), "steps": len(step_s), "step_latency": stats(step_s),
        "instructions": instructions,
    }


# --------------------------------------------------------------------------- BrowserGym side
def bench_browsergym(python: Path, tasks: list[str], seeds: list[int], workers: int, tuned: bool) -> dict[str, Any]:
    from gui_agent.envs.browser.miniwob_pages import miniwob_html_dir
    from gui_agent.workers.local_pool import cpu_slots

    episodes = [(task, seed) for task in tasks for seed in range(len(seeds))]
    share = [episodes[i::workers] for i in range(workers)]  # each worker: every task, some seeds
    env = dict(os.environ, PYTHONPATH=str(REPO), MINIWOB_URL=miniwob_html_dir().as_uri() + "/")
    with tempfile.TemporaryDirectory(prefix="bench-bg-") as tmp:
        procs, outs = [], []
        started = time.perf_counter()
        for index, part in enumerate(share):
            out = Path(tmp) / f"worker{index}.json"
            spec = json.dumps({"episodes": part, "tuned": tuned, "out": str(out)})
            cpu = cpu_slots(workers)[index]  # pinned like gui-agent's workers, so both get the same help
            pin = None if cpu is None else (lambda cpu=cpu: os.sched_setaffinity(0, {cpu}))
            procs.append(subprocess.Popen([str(python), __file__, "--browsergym-worker", spec], env=env, preexec_fn=pin))  # noqa: PLW1509 - no threads yet
            outs.append(out)
        for proc in procs:
            if proc.wait() != 0:
                raise RuntimeError(f"a BrowserGym worker failed (exit {proc.returncode})")
        wall = time.perf_counter() - started
        results = [r for out in outs for r in json.loads(out.read_text())]
    step_s = [s for r in results for s in r["step_s"]]
    return {
        "episodes": len(results), "wall_s": wall, "episodes_per_s": len(results) / wall,
        "successes": sum(1 for r in results if r["reward"] > 0), "steps": len(step_s), "step_latency": stats(step_s),
        "reset_latency": stats([r["reset_s"] for r in results]),
        "instructions": {f"{r['task']}#{page_seeds(len(seeds))[r['seed']]}": r["goal"] for r in results},
    }


def browsergym_worker(spec: dict[str, Any]) -> None:
    """Runs inside the BrowserGym virtualenv: the episodes of ``spec``, results to ``spec["out"]``."""
    sys.path.insert(0, str(REPO))
    import dataclasses

    import numpy as np
    import playwright.sync_api
    from browsergym.core.action.highlevel import HighLevelActionSet
    from browsergym.core.env import BrowserEnv
    from browsergym.miniwob import ALL_MINIWOB_TASKS

    from gui_agent.action_formats.browsergym import action_to_browsergym
    from gui_agent.actions import Click, Drag, Move, Scroll
    from gui_agent.envs.base import Observation
    from gui_agent.envs.browser.dom_snapshot import DOM_SNAPSHOT_JS
    from gui_agent.policy import TaskContext
    from gui_agent.models.policies.miniwob_oracle import MiniWobOraclePolicy

    # BrowserGym's chat window launches its own browser without our kwargs: same Chromium for it too.
    launch = playwright.sync_api.BrowserType.launch

    def launch_debian_chromium(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        kwargs.setdefault("executable_path", CHROMIUM)
        return launch(self, *args, **kwargs)

    playwright.sync_api.BrowserType.launch = launch_debian_chromium  # type: ignore[method-assign]

    def scaled(action):  # type: ignore[no-untyped-def]
        if isinstance(action, (Click, Move, Scroll)):
            return dataclasses.replace(action, x=round(action.x * BG_SCALE), y=round(action.y * BG_SCALE))
        if isinstance(action, Drag):
            return dataclasses.replace(action, x1=round(action.x1 * BG_SCALE), y1=round(action.y1 * BG_SCALE),
                                       x2=round(action.x2 * BG_SCALE), y2=round(action.y2 * BG_SCALE))
        return action

    by_name = {cls.subdomain: cls for cls in ALL_MINIWOB_TASKS}
    action_set = HighLevelActionSet(subsets=["chat", "infeas", "coord", "nav"], strict=False, multiaction=True)
    tuning = {"slow_mo": 0, "pre_observation_delay": 0.0} if spec["tuned"] else {}
    policy = MiniWobOraclePolicy()
    results, env, env_task = [], None, None
    try:
        for task, seed in spec["episodes"]:
            if env_task != task:
                if env is not None:
                    env.close()
                env = BrowserEnv(task_entrypoint=by_name[task], headless=True, action_mapping=action_set.to_python_code,
                                 pw_chromium_kwargs={"executable_path": CHROMIUM}, **tuning)
                env_task = task
            t0 = time.perf_counter()
            obs, _info = env.reset(seed=seed)
            t1 = time.perf_counter()
            goal = obs["goal"]
            policy.reset(TaskContext(task_id=f"miniwob/{task}", instruction=goal, seed=seed))
            step_s, reward, done = [], 0.0, False
            while not done and len(step_s) < 10:
                dom = env.unwrapped.page.evaluate(DOM_SNAPSHOT_JS)
                decision = policy.act(Observation(screenshot=np.zeros((210, 160, 3), np.uint8), instruction=goal, dom=dom))
                for action in decision.actions:
                    code = action_to_browsergym(scaled(action))
                    ts = time.perf_counter()
                    obs, reward, terminated, truncated, _info = env.step(code)
                    step_s.append(time.perf_counter() - ts)
                    if terminated or truncated:
                        done = True
                        break
            results.append({"task": task, "seed": seed, "goal": goal, "reward": float(reward), "reset_s": t1 - t0,
                            "episode_s": time.perf_counter() - t0, "step_s": step_s,
                            "error": obs.get("last_action_error") or None})
    finally:
        if env is not None:
            env.close()
    Path(spec["out"]).write_text(json.dumps(results))


def setup_browsergym(python: Path) -> None:
    venv = python.parent.parent
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "browsergym-miniwob"], check=True)


# --------------------------------------------------------------------------- report
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=4, help="BrowserGym seeds 0..N-1 per task (default 4)")
    parser.add_argument("--rounds", type=int, default=3, help="repeat every configuration this often; medians (default 3)")
    parser.add_argument("--passes", type=int, default=1,
                        help="gui-agent runs the same seeds this many times over per run, so its runs last long enough "
                        "for worker start-up (~2 s) not to dominate; its rates stay per second (default 1)")
    parser.add_argument("--tasks", default=",".join(DEFAULT_TASKS), help="comma-separated MiniWoB++ task names")
    parser.add_argument("--browsergym-python", type=Path, default=DEFAULT_BG_PYTHON)
    parser.add_argument("--setup-browsergym", action="store_true", help="create the BrowserGym virtualenv and exit")
    parser.add_argument("--skip-shipped", action="store_true", help="measure BrowserGym only tuned (slow_mo 0, no delay)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--browsergym-worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.browsergym_worker:
        browsergym_worker(json.loads(args.browsergym_worker))
        return 0
    if args.setup_browsergym:
        setup_browsergym(args.browsergym_python)
        return 0
    if not args.browsergym_python.exists():
        print(f"BrowserGym virtualenv missing ({args.browsergym_python}); create it with:\n"
              f"  python {Path(__file__).relative_to(REPO)} --setup-browsergym", file=sys.stderr)
        return 2
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    seeds = page_seeds(args.seeds)
    report: dict[str, Any] = {"tasks": tasks, "gui_agent_passes": args.passes, "browsergym_seeds": list(range(args.seeds)), "page_seeds": seeds,
                              "rounds": args.rounds, "cpus": os.cpu_count(), "load_before": os.getloadavg(),
                              "command": "python " + " ".join(shlex.quote(a) for a in sys.argv)}
    configs = [("gui-agent", None), ("gui-agent floating", "floating")] + ([] if args.skip_shipped else [("browsergym (as shipped)", False)]) + [("browsergym (tuned)", True)]
    runs: dict[str, list[dict[str, Any]]] = {}
    for round_index in range(args.rounds):
        # Every round runs every configuration, in a rotated order, so load from other work
        # on the machine falls on all of them alike; figures are medians over rounds.
        order = configs[round_index % len(configs):] + configs[: round_index % len(configs)]
        for name, tuned in order:
            for workers in (1, 2):
                if tuned == "floating" and workers == 1:
                    continue  # one worker is never pinned: the same as gui-agent x1
                count = len(tasks) * len(seeds) * (args.passes if tuned in (None, "floating") else 1)
                print(f"round {round_index + 1}/{args.rounds}: {name} with {workers} worker(s), {count} episodes ...", flush=True)
                if tuned in (None, "floating"):
                    figures = bench_gui_agent(tasks, seeds, workers, pin_cpus=tuned is None, passes=args.passes)
                else:
                    figures = bench_browsergym(args.browsergym_python, tasks, seeds, workers, tuned)
                runs.setdefault(f"{name} x{workers}", []).append(figures)
    ours = runs["gui-agent x1"][0]["instructions"]
    theirs = runs["browsergym (tuned) x1"][0]["instructions"]
    report["same_instructions"] = sum(1 for key, text in ours.items() if theirs.get(key) == text)
    for key, figures in runs.items():
        for entry in figures:
            entry.pop("instructions", None)
        report[key] = {
            "episodes_per_s": statistics.median(f["episodes_per_s"] for f in figures),
            "steady_episodes_per_s": statistics.median(f.get("steady_episodes_per_s", float("nan")) for f in figures),
            "episodes_per_s_each_round": [round(f["episodes_per_s"], 3) for f in figures],
            "successes": sum(f["successes"] for f in figures), "episodes": sum(f["episodes"] for f in figures),
            "step_latency": stats([]) if not figures else {
                "median_ms": statistics.median(f["step_latency"]["median_ms"] for f in figures),
                "p95_ms": statistics.median(f["step_latency"]["p95_ms"] for f in figures)},
            "runs": figures,
        }
    report["load_after"] = os.getloadavg()

    print(f"\n{len(tasks)} MiniWoB++ tasks x {len(seeds)} seeds = {len(tasks) * len(seeds)} episodes per run "
          f"(gui-agent: {args.passes} pass(es) over them, {len(tasks) * len(seeds) * args.passes} episodes), "
          f"{args.rounds} rounds, medians; {os.cpu_count()} CPUs, load average {report['load_before'][0]:.1f} before, "
          f"{report['load_after'][0]:.1f} after; same instruction on both sides in {report['same_instructions']} of {len(ours)} episodes")
    print(f"{'configuration':28s} {'eps/s x1':>9s} {'eps/s x2':>9s} {'x2/x1':>6s} {'success':>11s} {'step med ms':>11s} {'step p95 ms':>11s}")
    report["gui-agent floating x1"] = report["gui-agent x1"]
    for name, _ in configs:
        one, two = report[f"{name} x1"], report[f"{name} x2"]
        report[f"{name} scaling"] = two["episodes_per_s"] / one["episodes_per_s"]
        print(f"{name:28s} {one['episodes_per_s']:9.2f} {two['episodes_per_s']:9.2f} {report[f'{name} scaling']:6.2f} "
              f"{one['successes'] + two['successes']:>5d}/{one['episodes'] + two['episodes']:<5d} "
              f"{one['step_latency']['median_ms']:11.1f} {one['step_latency']['p95_ms']:11.1f}")
    one, two = report["gui-agent x1"]["steady_episodes_per_s"], report["gui-agent x2"]["steady_episodes_per_s"]
    report["gui-agent steady scaling"] = two / one
    print(f"gui-agent once workers are up (first result to last): {one:.2f} eps/s x1, {two:.2f} eps/s x2, "
          f"scaling {two / one:.2f}")
    for name, _ in configs[2:]:
        for workers in (1, 2):
            ratio = report[f"gui-agent x{workers}"]["episodes_per_s"] / report[f"{name} x{workers}"]["episodes_per_s"]
            report[f"speed-up vs {name} x{workers}"] = ratio
            print(f"gui-agent / {name}, {workers} worker(s): {ratio:.1f}x episodes/s")
    print(f"command: {report['command']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
