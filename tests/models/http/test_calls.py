"""The retry rules of :mod:`gui_agent.models.http.calls`, with the waits recorded instead of slept."""

from __future__ import annotations

import email.utils
import random

import pytest

from gui_agent.errors import PolicyRequestError, PolicyServiceError
from gui_agent.models.http.calls import ContextTooLong, Failure, RetryPolicy, call_with_retries, redact, retry_after_s


class Flaky:
    def __init__(self, failures: list[Failure | None]) -> None:
        self.failures = list(failures)
        self.calls = 0

    def send(self) -> str:
        self.calls += 1
        if self.failures:
            failure = self.failures.pop(0)
            if failure is not None:
                raise RuntimeError(failure.kind)
        return "answer"


def _run(failures: list[Failure | None], policy: RetryPolicy) -> tuple[object, list[float], Flaky]:
    flaky = Flaky(failures)
    kinds = iter(failures)
    waits: list[float] = []
    answer = call_with_retries(flaky.send, classify=lambda exc: next(kinds), policy=policy, what="the test server",
                               sleep=waits.append, rng=random.Random(0))
    return answer, waits, flaky


def test_backoff_doubles_with_jitter_up_to_its_cap_and_honours_retry_after() -> None:
    policy = RetryPolicy(max_retries=5, backoff_s=1.0, max_backoff_s=4.0)
    retry = Failure("retry", "HTTP 503")
    answer, waits, flaky = _run([retry, retry, retry, Failure("retry", "HTTP 429", retry_after_s=3.5), None], policy)
    assert answer.value == "answer" and answer.retries == 4 and flaky.calls == 5
    for wait, ceiling in zip(waits[:3], (1.0, 2.0, 4.0)):
        assert ceiling / 2 <= wait <= ceiling
    assert waits[3] >= 3.5  # at least what the service asked


def test_retry_after_is_capped_and_a_service_that_stays_down_is_a_service_error() -> None:
    policy = RetryPolicy(max_retries=2, backoff_s=0.5, max_backoff_s=10.0)
    with pytest.raises(PolicyServiceError, match=r"the test server did not answer \(3 tries.*HTTP 429"):
        _run([Failure("retry", "HTTP 429", retry_after_s=3600)] * 3, policy)


def test_refusals_and_context_errors_are_not_retried() -> None:
    with pytest.raises(PolicyRequestError, match="the test server refused the request: HTTP 404: no such model"):
        _run([Failure("refuse", "HTTP 404: no such model")], RetryPolicy())
    with pytest.raises(ContextTooLong) as info:
        _run([Failure("retry", "HTTP 500"), Failure("context", "maximum context length")], RetryPolicy(backoff_s=0.01))
    assert info.value.failed_requests == 2


def test_an_unknown_exception_goes_through_unchanged() -> None:
    def boom() -> str:
        raise KeyError("a bug")

    with pytest.raises(KeyError):
        call_with_retries(boom, classify=lambda exc: None, policy=RetryPolicy(), what="x", sleep=lambda s: None)


def test_retry_after_forms() -> None:
    assert retry_after_s({"Retry-After": "7"}) == 7.0
    assert retry_after_s({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    when = email.utils.formatdate(1_000_030, usegmt=True)
    assert retry_after_s({"Retry-After": when}, now=1_000_000) == pytest.approx(30.0)
    assert retry_after_s({"Retry-After": "soon"}) is None and retry_after_s(None) is None


def test_keys_are_redacted_from_service_messages() -> None:
    assert redact("Incorrect API key provided: sk-proj-****abcd.", ()) == "Incorrect API key provided: [key]."
    assert redact("token gw-7c1d9e2f4a rejected", ("gw-7c1d9e2f4a",)) == "token [key] rejected"
    assert redact("invalid x-api-key sk-ant-api03-AbC_dEf-123", ()) == "invalid x-api-key [key]"
