"""BrowserEnv against real Chromium: the contract, every action kind, faults, no leaks."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from gui_agent.actions import Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.envs import procfs
from gui_agent.envs.browser.chromium import TEMP_PREFIX, ChromiumProcess, sweep_stale_temp_dirs
from gui_agent.envs.browser.env import BrowserEnv
from gui_agent.errors import ActionError, EnvDiedError, EnvError, EnvHungError, PageError
from gui_agent.keys import PLAYWRIGHT_KEYS, to_playwright_key, to_xdotool_key
from gui_agent.polling import poll


# ---------------------------------------------------------------------- /proc helpers
def children_of(pid: int) -> set[int]:
    """Children of ``pid``, zombies included (an unreaped child is a leak too)."""
    return set(procfs.children(pid, include_zombies=True))


def live_in_session(sid: int) -> set[int]:
    """Running (non-zombie) processes of session ``sid``: our browser is its own session."""
    return set(procfs.session_members(sid))


def _user_data_dir(pid: int) -> Path:
    return Path(next(a for a in procfs.arguments(pid) if a.startswith("--user-data-dir=")).split("=", 1)[1])


def js(env: BrowserEnv, expression: str):
    return env.evaluate_js(expression)


@pytest.fixture()
def env(shared_env: BrowserEnv) -> BrowserEnv:
    """The module's shared env, reset to a fresh copy of the test page."""
    shared_env.reset()
    return shared_env


@pytest.fixture()
def own_env() -> Iterator[list[BrowserEnv]]:
    """A list to put envs in that the test breaks on purpose; all are closed afterwards."""
    envs: list[BrowserEnv] = []
    try:
        yield envs
    finally:
        for e in envs:
            e.close()


# ---------------------------------------------------------------------- contract
def test_reset_observation_and_info(env: BrowserEnv, test_page_url: str) -> None:
    obs, info = env.reset()
    assert obs.screenshot.shape == (480, 640, 3) and obs.screenshot.dtype == np.uint8
    assert obs.url == test_page_url and info["url"] == test_page_url
    assert info["pid"] == env.pid and procfs.is_alive(env.pid)
    assert obs.last_action_error is None and obs.dom is None and obs.aria is None
    meta = env.env_info()
    assert meta.kind == "browser" and (meta.screen.width, meta.screen.height) == (640, 480)


def test_step_contract_and_timings(env: BrowserEnv) -> None:
    obs, reward, terminated, truncated, info = env.step(Move(5, 5))
    assert (reward, terminated, truncated) == (0.0, False, False) and isinstance(info, dict)
    assert set(obs.timings) == {"act_s", "settle_s", "observe_s"}
    assert all(v >= 0 for v in obs.timings.values())


def test_screenshot_pixels_are_exact(env: BrowserEnv) -> None:
    obs = env.observe()
    assert tuple(obs.screenshot[30, 320]) == (0, 0, 255)  # #swatch, rgb(0,0,255)
    assert tuple(obs.screenshot[470, 600]) == (255, 255, 255)  # (x > 625 is the scrollbar)
    assert tuple(obs.screenshot[120, 30]) == (255, 0, 0)  # #box


def test_step_before_reset_is_a_usage_error() -> None:
    env = BrowserEnv()
    try:
        with pytest.raises(RuntimeError, match="reset"):
            env.step(Click(1, 1))
    finally:
        env.close()


# ---------------------------------------------------------------------- actions
def test_click_counts_and_is_visible_in_the_same_observation(env: BrowserEnv) -> None:
    env.step(Click(50, 30))
    assert js(env, "log.clicks") == 1
    obs, *_ = env.step(Click(320, 30))
    assert tuple(obs.screenshot[30, 320]) == (0, 255, 0)  # synchronous handler
    obs, *_ = env.step(Click(420, 30))
    assert tuple(obs.screenshot[30, 420]) == (0, 255, 0)  # handler deferred by setTimeout(0)


def test_double_right_and_middle_click(env: BrowserEnv) -> None:
    env.step(Click(50, 30, count=2))
    env.step(Click(50, 30, button="right"))
    env.step(Click(50, 30, button="middle"))
    assert js(env, "[log.dbl, log.ctx, log.middle]") == [1, 1, 1]


def test_move_hovers(env: BrowserEnv) -> None:
    assert js(env, "log.hovered") is False
    env.step(Move(200, 30))
    assert js(env, "log.hovered") is True


