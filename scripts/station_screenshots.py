#!/usr/bin/env python
"""Take the annotation station's screenshots for the docs: the task list, the live desktop, the review page.

Starts ``gui-agent annotate`` (its own process) on a temporary DATASET with Calc's
sum-column task (and two other Calc tasks, so the list has rows to show), then drives it
in headless Chromium (Playwright) as an annotator and a reviewer would:

* ``station-live.png``: sum-column's task page while recording, the formula half typed
  into cell B6 on the live Calc desktop in the noVNC canvas;
* ``station-tasks.png``: the annotator's task list after signing in again, sum-column
  done (the evaluator's verdict and the annotator's beside it, a Review link);
* ``station-review.png``: the finished episode's review page seen by a reviewer (steps
  with their keyframes, Accept / Reject, the edit controls).

The PNGs go to ``docs/images/`` (or ``--out``), shrunk with Pillow when one is over
``--max-kb``. The station, its desktop and Chromium are stopped by PID in a ``finally``.

Usage:
    python scripts/station_screenshots.py [--out docs/images] [--max-kb 400]
"""

from __future__ import annotations

import argparse
import io
import secrets
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CALC = ROOT / "datasets" / "tasks" / "desktop" / "calc"
SUITE = [CALC / "sum-column.yaml", CALC / "bold-header.yaml", CALC / "sort-descending.yaml"]
from gui_agent.envs.browser.chromium import DEFAULT_EXECUTABLE as CHROMIUM  # noqa: E402
from gui_agent.envs.browser.chromium import ESSENTIAL_FLAGS  # noqa: E402
from gui_agent.polling import wait_until  # noqa: E402

CHROMIUM_ARGS = list(ESSENTIAL_FLAGS)
VIEWPORT = {"width": 1280, "height": 900}
#: Cell B6 of sum-column's maximised Calc window at 1280x800 (the canvas is at 1:1 scale).
B6 = {"x": 162, "y": 252}
#: The review page is drawn at this zoom, so its first keyframe fits in the window with the controls above it.
REVIEW_ZOOM = 0.67

LIT_JS = """() => {
  const canvas = document.querySelector('#screen canvas');
  if (!canvas || !canvas.width) return 0;
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let lit = 0;
  for (let i = 0; i < data.length; i += 16) if (data[i] | data[i + 1] | data[i + 2]) lit++;
  return lit;
}"""


