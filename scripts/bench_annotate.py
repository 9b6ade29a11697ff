#!/usr/bin/env python
"""Benchmark the annotation station's live desktop against bare x11vnc + noVNC, in one run.

The station (``gui-agent annotate``) shows each annotator's desktop through its own
websocket relay to a per-task ``x11vnc``, in its own page, and records the task while
the annotator works. This measures what that costs over the bare way of showing a
desktop in a browser: the same kind of desktop (the task's Xvfb + LibreOffice Calc, set
up by the same code, ``x11vnc`` with the same flags), served by Debian's ``websockify``
to Debian's stock ``vnc.html``. The annotator's browser is headless Chromium (Playwright),
one browser context per annotator, on this same machine.

Figures, for 1, 2, ... annotators at once (each with their own desktop, all active):

* latency: from a click dispatched on the noVNC canvas in the page (a ``mousedown`` +
  ``mouseup`` at a Calc cell other than the selected one) to the first animation frame
  whose canvas pixels around that cell differ (Calc drew its cell cursor there), read in
  page JS with ``requestAnimationFrame`` + ``getImageData``; median and p90 over the
  clicks of every annotator;
* frames per second: while the page drags a selection in Calc (button held, the pointer
  sent to a new cell every 20 ms, so the selection changes 50 times a second), the
  animation frames per second whose canvas differs from the one before (what the
  annotator sees move); beside it the framebuffer updates noVNC painted per second
  (its ``flip`` calls, counted by wrapping ``drawImage``);
* CPU per active annotator: CPU time of the serving side over the clicks and the drag,
  divided by the wall time and the annotators: the station process (HTTP, websocket
  relay and the recorder's threads) and its ``x11vnc`` processes, against ``websockify``
  (with its per-connection children) and the bare ``x11vnc`` processes. The desktops'
  own processes (Xvfb, LibreOffice) are given apart: the recorder's screen grabs are
  served by Xvfb;
* capacity: the most annotators at once whose median latency stays under 100 ms (and,
  stricter, whose p90 does). Counts go up from 1 until both sides are over, or the cap.

The station's annotators record (Start recording is pressed) unless ``--no-record``.
Every process started here (the station, websockify, the bare desktops and their
x11vnc, Chromium) is stopped by PID in a ``finally``. Progress goes to stderr.

Usage:
    python scripts/bench_annotate.py [--clicks 30] [--drag-s 5] [--max-annotators 4]
                                     [--annotators 1,2] [--no-record] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shlex
import statistics
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SUM_COLUMN = ROOT / "datasets" / "tasks" / "desktop" / "calc" / "sum-column.yaml"
NOVNC_DIR = Path("/usr/share/novnc")
from gui_agent.envs.browser.chromium import DEFAULT_EXECUTABLE as CHROMIUM  # noqa: E402
from gui_agent.envs.browser.chromium import ESSENTIAL_FLAGS  # noqa: E402
from gui_agent.polling import wait_until  # noqa: E402

CHROMIUM_ARGS = list(ESSENTIAL_FLAGS)
VIEWPORT = {"width": 1400, "height": 1100}
LATENCY_LIMIT_MS = 100.0


def _cell(col: int, row: int) -> dict[str, Any]:
    """The centre and a box around a cell of sum-column's maximised Calc window at 1280x800
    (columns 84 px wide from x=37, rows 20 px high from y=143; A1 is col 0, row 1)."""
    left, top = 37 + 84 * col, 143 + 20 * (row - 1)
    return {"x": left + 42, "y": top + 10, "box": [left - 6, top - 6, 84 + 12, 20 + 12]}


#: Clicks alternate between these cells: each click moves Calc's cell cursor to a cell without it.
CLICK_CELLS = [_cell(4, 10), _cell(7, 16)]  # E10, H16
#: A click here before each phase, so the first timed click lands on a cell that is not selected.
PRIME_CELL = _cell(2, 24)  # C24
#: The drag holds the button down on D8 and moves between G14 and J20: every move changes the selection.
DRAG = {"anchor": _cell(3, 8), "ends": [_cell(6, 14), _cell(9, 20)], "box": [280, 275, 520, 275]}

#: Counts noVNC's flips (drawImage from its backbuffer onto the page's canvas); runs before the page's scripts.
INIT_JS = """(() => {
  window.__gaFlips = 0;
  const draw = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    if (args[0] instanceof HTMLCanvasElement && this.canvas.isConnected) window.__gaFlips++;
    return draw.apply(this, args);
  };
})();"""

#: The measuring code, in the page: clicks with latency, a drag with frame counts. Runs in the
#: background (``window.__gaResult``) so every annotator's page measures at the same time.
BENCH_JS = """([selector, phase, opts]) => {
  const canvas = document.querySelector(selector);
  const ctx = canvas.getContext('2d');
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  function sig(box, step) {
    const [x, y, w, h] = box;
    const data = ctx.getImageData(x, y, w, h).data;
    let hash = 0;
    for (let row = 0; row < h; row += step) {
      for (let i = row * w * 4, end = (row + 1) * w * 4; i < end; i += 4 * step) {
        hash = (hash * 31 + data[i] + 7 * data[i + 1] + 13 * data[i + 2]) | 0;
      }
    }
    return hash;
  }
  function mouse(type, cell, buttons) {
    const rect = canvas.getBoundingClientRect();
    canvas.dispatchEvent(new MouseEvent(type, {clientX: rect.left + cell.x, clientY: rect.top + cell.y, button: 0, buttons,
                                               bubbles: true, cancelable: true, view: window}));
  }
  function click(cell) { mouse('mousedown', cell, 1); mouse('mouseup', cell, 0); }
  async function clicks() {
    click(opts.prime);
    await sleep(700);
    const latencies = [];
    let missed = 0;
    for (let i = 0; i < opts.n; i++) {
      const cell = opts.cells[i % opts.cells.length];
      await frame();
      const before = sig(cell.box, 1);
      const t0 = performance.now();
      click(cell);
      let seen = null;
      while (performance.now() - t0 < opts.timeoutMs) {
        await frame();
        if (sig(cell.box, 1) !== before) { seen = performance.now(); break; }
      }
      if (seen === null) missed++; else latencies.push(seen - t0);
      await sleep(opts.gapMs);
    }
    return {latencies, missed, visibility: document.visibilityState};
  }
  async function drag() {
    click(opts.prime);
    await sleep(700);
    mouse('mousedown', opts.anchor, 1);
    let i = 0;
    const mover = setInterval(() => mouse('mousemove', opts.ends[i++ % opts.ends.length], 1), opts.moveMs);
    const flips0 = window.__gaFlips, t0 = performance.now();
    let frames = 0, changed = 0, last = sig(opts.box, 2);
    while (performance.now() - t0 < opts.seconds * 1000) {
      await frame();
      frames++;
      const now = sig(opts.box, 2);
      if (now !== last) { changed++; last = now; }
    }
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(mover);
    mouse('mouseup', opts.ends[0], 0);
    return {seconds, frames, changed, flips: window.__gaFlips - flips0, moves: i};
  }
  window.__gaResult = null;
  (phase === 'clicks' ? clicks() : drag()).then((r) => { window.__gaResult = r; },
                                                (e) => { window.__gaResult = {error: String(e)}; });
  return true;
}"""

#: Counts the canvas's pixels that are not black (the desktop has arrived when many are lit).
LIT_JS = """(selector) => {
  const canvas = document.querySelector(selector);
  if (!canvas || !canvas.width) return 0;
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let lit = 0;
  for (let i = 0; i < data.length; i += 16) if (data[i] | data[i + 1] | data[i + 2]) lit++;
  return lit;
}"""


def progress(message: str) -> None:
    print(f"[bench_annotate {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered))) - 1))]


def wait_for(predicate, timeout_s: float, what: str):
    return wait_until(predicate, timeout_s=timeout_s, what=what, interval_s=0.2)


def wait_http(url: str, timeout_s: float, what: str) -> None:
    def up() -> bool:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    wait_for(up, timeout_s, what)


# ---------------------------------------------------------------------------------- CPU
@dataclass
class CpuGroups:
    """Which processes count as what: a callable per group returning the PIDs now."""

    groups: dict[str, Any]
    start: dict[str, dict[int, float]] = field(default_factory=dict)

    @staticmethod
    def _cpu(pids: list[int]) -> dict[int, float]:
        import psutil

        out: dict[int, float] = {}
        for pid in pids:
            try:
                times = psutil.Process(pid).cpu_times()
            except psutil.Error:
                continue
            out[pid] = times.user + times.system
        return out

    def begin(self) -> None:
        self.start = {name: self._cpu(pids()) for name, pids in self.groups.items()}

    def end(self) -> dict[str, float]:
        """CPU seconds each group used since :meth:`begin` (processes gone meanwhile are left out)."""
        spent: dict[str, float] = {}
        for name, pids in self.groups.items():
            now = self._cpu(pids())
            spent[name] = sum(max(0.0, cpu - self.start[name].get(pid, 0.0)) for pid, cpu in now.items())
        return spent


DESKTOP_NAMES = ("Xvfb", "openbox", "oosplash", "soffice.bin", "xdotool")


def descendants(pid: int, names: tuple[str, ...] | None = None, exclude: tuple[str, ...] = ()) -> list[int]:
    """The live descendants of ``pid`` (only those named ``names``, when given), for CPU accounting."""
    import psutil

    try:
        kids = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []
    out = []
    for kid in kids:
        try:
            name = kid.name()
        except psutil.Error:
            continue
        if (names is None or name in names) and name not in exclude:
            out.append(kid.pid)
    return out


# ---------------------------------------------------------------------------------- the two sides
class StationSide:
    """``gui-agent annotate`` in its own process with N annotators, each signed in in their own
    browser context, on their task page with the desktop open (and recording)."""

    label = "station"
    selector = "#screen canvas"

    def __init__(self, browser: Any, n: int, workdir: Path, *, record: bool):
        self.browser, self.n, self.workdir, self.record = browser, n, workdir, record
        self.pages: list[Any] = []
        self.proc: Any = None

    def __enter__(self) -> "StationSide":
        from gui_agent.envs.owned_process import OwnedProcess
        from gui_agent.station.live import free_loopback_port

        tokens = {f"annotator{i + 1}": secrets.token_hex(16) for i in range(self.n)}
        tokens_file = self.workdir / "tokens.txt"
        tokens_file.write_text("".join(f"{name} {token} annotator\n" for name, token in tokens.items())
                               + f"reviewer {secrets.token_hex(16)} reviewer\n")
        port = free_loopback_port()
        self.proc = OwnedProcess(
            [sys.executable, "-m", "gui_agent", "annotate", str(SUM_COLUMN), "--out", str(self.workdir / "dataset"),
             "--tokens-file", str(tokens_file), "--repeats", str(self.n), "--idle-pause", "0", "--port", str(port)],
            name="gui-agent annotate", cwd=ROOT, log_path=self.workdir / "station.log", terminate_group=False)
        try:
            self.proc.start()
            url = f"http://127.0.0.1:{port}"
            wait_http(url + "/signin", 60, "the station to serve")
            for token in tokens.values():
                page = self.browser.new_context(viewport=VIEWPORT).new_page()
                page.add_init_script(INIT_JS)
                self.pages.append(page)
                page.goto(url + "/signin")
                page.fill("input[name=token]", token)
                page.click("button[type=submit]")
                page.wait_for_selector("#items tbody tr")
                item = page.get_attribute("#items tbody tr", "data-item")
                page.goto(f"{url}/task/{item}")
                page.wait_for_selector("body[data-state=pending]")
            for page in self.pages:  # every desktop builds at once, as when annotators arrive together
                page.click("#take")
            for page in self.pages:
                page.wait_for_selector("body[data-vnc=connected]", timeout=180_000)
                wait_for(lambda: page.evaluate(LIT_JS, self.selector) > 20_000, 60, "the desktop on the canvas")
            if self.record:
                for page in self.pages:
                    page.click("#start")
                for page in self.pages:
                    page.wait_for_selector("body[data-state=recording]", timeout=60_000)
        except BaseException:
            self.__exit__()
            raise
        return self

    def cpu_groups(self) -> CpuGroups:
        pid = self.proc.pid
        return CpuGroups({
            "server": lambda: [pid],
            "x11vnc": lambda: descendants(pid, ("x11vnc",)),
            "desktop": lambda: descendants(pid, DESKTOP_NAMES),
        })

    def __exit__(self, *exc: Any) -> None:
        for page in self.pages:
            try:
                page.context.close()  # the views go first, so the relays end before the server stops
            except Exception:  # noqa: BLE001 - the browser may be gone already
                pass
        if self.proc is not None:
            self.proc.stop(grace_s=60)  # SIGTERM: the station closes every desktop (by PID) as it exits


class BareSide:
    """N desktops built as the station builds them (the task's set-up, x11vnc with the same
    flags), each served by its own ``websockify --web /usr/share/novnc`` to ``vnc.html``."""

    label = "bare"
    selector = "#noVNC_container canvas"

    def __init__(self, browser: Any, n: int, workdir: Path):
        self.browser, self.n, self.workdir = browser, n, workdir
        self.desktops: list[Any] = []
        self.proxies: list[Any] = []
        self.pages: list[Any] = []
        # The desktops' processes die with the thread that started them (parent-death signal),
        # so the threads that open them live as long as the desktops, as the station's do.
        self.pool = ThreadPoolExecutor(n, thread_name_prefix="bare-desktop")

    def _open_desktop(self, index: int) -> Any:
        from gui_agent.task import load_task
        from gui_agent.station.live import LiveDesktop

        desktop = LiveDesktop(item_id=f"bare-{index}", task=load_task(SUM_COLUMN), task_file=SUM_COLUMN, seed=index,
                              annotator=f"bare{index}", repeat=index, dataset=self.workdir / "unused")
        self.desktops.append(desktop)  # before open(): a failed open still gets closed
        desktop.open()
        return desktop

    def __enter__(self) -> "BareSide":
        from gui_agent.envs.owned_process import OwnedProcess
        from gui_agent.station.live import free_loopback_port

        try:
            opened = list(self.pool.map(self._open_desktop, range(self.n)))
            for index, desktop in enumerate(opened):
                port = free_loopback_port()
                proxy = OwnedProcess(["websockify", "--web", str(NOVNC_DIR), str(port), f"127.0.0.1:{desktop.vnc_port}"],
                                     name="websockify", log_path=self.workdir / f"websockify-{index}.log",
                                     install_hint="install Debian's websockify (scripts/setup.sh does)")
                self.proxies.append(proxy)
                proxy.start()
                wait_http(f"http://127.0.0.1:{port}/vnc.html", 30, "websockify")
                page = self.browser.new_context(viewport=VIEWPORT).new_page()
                page.add_init_script(INIT_JS)
                self.pages.append(page)
                page.goto(f"http://127.0.0.1:{port}/vnc.html?autoconnect=1&resize=off")
            for page in self.pages:
                wait_for(lambda: page.evaluate(LIT_JS, self.selector) > 20_000, 60, "the desktop on vnc.html's canvas")
        except BaseException:
            self.__exit__()
            raise
        return self

    def cpu_groups(self) -> CpuGroups:
        proxies = [p.pid for p in self.proxies]
        vncs = [d.vnc.pid for d in self.desktops if d.vnc is not None]
        me = os.getpid()
        return CpuGroups({
            "server": lambda: proxies + [k for p in proxies for k in descendants(p)],
            "x11vnc": lambda: vncs,
            "desktop": lambda: descendants(me, DESKTOP_NAMES),
        })

    def __exit__(self, *exc: Any) -> None:
        for page in self.pages:
            try:
                page.context.close()
            except Exception:  # noqa: BLE001 - the browser may be gone already
                pass
        for proxy in self.proxies:
            proxy.stop()
        for desktop in self.desktops:
            desktop.close()
        self.pool.shutdown()


# ---------------------------------------------------------------------------------- measuring
def run_in_pages(pages: list[Any], selector: str, phase: str, opts: dict[str, Any], timeout_s: float) -> list[dict[str, Any]]:
    """Start ``phase`` in every page at once, then collect each page's result."""
    for page in pages:
        page.evaluate(BENCH_JS, [selector, phase, opts])
    results: list[dict[str, Any] | None] = [None] * len(pages)
    deadline = time.monotonic() + timeout_s
    while any(r is None for r in results):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the pages did not finish the {phase} in {timeout_s:.0f} s")
        time.sleep(0.5)
        for i, page in enumerate(pages):
            if results[i] is None:
                results[i] = page.evaluate("() => window.__gaResult")
    for r in results:
        if r and "error" in r:
            raise RuntimeError(f"the page's {phase} failed: {r['error']}")
    return results  # type: ignore[return-value]


