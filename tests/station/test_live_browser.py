"""The annotator's whole path in a real browser: sign in, take calc/sum-column, do it through
the noVNC canvas only (Playwright's clicks and keys -> noVNC -> the station's websocket ->
x11vnc -> XTEST -> LibreOffice), Finish, and see the evaluator's verdict and the review page.

Everything started here (Chromium, the station's server, the task's desktop and x11vnc) is
stopped by PID in a ``finally``/context exit, also when an assertion fails.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from gui_agent.envs.browser.chromium import DEFAULT_EXECUTABLE, ESSENTIAL_FLAGS
from gui_agent.episode import read_episode
from gui_agent.polling import wait_until
from tests.paths import REPO
from tests.station.station_server import SUM_COLUMN, running_station

CHROMIUM = DEFAULT_EXECUTABLE
CHROMIUM_ARGS = list(ESSENTIAL_FLAGS)

pytestmark = pytest.mark.slow  # x11vnc, novnc, Xvfb, Calc and Chromium: scripts/setup.sh installs them

#: Counts the canvas's pixels that are not black, and a cheap fingerprint of them.
CANVAS_STATS = """() => {
  const canvas = document.querySelector('#screen canvas');
  if (!canvas || !canvas.width) return null;
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let lit = 0, hash = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] | data[i + 1] | data[i + 2]) lit++;
    hash = (hash * 31 + data[i] + 7 * data[i + 1] + 13 * data[i + 2]) | 0;
  }
  return {width: canvas.width, height: canvas.height, lit, hash};
}"""


def _wait(predicate, timeout_s: float, what: str):
    return wait_until(predicate, timeout_s=timeout_s, what=what, interval_s=0.2)


def test_annotator_records_sum_column_through_the_vnc_canvas(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    with running_station([SUM_COLUMN], tmp_path / "dataset", annotators=1, repeats=2) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            # A laptop's window, shorter than the page with its canvas: clicks must land where aimed even so.
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            page.goto(server.url + "/")
            assert page.url.endswith("/signin")
            page.fill("input[name=token]", server.token("annotator1"))
            page.click("button[type=submit]")
            page.wait_for_selector("#items tbody tr")
            first, second = (i.item_id for i in server.items_of("annotator1"))
            page.click(f"tr[data-item='{first}'] a")
            page.wait_for_url(f"**/task/{first}")
            page.wait_for_function("() => document.getElementById('instruction').textContent.includes('B6')")
            assert not page.is_checked("#done-ok")  # the annotator says whether she did it; nothing says it for her

            page.click("#take")
            page.wait_for_selector("body[data-vnc=connected]", timeout=90_000)
            stats = _wait(lambda: (s := page.evaluate(CANVAS_STATS)) and s["lit"] > 100_000 and s, 30, "the desktop on the canvas")
            assert (stats["width"], stats["height"]) == (1280, 800)

            # A click into the canvas reaches LibreOffice: the selected cell moves and the canvas changes.
            canvas = page.locator("#screen canvas")
            canvas.click(position={"x": 420, "y": 420})
            _wait(lambda: page.evaluate(CANVAS_STATS)["hash"] != stats["hash"], 10, "the desktop to change after a click")
            # Focusing the canvas did not scroll the page under the pointer (the click landed where aimed).
            assert page.evaluate("window.scrollY") == 0

            page.click("#start")
            page.wait_for_selector("body[data-state=recording]")
            page.click("#pause")
            page.wait_for_selector("body[data-paused=true]")
            page.click("#pause")
            page.wait_for_selector("body[data-paused=false]")
            # Cell B6 of the maximised Calc window at 1280x800 (the canvas is at 1:1 scale).
            canvas.click(position={"x": 162, "y": 252})
            page.wait_for_timeout(500)
            page.keyboard.type("=SUM(B2:B5)", delay=60)
            page.keyboard.press("Enter")
            time.sleep(1.5)  # the recorder reduces typing after a pause
            page.check("#done-ok")
            # While the result is checked, no other button works (pressed in the same task as Finish).
            during = page.evaluate("""() => {
              document.getElementById('finish').click();
              return [...['finish', 'giveup', 'pause', 'discard', 'take'].map(id => document.getElementById(id).disabled),
                      document.getElementById('status').textContent];
            }""")
            assert during == [True, True, True, True, True, "checking the result…"], during
            page.wait_for_selector("#outcome", timeout=60_000)
            # The verdict shows in the laptop's window without scrolling, and the dead view leaves no black box.
            for shown in ("#outcome", "#result a"):
                box = page.locator(shown).bounding_box()
                assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 768, (shown, box)
            assert page.is_hidden("#screen") and page.evaluate("window.scrollY") == 0
            item = server.station.queue.get(first)
            steps = [s.action for s in read_episode(server.station.queue.dataset / item.episode).steps]
            assert "Evaluator: success. You said: success." in page.inner_text("#outcome"), (read_episode(server.station.queue.dataset / item.episode).meta.outcome.detail, steps)

            assert item.status == "done" and item.outcome["success"] is True and item.outcome["disagreement"] is False
            episode = read_episode(server.station.queue.dataset / item.episode)
            meta = episode.meta
            assert meta.status == "complete" and meta.outcome.success is True
            assert meta.task.source == str(SUM_COLUMN) and meta.labels["seed"] == 0
            assert meta.labels["annotator_verdict"]["success"] is True and meta.actor.type == "human"
            typed = "".join(s.action.get("text", "") for s in episode.steps if s.action["kind"] == "type")
            assert "=SUM(B2:B5)" in typed, [s.action for s in episode.steps]

            # The episode replays from its task file and seed like a runner episode.
            replay = subprocess.run([sys.executable, "-m", "gui_agent", "replay", str(episode.path), "--out", str(tmp_path / "replays")],
                                    cwd=REPO, capture_output=True, text=True, timeout=180)
            assert replay.returncode == 0 and "SUCCESS replay" in replay.stdout, replay.stdout + replay.stderr

            # The review page lists the steps with their keyframes, no JSON.
            page.click("#result a")
            page.wait_for_selector(".steps .step img")
            assert "success" in page.inner_text(".summary") and "{" not in page.inner_text("body")
            # Every keyframe loads, at the desktop's full width (a busy machine may take a moment).
            page.wait_for_function("() => [...document.querySelectorAll('.steps img')].every(i => i.complete)", timeout=20_000)
            widths = page.evaluate("() => [...document.querySelectorAll('.steps img')].map(i => i.naturalWidth)")
            assert widths and set(widths) == {1280}, widths

            # The annotator deletes the first step and marks the next one as a mistake, with the page's buttons.
            recorded = episode.actions()
            assert len(recorded) >= 2, recorded
            page.click("#step-0 button[data-op=delete]")
            page.wait_for_function("() => document.getElementById('edited').textContent.startsWith('Edited: 1 edit')")
            page.click("#step-0 button[data-op=mistake]")
            page.wait_for_selector("#step-0.mistake .badge")
            edited = read_episode(episode.path)
            assert edited.actions() == recorded[1:] and edited.steps[0].info["mistake"] is True
            assert (episode.path / "original.steps.jsonl").is_file()  # the recording is kept beside it
            assert page.locator(".steps .step").count() == len(recorded) - 1

            # A reviewer, signed in in another context, accepts it in the page.
            reviewer = browser.new_context().new_page()
            reviewer.goto(server.url + "/signin")
            reviewer.fill("input[name=token]", server.token("reviewer"))
            reviewer.click("button[type=submit]")
            reviewer.wait_for_selector("#items tbody tr")
            reviewer.goto(f"{server.url}/review/{first}")
            reviewer.click("#accept")
            reviewer.wait_for_function("() => document.getElementById('decision').textContent.startsWith('accepted by reviewer')")
            assert read_episode(episode.path).meta.labels["review"]["decision"] == "accepted"

            # A wrong "solution" (nothing done) that the annotator calls a success: the evaluator says failure, flagged.
            page.goto(f"{server.url}/task/{second}")
            page.click("#take")
            page.wait_for_selector("body[data-vnc=connected]", timeout=90_000)
            page.click("#start")
            page.wait_for_selector("body[data-state=recording]")
            page.check("#done-ok")
            page.click("#finish")
            page.wait_for_selector("#outcome", timeout=60_000)
            assert "Evaluator: failure. You said: success. They disagree" in page.inner_text("#outcome")
            assert server.station.queue.get(second).outcome["disagreement"] is True
            assert not server.station.live  # every desktop closed after Finish
        finally:
            browser.close()

    # gui-agent export DATASET publishes what the reviewer accepted (the edited episode), not the unreviewed second one.
    out = tmp_path / "hf"
    export = subprocess.run([sys.executable, "-m", "gui_agent", "export", str(tmp_path / "dataset"), "--out", str(out), "--quiet"],
                            cwd=REPO, capture_output=True, text=True, timeout=300)
    assert export.returncode == 0, export.stdout + export.stderr
    import datasets

    from gui_agent.actions import action_to_text

    rows = datasets.load_dataset(str(out), split="train", cache_dir=str(tmp_path / "cache"))
    assert set(rows["episode_id"]) == {meta.episode_id}
    assert rows["action_text"] == [action_to_text(a) for a in recorded[1:]]  # the deleted step is absent
    assert rows["mistake"][0] is True and not any(rows["mistake"][1:])