def test_drag_moves_the_box_with_intermediate_moves(env: BrowserEnv) -> None:
    obs, *_ = env.step(Drag(35, 125, 235, 325))
    assert js(env, "[box.offsetLeft, box.offsetTop]") == [210, 300]
    assert js(env, "log.moves") > 2
    assert tuple(obs.screenshot[320, 230]) == (255, 0, 0)


def test_scroll_changes_scroll_y(env: BrowserEnv) -> None:
    before = env.observe().screenshot
    obs, *_ = env.step(Scroll(320, 240, dy=3))
    assert js(env, "scrollY") == 300
    assert not np.array_equal(obs.screenshot, before)
    assert tuple(obs.screenshot[30, 320]) == (255, 255, 255)  # the swatch scrolled away
    env.step(Scroll(320, 240, dy=-1))
    assert js(env, "scrollY") == 200


def test_type_fills_the_input_and_trailing_newline_presses_enter(env: BrowserEnv) -> None:
    env.step(Click(100, 215))
    env.step(Type("hello world\n"))
    assert js(env, "[inp.value, log.enter]") == ["hello world", 1]


def test_hotkey_ctrl_a_selects_all(env: BrowserEnv) -> None:
    env.step(Click(100, 215))
    env.step(Type("abc def"))
    env.step(Hotkey(("ctrl", "a")))
    assert js(env, "[inp.selectionStart, inp.selectionEnd]") == [0, 7]
    env.step(Type("x"))
    env.step(Hotkey(("shift", "Y")))
    env.step(Hotkey(("backspace",)))
    assert js(env, "inp.value") == "x"


def test_wait_sleeps_and_done_terminates(env: BrowserEnv) -> None:
    t0 = time.perf_counter()
    env.step(Wait(0.3))
    assert time.perf_counter() - t0 >= 0.3
    obs, reward, terminated, truncated, info = env.step(Done(success=False, answer="no"))
    assert terminated and not truncated and reward == 0.0
    assert info["done"] == {"success": False, "answer": "no", "handoff": False}
    with pytest.raises(RuntimeError, match="reset"):
        env.step(Click(1, 1))


def test_click_on_link_shows_the_new_page_without_hanging(env: BrowserEnv) -> None:
    # Chromium drops screenshots requested while a navigation commits (crbug 1121612);
    # the step must neither hang nor fail. Usually the new page is already in this
    # observation; when the navigation announced itself late, it is in the next one.
    obs, *_ = env.step(Click(30, 272))
    assert obs.last_action_error is None
    if not obs.url.endswith("/second.html"):
        obs, *_ = env.step(Wait(0.5))
    assert obs.url.endswith("/second.html")
    assert tuple(obs.screenshot[470, 630]) == (0, 128, 0)  # no scrollbar there
    assert sum(obs.timings.values()) < 5.0


def test_popup_becomes_active_and_closing_it_returns_to_the_opener(env: BrowserEnv, test_page_url: str) -> None:
    env.run_js("window.open('second.html')")
    obs = env.observe()
    deadline = time.monotonic() + 5
    while not (obs.url or "").endswith("/second.html") and time.monotonic() < deadline:
        obs, *_ = env.step(Wait(0.1))
    assert obs.url.endswith("/second.html") and tuple(obs.screenshot[470, 630]) == (0, 128, 0)
    env.run_js("setTimeout(() => window.close(), 0)")
    obs, *_ = env.step(Wait(0.3))
    assert obs.url == test_page_url and obs.last_action_error is None


def test_out_of_screen_click_is_an_observation_error_and_env_continues(env: BrowserEnv) -> None:
    obs, reward, terminated, truncated, _ = env.step(Click(640, 10))
    assert obs.last_action_error is not None and "outside the 640x480 screen" in obs.last_action_error
    assert not terminated and obs.screenshot.shape == (480, 640, 3)
    obs, *_ = env.step(Drag(10, 10, 10, 5000))
    assert "outside" in (obs.last_action_error or "")
    obs, *_ = env.step(Click(50, 30))
    assert obs.last_action_error is None and js(env, "log.clicks") == 1


def test_dom_and_aria_observations(env: BrowserEnv) -> None:
    env.observe_dom = env.observe_aria = True
    try:
        obs = env.observe()
    finally:
        env.observe_dom = env.observe_aria = False
    button = next(e for e in obs.dom if e["id"] == "btn")
    assert button["bbox"] == [10, 10, 100, 40] and button["text"] == "Button"
    assert "button" in obs.aria and "Button" in obs.aria


