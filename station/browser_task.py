"""A browser task's live desktop: a headed Chromium alone on an Xvfb of its own.

The task's :class:`~gui_agent.envs.browser.env.BrowserEnv` (built from the task file, so
its start page, seed and setup steps are the runner's) runs headed on that display, and
the station serves the display over VNC as it does a desktop's. The annotator sees the
browser's own toolbar; the recorder records screen pixels, as ``gui-agent record
--browser`` does.

The recorder's page script (:data:`gui_agent.recorder.browser.INJECT_JS`) runs in the task's pages,
as in ``gui-agent record --browser``: each action gets its target element, and keys are
masked while a password field has the focus, from before the recording starts.

Where the page sits on the screen is found once, after reset, by looking for the page's
own screenshot in a grab of the screen: it needs no click and no guess about the
toolbar's height. The episode keeps it as ``labels.page_origin`` ([x, y], screen pixels of
the page's (0, 0)), which the replayer uses to move recorded points into page pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gui_agent.errors import EnvError
from gui_agent.task import Task

#: Chromium does not make a window narrower than about this.
MIN_WINDOW_WIDTH = 640
#: Room above the page for the tab strip and the address bar.
TOOLBAR_ROOM = 140


@dataclass
class BrowserDesktop:
    """What :func:`open_browser_task` started; :meth:`close` stops it, by PID."""

    env: Any
    xvfb: Any
    page_origin: tuple[int, int] = (0, 0)
    obs: Any = None
    #: Whether a password field has the focus now (the page script says).
    password_focused: bool = False
    targets: Any = field(default=None, repr=False)  # the recording's TargetReports, once started

    @property
    def display(self) -> str:
        return self.xvfb.name

    def on_report(self, source: Any, payload: dict[str, Any]) -> None:
        """The page script's binding (on Playwright's thread): to the recording, if any."""
        if payload.get("kind") == "focus":
            self.password_focused = bool(payload.get("password"))
        targets = self.targets
        if targets is not None:
            targets.on_report(source, payload)

    def attach(self, session: Any) -> None:
        """Give ``session`` the page's targets and its password mask (on now if a password
        field already has the focus)."""
        from gui_agent.recorder.browser import TargetReports

        self.targets = TargetReports(session)
        session.mask.force("password-field", self.password_focused)

    def install_page_script(self) -> None:
        """The recorder's page script in this page and every later one of the context."""
        from gui_agent.recorder.browser import INJECT_JS

        async def install(page: Any) -> None:
            await page.context.expose_binding("__guiRecord", self.on_report)
            await page.context.add_init_script(INJECT_JS)
            await page.evaluate(INJECT_JS)
            if await page.evaluate("document.activeElement instanceof HTMLInputElement && document.activeElement.type === 'password'"):
                self.password_focused = True

        self.env.call_in_browser(install, what="installing the recorder's page script")

    def close(self) -> None:
        try:
            self.env.close()
        finally:
            self.xvfb.stop()


def screen_size_for(viewport: tuple[int, int]) -> tuple[int, int]:
    """The display (and window) size that shows a ``viewport`` page whole under the toolbar."""
    return max(viewport[0], MIN_WINDOW_WIDTH), viewport[1] + TOOLBAR_ROOM


def locate_page(screen: np.ndarray, page: np.ndarray, *, max_dx: int = 32, max_dy: int = TOOLBAR_ROOM,
                margin: int = 4, tolerance: float = 0.01) -> tuple[int, int] | None:
    """The (x, y) where ``page`` (H x W x 3) appears in ``screen``, searched near the top-left
    corner; None when it is not there (clipped, covered, or still painting).

    The offset with the fewest differing pixels wins (the smallest y, then x, among equals:
    a plain page matches a little lower too, the toolbar above it does not), provided at
    most ``tolerance`` of the page differs: a blinking caret or a spinner is allowed for.
    The page's last ``margin`` rows are left out: the headed window draws its own edge over
    them. Offsets are ranked on a sample of rows, then the best are checked whole.
    """
    inner = page[:-margin] if margin else page
    height, width = inner.shape[:2]
    if height <= 0 or width <= 0:
        return None
    step = max(1, height // 32)
    sample = inner[::step]
    ranked: list[tuple[float, int, int]] = []
    for y in range(0, min(max_dy, screen.shape[0] - height) + 1):
        for x in range(0, min(max_dx, screen.shape[1] - width) + 1):
            window = screen[y:y + height:step, x:x + width]
            ranked.append((float(np.any(window != sample, axis=2).mean()), y, x))
    for _, y, x in sorted(ranked)[:5]:
        window = screen[y:y + height, x:x + width]
        if np.any(window != inner, axis=2).mean() <= tolerance:
            return x, y
    return None


def open_browser_task(task: Task, *, seed: int, timeout_s: float = 10.0) -> BrowserDesktop:
    """Start Xvfb and the task's headed browser on it, reset to the task's start state.

    Raises:
        EnvError: Xvfb or Chromium did not start, or the page could not be found on the screen.
    """
    import time

    from gui_agent.envs.desktop.screen_capture import ScreenCapture
    from gui_agent.envs.desktop.xvfb import XvfbDisplay
    from gui_agent.envs.factory import make_env

    spec = task.environment
    viewport = (spec.viewport.width, spec.viewport.height)
    width, height = screen_size_for(viewport)
    xvfb = XvfbDisplay(width=width, height=height)
    display = xvfb.start()
    env = None
    try:
        env = make_env(task, headless=False, display=display, window_size=(width, height))
        env.extra_args = (*env.extra_args, "--window-position=0,0")
        env.reset(seed=seed, options={"setup": list(task.setup)})
        desktop = BrowserDesktop(env=env, xvfb=xvfb)
        desktop.install_page_script()
        capture = ScreenCapture(display, width=width, height=height)
        try:
            deadline = time.monotonic() + timeout_s
            while True:  # the headed window paints a moment after the page is ready
                page = env.observe()
                origin = locate_page(capture.grab(), page.screenshot)
                if origin is not None or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
        finally:
            capture.close()
        if origin is None:
            raise EnvError(f"task {task.id}: the page did not show on the browser's display {display}")
        desktop.page_origin, desktop.obs = origin, page
        return desktop
    except BaseException:
        if env is not None:
            env.close()
        xvfb.stop()
        raise
