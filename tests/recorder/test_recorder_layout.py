"""A screen layout change mid-recording stops the recorder with a clear message; the episode is kept.

This module has its own Xvfb (the ``xvfb`` fixture is per module), so resizing it touches no other test.
"""

from __future__ import annotations

import time

from gui_agent.actions import Click
from gui_agent.episode import read_episode


def resize_screen(display_name: str, width: int, height: int) -> None:
    """Switch the X screen to a new ``width`` x ``height`` mode through RandR (what xrandr does)."""
    from Xlib import X, display
    from Xlib.ext import randr

    d = display.Display(display_name)
    try:
        root = d.screen().root
        res = randr.get_screen_resources(root)
        crtc, output = res.crtcs[0], res.outputs[0]
        info = randr.get_crtc_info(d, crtc, res.config_timestamp)
        name = f"m{width}x{height}"
        mode = randr.create_mode(root, dict(id=0, width=width, height=height, dot_clock=0, h_sync_start=width,
                                            h_sync_end=width, h_total=width, h_skew=0, v_sync_start=height,
                                            v_sync_end=height, v_total=height, name_length=len(name), flags=0), name)
        randr.add_output_mode(d, output, mode.mode)
        randr.set_crtc_config(d, crtc, res.config_timestamp, 0, 0, mode.mode, info.rotation, [output], X.CurrentTime)
        randr.set_screen_size(root, width, height, width // 4, height // 4)
        d.sync()
    finally:
        d.close()


def test_layout_change_stops_recording_with_a_message(xvfb, recorder_factory):
    rec = recorder_factory(xvfb.display, "--task", "layout", "--success", "--notes", "")
    rec.wait_ready()
    xvfb.xdotool("mousemove", "500", "400", "click", "1")
    time.sleep(0.8)
    resize_screen(xvfb.display, 1024, 768)
    assert rec.proc.wait(15) == 3, rec.output()  # stops by itself, within the 2 s layout check
    rec._reader.join(5)
    assert "screen layout changed" in rec.output(), rec.output()
    assert "1280" in rec.output() and "1024" in rec.output()
    episode = read_episode(rec.episode)
    assert episode.meta.status == "complete"
    assert episode.actions() == [Click(500, 400)]
    assert "screen layout changed" in episode.meta.outcome.reason
