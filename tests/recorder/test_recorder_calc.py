"""LibreOffice Calc typing a formula, recorded under real Xvfb (xdotool plays the human)."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from gui_agent.actions import Hotkey, Type
from gui_agent.envs.desktop.apps.libreoffice import libreoffice_ipc_socket
from gui_agent.episode import read_episode

SOFFICE = "/usr/bin/soffice"


@pytest.mark.slow
def test_calc_formula_is_recorded(xvfb, recorder_factory, tmp_path):
    assert os.path.exists(SOFFICE), "LibreOffice is part of this project's setup (scripts/setup.sh)"
    private_tmp = tmp_path / "tmp"  # LibreOffice's own temp dir (lu*.tmp) is left behind when it is killed
    private_tmp.mkdir()
    calc = subprocess.Popen(
        [SOFFICE, "--calc", "--norestore", "--nologo", "--nolockcheck",
         f"-env:UserInstallation={(tmp_path / 'lo-profile').as_uri()}"],
        env={**xvfb.env(), "TMPDIR": str(private_tmp)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wid = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "Calc"], env=xvfb.env(),
                             capture_output=True, text=True, timeout=120).stdout.split()
        assert wid, "Calc opened no window"
        time.sleep(2.0)  # let it settle (first paint of the grid)
        xvfb.xdotool("windowfocus", "--sync", wid[-1])
        rec = recorder_factory(xvfb.display, "--task", "put =1+2 in A1", "--success", "--notes", "")
        rec.wait_ready()
        xvfb.xdotool("key", "ctrl+Home")
        time.sleep(0.5)
        xvfb.xdotool("type", "--delay", "80", "=1+2")
        xvfb.xdotool("key", "Return")
        time.sleep(3.0)
        assert rec.stop() == 0, rec.output()
    finally:
        try:
            os.killpg(calc.pid, signal.SIGTERM)
            calc.wait(15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(calc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            calc.wait(10)
        libreoffice_ipc_socket(tmp_path / "lo-profile").unlink(missing_ok=True)  # LibreOffice leaves it in /tmp
    episode = read_episode(rec.episode)
    assert episode.actions() == [Hotkey(("ctrl", "home")), Type("=1+2\n")]
    before = episode.load_frame(episode.steps[1].frame_before)
    after = episode.load_frame(episode.final_frame)
    assert (before != after).any()  # the formula and its result were painted after the typing began