def measure(side: Any, *, clicks: int, gap_ms: int, drag_s: float) -> dict[str, Any]:
    cpu = side.cpu_groups()
    cpu.begin()
    t0 = time.monotonic()
    click_opts = {"n": clicks, "cells": CLICK_CELLS, "prime": PRIME_CELL, "gapMs": gap_ms, "timeoutMs": 3000}
    click_results = run_in_pages(side.pages, side.selector, "clicks", click_opts, timeout_s=60 + clicks * 4)
    drag_opts = {**DRAG, "prime": PRIME_CELL, "moveMs": 20, "seconds": drag_s}
    drag_results = run_in_pages(side.pages, side.selector, "drag", drag_opts, timeout_s=60 + drag_s * 2)
    wall = time.monotonic() - t0
    spent = cpu.end()
    latencies = [x for r in click_results for x in r["latencies"]]
    n = len(side.pages)
    per_annotator = {name: 100.0 * seconds / wall / n for name, seconds in spent.items()}
    return {
        "annotators": n,
        "latency_ms": {"median": statistics.median(latencies) if latencies else float("nan"),
                       "p90": percentile(latencies, 0.9) if latencies else float("nan"),
                       "n": len(latencies), "missed": sum(r["missed"] for r in click_results)},
        "fps_changed": statistics.mean(r["changed"] / r["seconds"] for r in drag_results),
        "fps_flips": statistics.mean(r["flips"] / r["seconds"] for r in drag_results),
        "fps_page": statistics.mean(r["frames"] / r["seconds"] for r in drag_results),
        "moves_per_s": statistics.mean(r["moves"] / r["seconds"] for r in drag_results),
        "cpu_pct_per_annotator": {**per_annotator, "serving": per_annotator["server"] + per_annotator["x11vnc"]},
        "window_s": wall,
        "visibility": sorted({r["visibility"] for r in click_results}),
    }


