"""Browser recording: headed Chromium, xdotool as the human, each step's target element recorded, passwords masked."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from gui_agent.actions import Click, Type
from gui_agent.episode import read_episode
from gui_agent.polling import poll

PAGE = """<!DOCTYPE html><html><head><title>new account</title><style>
body{margin:0;background:#fff;font-size:20px}
input{position:absolute;left:60px;width:300px;height:40px;border:0;font-size:20px}
#user{top:60px;background:rgb(0,0,200);color:#fff}
#pass{top:160px;background:rgb(200,0,200);color:#fff}
#go{position:absolute;left:60px;top:260px;width:160px;height:50px;border:0;background:rgb(0,200,0)}
</style></head><body>
<input id="user" placeholder="user name"><input id="pass" type="password" aria-label="Password">
<button id="go" onclick="document.title='sent'">Sign up</button>
</body></html>"""


def find_color(display: str, rgb: tuple[int, int, int], timeout: float = 20.0) -> tuple[int, int]:
    """Screen centre of the pixels of one exact colour (the page's coloured widgets)."""
    import mss

    with mss.MSS(display=display) as sct:

        def centre() -> tuple[int, int] | None:
            shot = sct.grab(sct.monitors[0])
            img = np.frombuffer(shot.raw, np.uint8).reshape(shot.height, shot.width, 4)[..., 2::-1]
            ys, xs = np.nonzero((img == rgb).all(axis=-1))
            return (int(xs.mean()), int(ys.mean())) if len(xs) > 500 else None

        found = poll(centre, timeout_s=timeout, interval_s=0.3)
    if found is None:
        raise AssertionError(f"colour {rgb} not on screen")
    return found


@pytest.mark.slow
def test_browser_recording_records_targets_and_masks_passwords(xvfb, recorder_factory, tmp_path):
    page = tmp_path / "login.html"
    page.write_text(PAGE)
    rec = recorder_factory(xvfb.display, "--task", "sign up", "--browser", page.as_uri(), "--success", "--notes", "")
    rec.wait_ready(60)
    user = find_color(xvfb.display, (0, 0, 200))
    pwd = find_color(xvfb.display, (200, 0, 200))
    go = find_color(xvfb.display, (0, 200, 0))
    x = xvfb.xdotool
    x("mousemove", *map(str, user), "click", "1")
    time.sleep(0.7)
    x("type", "--delay", "40", "alice")
    time.sleep(0.3)
    x("mousemove", *map(str, pwd), "click", "1")
    time.sleep(0.7)
    x("type", "--delay", "40", "s3cret")
    time.sleep(0.3)
    x("mousemove", *map(str, go), "click", "1")
    time.sleep(1.0)
    assert rec.stop() == 0, rec.output()
    episode = read_episode(rec.episode)
    assert episode.meta.env.kind == "browser" and episode.meta.env.app == "chromium"
    assert episode.actions() == [Click(*user), Type("alice"), Click(*pwd), Type("******"), Click(*go)]
    targets = [s.target for s in episode.steps]
    assert all(t is not None for t in targets), targets
    assert (targets[0]["tag"], targets[0]["selector"], targets[0]["name"]) == ("input", "#user", "user name")
    assert targets[1]["selector"] == "#user"  # typing: the focused element
    assert (targets[2]["type"], targets[2]["name"]) == ("password", "Password")
    assert (targets[4]["tag"], targets[4]["selector"], targets[4]["text"]) == ("button", "#go", "Sign up")
    bx, by, bw, bh = targets[4]["bbox_screen"]
    assert bx <= go[0] <= bx + bw and by <= go[1] <= by + bh  # the box really is where the click landed
    assert episode.steps[3].info.get("masked") is True
    for name in ("events.jsonl", "steps.jsonl", "episode.json"):
        assert "s3cret" not in (rec.episode / name).read_text()
    keys = [json.loads(line).get("key") for line in (rec.episode / "events.jsonl").read_text().splitlines()]
    assert "a" in keys and "3" not in keys  # typed text kept, password keys masked in the raw events too
