"""Two monitors (RandR 1.5 monitors on one Xvfb screen, what ``xrandr --setmonitor`` makes):
xdotool clicks, drags and scrolls on each; the recording is one image, the union, in the
same coordinates as the input, and episode.json lists both monitors.

Own Xvfb (gui_agent's XvfbDisplay, started with -noreset so the monitors outlive the client
that set them), stopped by PID at the end of the module even when a test fails.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator

import pytest

from gui_agent.actions import Click, Drag, Scroll
from gui_agent.envs.desktop.xvfb import XvfbDisplay
from gui_agent.episode import read_episode
from tests.recorder.x_monitors import SolidWindows, set_monitors

SIZE = (2304, 800)
#: Left: 1280x800 at the origin; right: 1024x768, 32 px lower (monitors need not line up).
MONITORS = [(0, 0, 1280, 800), (1280, 32, 1024, 768)]
RED, BLUE, GREEN, BLACK = (220, 30, 30), (30, 30, 220), (30, 200, 30), (0, 0, 0)
RED_BOX = (100, 100, 300, 200)  # on the left monitor
BLUE_BOX = (1400, 200, 400, 300)  # on the right monitor


@pytest.fixture(scope="module")
def two_monitors() -> Iterator[str]:
    server = XvfbDisplay(width=SIZE[0], height=SIZE[1])
    server.start()
    try:
        listed = set_monitors(server.name, MONITORS)
        assert listed == [dict(zip(("left", "top", "width", "height"), m)) for m in MONITORS]
        yield server.name
    finally:
        server.stop()


def xdotool(display: str, *args: str) -> None:
    subprocess.run(["xdotool", *args], env={"DISPLAY": display, "PATH": "/usr/bin:/bin"}, check=True, timeout=30)


@pytest.mark.slow
def test_input_on_both_monitors_maps_into_the_union_image(two_monitors: str, recorder_factory) -> None:
    windows = SolidWindows(two_monitors, [(RED_BOX, RED), (BLUE_BOX, BLUE)])
    rec = recorder_factory(two_monitors, "--task", "two monitors", "--success", "--notes", "")
    try:
        rec.wait_ready()
        x = lambda *a: xdotool(two_monitors, *a)
        x("mousemove", "250", "200", "click", "1")  # red, left monitor
        time.sleep(0.5)
        x("mousemove", "1600", "350", "click", "1")  # blue, right monitor
        time.sleep(0.5)
        windows.recolor(1, GREEN)  # what the click "did": the next keyframe on the right shows it
        time.sleep(0.5)
        x("mousemove", "600", "400", "mousedown", "1")  # a drag from the left monitor to the right one
        for step in range(1, 7):
            x("mousemove", str(600 + 200 * step), str(400 + 20 * step))
            time.sleep(0.03)
        x("mouseup", "1")
        time.sleep(0.5)
        x("mousemove", "1700", "450", "click", "--repeat", "2", "--delay", "40", "5")  # scroll on green, right
        time.sleep(0.8)
        assert rec.stop() == 0, rec.output()
    finally:
        windows.close()

    episode = read_episode(rec.episode)
    assert (episode.meta.env.screen.width, episode.meta.env.screen.height) == SIZE
    recorded = episode.meta.labels["recorder"]
    assert recorded["monitors"] == [dict(zip(("left", "top", "width", "height"), m)) for m in MONITORS]
    assert recorded["origin"] == [0, 0]
    assert episode.actions() == [Click(250, 200), Click(1600, 350), Drag(600, 400, 1800, 520), Scroll(1700, 450, dy=2)]
    assert [s.info.get("monitor") for s in episode.steps] == [0, 1, 0, 1]
    assert [s.info.get("monitor_end") for s in episode.steps] == [None, None, 1, None]

    frames = [episode.load_frame(s.frame_before) for s in episode.steps]
    assert all(f.shape == (SIZE[1], SIZE[0], 3) for f in frames)  # one image: the union of both monitors
    first, second, _, scroll = frames
    # Pixels sit where the input coordinates say: the red box under the first click, the blue
    # one under the second (on the right monitor), and the strip above the right monitor,
    # which no monitor shows, is the bare root.
    assert tuple(first[200, 250]) == RED and tuple(second[350, 1600]) == BLUE
    assert tuple(first[99, 250]) == BLACK and tuple(first[200, 401]) == BLACK  # the box's edges, to the pixel
    assert tuple(second[199, 1600]) == BLACK and tuple(second[350, 1399]) == BLACK
    assert tuple(second[10, 1600]) == BLACK
    assert tuple(scroll[450, 1700]) == GREEN  # the keyframe before the scroll shows the change on the right
    assert tuple(episode.load_frame(episode.final_frame)[200, 250]) == RED
