"""A web-browser environment: Debian's Chromium driven by Playwright, canonical actions in.

Design (faults first, because a browser that hangs or dies must never hang the runner):

* **We own the browser process.** :class:`~gui_agent.envs.browser.chromium.ChromiumProcess` starts
  Chromium as our own subprocess in its own process group, and Playwright attaches with
  ``connect_over_cdp``. So we know its PID, can tell "dead" from "slow", and can kill
  exactly it (never anything by name). It is started under ``setpriv --pdeathsig KILL``
  (when available) by :mod:`gui_agent.envs.spawner`'s thread, so it also dies if Python
  is killed, and only then.
* **One event-loop thread per environment owns (async) Playwright.** The public methods
  are synchronous; each submits one coroutine (a whole step: act, settle, observe) to
  that thread's asyncio loop and waits on the future with a deadline (``step_timeout_s``,
  plus the seconds of a ``wait`` action). The async API (rather than the sync one) lets a
  stuck call be *cancelled*, and lets page events be handled while a step waits.
* **Hang** (the future misses its deadline; e.g. the browser's process group got SIGSTOP,
  or a page spins in an endless script): the coroutine is cancelled, the browser's
  process group SIGKILLed by PID (SIGKILL also ends stopped processes), Playwright stopped
  (its driver process killed by PID if it does not stop), the temp profile removed, and
  :class:`~gui_agent.errors.EnvHungError` raised. Nothing is left running.
* **Death** (a Playwright call fails and the browser's main process has exited, or the
  page's renderer crashed): the same clean-up, then
  :class:`~gui_agent.errors.EnvDiedError`.
* After either, the environment is *broken*: further calls raise the same kind of error
  until :meth:`BrowserEnv.reset` starts a fresh browser (or :meth:`BrowserEnv.close`).
* A merely failed action (coordinates outside the screen, a Playwright error while the
  browser is healthy) is not an exception: it is ``Observation.last_action_error``.
* Page-level operations for task setup and evaluators (:meth:`BrowserEnv.goto`,
  :meth:`~BrowserEnv.wait_for`, :meth:`~BrowserEnv.click_selector`,
  :meth:`~BrowserEnv.fill`, :meth:`~BrowserEnv.run_js`, :meth:`~BrowserEnv.evaluate_js`)
  raise :class:`PageError` when the page says no (selector not found, script threw,
  navigation failed) while the browser is fine.
* **Screenshots during navigations.** Chromium drops a ``Page.captureScreenshot`` that
  arrives while a cross-process navigation commits: the call never returns (crbug
  1121612; Playwright's ``page.screenshot`` hangs the same way). So each capture attempt
  races a main-frame navigation starting (seen through page events) and a bound
  (:data:`CAPTURE_ATTEMPT_S`, doubling per retry): when a navigation starts the attempt is
  abandoned (cancelled), the step waits for the new page's DOM and captures again. Only
  the step deadline turns "no answer at all" into a hang.

Speed: a screenshot is one CDP ``Page.captureScreenshot`` call (lossless PNG with
``optimizeForSpeed``), decoded with Pillow into an exact RGB array: faster than
``page.screenshot()``, and lossless where JPEG is not (WebP q100 is lossless too, but
slower). Most of the cost is Chromium producing a fresh compositor frame, which the
``CDPScreenshotNewSurface`` feature (see chromium.py) shortens. ``scripts/bench_env.py``
measures a whole step against a bare Playwright click + ``page.screenshot()``; the
figures are in docs/benchmarks.md.

Use one environment from one thread at a time.
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import inspect
import io
import os
import signal
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal, TypeVar

import numpy as np

from gui_agent.actions import PIXELS_PER_WHEEL_CLICK, Action, Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait, action_to_text, off_screen_error
from gui_agent.envs.base import Env, Observation, StepResult
from gui_agent.envs.browser.chromium import DEFAULT_EXECUTABLE, ChromiumProcess
from gui_agent.envs.browser import steps as kinds
from gui_agent.envs.browser.dom_snapshot import DOM_SNAPSHOT_JS
from gui_agent.envs.steps import SleepStep
from gui_agent.episode.format import EnvInfo, ScreenSize
from gui_agent.errors import EnvDiedError, EnvError, EnvHungError, GuiAgentError, PageError, first_line
from gui_agent.keys import to_playwright_key

T = TypeVar("T")

#: Default pause after an action before the screenshot. Chromium's capture already waits
#: for a fresh frame that includes what synchronous event handlers did (and what
#: ``setTimeout(f, 0)`` handlers did), so this mostly gives a navigation the action
#: started time to announce itself, so the step can wait for it.
DEFAULT_SETTLE_S = 0.0
# With settle_s=0 the effects of synchronous handlers, microtasks, requestAnimationFrame and
# setTimeout(0) are always in the step's screenshot; a link click's navigation request may
# arrive just after the click returns, and the step notices it even while the screenshot
# is being taken (see _observe_now), waits for the new page's DOM and captures again. A
# fixed settle would only make every step slower.

#: Steps of the intermediate mouse moves of a drag (pages that track ``mousemove`` need them).
DRAG_STEPS = 8

#: Longest the first screenshot attempt may take before it is presumed dropped by Chromium
#: (a healthy capture takes a small fraction of this) and retried; each retry waits twice as long,
#: so a slow machine still gets its screenshot and only the step deadline means "hung".
CAPTURE_ATTEMPT_S = 0.5

#: Seconds to wait for Playwright to shut down before its driver is killed by PID.
_SHUTDOWN_TIMEOUT_S = 5.0

_TRANSIENT_CAPTURE_ERRORS = ("Unable to capture screenshot", "Not attached to an active page")


class _LoopThread:
    """A daemon thread running an asyncio event loop; coroutines are submitted to it.

    Daemon, so a loop that never stops cannot keep the interpreter alive.
    """

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            try:
                pending = [t for t in asyncio.all_tasks(self.loop) if not t.done()]
                for task in pending:
                    task.cancel()
                if pending:
                    self.loop.run_until_complete(asyncio.wait(pending, timeout=1.0))
                self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            finally:
                self.loop.close()

    def submit(self, coro: Awaitable[T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)  # type: ignore[arg-type]

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self, timeout_s: float) -> bool:
        """Stop the loop (pending tasks are cancelled); True if the thread ended in time."""
        if self._thread.is_alive():
            try:
                self.loop.call_soon_threadsafe(self.loop.stop)
            except RuntimeError:  # loop already closed
                pass
            self._thread.join(timeout_s)
        return not self._thread.is_alive()


async def _ready(value: T) -> T:
    """An awaitable of a value that is already known (for :meth:`BrowserEnv._page_op`)."""
    return value


def _decode_png(data: bytes) -> np.ndarray:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        rgb = image.convert("RGB") if image.mode != "RGB" else image
        rgb.load()
        return np.array(rgb, dtype=np.uint8)



def _sounds_like_death(exc: BaseException) -> bool:
    """Playwright's words when the browser went away under a call (closed, crashed, disconnected)."""
    message = str(exc)
    return "closed" in message or "crash" in message.lower() or "disconnected" in message

