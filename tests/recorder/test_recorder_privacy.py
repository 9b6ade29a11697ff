"""Privacy on the desktop: keys masked and frames blanked while a window titled like a password prompt has focus."""

from __future__ import annotations

import time

from gui_agent.actions import Type
from gui_agent.episode import read_episode
from gui_agent.episode.format import EVENTS_FILE, STEPS_FILE


def make_window(display, title: str, x: int, pixel: int):
    from Xlib import X

    screen = display.screen()
    win = screen.root.create_window(x, 50, 400, 300, 0, screen.root_depth, X.InputOutput, X.CopyFromParent,
                                    background_pixel=pixel, event_mask=X.ExposureMask | X.KeyPressMask)
    win.set_wm_name(title)
    win.map()
    display.sync()
    return win


def test_password_window_masks_keys_and_blanks_frames(xvfb, recorder_factory):
    from Xlib import X
    from Xlib import display as xdisplay

    d = xdisplay.Display(xvfb.display)
    try:
        vault = make_window(d, "Bank - Enter Password", 10, d.screen().white_pixel)
        notes = make_window(d, "Notes", 500, d.screen().white_pixel)
        rec = recorder_factory(xvfb.display, "--task", "privacy", "--success", "--notes", "")
        rec.wait_ready()
        d.set_input_focus(vault, X.RevertToParent, X.CurrentTime)
        d.sync()
        time.sleep(0.3)
        xvfb.xdotool("type", "--delay", "30", "hunter2")
        xvfb.xdotool("key", "Return")
        time.sleep(0.5)
        d.set_input_focus(notes, X.RevertToParent, X.CurrentTime)
        d.sync()
        time.sleep(0.3)
        xvfb.xdotool("type", "--delay", "30", "ok")
        xvfb.xdotool("key", "Return")
        time.sleep(0.5)
        assert rec.stop() == 0, rec.output()
    finally:
        d.close()
    episode = read_episode(rec.episode)
    assert episode.actions() == [Type("*******\n"), Type("ok\n")]
    assert episode.steps[0].info.get("masked") is True and episode.steps[0].info.get("masked_frame") is True
    for name in (EVENTS_FILE, STEPS_FILE, "episode.json"):
        text = (rec.episode / name).read_text()
        assert "hunter" not in text and '"h"' not in text, name
    masked_frame = episode.load_frame(episode.steps[0].frame_before)
    open_frame = episode.load_frame(episode.steps[1].frame_before)
    assert not masked_frame.any()  # blanked entirely
    assert (open_frame[100, 600] == 255).all() and (open_frame[100, 100] == 255).all()  # both white windows visible
