"""Real X for recorder tests: an Xvfb per module, xdotool as the human, the recorder as a subprocess.

Everything started here is stopped by PID in a ``finally``/teardown, also when a test fails.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.paths import REPO


class Xvfb:
    def __init__(self, width: int = 1280, height: int = 800):
        read_fd, write_fd = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        os.close(write_fd)
        with os.fdopen(read_fd) as pipe:
            number = pipe.readline().strip()
        if not number:
            self.stop()
            raise RuntimeError("Xvfb did not report a display number")
        self.display = f":{number}"
        self.size = (width, height)

    def env(self) -> dict[str, str]:
        return {**os.environ, "DISPLAY": self.display}

    def xdotool(self, *args: str) -> str:
        return subprocess.run(["xdotool", *args], env=self.env(), check=True, capture_output=True, text=True, timeout=60).stdout

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@pytest.fixture(scope="module")
def xvfb() -> Iterator[Xvfb]:
    server = Xvfb()
    try:
        yield server
    finally:
        server.stop()


class RecorderProcess:
    """``gui-agent record`` in a subprocess; ``wait_ready`` returns once it records."""

    def __init__(self, display: str, out: Path, *args: str):
        self.out = out
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gui_agent", "record", "--display", display, "--out", str(out), *args],
            cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "DISPLAY": display, "PYTHONUNBUFFERED": "1"},
        )
        self._ready = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            if line.startswith("recording to"):
                self._ready.set()
        self._ready.set()

    def wait_ready(self, timeout: float = 30.0) -> None:
        assert self._ready.wait(timeout), "recorder did not start"
        assert self.proc.poll() is None, "recorder exited at start:\n" + self.output()
        time.sleep(0.3)

    @property
    def episode(self) -> Path:
        for line in self.lines:
            if line.startswith("recording to "):
                return Path(line.split()[2])
        raise AssertionError("no episode path printed:\n" + self.output())

    def output(self) -> str:
        return "".join(self.lines)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        rc = self.proc.wait(timeout)
        self._reader.join(5)
        return rc

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def recorder_factory(tmp_path: Path) -> Iterator:
    started: list[RecorderProcess] = []

    def start(display: str, *args: str) -> RecorderProcess:
        proc = RecorderProcess(display, tmp_path / "rec", *args)
        started.append(proc)
        return proc

    try:
        yield start
    finally:
        for proc in started:
            proc.kill()


class HeadedPage:
    """A headed Chromium window (our own process) on an Xvfb, with a Playwright page in it."""

    def __init__(self, display: str, size: tuple[int, int]):
        from playwright.sync_api import sync_playwright

        from gui_agent.envs.browser.chromium import ChromiumProcess

        self.chromium = ChromiumProcess(headless=False, display=display, window_size=size,
                                        extra_args=("--window-position=0,0",))
        self.pw = None
        try:
            self.chromium.start()
            self.pw = sync_playwright().start()
            browser = self.pw.chromium.connect_over_cdp(self.chromium.cdp_url)
            self.context = browser.new_context(no_viewport=True)
            self.page = self.context.new_page()
        except BaseException:
            self.close()
            raise

    def viewport_offset(self, xvfb: Xvfb) -> tuple[int, int]:
        """Screen position of the viewport's (0, 0), measured with a real pointer move."""
        self.page.evaluate("() => { window.__off = null; addEventListener('mousemove', e => "
                           "{ window.__off = [e.screenX - e.clientX, e.screenY - e.clientY]; }, {once: true}); }")
        xdotool_point = (400, 400)
        for dx in (0, 7):
            xvfb.xdotool("mousemove", str(xdotool_point[0] + dx), str(xdotool_point[1]))
            time.sleep(0.2)
        off = self.page.evaluate("() => window.__off")
        assert off is not None, "the page saw no pointer move"
        return int(off[0]), int(off[1])

    def center(self, selector: str, offset: tuple[int, int]) -> tuple[int, int]:
        box = self.page.locator(selector).bounding_box()
        return int(offset[0] + box["x"] + box["width"] / 2), int(offset[1] + box["y"] + box["height"] / 2)

    def close(self) -> None:
        if self.pw is not None:
            try:
                self.pw.stop()
            except Exception:  # noqa: BLE001
                pass
            self.pw = None
        self.chromium.stop()


@pytest.fixture(scope="module")
def headed_page(xvfb: Xvfb) -> Iterator[HeadedPage]:
    page = HeadedPage(xvfb.display, xvfb.size)
    try:
        yield page
    finally:
        page.close()