def progress(message: str) -> None:
    print(f"[station_screenshots {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def wait_for(predicate, timeout_s: float, what: str):
    return wait_until(predicate, timeout_s=timeout_s, what=what, interval_s=0.2)


def save_png(png: bytes, path: Path, max_kb: int) -> int:
    """Write ``png``, re-encoded smaller (optimised, then with a 256-colour palette) when over ``max_kb``."""
    from PIL import Image

    data = png
    if len(data) > max_kb * 1024:
        image = Image.open(io.BytesIO(png)).convert("RGB")
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", optimize=True)
        data = buffer.getvalue()
        if len(data) > max_kb * 1024:
            buffer = io.BytesIO()
            image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(buffer, format="PNG", optimize=True)
            data = buffer.getvalue()
    path.write_bytes(data)
    return len(data)


def sign_in(browser: Any, url: str, token: str) -> Any:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.goto(url + "/signin")
    page.fill("input[name=token]", token)
    page.click("button[type=submit]")
    page.wait_for_selector("#items tbody tr")
    return page


def take_screenshots(out: Path, max_kb: int, workdir: Path) -> dict[str, int]:
    from playwright.sync_api import sync_playwright

    from gui_agent.envs.owned_process import OwnedProcess
    from gui_agent.station.live import free_loopback_port

    annotator, reviewer = secrets.token_hex(16), secrets.token_hex(16)
    tokens = workdir / "tokens.txt"
    tokens.write_text(f"alice {annotator} annotator\nbob {secrets.token_hex(16)} annotator\nrosa {reviewer} reviewer\n")
    port = free_loopback_port()
    url = f"http://127.0.0.1:{port}"
    station = OwnedProcess(
        [sys.executable, "-m", "gui_agent", "annotate", *map(str, SUITE), "--out", str(workdir / "dataset"),
         "--tokens-file", str(tokens), "--repeats", "2", "--port", str(port)],
        name="gui-agent annotate", cwd=ROOT, log_path=workdir / "station.log", terminate_group=False)
    sizes: dict[str, int] = {}
    try:
        station.start()

        def up() -> bool:
            try:
                with urllib.request.urlopen(url + "/signin", timeout=2) as response:
                    return response.status == 200
            except OSError:
                return False

        wait_for(up, 60, "the station to serve")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                progress("the live desktop (building it takes a few seconds)")
                page = sign_in(browser, url, annotator)
                item = page.get_attribute("#items tbody tr:has-text('sum-column')", "data-item")
                page.goto(f"{url}/task/{item}")
                page.wait_for_selector("body[data-state=pending]")
                page.click("#take")
                page.wait_for_selector("body[data-vnc=connected]", timeout=180_000)
                wait_for(lambda: page.evaluate(LIT_JS) > 100_000, 60, "the desktop on the canvas")
                page.click("#start")
                page.wait_for_selector("body[data-state=recording]")
                canvas = page.locator("#screen canvas")
                # noVNC focuses the canvas on a click, and focus() scrolls a canvas that does not fit
                # the window before the click's position is read: focused first, the click lands on B6.
                page.evaluate("() => document.querySelector('#screen canvas').focus({preventScroll: true})")
                canvas.click(position=B6)
                page.wait_for_timeout(500)
                page.keyboard.type("=SUM(B2:B5", delay=80)
                page.wait_for_timeout(1000)  # the frames of the typing reach the canvas
                page.evaluate("() => window.scrollTo(0, 0)")
                sizes["station-live.png"] = save_png(page.screenshot(), out / "station-live.png", max_kb)

                progress("finishing the task")
                page.keyboard.type(")", delay=80)
                page.keyboard.press("Enter")
                time.sleep(1.5)  # the recorder closes the typing step after a pause
                page.check("#done-ok")
                page.click("#finish")
                page.wait_for_selector("#outcome", timeout=60_000)
                outcome = page.inner_text("#outcome")
                if "Evaluator: success" not in outcome:
                    raise RuntimeError(f"the task did not succeed: {outcome}")
                page.context.close()

                progress("the task list, signed in again (one task done)")
                page = sign_in(browser, url, annotator)
                page.wait_for_selector("#items tbody tr a[href^='/review/']")
                bottom = page.evaluate("() => document.querySelector('#items').getBoundingClientRect().bottom")
                clip = {"x": 0, "y": 0, "width": VIEWPORT["width"], "height": min(VIEWPORT["height"], max(320, int(bottom) + 24))}
                sizes["station-tasks.png"] = save_png(page.screenshot(clip=clip), out / "station-tasks.png", max_kb)

                progress("the review page, as the reviewer")
                review = sign_in(browser, url, reviewer)
                review.goto(f"{url}/review/{item}")
                review.wait_for_selector(".steps .step img")
                review.wait_for_function("() => [...document.querySelectorAll('.steps img')].every(i => i.complete && i.naturalWidth > 0)")
                # Zoomed out, one window holds the verdicts, Accept / Reject, the edit controls and a step's keyframe.
                review.evaluate(f"() => {{ document.documentElement.style.zoom = '{REVIEW_ZOOM}'; }}")
                review.wait_for_timeout(300)
                sizes["station-review.png"] = save_png(review.screenshot(), out / "station-review.png", max_kb)
            finally:
                browser.close()
    finally:
        station.stop(grace_s=60)  # SIGTERM: the station closes its desktops (by PID) as it exits
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="folder for the PNGs (default: docs/images)")
    parser.add_argument("--max-kb", type=int, default=400, help="re-encode a PNG over this many KB (default: 400)")
    args = parser.parse_args()
    if args.max_kb < 1:
        parser.error("--max-kb must be at least 1")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gui-agent-station-shots-") as tmp:
        sizes = take_screenshots(args.out, args.max_kb, Path(tmp))
    for name, size in sizes.items():
        print(f"{args.out / name}: {size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
