#!/usr/bin/env python
"""Benchmark the browser environments against bare Playwright, in one run.

Measures, on this machine:

* one BrowserEnv step (a click + settle + lossless screenshot decoded to an RGB array)
  at 1280x720 on a static page;
* the baseline: a normally launched Playwright browser (``chromium.launch`` with Debian's
  Chromium) doing ``page.mouse.click`` + ``page.screenshot()`` (PNG bytes, not decoded);
* one full MiniWoB++ episode: ``MiniWobEnv.reset(seed)`` + solving click-test by the
  button's DOM box (one click step), and the same protocol done with bare Playwright;

and prints median / p95 of each, the env/baseline ratios and the command line. Env and
baseline calls alternate, so a machine shared with other work loads both alike.

Usage:
    python scripts/bench_env.py [--steps 100] [--episodes 30] [--settle-s S] [--json out.json]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

STATIC_PAGE = """<!DOCTYPE html><html><head><title>bench</title>
<style>body{margin:0;font-family:sans-serif} p{margin:6px 12px} button{font-size:18px}</style></head>
<body><h1 style="margin:12px">A static page</h1>
<button id="b" style="position:absolute;left:600px;top:20px;width:120px;height:40px"
  onclick="this.textContent = 'clicked ' + (++window.n)">click me</button>
