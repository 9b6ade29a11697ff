"""The one poll loop (gui_agent/polling.py): the value when it comes, None or an error naming the wait when not."""

from __future__ import annotations

import pytest

from gui_agent.errors import GuiAgentError, WaitTimeoutError
from gui_agent.polling import poll, wait_until


def test_poll_returns_the_first_true_value() -> None:
    answers = iter([None, 0, "", [], [3]])
    assert poll(lambda: next(answers), timeout_s=60, interval_s=0.001) == [3]


def test_poll_asks_once_with_no_time_and_gives_none() -> None:
    asked: list[int] = []
    assert poll(lambda: asked.append(1), timeout_s=0) is None
    assert asked == [1]


def test_what_the_predicate_raises_ends_the_wait() -> None:
    def broken() -> bool:
        raise ValueError("the app exited")

    with pytest.raises(ValueError, match="the app exited"):
        poll(broken, timeout_s=60)


def test_wait_until_names_what_it_waited_for() -> None:
    assert wait_until(lambda: "ready", timeout_s=0, what="the page") == "ready"
    with pytest.raises(WaitTimeoutError, match="waiting for the worker to exit") as info:
        wait_until(lambda: False, timeout_s=0.01, interval_s=0.001, what="the worker to exit")
    assert isinstance(info.value, TimeoutError) and isinstance(info.value, GuiAgentError)
