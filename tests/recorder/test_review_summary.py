"""review.html as a reviewer first sees it, in real headless Chromium: a summary on top (not a
JSON dump), and action labels that fit their box and their frame, whatever the frame's size."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from gui_agent.actions import Click, Hotkey, Type
from gui_agent.episode import ActorInfo, EnvInfo, Outcome, ScreenSize
from gui_agent.recorder.review import write_review
from tests.synthetic_episodes import write_synthetic

GREY = 230


def _episode(root: Path, width: int, height: int) -> Path:
    frame = np.full((height, width, 3), GREY, np.uint8)
    actions = [Hotkey(("ctrl", "shift", "t")), Type("hello world, a long typed text that cannot fit"), Click(width // 2, height // 2)]
    return write_synthetic(
        root, None, actions, task_id="desktop.calc.sum-column", instruction="Sum column B in the sheet", task_source="human",
        size=(width, height), env=EnvInfo(kind="desktop", app="calc", screen=ScreenSize(width=width, height=height)),
        actor=ActorInfo(type="human", name="ann"), labels={"notes": "took the long way", "review": {"decision": "accepted"}},
        frames=[frame] * 3, thoughts=[None] * 3, times=[0.5, 1.0, 1.5], step_details=False,
        outcome=Outcome(success=True, reward=1.0, termination="stopped", reason="signal"),
    )


@pytest.fixture(scope="module")
def browser() -> Iterator:
    from playwright.sync_api import sync_playwright

    from gui_agent.envs.browser.chromium import ChromiumProcess

    chromium = ChromiumProcess(headless=True)
    pw = None
    try:
        chromium.start()
        pw = sync_playwright().start()
        yield pw.chromium.connect_over_cdp(chromium.cdp_url)
    finally:
        if pw is not None:
            pw.stop()
        chromium.stop()


@pytest.mark.slow
def test_the_page_opens_on_a_summary_and_keeps_episode_json_folded(browser, tmp_path: Path) -> None:
    page = browser.new_context(viewport={"width": 1000, "height": 700}).new_page()
    page.goto(write_review(_episode(tmp_path, 320, 200)).as_uri())
    facts = page.locator(".facts")
    assert facts.is_visible() and facts.bounding_box()["y"] < 200  # right under the title
    text = facts.inner_text()
    for shown in ("success", "reward 1", "desktop.calc.sum-column", "human ann", "desktop calc 320x200", "took the long way"):
        assert shown in text, text
    assert '"task": {' not in page.inner_text("body")  # the dump is not on the page as it opens
    assert not page.locator("details.raw pre").is_visible()
    page.locator("details.raw summary").click()
    assert '"task": {' in page.locator("details.raw pre").inner_text()


@pytest.mark.slow
@pytest.mark.parametrize("size", [(160, 210), (320, 200), (1280, 800)])
def test_labels_fit_their_box_and_their_frame(browser, tmp_path: Path, size: tuple[int, int]) -> None:
    from PIL import Image

    width, height = size
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(write_review(_episode(tmp_path, width, height)).as_uri())
    for step in ("#step-0", "#step-1"):
        box = page.evaluate(f"""() => {{
            const svg = document.querySelector('{step} svg');
            const rect = svg.querySelector('rect').getBBox();
            const text = svg.querySelector('text').getBBox();
            return {{rect: [rect.x, rect.y, rect.width, rect.height], text: [text.x, text.y, text.width, text.height],
                     frame: svg.viewBox.baseVal.width}};
        }}""")
        rx, ry, rw, rh = box["rect"]
        tx, ty, tw, th = box["text"]
        assert rx <= tx and tx + tw <= rx + rw + 0.5, box  # the text inside its box
        assert rx + rw <= box["frame"], box  # the box inside the frame
        frame = page.locator(f"{step} .frame")
        frame.scroll_into_view_if_needed()
        shot = tmp_path / f"{step[1:]}-{width}.png"
        frame.screenshot(path=str(shot))
        pixels = np.asarray(Image.open(shot).convert("RGB")).astype(int)
        white = np.argwhere((pixels > 245).all(axis=2))  # the label's glyphs (the frame is grey, the box pink)
        assert len(white), "the label's text was drawn"
        assert white[:, 1].max() < rx + rw and white[:, 0].max() < ry + rh, (white[:, 1].max(), box)
