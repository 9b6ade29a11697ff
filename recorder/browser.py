"""Browser recording: a headed Chromium whose injected script reports each action's target.

The screen and input are recorded exactly as on the desktop (:class:`RecordingSession`);
the browser adds grounding labels. An init script in every page listens (capture phase)
for ``mousedown``, ``wheel``, ``keydown`` and focus changes and reports, through a
Playwright binding, the target element: tag, role, accessible name, text, input type,
bounding box (CSS pixels of the viewport and of the screen) and a robust CSS selector.
It never reports key values or field values. Focusing a password input turns key masking
on (:meth:`TitleMask.force`) until focus leaves it, so the password is never written,
not even to ``events.jsonl``.

Each step's ``target`` is the report of the same kind whose screen point matches the
action's (within ``match_px``) and that arrived closest to the action's time.

Playwright's sync API delivers binding calls only while the main thread is inside a
Playwright call, so the session loop here waits with ``page.wait_for_timeout``.

``miniwob:TASK`` as the URL opens a MiniWoB++ task page started with a known seed
(:mod:`gui_agent.recorder.miniwob_page`), so the recording can be replayed from the same start state.
"""

from __future__ import annotations

import collections
import time
from pathlib import Path
from typing import Any

from gui_agent.envs.browser.chromium import ChromiumProcess
from gui_agent.episode.labels import MINIWOB, SEED
from gui_agent.recorder.errors import RecorderError
from gui_agent.recorder.miniwob_page import MiniWobPage
from gui_agent.recorder.reduce import Reduced
from gui_agent.recorder.session import RecordingSession, SessionConfig

INJECT_JS = r"""
(() => {
  if (window.__guiRecordInstalled) return;
  window.__guiRecordInstalled = true;
  const send = (payload) => { try { window.__guiRecord(payload); } catch (e) {} };
  const cssEscape = (s) => (window.CSS && CSS.escape) ? CSS.escape(s) : s.replace(/[^\w-]/g, '\\$&');
  function selector(el) {
    if (!(el instanceof Element)) return null;
    if (el.id && document.querySelectorAll('#' + cssEscape(el.id)).length === 1) return '#' + cssEscape(el.id);
    for (const attr of ['data-testid', 'data-test', 'name', 'aria-label']) {
      const v = el.getAttribute(attr);
      if (v) {
        const s = el.tagName.toLowerCase() + '[' + attr + '="' + v.replace(/"/g, '\\"') + '"]';
        if (document.querySelectorAll(s).length === 1) return s;
      }
    }
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && e !== document.documentElement; e = e.parentElement) {
      if (e.id && document.querySelectorAll('#' + cssEscape(e.id)).length === 1) { parts.unshift('#' + cssEscape(e.id)); break; }
      let i = 1;
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (s.tagName === e.tagName) i++;
      parts.unshift(e.tagName.toLowerCase() + ':nth-of-type(' + i + ')');
    }
    return parts.join(' > ');
  }
  function accName(el) {
    const label = el.getAttribute('aria-label');
    if (label) return label.trim();
    const by = el.getAttribute('aria-labelledby');
    if (by) { const l = document.getElementById(by); if (l) return l.innerText.trim(); }
    if (el.labels && el.labels.length) return el.labels[0].innerText.trim();
    for (const attr of ['placeholder', 'title', 'alt', 'name']) { const v = el.getAttribute(attr); if (v) return v.trim(); }
    if (!['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) return (el.innerText || '').trim().slice(0, 80);
    return '';
  }
  function describe(el, ev) {
    if (!(el instanceof Element)) el = el && el.parentElement;
    if (!el) return null;
    const r = el.getBoundingClientRect();
    const offX = (ev && 'screenX' in ev) ? ev.screenX - ev.clientX : null;
    const offY = (ev && 'screenY' in ev) ? ev.screenY - ev.clientY : null;
    const isInput = ['INPUT', 'TEXTAREA'].includes(el.tagName);
    return {
      tag: el.tagName.toLowerCase(), role: el.getAttribute('role'), name: accName(el),
      text: isInput ? '' : (el.innerText || '').trim().slice(0, 200), type: el.getAttribute('type'),
      id: el.id || null, selector: selector(el), bbox: [r.left, r.top, r.width, r.height],
      bbox_screen: offX === null ? null : [r.left + offX, r.top + offY, r.width, r.height],
      url: location.href,
    };
  }
  const isPassword = (el) => el instanceof HTMLInputElement && el.type === 'password';
  addEventListener('mousedown', (e) => send({kind: 'down', x: e.screenX, y: e.screenY, target: describe(e.target, e)}), true);
  let lastWheel = 0;
  addEventListener('wheel', (e) => {
    const now = performance.now();
    if (now - lastWheel > 300) send({kind: 'scroll', x: e.screenX, y: e.screenY, target: describe(e.target, e)});
    lastWheel = now;
  }, {capture: true, passive: true});
  addEventListener('keydown', (e) => send({kind: 'key', target: describe(document.activeElement || e.target, null)}), true);
  addEventListener('focusin', (e) => send({kind: 'focus', password: isPassword(e.target)}), true);
  addEventListener('focusout', (e) => { if (isPassword(e.target)) send({kind: 'focus', password: false}); }, true);
})();
"""


