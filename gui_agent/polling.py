"""Waiting for a condition with a deadline: the project's one poll loop.

Many things here are only known by asking again (a window appears, a process is reaped,
a file lands, a page says it is ready): ask, and if the answer is not there yet, sleep
a little and ask again, until a deadline. :func:`poll` is that loop, once;
:func:`wait_until` is the same loop that raises :class:`~gui_agent.errors.WaitTimeoutError`
naming what it waited for.

A caller whose failure has a kind of its own (a desktop step that cannot be done is a
:class:`~gui_agent.errors.DesktopStepError`, an app that never starts an
:class:`~gui_agent.errors.EnvError`) uses :func:`poll` and raises its own error when it
returns None, with what it knows then (the windows that are open, the app's output). A
``WaitTimeoutError`` is also a built-in ``TimeoutError``, which is what
``concurrent.futures`` raises when a future is late: code that waits on a future and
catches that should not let a ``WaitTimeoutError`` from the work itself escape into it.

The predicate is asked first and last: once before any sleep (a condition already true
costs no wait) and once more when the deadline has passed, so a slow machine that slept
past the deadline still sees a condition that became true meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from gui_agent.errors import WaitTimeoutError

T = TypeVar("T")

#: Seconds between two questions when the caller does not say.
DEFAULT_INTERVAL_S = 0.05


def poll(predicate: Callable[[], T], *, timeout_s: float, interval_s: float = DEFAULT_INTERVAL_S) -> T | None:
    """Ask ``predicate`` every ``interval_s`` until it returns something true; return that.

    Args:
        predicate: asked with no arguments; a true value ends the wait (an exception it
            raises ends it too, and propagates).
        timeout_s: how long to keep asking (0: ask once).
        interval_s: the sleep between two questions.

    Returns:
        The first true value, or None when ``timeout_s`` passed without one.
    """
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        time.sleep(min(interval_s, left))


def wait_until(predicate: Callable[[], T], *, timeout_s: float, what: str, interval_s: float = DEFAULT_INTERVAL_S) -> T:
    """:func:`poll`, and raise when the time is up.

    Args:
        predicate: as for :func:`poll`.
        timeout_s: how long to keep asking.
        what: what is waited for, in words (``"the worker to exit"``): the error names it.
        interval_s: the sleep between two questions.

    Returns:
        The first true value ``predicate`` returned.

    Raises:
        WaitTimeoutError: ``timeout_s`` passed first.
    """
    value = poll(predicate, timeout_s=timeout_s, interval_s=interval_s)
    if not value:
        raise WaitTimeoutError(f"timed out after {timeout_s:g} s waiting for {what}")
    return value


__all__ = ["DEFAULT_INTERVAL_S", "poll", "wait_until"]
