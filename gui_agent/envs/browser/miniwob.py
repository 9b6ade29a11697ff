"""MiniWoB++ tasks from the ``miniwob`` pip package, driven by Playwright only.

The package ships each task as ``miniwob/html/miniwob/<task>.html``; it is opened as a
``file://`` URL and driven by the package's own episode protocol
(:mod:`gui_agent.envs.browser.miniwob_protocol`).

Differences from the package, on purpose:

* The episode time limit (``core.EPISODE_MAX_TIME``, 10 s) is disabled by default
  (``episode_time_limit_s=None``): a slow policy must not fail a task it solves.
* The viewport is the task area itself, 160x210 CSS pixels at (0, 0) (the yellow
  instruction bar on top), so screenshot pixels are page pixels; the package instead
  crops a 500x320 window. The reward/click-visualisation panels right of the task are
  hidden and the document's scrollbars are not painted, so nothing overlays the task.
* ``step`` returns the *raw* reward (1 solved, -1 or 0 failed) and ``terminated=True``
  when the page says done. ``done()`` from the agent ends the episode with the page's
  reward if it had finished, else 0.0.

Seeds: the same seed gives the same instruction and layout (tests check this), and the
same first screen whether the page is reused or fresh: each reset first puts the pointer
back in the page's corner, so nothing starts hovered. With
``seed=None`` a random seed is drawn and returned in ``info["seed"]``, so every episode
can be reproduced.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from gui_agent.actions import Action, Done
from gui_agent.envs.base import Observation
from gui_agent.envs.browser.chromium import DEFAULT_EXECUTABLE
from gui_agent.envs.browser.env import DEFAULT_SETTLE_S, BrowserEnv
from gui_agent.envs.browser.miniwob_pages import miniwob_task_file
from gui_agent.envs.browser.miniwob_protocol import MAX_TIMER_MS, READ_STATE_JS, READY_TIMEOUT_S, START_EPISODE_JS
from gui_agent.episode.format import EnvInfo, ScreenSize
from gui_agent.errors import first_line

#: Size of a MiniWoB++ task area (``#wrap`` in core.css), the default viewport.
TASK_WIDTH, TASK_HEIGHT = 160, 210

class MiniWobEnv(BrowserEnv):
    """One MiniWoB++ task in Chromium, observed as its 160x210 task area.

    Args:
        task: the task name, e.g. ``"click-test"`` (see :func:`gui_agent.envs.browser.miniwob_pages.miniwob_task_names`).
        data_mode: the task's data split, ``"train"`` or ``"test"`` (``core.setDataMode``).
        episode_time_limit_s: the page's own episode time limit; None disables it.
        reload_every_reset: reload the task page at every reset (slower, leaves nothing of
            the previous episode); by default the page is loaded once and reused.
        viewport, headless, display, observe_dom, observe_aria, step_timeout_s, settle_s,
        load_timeout_s, executable, extra_args, window_size: as in :class:`BrowserEnv`.

    Example:
        >>> with MiniWobEnv(task="click-test") as env:
        ...     obs, info = env.reset(seed=0)
        ...     obs.instruction
        'Click the button.'
    """

    def __init__(
        self,
        *,
        task: str,
        data_mode: Literal["train", "test"] = "train",
        episode_time_limit_s: float | None = None,
        reload_every_reset: bool = False,
        viewport: tuple[int, int] = (TASK_WIDTH, TASK_HEIGHT),
        headless: bool = True,
        display: str | None = None,
        observe_dom: bool = False,
        observe_aria: bool = False,
        step_timeout_s: float = 10.0,
        settle_s: float = DEFAULT_SETTLE_S,
        load_timeout_s: float = 30.0,
        executable: str = DEFAULT_EXECUTABLE,
        extra_args: tuple[str, ...] = (),
        window_size: tuple[int, int] | None = None,
    ) -> None:
        if task.startswith("flight."):
            raise ValueError(f"{task!r}: the FlightWoB tasks need an HTTP server and are not supported")
        page = miniwob_task_file(task)  # ValueError naming close matches
        if episode_time_limit_s is not None and not 0 < episode_time_limit_s * 1000 <= MAX_TIMER_MS:
            raise ValueError(f"episode_time_limit_s must be None or in (0, {MAX_TIMER_MS // 1000}] s")
        super().__init__(
            url=page.as_uri(),
            viewport=viewport,
            headless=headless,
            display=display,
            observe_dom=observe_dom,
            observe_aria=observe_aria,
            step_timeout_s=step_timeout_s,
            settle_s=settle_s,
            load_timeout_s=load_timeout_s,
            executable=executable,
            extra_args=extra_args,
            window_size=window_size,
        )
        self.task = task
        self.data_mode = data_mode
        self.episode_time_limit_s = episode_time_limit_s
        self.reload_every_reset = reload_every_reset
        self._fields: dict[str, Any] | None = None

    def switch_task(self, task: str) -> None:
        """Make the next :meth:`reset` start ``task`` instead, in the same browser.

        The next reset opens a fresh browser context on the new task's page, so nothing of
        the previous task carries over; only the browser start-up is saved.
        """
        if task.startswith("flight."):
            raise ValueError(f"{task!r}: the FlightWoB tasks need an HTTP server and are not supported")
        self.url = miniwob_task_file(task).as_uri()
        self.task = task
        self._episode_open = False

    def env_info(self) -> EnvInfo:
        return EnvInfo(kind="browser", app=f"miniwob:{self.task}", screen=ScreenSize(width=self.viewport[0], height=self.viewport[1]))

    def reset(self, *, seed: int | str | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Start a new episode of the task with ``seed`` (random if None).

        Options:
            data_mode: override the data split for this episode.
            setup: typed task setup steps, run after the episode started.

        Returns the first observation (``instruction`` set) and ``info`` with ``seed``,
        ``task``, ``fields`` (the instruction's fields when the page gives them).
        """
        options = dict(options or {})
        unknown = set(options) - {"data_mode", "setup"}
        if unknown:
            raise ValueError(f"unknown reset option(s) {sorted(unknown)}; expected 'data_mode' and/or 'setup'")
        mode = options.get("data_mode", self.data_mode)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self._ensure_browser()
        if self.reload_every_reset or self._context is None or not self.current_url().startswith(self.url):
            self._call(self._new_context, what="opening a fresh browser context")
            self._load(self.url)
        limit_ms = MAX_TIMER_MS if self.episode_time_limit_s is None else int(self.episode_time_limit_s * 1000)

        async def start(page: Any) -> dict[str, Any]:
            # The pointer goes back to the corner first: on a reused page it still rests
            # where the last episode clicked, and the new episode's element under it would
            # start hovered (a greyed Submit, a highlighted inbox row), so the same seed
            # would not give the same first screen as on a fresh page.
            await page.mouse.move(0, 0)
            return await page.evaluate(START_EPISODE_JS, [seed, mode, limit_ms, READY_TIMEOUT_S * 1000])

        utterance = self._page_op(start, what=f"starting a {self.task} episode", timeout_s=READY_TIMEOUT_S + self.step_timeout_s)
        self._instruction = utterance["utterance"]
        self._fields = utterance["fields"]
        self._episode_open = True
        self.run_steps(options.get("setup") or ())
        obs = self.observe()
        return obs, {"seed": seed, "task": self.task, "data_mode": mode, "fields": self._fields, "pid": self.pid}

    PAGE_STATE_JS = READ_STATE_JS

    def _state_unavailable(self, exc: BaseException) -> dict[str, Any] | None:
        """The page navigated away or was replaced: the episode cannot end by itself."""
        return {"done": False, "raw_reward": 0.0, "env_reward": 0.0, "reason": f"no MiniWoB++ state: {first_line(exc)}"}

    def _score(self, action: Action, state: dict[str, Any] | None, info: dict[str, Any]) -> tuple[float, bool]:
        """The raw reward (1 solved, -1/0 failed) once the page says done; the agent's done ends it too."""
        state = state or {"done": False, "raw_reward": 0.0, "env_reward": 0.0, "reason": None}
        info.update(state)
        page_done = bool(state["done"])
        if isinstance(action, Done) and not page_done:
            info["reason"] = "the agent said done before the page ended the episode"
        reward = float(state["raw_reward"]) if page_done else 0.0
        return reward, page_done or isinstance(action, Done)