class TargetReports:
    """The page script's reports for one recording: each action's target, and the mask
    while a password field has the focus.

    :meth:`on_report` is the ``__guiRecord`` binding's callback (any thread);
    :meth:`target_for` is the session's ``target_for`` hook. Used by
    :class:`BrowserRecording` and by the annotation station's browser tasks, whose
    browser is the task's own environment.
    """

    def __init__(self, session: RecordingSession, *, match_px: int = 3):
        self.session = session
        self.match_px = match_px
        # Appended on Playwright's thread, read on the recorder's: a bounded deque, read as a copy.
        self.reports: collections.deque[tuple[float, dict[str, Any]]] = collections.deque(maxlen=2000)
        session.target_for = self.target_for

    def on_report(self, source: Any, payload: dict[str, Any]) -> None:
        t = self.session.clock.now()
        if payload.get("kind") == "focus":
            self.session.mask.force("password-field", bool(payload.get("password")))
            return
        self.reports.append((t, payload))

    def target_for(self, r: Reduced) -> dict[str, Any] | None:
        action = r.action
        kind = {"click": "down", "drag": "down", "scroll": "scroll", "type": "key", "hotkey": "key"}.get(action.kind)
        if kind is None:
            return None
        x = getattr(action, "x", getattr(action, "x1", None))
        y = getattr(action, "y", getattr(action, "y1", None))
        best = None
        for t, report in list(self.reports):
            if report.get("kind") != kind or not -0.5 <= t - r.t <= 3.0 or report.get("target") is None:
                continue
            if kind != "key" and (abs(report["x"] - x) > self.match_px or abs(report["y"] - y) > self.match_px):
                continue
            if best is None or abs(t - r.t) < abs(best[0] - r.t):
                best = (t, report)
        return best[1]["target"] if best else None