def bench_side(kind: str, browser: Any, n: int, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"gui-agent-bench-annotate-{kind}-") as tmp:
        progress(f"{kind}, {n} annotator(s): starting {n} desktop(s)")
        side = StationSide(browser, n, Path(tmp), record=args.record) if kind == "station" else BareSide(browser, n, Path(tmp))
        with side:
            progress(f"{kind}, {n} annotator(s): {args.clicks} clicks each, then a {args.drag_s:g} s drag")
            result = measure(side, clicks=args.clicks, gap_ms=args.gap_ms, drag_s=args.drag_s)
        lat = result["latency_ms"]
        progress(f"{kind}, {n} annotator(s): latency median {lat['median']:.1f} ms, p90 {lat['p90']:.1f} ms; "
                 f"{result['fps_changed']:.1f} frames/s; serving CPU {result['cpu_pct_per_annotator']['serving']:.1f} % per annotator")
        return result


# ---------------------------------------------------------------------------------- report
def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b else "-"


def print_report(rows: list[dict[str, Any]], capacity: dict[str, str], args: argparse.Namespace, command: str) -> None:
    load = os.getloadavg()
    print(f"annotation station vs bare x11vnc + noVNC (websockify + vnc.html), sum-column (Calc, 1280x800); "
          f"{os.cpu_count()} CPUs, load average {load[0]:.1f} at the end; the station {'records' if args.record else 'does not record'}")
    print("latency: mousedown dispatched on the canvas -> first animation frame showing the cell cursor there (ms)")
    print("frames/s: animation frames whose canvas differs from the previous one, while dragging a selection "
          "(50 selection changes/s offered); updates/s: noVNC flips (framebuffer updates painted)")
    print("CPU: % of one core per active annotator over the clicks and the drag; serving = station process (or websockify) + x11vnc")
    header = (f"{'N':>2} {'side':8} {'latency median':>15} {'p90':>7} {'missed':>6} {'frames/s':>9} {'updates/s':>9} "
              f"{'page fps':>8} {'serving CPU':>11} {'server':>7} {'x11vnc':>7} {'desktop':>8}")
    print(header)
    for row in rows:
        for kind in ("station", "bare"):
            r = row.get(kind)
            if r is None:
                continue
            lat, cpu = r["latency_ms"], r["cpu_pct_per_annotator"]
            print(f"{row['n']:>2} {kind:8} {lat['median']:12.1f} ms {lat['p90']:7.1f} {lat['missed']:>6} {r['fps_changed']:9.1f} "
                  f"{r['fps_flips']:9.1f} {r['fps_page']:8.1f} {cpu['serving']:9.1f} % {cpu['server']:7.1f} {cpu['x11vnc']:7.1f} "
                  f"{cpu['desktop']:8.1f}")
        if "station" in row and "bare" in row:
            s, b = row["station"], row["bare"]
            print(f"{'':>2} {'ratio':8} {ratio(s['latency_ms']['median'], b['latency_ms']['median']):>15} "
                  f"{ratio(s['latency_ms']['p90'], b['latency_ms']['p90']):>7} {'':>6} {ratio(s['fps_changed'], b['fps_changed']):>9} "
                  f"{ratio(s['fps_flips'], b['fps_flips']):>9} {'':>8} "
                  f"{ratio(s['cpu_pct_per_annotator']['serving'], b['cpu_pct_per_annotator']['serving']):>11}")
    for stat in ("median", "p90"):
        print(f"annotators at once under {LATENCY_LIMIT_MS:.0f} ms {stat} latency on this machine: station "
              f"{capacity['station ' + stat]}, bare {capacity['bare ' + stat]} (the annotators' Chromium runs here too)")
    print(f"command: {command}")


