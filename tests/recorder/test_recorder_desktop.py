"""The desktop recorder under real Xvfb, with xdotool (XTEST) playing the human on a real Chromium window."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from gui_agent.actions import Click, Drag, Hotkey, Scroll, Type
from gui_agent.episode import read_episode
from gui_agent.episode.format import EVENTS_FILE
from gui_agent.recorder.events import read_events
from tests.paths import REPO

PAGE = """<!DOCTYPE html><html><head><title>recorder test</title><style>
body{margin:0;height:4000px;background:#fff}
#swatch{position:absolute;left:40px;top:40px;width:160px;height:120px;background:rgb(255,0,0)}
#inp{position:absolute;left:40px;top:220px;width:300px;height:30px;font-size:18px}
#pad{position:absolute;left:400px;top:40px;width:400px;height:300px;background:#eee;overflow:auto}
#tall{height:3000px}
</style></head><body>
<div id="swatch"></div><input id="inp"><div id="pad"><div id="tall"></div></div>
<script>
const colors = ['rgb(255, 0, 0)', 'rgb(0, 255, 0)', 'rgb(0, 0, 255)'];
let i = 0;
document.getElementById('swatch').addEventListener('mousedown', (e) => {
  i = (i + 1) % 3; e.target.style.background = colors[i];
});
</script></body></html>"""


def pixel(episode, rel, x, y):
    return tuple(int(v) for v in episode.load_frame(rel)[y, x])


def near(actual: tuple[int, ...], expected: tuple[int, ...], tol: int = 2) -> bool:
    return all(abs(a - e) <= tol for a, e in zip(actual, expected))


@pytest.mark.slow
def test_played_script_on_chromium_is_recorded_exactly(xvfb, headed_page, recorder_factory):
    page = headed_page.page
    page.set_content(PAGE)
    off = headed_page.viewport_offset(xvfb)
    swatch = headed_page.center("#swatch", off)
    field = headed_page.center("#inp", off)
    pad = headed_page.center("#pad", off)
    rec = recorder_factory(xvfb.display, "--task", "play the script", "--success", "--notes", "scripted")
    rec.wait_ready()
    x = xvfb.xdotool
    x("mousemove", *map(str, swatch), "click", "1")
    time.sleep(0.7)
    x("mousemove", str(pad[0] - 100), str(pad[1] - 50), "click", "--repeat", "2", "--delay", "80", "1")
    time.sleep(0.7)
    x("mousemove", *map(str, field), "click", "1")
    time.sleep(0.7)
    x("type", "--delay", "40", "hello wox")
    x("key", "BackSpace")
    x("type", "--delay", "40", "rld")
    x("key", "Return")
    time.sleep(0.3)
    x("key", "ctrl+a")
    time.sleep(0.3)
    x("mousemove", str(pad[0]), str(pad[1]), "mousedown", "1")
    for step in range(1, 6):
        x("mousemove", str(pad[0] + 20 * step), str(pad[1] + 10 * step))
        time.sleep(0.03)
    x("mouseup", "1")
    time.sleep(0.3)
    x("mousemove", str(pad[0] - 150), str(pad[1] + 100), "click", "--repeat", "3", "--delay", "30", "5")  # inside #pad
    time.sleep(0.8)
    x("mousemove", *map(str, swatch), "click", "1")  # the swatch again: its keyframe shows the 1st click's result
    time.sleep(0.8)
    assert rec.stop(signal.SIGTERM) == 0, rec.output()

    episode = read_episode(rec.episode)  # strict: the written episode is valid
    assert episode.meta.status == "complete"
    assert episode.meta.frame_format == "webp" and all(s.frame_before.endswith(".webp") for s in episode.steps)
    assert episode.meta.outcome.success is True and episode.meta.labels["notes"] == "scripted"
    assert episode.meta.env.screen.width == 1280 and episode.meta.env.screen.height == 800
    acts = episode.actions()
    kinds = [a.kind for a in acts]
    assert kinds == ["click", "click", "click", "type", "hotkey", "drag", "scroll", "click"], acts

    def close(a, b):
        return abs(a - b) <= 2

    assert isinstance(acts[0], Click) and close(acts[0].x, swatch[0]) and close(acts[0].y, swatch[1]) and acts[0].count == 1
    assert acts[1].count == 2 and close(acts[1].x, pad[0] - 100) and close(acts[1].y, pad[1] - 50)
    assert close(acts[2].x, field[0]) and close(acts[2].y, field[1])
    assert acts[3] == Type("hello world\n")
    assert acts[4] == Hotkey(("ctrl", "a"))
    assert isinstance(acts[5], Drag) and close(acts[5].x1, pad[0]) and close(acts[5].y1, pad[1])
    assert close(acts[5].x2, pad[0] + 100) and close(acts[5].y2, pad[1] + 50)
    assert isinstance(acts[6], Scroll) and acts[6].dy == 3 and close(acts[6].x, pad[0] - 150)
    assert page.input_value("#inp") == "hello world"  # the human really acted on the app
    assert page.evaluate("() => document.getElementById('pad').scrollTop") > 0

    # Keyframes: the frame before each swatch click shows the colour *before* that click.
    sx, sy = swatch
    assert near(pixel(episode, episode.steps[0].frame_before, sx, sy), (255, 0, 0))
    assert near(pixel(episode, episode.steps[1].frame_before, sx, sy), (0, 255, 0))
    assert near(pixel(episode, episode.steps[7].frame_before, sx, sy), (0, 255, 0))
    assert near(pixel(episode, episode.final_frame, sx, sy), (0, 0, 255))
    assert all(0 <= s.timings["keyframe_staleness_s"] < 0.5 for s in episode.steps)  # generous: speed is the benchmark's job

    # Each step links to its raw events, in order, inside events.jsonl.
    events = read_events(episode.path / EVENTS_FILE, lenient=False)
    ranges = [s.events for s in episode.steps]
    assert all(a[1] <= b[0] for a, b in zip(ranges, ranges[1:]))
    assert ranges[-1][1] <= len(events)
    first_click = events[ranges[0][0]:ranges[0][1]]
    assert [e.kind for e in first_click] == ["down", "up"] and first_click[0].button == "left"
    typed = [e.key for e in events[ranges[3][0]:ranges[3][1]] if e.kind == "key_down"]
    assert typed == [*"hello", "space", *"wox", "backspace", *"rld", "enter"]


@pytest.mark.slow
def test_burst_of_5000_events_loses_none(xvfb, recorder_factory):
    rec = recorder_factory(xvfb.display, "--task", "burst", "--success", "--notes", "")
    rec.wait_ready()
    xvfb.xdotool("mousemove", "600", "500")
    time.sleep(0.2)
    xvfb.xdotool("click", "--repeat", "1250", "--delay", "1", "1")  # 2,500 button events
    xvfb.xdotool("key", "--repeat", "1250", "--delay", "1", "a")  # 2,500 key events
    time.sleep(2.5)
    assert rec.stop() == 0, rec.output()
    events = read_events(rec.episode / EVENTS_FILE, lenient=False)
    by_kind = {k: sum(e.kind == k for e in events) for k in ("down", "up", "key_down", "key_up")}
    assert by_kind == {"down": 1250, "up": 1250, "key_down": 1250, "key_up": 1250}, by_kind
    times = [e.t for e in events]
    assert times == sorted(times)
    episode = read_episode(rec.episode)
    acts = episode.actions()
    assert sum(a.count for a in acts if isinstance(a, Click)) == 1250
    assert "".join(a.text for a in acts if isinstance(a, Type)) == "a" * 1250
    assert episode.meta.labels["events"] == len(events)


def test_sigkill_loses_nothing_and_recover_rebuilds_the_episode(xvfb, recorder_factory):
    rec = recorder_factory(xvfb.display, "--task", "killed")
    rec.wait_ready()
    xvfb.xdotool("mousemove", "300", "300", "click", "1")
    time.sleep(0.8)
    live = subprocess.run([sys.executable, "-m", "gui_agent", "record", "--recover", "--out", str(rec.out)],
                          capture_output=True, text=True, timeout=60)
    assert live.returncode == 0 and "recovered" not in live.stdout  # a live recording is never "recovered"
    xvfb.xdotool("type", "--delay", "20", "unsaved text")  # still pending in the reducer (type_idle_s: 2 s)
    time.sleep(0.4)
    rec.kill()
    assert json.loads((rec.episode / "episode.json").read_text())["status"] == "recording"
    out = subprocess.run([sys.executable, "-m", "gui_agent", "record", "--recover", "--out", str(rec.out)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "recovered" in out.stdout, out.stdout + out.stderr
    episode = read_episode(rec.episode)
    assert episode.meta.status == "recovered"
    assert episode.actions() == [Click(300, 300), Type("unsaved text")]
    assert episode.steps[0].frame_before is not None  # written live, with its keyframe
    assert episode.steps[1].info.get("recovered_from_events") is True
    events = read_events(rec.episode / EVENTS_FILE)
    assert sum(e.kind == "key_down" for e in events) == len("unsaved text")


def test_pause_and_stop_chords(xvfb, recorder_factory):
    rec = recorder_factory(xvfb.display, "--task", "chords", "--failure", "--notes", "n",
                           "--pause-key", "ctrl+alt+p", "--stop-key", "ctrl+alt+q", "--frame-format", "png")
    rec.wait_ready()
    x = xvfb.xdotool
    x("mousemove", "100", "100", "click", "1")
    time.sleep(0.6)
    x("key", "ctrl+alt+p")
    x("mousemove", "200", "200", "click", "1")
    x("type", "secret")
    time.sleep(0.6)
    x("key", "ctrl+alt+p")
    x("mousemove", "300", "300", "click", "1")
    time.sleep(0.6)
    x("key", "ctrl+alt+q")
    assert rec.proc.wait(20) == 0, rec.output()
    episode = read_episode(rec.episode)
    assert episode.actions() == [Click(100, 100), Click(300, 300)]
    assert episode.meta.outcome.success is False
    assert episode.meta.frame_format == "png" and sorted(p.name for p in (rec.episode / "frames").iterdir()) == [
        "000000.png", "000001.png", "000002.png"]  # asked for PNG (the default is WebP, as in the other tests)
    events = read_events(rec.episode / EVENTS_FILE)
    assert not any(e.key in ("p", "q", "s", "e", "c") for e in events if e.kind == "key_down")


def test_unusable_display_fails_at_start_without_an_episode(tmp_path):
    for env_display, args in (("", []), (":1", ["--display", ":987"])):
        env = {k: v for k, v in __import__("os").environ.items() if k != "DISPLAY"}
        if env_display:
            env["DISPLAY"] = env_display
        out = subprocess.run([sys.executable, "-m", "gui_agent", "record", "--task", "t", "--out", str(tmp_path / "o"), *args],
                             capture_output=True, text=True, env=env, timeout=60)
        assert out.returncode == 3, out.stdout + out.stderr
        assert "error:" in out.stderr and ("no X display" in out.stderr or "cannot open X display ':987'" in out.stderr)
        assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def test_terminal_prompts_for_task_verdict_and_notes(xvfb, tmp_path):
    import os
    import pty
    import select

    repo = REPO
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "gui_agent", "record", "--display", xvfb.display,
                             "--out", str(tmp_path / "o"), "--duration", "3"],
                            stdin=slave, stdout=slave, stderr=slave, cwd=repo, start_new_session=True)
    os.close(slave)
    seen = ""

    def expect(text: str, timeout: float = 30.0) -> None:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while text not in seen:
            ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"waited for {text!r}; got {seen!r}"
            seen += os.read(master, 4096).decode(errors="replace")

    try:
        expect("Task: ")
        os.write(master, b"prompted task\n")
        expect("recording to")
        time.sleep(0.3)
        xvfb.xdotool("mousemove", "42", "43", "click", "1")
        expect("succeed? [y/n] ")
        os.write(master, b"y\n")
        expect("Notes")
        os.write(master, b"all good\n")
        expect("episode: ")
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        os.close(master)
    (folder,) = (tmp_path / "o").iterdir()
    episode = read_episode(folder)
    assert episode.meta.task.instruction == "prompted task"
    assert episode.meta.outcome.success is True and episode.meta.labels["notes"] == "all good"
    assert episode.actions() == [Click(42, 43)]


def test_continuous_video_with_timestamps_survives_sigkill(xvfb, recorder_factory):
    import av

    from gui_agent.episode.format import VIDEO_FILE, VIDEO_TIMESTAMPS_FILE

    rec = recorder_factory(xvfb.display, "--task", "video", "--video-fps", "4")
    rec.wait_ready()
    for i in range(5):
        xvfb.xdotool("mousemove", str(100 + 50 * i), "100", "click", "1")
        time.sleep(0.6)
    time.sleep(1.5)
    rec.kill()  # mid-recording: the fragmented MP4 stays readable
    times = json.loads((rec.episode / VIDEO_TIMESTAMPS_FILE).read_text())["t"]
    with av.open(str(rec.episode / VIDEO_FILE)) as container:
        frames = [f for f in container.decode(video=0)]
    assert len(frames) >= 8 and len(times) >= 8, (len(frames), len(times))  # ~4 s at 4 fps, minus what the kill cut
    assert abs(len(frames) - len(times)) <= 8, (len(frames), len(times))  # at most a fragment (1 s) apart
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert all(0 < g < 1.5 for g in gaps) and 0.2 < sum(gaps) / len(gaps) < 0.4, times  # ~4/s, a shared machine's jitter
    assert (frames[0].width, frames[0].height) == (1280, 800)
