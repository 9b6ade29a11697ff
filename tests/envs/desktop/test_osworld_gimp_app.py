"""GIMP as a desktop app on a real Xvfb: the fresh profile, a quiet first start (one
maximized window, single-window mode, nothing said on its output but the known chatter),
and a clean quit that saves its session."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from PIL import Image
from Xlib import display as xdisplay

from gui_agent.actions import Hotkey
from gui_agent.envs.desktop.apps.gimp import GIMP, USER_INSTALL_FOLDERS, profile_dir
from gui_agent.envs.desktop.session import DesktopSession
from gui_agent.envs.desktop.step_runner import run_step
from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep
from gui_agent.polling import poll

SCREEN = (1280, 800)


@pytest.mark.slow
def test_gimp_starts_quietly_maximized_and_saves_its_session_on_quit() -> None:
    session = DesktopSession(width=SCREEN[0], height=SCREEN[1], apps=("gimp",))
    session.start()
    try:
        profile = profile_dir(session.home)
        assert (profile / "gimprc").read_text() == "(check-updates no)\n"
        session_rc = (profile / "sessionrc").read_text()
        assert '(maximized "yes")' in session_rc and "(single-window-mode yes)" in session_rc
        Image.new("RGB", (64, 48), (200, 30, 30)).save(session.home / "Desktop" / "red.png")

        started = time.monotonic()
        run_step(session, LaunchStep(launch=LaunchArgs(app="gimp", args=["Desktop/red.png"])), task_dir=None)
        took = time.monotonic() - started
        assert took < 45, f"GIMP took {took:.1f} s to start"
        assert session.windows is not None
        titles = [w.title for w in session.windows.windows()]
        assert len(titles) == 1 and titles[0].startswith("[red] (imported)") and titles[0].endswith("– GIMP"), titles
        window = session.windows.windows()[0]
        connection = xdisplay.Display(session.display)
        try:
            width = connection.create_resource_object("window", window.id).get_geometry().width
        finally:
            connection.close()
        assert width >= SCREEN[0] * 0.95, width  # maximized

        assert session.input is not None
        session.input.perform(Hotkey(("ctrl", "q")))
        gimp = session.launched[0].process
        assert poll(lambda: gimp.returncode() is not None, timeout_s=20, interval_s=0.1), "GIMP did not quit"
        assert gimp.returncode() == 0
        assert "(hide-docks no)" in (profile / "sessionrc").read_text()  # rewritten on quit
        assert GIMP.without_chatter(Path(session.private / "logs" / "gimp.log").read_text(errors="replace")) == ""
    finally:
        session.stop()


@pytest.mark.slow
def test_the_prepared_profile_has_every_folder_gimps_own_user_install_makes(tmp_path: Path) -> None:
    """GIMP makes its profile only when the folder is missing; ours must hold what it would
    (GIMP run headless in an empty home makes the reference)."""
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / ".config"),
           "XDG_CACHE_HOME": str(tmp_path / ".cache"), "DBUS_SESSION_BUS_ADDRESS": "disabled:"}
    env.pop("DISPLAY", None)
    subprocess.run(["gimp", "-i", "-n", "-b", "(gimp-quit 0)"], env=env, capture_output=True, timeout=120, check=True)
    made = {p.name for p in profile_dir(tmp_path).iterdir() if p.is_dir()} - {"backups", "CrashLog"}  # made when used
    assert made and made <= set(USER_INSTALL_FOLDERS), made - set(USER_INSTALL_FOLDERS)