class BrowserRecording:
    """A recording session plus a headed Chromium at ``url`` reporting action targets.

    A :class:`~gui_agent.recorder.recording.Recording`: a MiniWoB++ page gives its own verdict
    (:meth:`verdict`), read as the capture stops, and :meth:`finish` keeps it in the
    episode's ``labels.miniwob``.
    """

    def __init__(self, url: str, config: SessionConfig, *, window_size: tuple[int, int] | None = None, match_px: int = 3,
                 seed: int | None = None):
        #: The MiniWoB++ task and seed when ``url`` is ``miniwob:TASK`` (ValueError: no such task).
        self.miniwob = MiniWobPage.parse(url, seed)
        if self.miniwob is None and seed is not None:
            raise ValueError("--seed applies to MiniWoB++ pages only (--browser miniwob:TASK)")
        self.url = url
        self.session = RecordingSession(config)
        self.targets = TargetReports(self.session, match_px=match_px)
        self.window_size = window_size
        self._chromium: ChromiumProcess | None = None
        self._pw: Any = None
        self.page: Any = None
        self._page_verdict: dict[str, Any] | None = None

    def start(self) -> Any:
        from playwright.sync_api import sync_playwright

        try:
            self._chromium = ChromiumProcess(headless=False, display=self.session.display, window_size=self.window_size,
                                             extra_args=("--window-position=0,0",))
            self._chromium.start()
            self._pw = sync_playwright().start()
            browser = self._pw.chromium.connect_over_cdp(self._chromium.cdp_url)
            context = browser.new_context(no_viewport=True)
            context.expose_binding("__guiRecord", self.targets.on_report)
            context.add_init_script(INJECT_JS)
            self.page = context.new_page()
            self.page.goto(self.url if self.miniwob is None else self.miniwob.file_url)
            if self.miniwob is not None:
                self._start_miniwob(self.miniwob)
        except Exception as exc:
            self.close()
            raise RecorderError(f"cannot open the browser at {self.url!r}: {exc}") from None
        return self.session.start()

    def _start_miniwob(self, task: MiniWobPage) -> None:
        """Start the seeded episode; name the task and seed in the episode (replay finds them)."""
        instruction = task.start_episode(self.page)
        config = self.session.config
        config.task = config.task or instruction
        config.task_id = config.task_id or task.task_id
        labels = dict(config.labels)
        SEED.set(labels, task.seed)
        MINIWOB.set(labels, {"task": task.task, "shown_t": round(self.session.clock.now(), 4)})
        config.labels = labels

    def page_verdict(self) -> dict[str, Any] | None:
        """A MiniWoB++ page's own verdict (``done``, ``raw_reward``, ``reason``); None for other pages
        or when the page cannot be read."""
        if self.miniwob is None or self.page is None:
            return None
        try:
            return MiniWobPage.verdict(self.page)
        except Exception:  # noqa: BLE001 - the annotator closed the page: no verdict
            return None

    def pump(self, seconds: float) -> None:
        """Let Playwright deliver reports for ``seconds`` (or just sleep if the page is gone)."""
        try:
            self.page.wait_for_timeout(seconds * 1000)
        except Exception:  # noqa: BLE001 - page closed by the annotator: keep recording the screen
            time.sleep(seconds)

    def run(self, duration_s: float | None = None) -> str:
        s = self.session
        end = None if duration_s is None else time.monotonic() + duration_s
        while not s.stop_requested.is_set():
            self.pump(s.config.tick_s)
            s.process()
            if s.screen.error:
                s.request_stop("screen")
            if end is not None and time.monotonic() >= end:
                s.request_stop("duration")
        return s.stop_reason or "stopped"

    def stop_capture(self) -> None:
        """Stop capturing (:meth:`RecordingSession.stop_capture`), then read the page's verdict
        while the page is still open, even when the capture failed."""
        self.pump(0.2)  # reports of the last actions
        try:
            self.session.stop_capture()
        finally:
            self._page_verdict = self.page_verdict()

    def verdict(self) -> bool | None:
        """Whether the MiniWoB++ page judged its task solved, as the capture stopped; None for
        other pages, or a page that could not be read."""
        return None if self._page_verdict is None else MiniWobPage.solved(self._page_verdict)

    def finish(self, *, success: bool | None, notes: str | None = None, reason: str | None = None) -> Path:
        """Mark the episode complete (:meth:`RecordingSession.finish`), with the page's verdict in
        ``labels.miniwob.verdict`` when there is one."""
        verdict = self._page_verdict
        labels = MINIWOB.item({**MINIWOB.get(self.session.config.labels, {}), "verdict": verdict}) if verdict else None
        return self.session.finish(success=success, notes=notes, reason=reason, labels=labels)

    def close(self) -> None:
        """Close the browser (safe to call twice, and before :meth:`start`)."""
        if self._pw is not None:
            try:
                self._pw.stop()
            except Exception:  # noqa: BLE001
                pass
            self._pw = None
        if self._chromium is not None:
            self._chromium.stop()
            self._chromium = None