def capacity_text(rows: list[dict[str, Any]], kind: str, stat: str, *, exact: bool) -> str:
    """The most annotators at once before the first count whose ``stat`` latency reached the limit."""
    best = 0
    for row in rows:
        if kind not in row:
            break
        if row[kind]["latency_ms"][stat] >= LATENCY_LIMIT_MS:
            return f"{best}" if not exact else f"{best} (of the counts tried: {', '.join(str(r['n']) for r in rows)})"
        best = row["n"]
    tried = ", ".join(str(r["n"]) for r in rows)
    return f"{best} or more (the most tried)" if not exact else f"{best} or more (of the counts tried: {tried})"


def parse_counts(text: str) -> list[int]:
    try:
        counts = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected annotator counts like 1,2,3, not {text!r}") from None
    if not counts or counts[0] < 1:
        raise argparse.ArgumentTypeError("annotator counts must be 1 or more")
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clicks", type=int, default=30, help="timed clicks per annotator at each count (default: 30)")
    parser.add_argument("--gap-ms", type=int, default=250, help="pause after each click is seen (default: 250)")
    parser.add_argument("--drag-s", type=float, default=5.0, help="seconds of dragging for the frame rate (default: 5)")
    parser.add_argument("--max-annotators", type=int, default=4,
                        help="try 1, 2, ... annotators at once up to this many, stopping once both sides are over "
                        f"{LATENCY_LIMIT_MS:.0f} ms (default: 4)")
    parser.add_argument("--annotators", type=parse_counts, help="measure exactly these counts instead, e.g. 1,3")
    parser.add_argument("--no-record", dest="record", action="store_false", help="the station's annotators do not press Start recording")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if args.clicks < 2 or args.drag_s <= 0 or args.max_annotators < 1 or args.gap_ms < 0:
        parser.error("--clicks must be at least 2, --drag-s above 0, --max-annotators at least 1, --gap-ms not negative")
    for program, hint in (("x11vnc", "x11vnc"), ("websockify", "websockify")):
        if not any((Path(d) / program).is_file() for d in os.environ.get("PATH", "").split(os.pathsep)):
            parser.error(f"{program} is missing: install Debian's {hint} (scripts/setup.sh does)")
    if not (NOVNC_DIR / "vnc.html").is_file():
        parser.error(f"{NOVNC_DIR}/vnc.html is missing: install Debian's novnc (scripts/setup.sh does)")
    counts = args.annotators or list(range(1, args.max_annotators + 1))
    command = "python " + " ".join(shlex.quote(a) for a in [Path(sys.argv[0]).as_posix(), *sys.argv[1:]])

    from playwright.sync_api import sync_playwright

    rows: list[dict[str, Any]] = []
    over = {"station": False, "bare": False}  # median latency over the limit at some count: stop trying more
    with ExitStack() as stack:
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        for n in counts:
            row: dict[str, Any] = {"n": n}
            for kind in ("station", "bare"):
                if over[kind] and not args.annotators:
                    continue
                row[kind] = result = bench_side(kind, browser, n, args)
                over[kind] = over[kind] or result["latency_ms"]["median"] >= LATENCY_LIMIT_MS
            rows.append(row)
            if all(over.values()) and not args.annotators:
                break
    capacity = {f"{kind} {stat}": capacity_text(rows, kind, stat, exact=bool(args.annotators))
                for stat in ("median", "p90") for kind in ("station", "bare")}
    print_report(rows, capacity, args, command)
    if args.json:
        args.json.write_text(json.dumps({"command": command, "rows": rows, "capacity": capacity,
                                         "record": args.record, "cpus": os.cpu_count()}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