def test_dom_observation_gives_svg_shapes_their_classes(env: BrowserEnv) -> None:
    # An SVG element's className is an object, not a string: its classes come from the attribute.
    env.run_js("document.body.insertAdjacentHTML('beforeend', '<svg width=50 height=50 style=\"position:absolute;left:300px;top:300px\">"
               "<circle id=\"dot\" class=\"black-circle big\" cx=25 cy=25 r=10></circle></svg>')")
    env.observe_dom = True
    try:
        obs = env.observe()
    finally:
        env.observe_dom = False
    dot = next(e for e in obs.dom if e["id"] == "dot")
    assert dot["tag"] == "circle" and dot["classes"] == "black-circle big" and dot["bbox"] == [315, 315, 20, 20]


# ---------------------------------------------------------------------- probe + setup primitives
def test_setup_primitives_and_probe(env: BrowserEnv, test_page_url: str) -> None:
    assert env.current_url() == test_page_url
    env.fill("#inp", "filled")
    env.click_selector("#btn")
    env.wait_for("#box", timeout_s=2)
    assert env.run_js("const v = inp.value; await new Promise(r => setTimeout(r, 1)); return v + '!'") == "filled!"
    assert env.evaluate_js("log.clicks") == 1
    env.goto(test_page_url.replace("actions.html", "second.html"))
    assert env.current_url().endswith("/second.html")


def test_page_errors_are_page_errors_and_env_stays_usable(env: BrowserEnv) -> None:
    with pytest.raises(PageError, match="wait_for"):
        env.wait_for("#does-not-exist", timeout_s=0.3)
    with pytest.raises(PageError, match="boom"):
        env.evaluate_js("(() => { throw new Error('boom') })()")
    obs, *_ = env.step(Click(50, 30))
    assert obs.last_action_error is None


def test_key_tables() -> None:
    assert to_playwright_key("ctrl") == "Control" and to_playwright_key("a") == "a"
    assert to_playwright_key("pagedown") == "PageDown" and to_playwright_key(" ") == "Space"
    assert to_xdotool_key("enter") == "Return" and to_xdotool_key("/") == "slash"
    assert len(PLAYWRIGHT_KEYS) >= 30
    with pytest.raises(ActionError):
        to_playwright_key("hyper")


# ---------------------------------------------------------------------- faults
@pytest.mark.slow
def test_killed_browser_is_env_died_error_and_reset_recovers(own_env: list[BrowserEnv], test_page_url: str) -> None:
    env = BrowserEnv(url=test_page_url, viewport=(320, 240), step_timeout_s=5.0)
    own_env.append(env)
    env.reset()
    pid = env.pid
    profile = _user_data_dir(pid)
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(EnvDiedError, match="died"):
        env.step(Click(10, 10))
    with pytest.raises(EnvDiedError):
        env.step(Click(10, 10))
    assert not procfs.is_alive(pid) and not live_in_session(pid) and not profile.exists()
    obs, info = env.reset()  # a fresh browser
    assert info["pid"] != pid and obs.screenshot.shape == (240, 320, 3)


@pytest.mark.slow
def test_frozen_browser_is_env_hung_error_and_is_killed(own_env: list[BrowserEnv], test_page_url: str) -> None:
    env = BrowserEnv(url=test_page_url, viewport=(320, 240), step_timeout_s=2.0)
    own_env.append(env)
    env.reset()
    pid = env.pid
    profile = _user_data_dir(pid)
    os.killpg(pid, signal.SIGSTOP)
    t0 = time.perf_counter()
    with pytest.raises(EnvHungError, match="stopped by a signal"):
        env.step(Click(10, 10))
    assert time.perf_counter() - t0 < 2.0 + 3.0
    assert not procfs.is_alive(pid) and not live_in_session(pid) and not profile.exists()
    with pytest.raises(EnvHungError):
        env.observe()
    env.close()
    env.close()


@pytest.mark.slow
def test_page_in_endless_script_is_env_hung_error(own_env: list[BrowserEnv], test_page_url: str) -> None:
    env = BrowserEnv(url=test_page_url, viewport=(320, 240), step_timeout_s=1.5)
    own_env.append(env)
    env.reset()
    pid = env.pid
    t0 = time.perf_counter()
    with pytest.raises(EnvHungError, match="did not answer"):
        env.run_js("while (true) {}")
    assert time.perf_counter() - t0 < 1.5 + 3.0
    assert not live_in_session(pid)