<script>window.n = 0</script>
""" + "\n".join(
    f"<p style='color:hsl({(i * 37) % 360},60%,35%)'>Paragraph {i}: lorem ipsum dolor sit amet, "
    f"consectetur adipiscing elit <a href='#'>link {i}</a></p>"
    for i in range(30)
) + "</body></html>"


def stats(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, max(0, int(round(0.95 * len(ordered))) - 1))]
    return {"median_ms": statistics.median(ordered) * 1000, "p95_ms": p95 * 1000, "n": len(ordered)}


def _baseline_browser(pw: Any) -> Any:
    from gui_agent.envs.browser.chromium import BASE_FLAGS, DEFAULT_EXECUTABLE

    return pw.chromium.launch(executable_path=DEFAULT_EXECUTABLE, headless=True, args=list(BASE_FLAGS))


def bench_steps(url: str, steps: int, settle_s: float | None) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """Env steps and baseline steps, interleaved so both see the same machine load."""
    from playwright.sync_api import sync_playwright

    from gui_agent.actions import Click
    from gui_agent.envs.browser.env import BrowserEnv

    kwargs: dict[str, Any] = {} if settle_s is None else {"settle_s": settle_s}
    env_totals: list[float] = []
    base_totals: list[float] = []
    phases: dict[str, list[float]] = {"act_s": [], "settle_s": [], "observe_s": []}
    with BrowserEnv(url=url, viewport=(1280, 720), **kwargs) as env, sync_playwright() as pw:
        browser = _baseline_browser(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.goto(url)
            env.reset()
            for i in range(steps + 5):
                t0 = time.perf_counter()
                obs, *_ = env.step(Click(660, 40))
                t1 = time.perf_counter()
                page.mouse.click(660, 40)
                page.screenshot()
                t2 = time.perf_counter()
                if i < 5:  # warm-up
                    continue
                env_totals.append(t1 - t0)
                base_totals.append(t2 - t1)
                for key in phases:
                    phases[key].append(obs.timings[key])
            assert obs.screenshot.shape == (720, 1280, 3)
        finally:
            browser.close()
    return stats(env_totals), {k: statistics.median(v) * 1000 for k, v in phases.items()}, stats(base_totals)


BOX_JS = "(() => { const r = subbtn.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()"


def bench_episodes(episodes: int) -> tuple[dict[str, float], float, dict[str, float]]:
    """MiniWoB++ click-test episodes: env and bare-Playwright protocol, interleaved."""
    from playwright.sync_api import sync_playwright

    from gui_agent.actions import Click
    from gui_agent.envs.browser.miniwob import MiniWobEnv
    from gui_agent.envs.browser.miniwob_pages import miniwob_html_dir

    url = (miniwob_html_dir() / "click-test.html").as_uri()
    solved = 0
    env_totals: list[float] = []
    base_totals: list[float] = []
    with MiniWobEnv(task="click-test") as env, sync_playwright() as pw:
        browser = _baseline_browser(pw)
        try:
            page = browser.new_page(viewport={"width": 160, "height": 210})
            page.goto(url)  # loaded once, like the env's first reset below (not timed)
            env.reset(seed=10_000)
            for seed in range(episodes):
                t0 = time.perf_counter()
                env.reset(seed=seed)
                x, y, w, h = env.evaluate_js(BOX_JS)
                _, reward, terminated, _, _ = env.step(Click(int(x + w / 2), int(y + h / 2)))
                t1 = time.perf_counter()
                page.evaluate("(s) => { core.endEpisode(0); Math.seedrandom(s); core.startEpisodeReal(); }", seed)
                page.wait_for_function("() => WOB_TASK_READY === true")
                page.evaluate("core.getUtterance()")
                page.screenshot()
                box = page.evaluate(BOX_JS)
                page.mouse.click(box[0] + box[2] / 2, box[1] + box[3] / 2)
                page.screenshot()
                page.evaluate("[WOB_DONE_GLOBAL, WOB_RAW_REWARD_GLOBAL]")
                t2 = time.perf_counter()
                env_totals.append(t1 - t0)
                base_totals.append(t2 - t1)
                solved += int(terminated and reward == 1.0)
        finally:
            browser.close()
    return stats(env_totals), solved / episodes, stats(base_totals)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=100, help="timed steps per step benchmark")
    parser.add_argument("--episodes", type=int, default=30, help="timed MiniWoB++ episodes")
    parser.add_argument("--settle-s", type=float, default=None, help="BrowserEnv settle_s (default: the env's default)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="gui-agent-bench-") as folder:
        page = Path(folder) / "static.html"
        page.write_text(STATIC_PAGE, encoding="utf-8")
        url = page.as_uri()
        load_before = os.getloadavg()[0]
        env_step, phases, base_step = bench_steps(url, args.steps, args.settle_s)
    env_ep, success, base_ep = bench_episodes(args.episodes)
    load_after = os.getloadavg()[0]

    from gui_agent.envs.browser.env import DEFAULT_SETTLE_S

    settle = DEFAULT_SETTLE_S if args.settle_s is None else args.settle_s
    results = {
        "command": " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv]),
        "env_step_1280x720": env_step,
        "env_step_phases_median_ms": phases,
        "baseline_step_1280x720": base_step,
        "step_ratio_median": env_step["median_ms"] / base_step["median_ms"],
        "env_miniwob_click_test_episode": env_ep,
        "env_miniwob_success_rate": success,
        "baseline_miniwob_click_test_episode": base_ep,
        "episode_ratio_median": env_ep["median_ms"] / base_ep["median_ms"],
        "settle_s": settle,
        "loadavg_1min": [load_before, load_after],
        "cpus": os.cpu_count(),
    }
    out = io.StringIO()
    print(f"command: {results['command']}", file=out)
    print(f"settle_s = {settle}; {os.cpu_count()} CPUs; 1-min load average {load_before:.1f} before, "
          f"{load_after:.1f} after (env and baseline are interleaved, so both see the same load)", file=out)

    def row(name: str, s: dict[str, float]) -> None:
        print(f"  {name:52s} median {s['median_ms']:7.1f} ms   p95 {s['p95_ms']:7.1f} ms   (n={s['n']})", file=out)

    print("one step (click + observe) at 1280x720, static page:", file=out)
    row("BrowserEnv.step(Click) -> RGB array", env_step)
    print("  " + "  ".join(f"{k} {v:.1f} ms" for k, v in phases.items()) + "  (medians)", file=out)
    row("baseline: mouse.click + page.screenshot() (PNG bytes)", base_step)
    print(f"  ratio env/baseline (median): {results['step_ratio_median']:.2f}", file=out)
    print("one MiniWoB++ click-test episode (reset + solve by DOM):", file=out)
    row("MiniWobEnv reset + step", env_ep)
    print(f"  solved: {success:.0%}", file=out)
    row("baseline: same protocol with bare Playwright", base_ep)
    print(f"  ratio env/baseline (median): {results['episode_ratio_median']:.2f}", file=out)
    print(out.getvalue(), end="")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
