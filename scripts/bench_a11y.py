"""Benchmark: reading the accessibility tree of Calc at 1280x800, ours against pyatspi's.

Starts a desktop with accessibility on and an empty Calc sheet, then reads the tree
``--repeat`` times each way, in the same run:

* ours, as an observation reads it (what is on the screen, OSWorld's XML built), and as a
  check reads it (every element);
* the baseline: pyatspi's own walk of the same tree (scripts/a11y_pyatspi_walk.py, under
  the system Python, on the same desktop), pruned the same way, and whole.

Prints median and p95 of each, the ratios, the element counts, and the CPU time a read
costs (the reader's process and Calc's, per read): on a shared machine the wall time
follows the load, the CPU time much less. Then it times ``--steps`` desktop steps (a click on
a cell, with its observation) without the tree in the observation and with it.

Usage: python scripts/bench_a11y.py [--repeat 20] [--steps 20]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from lxml import etree

from gui_agent.actions import Click, Wait
from gui_agent.envs.desktop.env import DesktopEnv
from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep

BASELINE = Path(__file__).with_name("a11y_pyatspi_walk.py")


def _stats(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of ``pid`` (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _calc_pid(env: DesktopEnv) -> int:
    return next(pid for pid in env.pids() if "soffice.bin" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace"))


def _ours(env: DesktopEnv, repeat: int, complete: bool) -> tuple[list[float], int, float]:
    times, count = [], 0
    calc = _calc_pid(env)
    app_cpu, own_cpu = _cpu_s(calc), time.process_time()
    for _ in range(repeat):
        start = time.perf_counter()
        xml = env.accessibility_tree(complete=complete, timeout_s=30.0)
        times.append(time.perf_counter() - start)
        count = sum(1 for _ in etree.fromstring(xml.encode()).iter())
    cpu = (_cpu_s(calc) - app_cpu) + (time.process_time() - own_cpu)  # the XML count above is in it too
    return times, count, cpu / repeat


def _baseline(env: DesktopEnv, repeat: int, prune: bool) -> tuple[list[float], int, float]:
    argv = ["/usr/bin/python3", str(BASELINE), "--repeat", str(repeat), *(["--prune"] if prune else [])]
    calc = _calc_pid(env)
    app_cpu = _cpu_s(calc)
    done = env.run_command(argv, timeout_s=600.0)
    if done.returncode != 0:
        raise SystemExit(f"the pyatspi baseline failed: {done.stderr[-800:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    cpu = _cpu_s(calc) - app_cpu + result["cpu_s"]
    return result["times_s"], result["elements"], cpu / repeat


def _steps(env: DesktopEnv, steps: int, with_tree: bool, parts: dict[str, list[float]] | None = None) -> list[float]:
    """Wall time of ``steps`` clicks on cells, each with its observation (and the tree in it
    when ``with_tree``): what the tree adds to a policy's step. ``parts`` gets the
    observation's own timings of the read and of the marks."""
    env.observe_a11y_tree = with_tree
    times = []
    for index in range(steps):
        start = time.perf_counter()
        obs, *_ = env.step(Click(200 + 90 * (index % 4), 300 + 20 * (index % 5)))
        times.append(time.perf_counter() - start)
        assert (obs.a11y_tree is not None) == with_tree
        for key, value in (obs.timings or {}).items():
            if parts is not None and key in ("a11y_s", "marks_s"):
                parts.setdefault(key, []).append(value)
    return times


def _measure_steps(env: DesktopEnv, steps: int) -> tuple[list[float], list[float], dict[str, list[float]]]:
    _steps(env, 3, True)  # warm up
    without: list[float] = []
    with_tree: list[float] = []
    parts: dict[str, list[float]] = {}
    for _ in range(2):  # interleaved halves, so a change of load falls on both
        without += _steps(env, steps // 2, False)
        with_tree += _steps(env, steps // 2, True, parts)
    return without, with_tree, parts


def _print_steps(without: list[float], with_tree: list[float], parts: dict[str, list[float]]) -> None:
    print(f"desktop step (a click on a cell and its observation), {len(without)} steps each")
    for label, times in (("without the tree", without), ("with the tree", with_tree)):
        median, p95 = _stats(times)
        print(f"{label:34} {'':8} {median * 1000:10.1f} {p95 * 1000:8.1f}")
    for key, label in (("a11y_s", "  of which the read"), ("marks_s", "  of which the marks")):
        if parts.get(key):
            median, p95 = _stats(parts[key])
            print(f"{label:34} {'':8} {median * 1000:10.1f} {p95 * 1000:8.1f}")
    print(f"the tree adds {(_stats(with_tree)[0] - _stats(without)[0]) * 1000:.1f} ms to a step's median")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--steps", type=int, default=20, help="desktop steps timed with and without the tree (0: none)")
    args = parser.parse_args()
    env = DesktopEnv(screen=(1280, 800), apps=("calc",), accessibility=True, step_timeout_s=30)
    try:
        env.reset(options={"setup": [LaunchStep(launch=LaunchArgs(app="calc"))]})
        env.step(Wait(2.0))
        _ours(env, 3, False)  # warm up (the app makes its accessible objects on first demand)
        _baseline(env, 2, True)
        rows = [
            ("ours, on screen (observation)", *_ours(env, args.repeat, False)),
            ("pyatspi walk, on screen", *_baseline(env, args.repeat, True)),
            ("ours, every element (checks)", *_ours(env, args.repeat, True)),
            ("pyatspi walk, every element", *_baseline(env, args.repeat, False)),
        ]
        step_times = _measure_steps(env, args.steps) if args.steps else None
    finally:
        env.close()
    print(f"Calc, empty sheet, 1280x800, {args.repeat} reads each")
    print(f"{'read':34} {'elements':>8} {'median ms':>10} {'p95 ms':>8} {'CPU ms':>8}")
    for label, times, count, cpu in rows:
        median, p95 = _stats(times)
        print(f"{label:34} {count:8d} {median * 1000:10.1f} {p95 * 1000:8.1f} {cpu * 1000:8.1f}")
    for ours, theirs in ((0, 1), (2, 3)):
        print(f"speed-up {rows[ours][0]!r}: median x{_stats(rows[theirs][1])[0] / _stats(rows[ours][1])[0]:.1f}, "
              f"p95 x{_stats(rows[theirs][1])[1] / _stats(rows[ours][1])[1]:.1f}")
    if step_times is not None:
        _print_steps(*step_times)


if __name__ == "__main__":
    main()
