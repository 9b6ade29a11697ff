"""Ctrl+Alt+T opens a terminal, as on the Ubuntu desktop OSWorld's tasks were written for,
and the terminal goes when the desktop stops."""

from __future__ import annotations

import pytest

from gui_agent.actions import Hotkey
from gui_agent.envs.desktop.env import DesktopEnv
from gui_agent.polling import poll
from tests.envs.desktop.desktop_helpers import alive


@pytest.mark.slow
def test_ctrl_alt_t_opens_the_terminal_and_it_stops_with_the_desktop() -> None:
    env = DesktopEnv(screen=(800, 600))
    try:
        env.reset()
        env.step(Hotkey(keys=("ctrl", "alt", "t")))
        found = poll(lambda: env.run_command(["xdotool", "search", "--name", "^Terminal$"]).stdout.split() or None,
                     timeout_s=15.0, interval_s=0.2)
        assert found, "no window titled Terminal after Ctrl+Alt+T"
        pid = int(env.run_command(["xdotool", "getwindowpid", found[0]]).stdout)
        assert env.run_command(["cat", f"/proc/{pid}/comm"]).stdout.strip() == "xterm"
    finally:
        env.close()
    assert poll(lambda: not alive([pid]), timeout_s=10.0, interval_s=0.1), "the terminal outlived its desktop"
