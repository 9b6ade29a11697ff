"""What checks may ask an environment: the two probe protocols.

A check never reaches into an environment's internals; it asks its probe. Keeping each
probe small lets any environment that can answer it be judged by the same checks (a test
double included): :class:`BrowserProbe` for pages (the browser environment, later a
desktop browser reached over CDP), :class:`DesktopProbe` for files and mail (the desktop
environment, or plain folders in tests).
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class BrowserProbe(Protocol):
    """What browser checks need from an environment showing a web page.

    Implementations (the browser environment, test adapters) must follow these rules:

    * ``evaluate_js(expression)`` evaluates one JavaScript *expression* in the page's main
      frame and returns its value converted to Python the way Playwright's
      ``page.evaluate`` does (JSON-like: None, bool, int/float, str, list, dict). If the
      value is a Promise, it is awaited. The evaluator never passes a function text, so
      no "call it if it is a function" rule is needed.
    * If the *expression* fails (syntax error, thrown exception, bad CSS selector), raise
      any exception other than :class:`~gui_agent.errors.EnvError`: the evaluator records
      it as that check failing, with the message in ``detail``.
    * If the *environment* is broken (browser or page gone, no answer in time), raise
      :class:`~gui_agent.errors.EnvError` (or a subclass): the evaluator lets it through,
      so the runner reports an environment failure instead of blaming the agent.
    * ``current_url()`` returns the address of the page now shown (``page.url``).

    Example adapter for a Playwright ``Page``::

        class PageProbe:
            def __init__(self, page): self.page = page
            def evaluate_js(self, expression): return self.page.evaluate(expression)
            def current_url(self): return self.page.url
    """

    def evaluate_js(self, expression: str) -> Any:
        """Evaluate a JavaScript expression in the page and return its JSON-like value."""
        ...

    def current_url(self) -> str:
        """The URL of the page currently shown."""
        ...


@runtime_checkable
class DesktopProbe(Protocol):
    """What desktop checks need from an environment (:class:`~gui_agent.envs.desktop.env.DesktopEnv`).

    * ``resolve_path(path)``: the absolute path of a task path (relative to the episode's
      home folder).
    * ``task_file(path)``: the absolute path of a file shipped in the task's folder;
      raises if it is missing.
    * ``received_mail()``: what the loopback SMTP server received, oldest first (objects
      with ``rcpt_tos`` and ``message``, an :class:`email.message.EmailMessage`).
    * ``reported_done()``: how the agent ended the episode, ``{"success": bool, "answer":
      str | None}``, or None when it did not say done (``infeasible_reported``).
    * ``app_port(app)``: the loopback port of a running app's control interface
      (Chromium's DevTools, VLC's HTTP interface); raises when the app has none.
    * ``run_command(argv, timeout_s=...)``: a :class:`subprocess.CompletedProcess` (text
      output) of ``argv`` run on the episode's desktop (its display, home and environment);
      raises :class:`subprocess.TimeoutExpired` past the deadline.
    * ``accessibility_tree(scope=..., complete=..., timeout_s=...)``: the apps' element tree
      in OSWorld's XML form; :class:`~gui_agent.errors.EnvError` when an app hangs,
      RuntimeError when the desktop runs without accessibility.
    """

    def resolve_path(self, path: str) -> Path: ...

    def task_file(self, path: str) -> Path: ...

    def received_mail(self) -> list[Any]: ...

    def reported_done(self) -> dict[str, Any] | None: ...

    def app_port(self, app: str) -> int: ...

    def run_command(self, argv: Sequence[str], *, timeout_s: float = 30.0) -> subprocess.CompletedProcess[str]: ...

    def accessibility_tree(self, *, scope: str = "screen", complete: bool = True, timeout_s: float = 5.0) -> str: ...


__all__ = ["BrowserProbe", "DesktopProbe"]
