"""The review page (opened in real headless Chromium and its pixels checked), trim and relabel."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from gui_agent.actions import Click, Drag, Type
from gui_agent.episode import (
    ActorInfo,
    EnvInfo,
    Outcome,
    ScreenSize,
    read_episode,
)
from tests.synthetic_episodes import write_synthetic

PINK = (255, 20, 147)


def make_episode(root, n_extra: int = 0, frame_format: str = "png"):
    blue = np.zeros((400, 640, 3), np.uint8)
    blue[..., 2] = 200
    actions = [Click(200, 150), Drag(50, 300, 400, 300), Type("hi\n")] + [Click(10 + i, 10) for i in range(n_extra)]
    frames = []
    for i in range(len(actions)):
        frame = blue.copy()
        frame[0:20, 600:640] = (i * 20, 0, 0)  # each frame distinguishable
        frames.append(frame)
    final = blue.copy()
    final[...] = (0, 120, 0)
    return write_synthetic(
        root, None, actions, task_id="rev", instruction="review me", task_source="human", size=(640, 400),
        env=EnvInfo(kind="desktop", screen=ScreenSize(width=640, height=400)), actor=ActorInfo(type="human", name="tester"),
        labels={}, frame_format=frame_format, frames=frames, thoughts=[None] * len(actions),
        times=[0.5 * i for i in range(len(actions))], events=[(2 * i, 2 * i + 2) for i in range(len(actions))],
        step_details=False, final=final, outcome=Outcome(success=True, termination="stopped"),
    )


def close(a, b, tol=40):
    return all(abs(int(x) - y) <= tol for x, y in zip(a, b))


@pytest.mark.slow
def test_review_page_draws_actions_on_frames_in_chromium(tmp_path):
    from PIL import Image
    from playwright.sync_api import sync_playwright

    from gui_agent.envs.browser.chromium import ChromiumProcess

    episode = make_episode(tmp_path)
    out = subprocess.run([sys.executable, "-m", "gui_agent", "review", str(episode)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    page_file = episode / "review.html"
    html = page_file.read_text()
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "") and "https://" not in html  # self-contained
    chromium = ChromiumProcess(headless=True)
    pw = None
    try:
        chromium.start()
        pw = sync_playwright().start()
        browser = pw.chromium.connect_over_cdp(chromium.cdp_url)
        page = browser.new_context(viewport={"width": 900, "height": 700}).new_page()
        page.goto(page_file.as_uri())
        assert page.locator(".step").count() == 4  # 3 steps + the final frame
        assert page.locator(".tick").count() == 3
        assert "review me" in page.inner_text("h1")
        shots = {}
        for sel in ("#step-0 .frame", "#step-1 .frame", "#step-2 .frame", "#final .frame"):
            page.locator(sel).scroll_into_view_if_needed()
            path = tmp_path / (sel.split()[0][1:] + ".png")
            page.locator(sel).screenshot(path=str(path))
            shots[sel] = np.asarray(Image.open(path).convert("RGB"))
        click = shots["#step-0 .frame"]
        assert click.shape[1] == 640
        assert close(click[150, 200 + 10], PINK)  # the click ring (radius 10) around (200, 150)
        assert close(click[150, 200 + 30], (0, 0, 200))  # outside it: the frame itself
        drag = shots["#step-1 .frame"]
        assert close(drag[300, 220], PINK)  # on the drag line
        assert close(drag[250, 220], (0, 0, 200))
        typed = shots["#step-2 .frame"]
        assert close(typed[12, 12], PINK)  # the typed-text label
        final = shots["#final .frame"]
        assert close(final[200, 320], (0, 120, 0)) and not (final == PINK).all(axis=-1).any()
    finally:
        if pw is not None:
            pw.stop()
        chromium.stop()


def test_trim_and_relabel_from_the_command_line(tmp_path):
    episode = make_episode(tmp_path, n_extra=3)  # 6 steps
    before = read_episode(episode)
    kept_frame = before.load_frame(before.steps[2].frame_before)
    next_frame = before.load_frame(before.steps[4].frame_before)
    out = subprocess.run([sys.executable, "-m", "gui_agent", "review", str(episode), "--trim", "2:4", "--failure",
                          "--notes", "wrong cell", "--label", "quality=low"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    after = read_episode(episode)  # strict: still a valid episode
    assert after.actions() == [Type("hi\n"), Click(10, 10)]
    assert [s.index for s in after.steps] == [0, 1]
    assert (after.load_frame(after.steps[0].frame_before) == kept_frame).all()
    assert after.final_frame == "frames/000002.png" and (after.load_frame(after.final_frame) == next_frame).all()
    assert sorted(p.name for p in (episode / "frames").iterdir()) == ["000000.png", "000001.png", "000002.png"]
    assert after.meta.outcome.success is False
    assert after.meta.labels["notes"] == "wrong cell" and after.meta.labels["quality"] == "low"
    assert after.meta.stats.steps == 2
    bad = subprocess.run([sys.executable, "-m", "gui_agent", "review", str(episode), "--trim", "5:9"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "keeps no step" in bad.stdout


def test_trim_keeps_webp_frames_dense_and_exact(tmp_path):
    from gui_agent.recorder.edit import trim

    episode = make_episode(tmp_path, n_extra=3, frame_format="webp")  # 6 steps, the recorder's format
    before = read_episode(episode)
    kept = [before.load_frame(s.frame_before) for s in before.steps[1:3]]
    final = before.load_frame(before.steps[3].frame_before)
    after = trim(episode, 1, 3)
    assert [s.frame_before for s in after.steps] == ["frames/000000.webp", "frames/000001.webp"]
    assert after.final_frame == "frames/000002.webp" and after.meta.frame_format == "webp"
    assert all((after.load_frame(s.frame_before) == k).all() for s, k in zip(after.steps, kept))
    assert (after.load_frame(after.final_frame) == final).all()
    assert sorted(p.name for p in (episode / "frames").iterdir()) == ["000000.webp", "000001.webp", "000002.webp"]


def test_notes_relabelled_on_an_edited_episode_survive_the_next_edit(tmp_path):
    from gui_agent.episode import apply_edit, undo
    from gui_agent.recorder.edit import relabel, trim

    folder = write_synthetic(tmp_path, "ep", [Click(1, 2), Type("ab"), Click(3, 4)])
    trim(folder, 0, 2)
    relabel(folder, notes="checked by hand")
    apply_edit(folder, {"op": "mistake", "step": 0}, by="reviewer")
    assert read_episode(folder).meta.labels["notes"] == "checked by hand"
    undo(folder)  # the mistake mark
    undo(folder)  # the notes
    assert "notes" not in read_episode(folder).meta.labels