def test_close_twice_and_close_unstarted() -> None:
    BrowserEnv().close()
    env = BrowserEnv(viewport=(200, 100))
    with env:
        obs, _ = env.reset()
        assert obs.screenshot.shape == (100, 200, 3)
        pid = env.pid
    env.close()
    assert not live_in_session(pid)


@pytest.mark.slow
def test_open_close_cycles_leave_no_processes(test_page_url: str) -> None:
    me = os.getpid()
    before = children_of(me)
    pids, profiles = [], []
    for _ in range(10):
        env = BrowserEnv(url=test_page_url, viewport=(320, 240))
        try:
            env.reset()
            pids.append(env.pid)
            profiles.append(_user_data_dir(env.pid))
        finally:
            env.close()
    poll(lambda: not children_of(me) - before, timeout_s=5, interval_s=0.05)
    assert children_of(me) - before == set()
    assert all(not live_in_session(p) for p in pids)
    assert [p for p in profiles if p.exists()] == []


def test_stale_temp_dirs_of_dead_owners_are_swept(tmp_path: Path) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = Path(tempfile.gettempdir()) / f"{TEMP_PREFIX}test-{os.getpid()}"
    (stale / "profile").mkdir(parents=True)
    (stale / "owner").write_text(str(dead.pid))
    os.utime(stale, (time.time() - 3600, time.time() - 3600))
    mine = Path(tempfile.gettempdir()) / f"{TEMP_PREFIX}test-live-{os.getpid()}"
    mine.mkdir()
    (mine / "owner").write_text(str(os.getpid()))
    os.utime(mine, (time.time() - 3600, time.time() - 3600))
    try:
        removed = sweep_stale_temp_dirs()
        assert stale in removed and not stale.exists() and mine.exists()
    finally:
        shutil.rmtree(stale, ignore_errors=True)
        shutil.rmtree(mine, ignore_errors=True)


def test_missing_chromium_says_how_to_install() -> None:
    env = BrowserEnv(executable="/nonexistent/chromium")
    try:
        with pytest.raises(EnvError, match="apt-get install chromium"):
            env.reset()
    finally:
        env.close()


def test_chromium_failing_to_start_shows_its_stderr(tmp_path: Path) -> None:
    fake = tmp_path / "fake-chromium"
    fake.write_text("#!/bin/sh\necho 'boom: cannot open display' >&2\nexit 3\n")
    fake.chmod(0o755)
    proc = ChromiumProcess(executable=str(fake))
    with pytest.raises(EnvError, match=r"(?s)exited with code 3.*boom: cannot open display"):
        proc.start()
    proc.stop()
    proc.stop()
    later = ChromiumProcess(executable=str(fake))
    with pytest.raises(EnvError, match=r"(?s)exited with code 3.*boom: cannot open display"):
        asyncio.run(later.start_async())
    assert later.user_data_dir is None or not later.user_data_dir.exists()  # stopped and cleaned by the failed start


def test_env_whose_chromium_fails_while_the_driver_starts_leaves_no_process(tmp_path: Path) -> None:
    """The browser and Playwright's driver start side by side; the browser's failure is the error, and both are gone after."""
    import psutil

    fake = tmp_path / "fake-chromium"
    fake.write_text("#!/bin/sh\nsleep 0.2\necho 'boom: no GPU' >&2\nexit 3\n")
    fake.chmod(0o755)
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    env = BrowserEnv(executable=str(fake))
    try:
        with pytest.raises(EnvError, match=r"(?s)exited with code 3.*boom: no GPU"):
            env.reset()
    finally:
        env.close()
    left = [p for p in psutil.Process().children(recursive=True) if p.pid not in before and p.status() != psutil.STATUS_ZOMBIE]
    assert left == []


@pytest.mark.slow
def test_headed_on_an_xvfb_display(own_env: list[BrowserEnv], test_page_url: str) -> None:
    display = ":%d" % (90 + os.getpid() % 500)
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        env = BrowserEnv(url=test_page_url, viewport=(640, 480), headless=False, display=display)
        own_env.append(env)
        obs, _ = env.reset()
        assert obs.screenshot.shape == (480, 640, 3)
        assert tuple(obs.screenshot[30, 320]) == (0, 0, 255)
        assert "--headless=new" not in Path(f"/proc/{env.pid}/cmdline").read_bytes().decode().split("\0")
        env.close()
    finally:
        xvfb.terminate()
        xvfb.wait(5)