class BrowserEnv(Env):
    """A Chromium page an agent drives with canonical actions, observed as pixels.

    Args:
        url: the page each episode starts on; ``reset(options={"url": ...})`` overrides it.
        viewport: (width, height) of the page in CSS pixels; screenshots have exactly this
            size (device scale factor 1), and action coordinates are its pixels.
        headless: run Chromium without a window.
        display: X display for a headed browser (``":99"``).
        observe_dom: add the flat DOM snapshot (:mod:`gui_agent.envs.browser.dom_snapshot`).
        observe_aria: add Playwright's aria snapshot text of the page.
        step_timeout_s: deadline of one step (act, settle, observe) and of every other call
            into the browser; missing it is a hang (:class:`EnvHungError`).
        settle_s: pause after an action before observing (see :data:`DEFAULT_SETTLE_S`).
            When the action started a page load, the step also waits for the new page's
            DOM (bounded by ``load_timeout_s`` and the step deadline).
        load_timeout_s: how long a page load may take (reset, :meth:`goto`).
        executable: the Chromium binary (Debian's by default).
        extra_args: more Chromium flags.
        window_size: the headed window's size (default: the viewport); bigger when a person
            must see the page inside the browser's own toolbar, as on the annotation station.

    Example:
        >>> with BrowserEnv(url="https://example.org") as env:
        ...     obs, info = env.reset()
        ...     obs, reward, terminated, truncated, info = env.step(Click(100, 200))
    """

    def __init__(
        self,
        *,
        url: str = "about:blank",
        viewport: tuple[int, int] = (1280, 720),
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
        width, height = viewport
        for name, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"viewport {name} must be a positive integer, got {value!r}")
        if step_timeout_s <= 0 or load_timeout_s <= 0 or settle_s < 0:
            raise ValueError("step_timeout_s and load_timeout_s must be > 0 and settle_s >= 0")
        self.url = url
        self.viewport = (width, height)
        self.headless = headless
        self.display = display
        self.observe_dom = observe_dom
        self.observe_aria = observe_aria
        self.step_timeout_s = float(step_timeout_s)
        self.settle_s = float(settle_s)
        self.load_timeout_s = float(load_timeout_s)
        self.executable = executable
        self.extra_args = tuple(extra_args)
        self.window_size = window_size or self.viewport

        self._loop: _LoopThread | None = None
        self._chromium: ChromiumProcess | None = None
        self._pw_manager: Any = None
        self._playwright: Any = None
        self._browser: Any = None
        self._context: Any = None
        self._page: Any = None
        self._cdp: dict[int, Any] = {}  # id(page) -> CDPSession
        self._crashed = False
        self._failure: EnvError | None = None
        self._episode_open = False
        self._instruction = ""
        # Main-frame navigation bookkeeping, updated by page events on the loop thread.
        self._nav_started = 0
        self._nav_ended = 0
        self._loading_page: Any = None  # a popup whose first load we have not waited for
        self._nav_waiters: list[asyncio.Future[None]] = []  # resolved when a navigation starts

    # ================================================================== public API
    @property
    def pid(self) -> int | None:
        """PID of the browser's main process (also its process group), or None if not running."""
        return self._chromium.pid if self._chromium is not None and self._chromium.is_alive() else None

    def env_info(self) -> EnvInfo:
        return EnvInfo(kind="browser", app="chromium", screen=ScreenSize(width=self.viewport[0], height=self.viewport[1]))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Start an episode in a fresh browser context (no cookies or storage) on the start page.

        Options:
            url: start here instead of the configured ``url``.
            instruction: text to put in ``Observation.instruction``.
            setup: the task's typed setup steps, run on the start page (see :meth:`run_steps`).

        Starts the browser on first use, and again after it died or hung. ``seed`` is
        accepted for the Gymnasium contract; a plain page has nothing to seed.
        """
        options = dict(options or {})
        unknown = set(options) - {"url", "instruction", "setup"}
        if unknown:
            raise ValueError(f"unknown reset option(s) {sorted(unknown)}; expected 'url', 'instruction' and/or 'setup'")
        url = options.get("url", self.url)
        self._instruction = str(options.get("instruction", ""))
        self._ensure_browser()
        self._call(self._new_context, what="opening a fresh browser context")
        self._load(url)
        self._episode_open = True
        self.run_steps(options.get("setup") or ())
        obs = self.observe()
        return obs, {"url": obs.url, "pid": self.pid, "seed": seed}

    def step(self, action: Action) -> StepResult:
        """Perform one canonical action, let the page settle, and observe.

        Returns ``(obs, 0.0, terminated, False, info)``: a plain browser has no reward of
        its own (the task's evaluator decides); ``terminated`` is True after ``done``.
        """
        self._require_episode()
        error = self._check_in_screen(action)
        timeout = self.step_timeout_s + (float(action.seconds) if isinstance(action, Wait) else 0.0)

        async def work() -> tuple[Observation, dict[str, Any] | None]:
            t0 = time.perf_counter()
            give_up = t0 + 0.6 * timeout  # waits for page loads end here; capture has the rest
            failure = error
            nav_marks = (self._nav_started, self._nav_ended)
            if failure is None:
                try:
                    await self._perform(action)
                except Exception as exc:  # noqa: BLE001
                    if await self._is_env_failure(exc):
                        raise
                    failure = f"{action.kind} failed: {first_line(exc)}"
            t1 = time.perf_counter()
            acted = error is None and not isinstance(action, (Wait, Done))
            if acted:
                await self._settle(nav_marks, give_up=give_up)
            t2 = time.perf_counter()
            # One page call: run the handlers' zero-delay timers (when no page load began),
            # then read the page's episode state and the DOM the step will observe.
            state, dom = await self._probe(drain=acted and self._nav_started == nav_marks[0])
            obs = await self._observe_now(failure, nav_marks, give_up, dom=dom)
            t3 = time.perf_counter()
            obs.timings = {"act_s": t1 - t0, "settle_s": t2 - t1, "observe_s": t3 - t2}
            return obs, state

        what = f"step {action_to_text(action)}"
        try:
            obs, state = self._call(work, timeout_s=timeout, what=what)
        except (EnvError, RuntimeError):
            raise
        except Exception as exc:  # noqa: BLE001 - whatever else broke is the environment's fault
            raise EnvError(f"{what} failed unexpectedly: {first_line(exc)}") from exc
        info: dict[str, Any] = {}
        if isinstance(action, Done):
            info["done"] = {"success": action.success, "answer": action.answer, "handoff": action.handoff}
        reward, terminated = self._score(action, state, info)
        if terminated:
            self._episode_open = False
        return obs, reward, terminated, False, info

    def observe(self) -> Observation:
        """A fresh observation of the current page without acting (e.g. after setup steps)."""
        self._require_browser()

        async def work() -> Observation:
            t0 = time.perf_counter()
            obs = await self._observe_now(None)
            obs.timings = {"act_s": 0.0, "settle_s": 0.0, "observe_s": time.perf_counter() - t0}
            return obs

        try:
            return self._call(work, what="observing the page")
        except (EnvError, RuntimeError):
            raise
        except Exception as exc:  # noqa: BLE001
            raise EnvError(f"observing the page failed unexpectedly: {first_line(exc)}") from exc

    def close(self) -> None:
        """Stop Playwright and the browser and remove the temp profile. Safe to call twice."""
        self._episode_open = False
        self._teardown(graceful=True)

    # ------------------------------------------------------------ probe protocol
    def evaluate_js(self, expression: str) -> Any:
        """Evaluate a JavaScript expression (or function source) in the page; return its JSON value.

        Raises:
            PageError: the script threw. EnvDiedError/EnvHungError: the browser broke.
        """
        return self._page_op(lambda page: page.evaluate(expression), what="evaluate_js")

    def current_url(self) -> str:
        """The active page's URL."""
        return self._page_op(lambda page: _ready(page.url), what="current_url")

    # ------------------------------------------------------------ setup primitives
    def run_steps(self, steps: Sequence[Any]) -> None:
        """Run a task's typed setup or post steps (``goto``, ``wait_for``, ``click``, ``fill``,
        ``run_js``, ``sleep``; see :mod:`gui_agent.envs.browser.steps`) on the active page.

        Raises:
            PageError: the page refused a step (selector missing, script threw).
            GuiAgentError: a step kind a browser cannot run.
        """
        for step in steps:
            if isinstance(step, kinds.GotoStep):
                self.goto(step.goto.url)
            elif isinstance(step, kinds.WaitForStep):
                self.wait_for(step.wait_for.selector, step.wait_for.timeout_s, state=step.wait_for.state)
            elif isinstance(step, kinds.ClickStep):
                self.click_selector(step.click.selector)
            elif isinstance(step, kinds.FillStep):
                self.fill(step.fill.selector, step.fill.text)
            elif isinstance(step, kinds.RunJsStep):
                self.run_js(step.run_js.script)
            elif isinstance(step, SleepStep):
                time.sleep(step.sleep.seconds)
            else:
                raise GuiAgentError(f"a browser cannot run the setup step {getattr(step, 'name', step)!r}")

    def goto(self, url: str, *, timeout_s: float | None = None) -> None:
        """Load ``url`` in the active page and wait for its ``load`` event."""
        self._require_browser()
        self._load(url, timeout_s=timeout_s)

    def set_content(self, html: str, *, timeout_s: float | None = None) -> None:
        """Replace the active page's document with ``html`` and wait for it to load."""
        limit = self.load_timeout_s if timeout_s is None else timeout_s
        self._page_op(
            lambda page: page.set_content(html, timeout=limit * 1000),
            what="set_content",
            timeout_s=limit + self.step_timeout_s,
        )

    def wait_for(
        self,
        selector: str,
        timeout_s: float = 10.0,
        *,
        state: Literal["attached", "detached", "visible", "hidden"] = "visible",
    ) -> None:
        """Wait until ``selector`` (Playwright selector syntax) reaches ``state``.

        Raises:
            PageError: it did not within ``timeout_s``.
        """
        self._page_op(
            lambda page: page.wait_for_selector(selector, state=state, timeout=timeout_s * 1000),
            what=f"wait_for({selector!r})",
            timeout_s=timeout_s + self.step_timeout_s,
        )

    def click_selector(self, selector: str, *, timeout_s: float = 10.0) -> None:
        """Click the element ``selector`` matches (waiting until it is actionable)."""
        self._page_op(
            lambda page: page.click(selector, timeout=timeout_s * 1000),
            what=f"click_selector({selector!r})",
            timeout_s=timeout_s + self.step_timeout_s,
        )

    def fill(self, selector: str, text: str, *, timeout_s: float = 10.0) -> None:
        """Set the value of the input/textarea/contenteditable ``selector`` matches to ``text``."""
        self._page_op(
            lambda page: page.fill(selector, text, timeout=timeout_s * 1000),
            what=f"fill({selector!r})",
            timeout_s=timeout_s + self.step_timeout_s,
        )

    def run_js(self, script: str) -> Any:
        """Run statements in the page as the body of an async function; return what it returns.

        ``await`` and ``return`` may be used: ``env.run_js("localStorage.clear(); return 1")``.
        """
        source = f"async () => {{\n{script}\n}}"
        return self._page_op(lambda page: page.evaluate(source), what="run_js")

    def call_in_browser(self, fn: Callable[[Any], Any], *, timeout_s: float | None = None, what: str = "a browser call") -> Any:
        """Run ``fn(page)`` on the thread that owns Playwright, with the hang/death handling.

        ``page`` is the active *async* Playwright page; ``fn`` may return an awaitable
        (``lambda page: page.title()``), which is awaited. For callers that need Playwright
        directly (the recorder, tests). Page errors come back as :class:`PageError`.
        """

        async def run(page: Any) -> Any:
            result = fn(page)
            return await result if inspect.isawaitable(result) else result

        return self._page_op(run, what=what, timeout_s=timeout_s)

    # ================================================================== internals
    # -------------------------------------------------------------- calls
    def _require_browser(self) -> None:
        if self._failure is not None:
            raise type(self._failure)(f"{self._failure} (reset() starts a new browser)")
        if self._loop is None or self._context is None:
            raise RuntimeError("the browser is not running: call reset() first")

    def _require_episode(self) -> None:
        self._require_browser()
        if not self._episode_open:
            raise RuntimeError("no episode is running: call reset() first (and again after done)")

    def _call(self, fn: Callable[[], Awaitable[T]], *, timeout_s: float | None = None, what: str) -> T:
        """Run coroutine function ``fn`` on the loop with a deadline; hangs and deaths become EnvErrors."""
        if self._failure is not None:
            raise type(self._failure)(f"{self._failure} (reset() starts a new browser)")
        assert self._loop is not None
        limit = self.step_timeout_s if timeout_s is None else timeout_s

        async def run() -> T:
            return await fn()

        future = self._loop.submit(run())
        try:
            return future.result(timeout=limit)
        except concurrent.futures.TimeoutError:
            future.cancel()
            stopped = self._chromium is not None and self._chromium.is_stopped()
            why = " (its processes are stopped by a signal)" if stopped else ""
            self._fail(EnvHungError(f"the browser did not answer within {limit:.1f} s during {what}{why}; it was killed"))
        except EnvError as exc:
            self._fail(exc)
        except Exception as exc:  # noqa: BLE001
            if self._chromium is not None and _sounds_like_death(exc):
                self._chromium.wait(1.0)  # the CDP socket closes a moment before the process is reapable
            if self._browser_gone():
                self._fail(self._death_error(what))
            raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _page_call(self, fn: Callable[[], Awaitable[T]], *, what: str, timeout_s: float | None = None) -> T:
        """:meth:`_call` for page-level primitives: a page's refusal becomes :class:`PageError`."""
        self._require_browser()
        try:
            return self._call(fn, timeout_s=timeout_s, what=what)
        except (EnvError, RuntimeError):
            raise
        except Exception as exc:  # noqa: BLE001
            if self._chromium is not None and self._chromium.is_stopped():
                # Playwright's own timer fired first on a frozen browser: that is a hang.
                self._fail(EnvHungError(f"the browser is stopped by a signal (during {what}); it was killed"))
            raise PageError(f"{what} failed: {first_line(exc)}") from exc

    def _page_op(self, op: Callable[[Any], Awaitable[T]], *, what: str, timeout_s: float | None = None) -> T:
        """Run ``op(active page)`` on the loop as a page-level primitive (see :meth:`_page_call`)."""

        async def run() -> T:
            return await op(await self._active_page())

        return self._page_call(run, what=what, timeout_s=timeout_s)

    def _browser_gone(self) -> bool:
        """True if the browser process has exited or the page's renderer crashed."""
        if self._crashed:
            return True
        chromium = self._chromium
        return chromium is None or not chromium.is_alive()

    def _death_error(self, what: str) -> EnvDiedError:
        if self._crashed:
            return EnvDiedError(f"the page's renderer crashed (during {what})")
        code = self._chromium.returncode() if self._chromium is not None else None
        if code is None:
            detail = "gone"
        elif code < 0:
            detail = f"killed by {signal.Signals(-code).name}"
        else:
            detail = f"exit code {code}"
        return EnvDiedError(f"the browser process died ({detail}) during {what}")

    async def _is_env_failure(self, exc: BaseException) -> bool:
        """On the loop: is this Playwright error the browser dying rather than the page refusing?"""
        if self._browser_gone():
            return True
        if _sounds_like_death(exc):
            # The CDP socket closes a moment before the process is reapable: give it that moment.
            if self._chromium is not None:
                await asyncio.to_thread(self._chromium.wait, 1.0)
            return self._browser_gone()
        return False

    def _fail(self, error: EnvError) -> None:
        """Record the failure, kill and clean up everything, raise ``error``."""
        self._failure = error
        self._episode_open = False
        self._teardown(graceful=False)
        raise error

    # -------------------------------------------------------------- lifecycle
    def _ensure_browser(self) -> None:
        if self._failure is not None or (self._loop is not None and self._browser_gone()):
            self._teardown(graceful=False)
            self._failure = None
        if self._loop is not None:
            return
        self._loop = _LoopThread(name=f"gui-agent-browser-{id(self):x}")
        self._crashed = False
        try:
            self._call(self._boot, timeout_s=self.load_timeout_s + self.step_timeout_s, what="starting the browser")
        except EnvError:
            raise
        except Exception as exc:
            self._teardown(graceful=False)
            raise EnvError(f"could not connect Playwright to Chromium: {first_line(exc)}") from exc

    async def _boot(self) -> None:
        """On the loop thread: start Chromium (its parent-death signal follows this thread) and connect."""
        from playwright.async_api import async_playwright

        chromium = ChromiumProcess(
            executable=self.executable,
            headless=self.headless,
            display=self.display,
            window_size=self.window_size,
            extra_args=self.extra_args,
            start_timeout_s=self.load_timeout_s,
        )
        self._chromium = chromium
        # Spawned from this (the loop) thread: the browser's parent-death signal follows it.
        # Playwright's driver starts while Chromium boots (quicker than one after the other).
        listening = asyncio.ensure_future(chromium.start_async())
        try:
            self._pw_manager = async_playwright()
            self._playwright = await self._pw_manager.start()
            cdp_url = await listening
        finally:
            if not listening.done():
                listening.cancel()  # the driver failed, or the boot was cancelled as hung: stop waiting
            elif not listening.cancelled():
                listening.exception()  # marks a browser failure read when the driver's error is the one raised
        self._browser = await self._playwright.chromium.connect_over_cdp(cdp_url, timeout=self.load_timeout_s * 1000)

    async def _new_context(self) -> None:
        """On the loop: replace the browser context (and page) with a fresh one."""
        old = self._context
        self._context = self._page = None
        self._cdp.clear()
        if old is not None:
            try:
                await old.close()
            except Exception:  # noqa: BLE001 - a broken old context must not block a new one
                if self._browser_gone():
                    raise
        width, height = self.viewport
        context = await self._browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
        # Playwright's own timers must fire after our deadlines, so that a frozen browser is
        # reported as a hang by us, not as a page-level timeout by Playwright.
        context.set_default_timeout((self.step_timeout_s + 5.0) * 1000)
        context.set_default_navigation_timeout((self.load_timeout_s + 5.0) * 1000)
        context.on("page", self._on_new_page)
        self._context = context
        self._adopt_page(await context.new_page())

    def _on_new_page(self, page: Any) -> None:
        """On the loop: a tab or popup opened; it becomes active once its DOM is there."""
        self._adopt_page(page)
        self._loading_page = page

    def _adopt_page(self, page: Any) -> None:
        """On the loop: make ``page`` (a new tab or popup) the active one."""
        if page is self._page:
            return
        main_frame = page.main_frame

        def on_request(request: Any) -> None:
            if request.is_navigation_request() and request.frame == main_frame and page is self._page:
                self._nav_started += 1
                waiters, self._nav_waiters = self._nav_waiters, []
                for waiter in waiters:
                    if not waiter.done():
                        waiter.set_result(None)

        def on_nav_end(*_: Any) -> None:
            if page is self._page:
                self._nav_ended += 1

        def on_request_failed(request: Any) -> None:
            if request.is_navigation_request() and request.frame == main_frame and page is self._page:
                self._nav_ended += 1

        def on_crash(*_: Any) -> None:
            if page is self._page:
                self._crashed = True

        page.on("request", on_request)
        page.on("domcontentloaded", on_nav_end)
        page.on("requestfailed", on_request_failed)
        page.on("crash", on_crash)
        page.on("close", self._on_page_close)
        self._page = page

    def _on_page_close(self, page: Any) -> None:
        """On the loop: the active tab closed itself; fall back to the newest open one."""
        self._cdp.pop(id(page), None)
        if page is not self._page or self._context is None:
            return
        others = [p for p in self._context.pages if p is not page and not p.is_closed()]
        self._page = None
        if others:
            self._adopt_page(others[-1])

    def _teardown(self, *, graceful: bool) -> None:
        """Stop Playwright (on its loop, bounded), then the browser; never blocks for long."""
        loop, chromium, manager, browser = self._loop, self._chromium, self._pw_manager, self._browser
        self._loop = None
        self._context = self._page = self._browser = self._playwright = None
        self._pw_manager = None
        self._cdp = {}
        if chromium is not None and not graceful:
            chromium.kill()  # a frozen browser cannot answer a polite shutdown
        if loop is not None and graceful and browser is not None and loop.is_alive():
            # CDP Browser.close shuts Chromium down from inside: it reaps most of its helper
            # processes itself (a SIGTERM leaves ~8 orphans, which stay zombies where PID 1
            # does not reap). ChromiumProcess.stop() below still enforces the end.
            future = loop.submit(self._close_browser(browser))
            try:
                future.result(timeout=_SHUTDOWN_TIMEOUT_S)
            except Exception:  # noqa: BLE001 - the connection drops as the browser exits
                future.cancel()
            if chromium is not None:
                chromium.wait(2.0)
        if loop is not None:
            stopped = manager is None
            if manager is not None and loop.is_alive():
                future = loop.submit(manager.__aexit__(None, None, None))
                try:
                    future.result(timeout=_SHUTDOWN_TIMEOUT_S)
                    stopped = True
                except Exception:  # noqa: BLE001 - a dead connection may complain; timeout handled below
                    future.cancel()
                    stopped = future.done() and not future.cancelled()
            if not stopped:
                self._kill_driver(manager)
            loop.stop(timeout_s=_SHUTDOWN_TIMEOUT_S)
        if chromium is not None:
            chromium.stop()
        self._chromium = None

    @staticmethod
    async def _close_browser(browser: Any) -> None:
        session = await browser.new_browser_cdp_session()
        try:
            await session.send("Browser.close")
        except Exception:  # noqa: BLE001 - expected: the browser goes away mid-call
            pass

    @staticmethod
    def _kill_driver(manager: Any) -> None:
        """Kill Playwright's node driver by PID when it would not stop (private attributes)."""
        proc = getattr(getattr(getattr(manager, "_client", None), "_transport", None), "_proc", None)
        pid = getattr(proc, "pid", None)
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def _load(self, url: str, *, timeout_s: float | None = None) -> None:
        limit = self.load_timeout_s if timeout_s is None else timeout_s
        self._page_op(
            lambda page: page.goto(url, wait_until="load", timeout=limit * 1000),
            what=f"goto({url!r})",
            timeout_s=limit + self.step_timeout_s,
        )

    # -------------------------------------------------------------- acting (loop)
    def _check_in_screen(self, action: Action) -> str | None:
        return off_screen_error(action, *self.viewport)

    async def _active_page(self) -> Any:
        """On the loop: the active page; a new blank one if the page closed its last tab."""
        if self._page is None or self._page.is_closed():
            if self._context is None:
                raise EnvDiedError("the browser has no context")
            self._adopt_page(await self._context.new_page())
        page = self._page
        if self._loading_page is page:
            self._loading_page = None
            try:
                await page.wait_for_load_state("domcontentloaded", timeout=self.load_timeout_s * 1000)
            except Exception as exc:  # noqa: BLE001 - a slow popup is shown as it is
                if await self._is_env_failure(exc):
                    raise
        return page

    async def _perform(self, action: Action) -> None:
        page = await self._active_page()
        mouse, keyboard = page.mouse, page.keyboard
        if isinstance(action, Click):
            await mouse.click(action.x, action.y, button=action.button, click_count=action.count)
        elif isinstance(action, Move):
            await mouse.move(action.x, action.y)
        elif isinstance(action, Drag):
            await mouse.move(action.x1, action.y1)
            await mouse.down(button=action.button)
            await mouse.move(action.x2, action.y2, steps=DRAG_STEPS)
            await mouse.up(button=action.button)
        elif isinstance(action, Scroll):
            await mouse.move(action.x, action.y)
            await mouse.wheel(action.dx * PIXELS_PER_WHEEL_CLICK, action.dy * PIXELS_PER_WHEEL_CLICK)
        elif isinstance(action, Type):
            text, enter = (action.text[:-1], True) if action.text.endswith("\n") else (action.text, False)
            if text:
                await keyboard.type(text)
            if enter:
                await keyboard.press("Enter")
        elif isinstance(action, Hotkey):
            keys = [to_playwright_key(k) for k in action.keys]
            pressed: list[str] = []
            try:
                for key in keys:
                    await keyboard.down(key)
                    pressed.append(key)
            finally:
                for key in reversed(pressed):
                    await keyboard.up(key)
        elif isinstance(action, Wait):
            await asyncio.sleep(action.seconds)
        elif isinstance(action, Done):
            pass
        else:  # pragma: no cover - the Action union is closed
            raise TypeError(f"not a canonical action: {action!r}")

    async def _settle(self, nav_marks: tuple[int, int], *, give_up: float | None = None) -> None:
        """On the loop: pause ``settle_s``; if a page load started since ``nav_marks``, wait for its DOM.

        A main-frame navigation request since the marks means a load is under way; it has
        ended once a ``domcontentloaded`` (or a failed navigation request) followed. The
        wait ends at ``give_up`` (a ``perf_counter`` time; the step passes a point well
        inside its deadline, so a slow site is observed half-loaded, not reported as a
        hang), at the latest after ``load_timeout_s``.
        """
        await asyncio.sleep(self.settle_s)  # page events are handled meanwhile
        started_before, ended_before = nav_marks
        if self._nav_started == started_before:
            return  # no page load; the step's probe runs the handlers' queued timers
        limit = time.perf_counter() + self.load_timeout_s
        if give_up is not None:
            limit = min(limit, give_up)
        while self._nav_ended == ended_before and time.perf_counter() < limit:
            await asyncio.sleep(0.01)

    #: A JS function of no arguments returning the page's own episode state (MiniWoB++: its
    #: done flag and rewards), read after every action; None for pages without one.
    PAGE_STATE_JS: str | None = None

    def _probe_js(self, *, drain: bool, with_dom: bool) -> str:
        """The one expression a step evaluates in the page after its action (see :meth:`_probe`)."""
        state = self.PAGE_STATE_JS or "() => null"
        return (
            "(async () => {\n"
            + ("  await new Promise((resolve) => setTimeout(resolve, 0));\n" if drain else "")
            + f"  const state = ({state})();\n"
            + (f"  const dom = ({DOM_SNAPSHOT_JS})();\n" if with_dom else "  const dom = null;\n")
            + "  return {state, dom};\n"
            "})()"
        )

    async def _evaluate_json(self, page: Any, expression: str) -> Any:
        """On the loop: the JSON value of ``expression`` (promises awaited), by CDP ``Runtime.evaluate``.

        For the per-step reads of plain data (the probe, the DOM snapshot): cheaper than
        ``page.evaluate``, which serialises values its own way.
        Raises :class:`PageError` if the script throws.
        """
        params = {"expression": expression, "awaitPromise": True, "returnByValue": True}
        reply = await (await self._cdp_session(page)).send("Runtime.evaluate", params)
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            raise PageError((details.get("exception") or {}).get("description") or details.get("text") or "the page script threw")
        return reply["result"].get("value")

    async def _cdp_session(self, page: Any) -> Any:
        """On the loop: this page's own CDP session (made once, kept while the page lives)."""
        session = self._cdp.get(id(page))
        if session is None:
            session = self._cdp[id(page)] = await page.context.new_cdp_session(page)
        return session

    async def _probe(self, *, drain: bool) -> tuple[dict[str, Any] | None, list[dict[str, Any]] | None]:
        """On the loop, after the action settled: ``(page state, DOM)`` in one page call.

        ``drain`` first lets the page run the tasks its handlers queued with
        ``setTimeout(f, 0)``: timers of equal delay run in order, so once a zero-delay timer
        queued now has fired, so have the handlers'; their effect is then in the screenshot
        every time, not only when the machine is idle. The DOM is read only with
        ``observe_dom``, and before the screenshot (nothing runs between the two but timers
        the page set itself). One call instead of three (drain, state, DOM), and a plain
        CDP ``Runtime.evaluate`` with a JSON reply instead of Playwright's ``page.evaluate``
        (whose own serialisation of the DOM list costs several times more CPU).

        A page that cannot answer (a navigation just replaced it) gives
        ``(self._state_unavailable(exc), None)``; the DOM is then read again after the
        screenshot by :meth:`_observe_now`, with its retries.
        """
        try:
            result = await self._evaluate_json(await self._active_page(), self._probe_js(drain=drain, with_dom=self.observe_dom))
        except Exception as exc:  # noqa: BLE001 - a navigation may have just replaced the page
            if await self._is_env_failure(exc):
                raise
            return self._state_unavailable(exc), None
        return result["state"], result["dom"]

    def _state_unavailable(self, exc: BaseException) -> dict[str, Any] | None:
        """The page state to score a step with when the page could not be asked (``exc``)."""
        return None

    def _score(self, action: Action, state: dict[str, Any] | None, info: dict[str, Any]) -> tuple[float, bool]:
        """``(reward, terminated)`` of a step; may add to ``info``. A plain page: 0.0, ends on done."""
        return 0.0, isinstance(action, Done)

    # -------------------------------------------------------------- observing (loop)
    async def _screenshot(self, page: Any, give_up: float | None = None) -> np.ndarray:
        """Capture ``page``'s viewport losslessly; bounded attempts survive Chromium dropping one.

        ``give_up`` (a ``perf_counter`` time) ends waits for a page load, as in :meth:`_settle`.
        """
        if give_up is None:
            give_up = time.perf_counter() + 0.6 * self.step_timeout_s
        session = await self._cdp_session(page)
        params = {"format": "png", "optimizeForSpeed": True}
        attempt_s = CAPTURE_ATTEMPT_S
        loop = asyncio.get_running_loop()
        while True:
            nav_marks = (self._nav_started, self._nav_ended)
            capture = asyncio.ensure_future(session.send("Page.captureScreenshot", params))
            nav_start: asyncio.Future[None] = loop.create_future()
            self._nav_waiters.append(nav_start)
            try:
                await asyncio.wait({capture, nav_start}, timeout=attempt_s, return_when=asyncio.FIRST_COMPLETED)
            finally:
                nav_start.cancel()
                if nav_start in self._nav_waiters:
                    self._nav_waiters.remove(nav_start)
                if not capture.done():
                    capture.cancel()
            if capture.done() and not capture.cancelled():
                exc = capture.exception()
                if exc is None:
                    reply = capture.result()
                    break
                if not any(m in str(exc) for m in _TRANSIENT_CAPTURE_ERRORS) or await self._is_env_failure(exc):
                    raise exc
                await asyncio.sleep(0.02)
                continue
            # No picture yet: a navigation started (Chromium drops captures pending while it
            # commits, see the module docstring) or the machine is slow. Let a navigation
            # finish, then ask again, each time allowing longer. A browser that never
            # answers is caught by the step deadline as a hang.
            if self._browser_gone():
                raise EnvDiedError("the browser died while taking a screenshot")
            if self._nav_started != nav_marks[0]:
                await self._settle(nav_marks, give_up=give_up)
            else:
                attempt_s *= 2
        pixels = _decode_png(base64.b64decode(reply["data"]))
        width, height = self.viewport
        if pixels.shape != (height, width, 3):
            raise EnvError(f"screenshot is {pixels.shape[1]}x{pixels.shape[0]}, expected the {width}x{height} viewport")
        return pixels

    async def _page_snapshot(self, take: Callable[[], Awaitable[T]]) -> T | None:
        """On the loop: a DOM/aria snapshot, retried while a navigation replaces the document; None if it cannot be had."""
        for attempt in range(3):
            try:
                return await take()
            except Exception as exc:  # noqa: BLE001 - e.g. "Execution context was destroyed"
                if await self._is_env_failure(exc):
                    raise
                await asyncio.sleep(0.05 * (attempt + 1))
        return None

    async def _observe_now(
        self,
        last_action_error: str | None,
        nav_marks: tuple[int, int] | None = None,
        give_up: float | None = None,
        *,
        dom: list[dict[str, Any]] | None = None,
    ) -> Observation:
        """On the loop: screenshot (+ DOM/aria) of the active page.

        With ``nav_marks`` (the navigation counters before the action), a navigation that
        announced itself only while the screenshot was being taken gets waited for and the
        page captured again, so a step that clicked a link usually shows the new page,
        without a fixed settle wait on every step. ``dom``: the DOM already read for this
        observation (by :meth:`_probe`); it is read again if the page was captured anew.
        """
        nav_ended = self._nav_ended  # before any await: a load that ends from here on replaces ``dom``'s page
        page = await self._active_page()
        for _ in range(3):
            ended_at_capture = self._nav_ended
            screenshot = await self._screenshot(page, give_up)
            if nav_marks is None or self._nav_started == nav_marks[0] or ended_at_capture != nav_marks[1]:
                break  # no navigation, or the capture began after it had loaded
            await self._settle(nav_marks, give_up=give_up)
            page = await self._active_page()
        if self._nav_ended != nav_ended:
            dom = None  # read from a page that has since been replaced
        if self.observe_dom and dom is None:
            dom = await self._page_snapshot(lambda: self._evaluate_json(page, f"({DOM_SNAPSHOT_JS})()"))
        aria = await self._page_snapshot(lambda: page.locator(":root").aria_snapshot()) if self.observe_aria else None
        return Observation(
            screenshot=screenshot,
            instruction=self._instruction,
            url=page.url,
            dom=dom,
            aria=aria,
            last_action_error=last_action_error,
        )
