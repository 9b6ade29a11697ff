"""The desktop environment on a real Xvfb + openbox, real XTEST input, real apps.

xev (a real X client that prints every event it receives) checks exactly what each
canonical action sends; LibreOffice Calc checks that typed text arrives intact in an
app and that an app crash is reported as one. No mocks.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from gui_agent.actions import Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.envs.desktop.apps.libreoffice import LIBREOFFICE_PROFILE, libreoffice_ipc_socket
from gui_agent.envs.desktop.env import DesktopEnv
from gui_agent.envs.desktop.session import TEMP_PREFIX
from gui_agent.envs.desktop.steps import (
    LaunchArgs,
    LaunchStep,
    OpenFileArgs,
    OpenFileStep,
    PlaceFileArgs,
    PlaceFileStep,
    RunCommandArgs,
    RunCommandStep,
    WaitForWindowArgs,
    WaitForWindowStep,
)
from gui_agent.errors import DesktopStepError, EnvDiedError, EnvError, EnvHungError
from tests.envs.desktop.desktop_helpers import XEV, alive, presses, wait_gone, xev_events
from tests.paths import REPO

SCREEN = (640, 480)


@pytest.fixture(scope="module")
def env():
    environment = DesktopEnv(screen=SCREEN, step_timeout_s=10.0)
    try:
        yield environment
    finally:
        environment.close()


def test_reset_observes_the_screen_windows_and_timings(env) -> None:
    obs, info = env.reset(options={"setup": [XEV], "instruction": "look"})
    assert obs.screenshot.shape == (480, 640, 3) and obs.screenshot.dtype == np.uint8
    assert obs.window_title == "Event Tester"
    assert obs.windows == ["Event Tester"]
    assert obs.instruction == "look"
    assert set(obs.timings) == {"act_s", "settle_s", "observe_s"}
    assert info["display"].startswith(":") and Path(info["home"]).is_dir()
    assert env.pid in env.pids() and len(alive(env.pids())) >= 4  # Xvfb, openbox, xdotool, xev
    assert obs.screenshot.std() > 0  # a window manager frame and a window, not a black screen


def test_pointer_actions_reach_the_app_at_the_right_pixels(env) -> None:
    env.reset(options={"setup": [XEV]})
    for action in (Click(100, 200), Click(50, 60, button="right", count=2), Click(5, 470, button="middle"),
                   Scroll(300, 300, dy=2), Scroll(300, 300, dy=-1, dx=1), Drag(200, 150, 260, 170)):
        obs, reward, terminated, truncated, info = env.step(action)
        assert obs.last_action_error is None and (reward, terminated, truncated) == (0.0, False, False)
        assert obs.timings["act_s"] >= 0 and obs.timings["settle_s"] > 0
    events = [e for e in xev_events(env) if e[0].startswith("Button")]
    assert [(kind, button, x, y) for kind, button, x, y in events[:2]] == [
        ("ButtonPress", "1", 100, 200), ("ButtonRelease", "1", 100, 200)
    ]
    assert presses(events) == ["1", "3", "3", "2", "5", "5", "4", "7", "1"]
    drag_press, drag_release = events[-2], events[-1]
    assert drag_press == ("ButtonPress", "1", 200, 150) and drag_release == ("ButtonRelease", "1", 260, 170)


def test_keys_and_text_arrive_exactly(env) -> None:
    env.reset(options={"setup": [XEV]})
    env.step(Type("aA1 é\n"))
    env.step(Hotkey(("ctrl", "shift", "t")))
    env.step(Type("aaaa"))  # repeated keys must not be merged (see xdotool_input)
    got = presses(xev_events(env))
    assert got[:7] == ["a", "Shift_L", "A", "1", "space", "eacute", "Return"]
    assert got[7:10] == ["Control_L", "Shift_L", "T"] or got[7:10] == ["Control_L", "Shift_L", "t"]
    assert got[10:] == ["a", "a", "a", "a"]


def test_failed_actions_are_observations_not_exceptions(env) -> None:
    env.reset(options={"setup": [XEV]})
    obs, *_ = env.step(Click(640, 10))
    assert obs.last_action_error == "click at (640, 10) is outside the 640x480 screen"
    obs, *_ = env.step(Drag(10, 10, 10, 900))
    assert "outside" in (obs.last_action_error or "")
    obs, *_ = env.step(Move(10, 10))
    assert obs.last_action_error is None
    assert not [e for e in xev_events(env) if e[0].startswith("Button")]  # nothing was sent


def test_wait_and_done(env) -> None:
    env.reset(options={"setup": [XEV]})
    started = time.monotonic()
    obs, *_ = env.step(Wait(0.3))
    assert time.monotonic() - started >= 0.3 and obs.last_action_error is None
    obs, reward, terminated, truncated, info = env.step(Done(success=False, answer="no"))
    assert terminated and info["done"] == {"success": False, "answer": "no", "handoff": False}
    with pytest.raises(RuntimeError, match="reset"):
        env.step(Click(1, 1))


def test_reset_gives_a_fresh_desktop(env) -> None:
    _, first = env.reset(options={"setup": [XEV]})
    old_pids, old_home = env.pids(), Path(first["home"])
    (old_home / "left-behind.txt").write_text("x")
    obs, second = env.reset()
    assert obs.windows == [] and obs.window_title is None
    assert not old_home.exists() and Path(second["home"]).is_dir()
    assert wait_gone(old_pids) == []


def test_resolve_path_stays_in_the_home_folder(env) -> None:
    env.reset()
    assert env.resolve_path("~/a/b.txt") == env.home / "a" / "b.txt"
    assert env.fs_root == env.home
    for bad in ("/etc/passwd", "../x", "a/../../x"):
        with pytest.raises(ValueError):
            env.resolve_path(bad)


def test_setup_step_failures_are_clear(env, tmp_path: Path) -> None:
    env.task_dir = tmp_path
    try:
        missing = PlaceFileStep(place_file=PlaceFileArgs.model_validate(
            {"path": "a.xlsx", "from": "inputs/a.xlsx", "source_url": "https://example.org/a.xlsx"}))
        with pytest.raises(DesktopStepError, match=r"step 0 \(place_file\).*inputs/a.xlsx.*missing.*declared input.*example.org"):
            env.reset(options={"setup": [missing]})
        no_window = WaitForWindowStep(wait_for_window=WaitForWindowArgs(title="Nope", timeout_s=0.5))
        with pytest.raises(DesktopStepError, match=r"no window matching 'Nope'.*windows: \['Event Tester'\]"):
            env.reset(options={"setup": [XEV, no_window]})
        failing = RunCommandStep(run_command=RunCommandArgs(command=["sh", "-c", "echo broken >&2; exit 3"]))
        with pytest.raises(DesktopStepError, match="exit code 3.*broken"):
            env.reset(options={"setup": [failing]})
        not_there = LaunchStep(launch=LaunchArgs(command=["no-such-program-xyz"], wait=False))
        with pytest.raises(EnvError, match="no-such-program-xyz.*not installed"):
            env.reset(options={"setup": [not_there]})
        no_file = OpenFileStep(open_file=OpenFileArgs(path="nothing.xlsx", app="calc"))
        with pytest.raises(DesktopStepError, match="the app 'calc' is not in environment.apps"):
            env.reset(options={"setup": [no_file]})
    finally:
        env.task_dir = None


def test_missing_app_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH without soffice: LibreOffice is "not installed"
    with DesktopEnv(screen=SCREEN, apps=("calc",)) as broken:
        with pytest.raises(EnvError, match=r"LibreOffice Calc is not installed.*apt-get install .*libreoffice-calc"):
            broken.reset()
    with pytest.raises(EnvError, match="unknown app 'exel'"):
        DesktopEnv(apps=("exel",))


def test_display_death_and_freeze_are_env_errors() -> None:
    with DesktopEnv(screen=SCREEN, step_timeout_s=3.0) as env:
        env.reset(options={"setup": [XEV]})
        pids = env.pids()
        os.kill(env.pid, signal.SIGKILL)
        with pytest.raises(EnvDiedError, match="Xvfb"):
            env.step(Click(10, 10))
        assert wait_gone(pids) == []
        with pytest.raises(EnvDiedError, match="reset"):  # broken until reset
            env.step(Click(10, 10))

        env.reset(options={"setup": [XEV]})
        pids = env.pids()
        os.kill(env.pid, signal.SIGSTOP)  # a frozen X server: every X call blocks
        started = time.monotonic()
        with pytest.raises(EnvHungError, match="did not answer|did not finish"):
            env.step(Type("hello"))
        assert time.monotonic() - started < 3.0 + 5.0
        assert wait_gone(pids) == []
        obs, _ = env.reset()  # and it recovers
        assert obs.screenshot.shape == (480, 640, 3)


def _our_session_folders() -> set[str]:
    """Session folders made by this process (other processes on the machine may run desktops too)."""
    mine = set()
    for folder in Path(tempfile.gettempdir()).glob(TEMP_PREFIX + "*"):
        try:
            if (folder / "owner").read_text().strip() == str(os.getpid()):
                mine.add(folder.name)
        except OSError:
            continue
    return mine


def test_twenty_environments_leave_no_process_or_folder() -> None:
    before = _our_session_folders()
    seen: list[int] = []
    for _ in range(20):
        env = DesktopEnv(screen=SCREEN)
        try:
            env.reset(options={"setup": [XEV]})
            seen += env.pids()
        finally:
            env.close()
    assert len(set(seen)) >= 20 * 4
    assert wait_gone(seen, timeout_s=5.0) == []
    assert _our_session_folders() <= before


@pytest.mark.slow
def test_killed_python_takes_its_desktop_along(tmp_path: Path) -> None:
    """A crash of the run (SIGKILL, no clean-up at all) still leaves no process behind."""
    script = textwrap.dedent(f"""
        import json, sys, time
        sys.path.insert(0, {str(REPO)!r})
        from gui_agent.envs.desktop.env import DesktopEnv
        from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep
        env = DesktopEnv(screen=(640, 480), apps=("calc",))
        env.reset(options={{"setup": [LaunchStep(launch=LaunchArgs(app="calc"))]}})
        print(json.dumps(env.pids()), flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        pids = [int(p) for p in line.strip("[]\n").split(",") if p.strip()]
        assert len(alive(pids)) >= 5, line  # Xvfb, openbox, xdotool, oosplash, soffice.bin
    finally:
        proc.kill()
        proc.wait()
    assert wait_gone(pids, timeout_s=15.0) == []


@pytest.mark.slow
def test_crashed_app_is_env_died_and_reset_recovers(tmp_path: Path) -> None:
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.active["A1"] = "x"
    workbook.save(tmp_path / "book.xlsx")
    setup = [
        PlaceFileStep(place_file=PlaceFileArgs.model_validate({"path": "book.xlsx", "from": "book.xlsx"})),
        OpenFileStep(open_file=OpenFileArgs(path="book.xlsx", app="calc")),
    ]
    with DesktopEnv(screen=(1280, 800), apps=("calc",), task_dir=tmp_path) as env:
        obs, _ = env.reset(options={"setup": setup})
        assert obs.window_title == "book.xlsx - LibreOffice Calc"
        first_socket = libreoffice_ipc_socket(env.home / LIBREOFFICE_PROFILE.parent)
        assert first_socket.is_socket(), "LibreOffice listens where libreoffice_ipc_socket says"
        # Typed text arrives intact in a real app: check it in the saved file.
        for action in (Hotkey(("ctrl", "home")), Type("Hello World\taaaa\tÄé€ x/y\n"), Hotkey(("ctrl", "s"))):
            obs, *_ = env.step(action)
            assert obs.last_action_error is None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            time.sleep(0.3)
            try:
                values = [c.value for c in openpyxl.load_workbook(env.resolve_path("book.xlsx")).active[1][:3]]
            except Exception:  # noqa: BLE001 - mid-save
                continue
            if values[0] == "Hello World":
                break
        assert values == ["Hello World", "aaaa", "Äé€ x/y"]
        # Now LibreOffice crashes (SIGSEGV to its main process).
        soffice_bin = [pid for pid in env.pids() if b"soffice.bin" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        assert soffice_bin
        pids = env.pids()
        os.kill(soffice_bin[0], signal.SIGSEGV)
        time.sleep(1.0)
        with pytest.raises(EnvDiedError, match="LibreOffice Calc crashed"):
            env.step(Click(300, 300))
        assert wait_gone(pids) == []
        obs, _ = env.reset(options={"setup": setup})
        assert obs.window_title == "book.xlsx - LibreOffice Calc"
        assert not first_socket.exists(), "the crashed instance's socket in /tmp was left behind"
        second_socket = libreoffice_ipc_socket(env.home / LIBREOFFICE_PROFILE.parent)
        assert second_socket.is_socket()
    assert not second_socket.exists(), "a stopped LibreOffice's socket in /tmp was left behind"


def test_xdotool_script_lines_never_carry_raw_text() -> None:
    from gui_agent.envs.desktop.xdotool_input import (
        KEY_DELAY_MS,
        action_commands,
        text_commands,
    )

    assert list(text_commands("Hi you\n")) == [f"key --delay {KEY_DELAY_MS} H i space y o u Return"]
    assert list(text_commands("aÄ€")) == [f"key --delay {KEY_DELAY_MS} a", "key --delay 25 shift+U00C4", "key --delay 25 U20AC"]
    long = list(text_commands("x" * 150))
    assert len(long) == 3 and all(line.count(" x") <= 64 for line in long)
    assert action_commands(Hotkey(("ctrl", "shift", "t"))) == ["keydown ctrl keydown shift keydown t keyup t keyup shift keyup ctrl"]
    assert action_commands(Scroll(5, 6, dx=-2)) == ["mousemove 5 6", "mousedown 6\nmouseup 6", "mousedown 6\nmouseup 6"]
    assert action_commands(Wait(1)) == [] and action_commands(Done()) == []
