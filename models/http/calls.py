"""Calling a model service robustly: a timeout on every call, bounded retries, clear failures.

What a remote model does wrong, and what happens:

==========================================  ===============================================
the service                                 the call
==========================================  ===============================================
refuses the connection, drops it, hangs     retried with exponential backoff and jitter
past the timeout, answers a body that is    (``backoff_s * 2**n``, at most ``max_backoff_s``,
not what its API documents (a 200 that is   each wait drawn between half and all of it)
a proxy's HTML page, JSON without the
documented fields)
answers 429                                 retried after its ``Retry-After`` (seconds or an
                                            HTTP date; ``retry-after-ms`` too), else backoff
answers 5xx                                 retried as a dropped connection
says the prompt is too long                 :class:`~gui_agent.models.errors.ContextTooLong`, for the policy to
                                            shorten its prompt (drop the oldest screenshot)
answers another 4xx                         :class:`~gui_agent.errors.PolicyRequestError` at
                                            once, with the service's own message
stays down past ``max_retries``             :class:`~gui_agent.errors.PolicyServiceError`
==========================================  ===============================================

The timeout is a deadline for the whole request, connection to last byte
(:func:`within_deadline`): an HTTP client's own timeout bounds each read, so a service
that sends a byte now and then would otherwise never time out.

Ctrl-C is never caught: a call or a backoff wait is interrupted where it is. The official
SDKs' own retries are turned off (``max_retries=0``) so this is the one retry policy, and
every step records how many retries it took.
"""

from __future__ import annotations

import email.utils
import json
import random
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from gui_agent.errors import PolicyRequestError, PolicyServiceError, first_line
from gui_agent.models.errors import ContextTooLong, DeadlinePassed, UnexpectedAnswer

T = TypeVar("T")

#: Phrases with which OpenAI-compatible servers (OpenAI, vLLM, SGLang, TGI, Ollama) and
#: Anthropic say that the prompt does not fit the model's context.
CONTEXT_TOO_LONG_MARKERS = (
    "context_length_exceeded", "maximum context length", "context length", "context window",
    "prompt is too long", "too many tokens", "input is too long", "exceeds the model's", "max_model_len",
)


@dataclass(frozen=True)
class RetryPolicy:
    """How long a call may take and how often it is tried again.

    Attributes:
        timeout_s: the deadline of one request, connection to last byte (:func:`within_deadline`).
        max_retries: requests after the first one.
        backoff_s: the first wait; each next wait doubles.
        max_backoff_s: the longest wait, ``Retry-After`` included.
    """

    timeout_s: float = 120.0
    max_retries: int = 4
    backoff_s: float = 1.0
    max_backoff_s: float = 60.0

    def wait_s(self, retry: int, rng: random.Random) -> float:
        """The backoff before retry number ``retry`` (0-based): exponential, with jitter."""
        ceiling = min(self.max_backoff_s, self.backoff_s * (2**retry))
        return rng.uniform(ceiling / 2, ceiling)


def within_deadline(call: Callable[[], T], seconds: float) -> T:
    """``call()``'s result, or :class:`DeadlinePassed` once ``seconds`` have passed.

    The call runs in a daemon thread; one that passes its deadline is left to end by
    itself (the client's per-read timeout, or the service finishing its answer) and its
    result is dropped. Ctrl-C interrupts the wait at once.
    """
    outcome: list[tuple[bool, Any]] = []
    finished = threading.Event()

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            outcome.append((False, exc))
        finally:
            finished.set()

    threading.Thread(target=run, name="model-request", daemon=True).start()
    if not finished.wait(seconds):
        raise DeadlinePassed(f"no complete answer within {seconds:g} s")
    ok, value = outcome[0]
    if ok:
        return value  # type: ignore[no-any-return]
    raise value


def require_fields(answer: Any, kind: str, fields: Sequence[str]) -> Any:
    """``answer`` when each of ``fields`` is there (not None), else :class:`UnexpectedAnswer`.

    The SDKs hand over a successful answer without validating it: an HTML page comes back
    as a string, JSON without the documented fields as an object whose fields are None.
    """
    if isinstance(answer, (str, bytes)):
        text = answer.decode("utf-8", "replace") if isinstance(answer, bytes) else answer
        snippet = " ".join(text.split())[:120]
        raise UnexpectedAnswer(f"the service's answer is not a {kind} but a page of text: {snippet!r}")
    missing = [name for name in fields if getattr(answer, name, None) is None]
    if missing:
        raise UnexpectedAnswer(f"the service's answer is not a {kind}: it has no {', '.join(repr(m) for m in missing)}")
    return answer


@dataclass(frozen=True)
class Failure:
    """What one failed request means: try again (after ``retry_after_s``, if the service
    said), refuse at once, or shorten the prompt."""

    kind: str  # "retry" | "refuse" | "context"
    message: str
    retry_after_s: float | None = None


@dataclass(frozen=True)
class Answer(Generic[T]):
    """A call's answer, how many retries it took and how long it took in all."""

    value: T
    retries: int
    latency_s: float


def retry_after_s(headers: Mapping[str, str] | None, *, now: float | None = None) -> float | None:
    """Seconds a 429 answer asks to wait: ``retry-after-ms``, or ``Retry-After`` in seconds or as an HTTP date."""
    if not headers:
        return None
    lowered = {str(k).lower(): str(v) for k, v in headers.items()}
    if "retry-after-ms" in lowered:
        try:
            return max(0.0, float(lowered["retry-after-ms"]) / 1000)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


#: What API keys look like (OpenAI's ``sk-...``, ``sk-proj-...``, Anthropic's ``sk-ant-...``),
#: also when a service quotes one partly masked in an error ("sk-proj-****abcd").
_KEY_LIKE = re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_*\-]{4,}")


def redact(text: str, secrets: Sequence[str] = ()) -> str:
    """``text`` without the given secrets and without anything shaped like an API key."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[key]")
    return _KEY_LIKE.sub("[key]", text)


def classify_sdk_error(exc: BaseException, sdk: Any, *, secrets: Sequence[str] = ()) -> Failure | None:
    """What a failed request of the ``openai`` or ``anthropic`` SDK means (None: not the SDK's).

    Both SDKs raise ``APIStatusError`` (with ``status_code``, ``response.headers`` and the
    service's ``message``) for an answer with an error status, ``APIConnectionError``
    (``APITimeoutError`` is one) when no answer came, and ``APIResponseValidationError``
    when the answer's body is not what the API documents. ``secrets`` (the key in use) and
    anything shaped like a key are taken out of the message: it ends up in episodes.
    """
    if isinstance(exc, sdk.APIStatusError):
        status = int(exc.status_code)
        message = redact(f"HTTP {status}: {_service_message(exc)}", secrets)
        if status == 429:
            return Failure("retry", message, retry_after_s(getattr(exc.response, "headers", None)))
        if status >= 500:
            return Failure("retry", message)
        if status in (400, 413, 422) and any(marker in message.lower() for marker in CONTEXT_TOO_LONG_MARKERS):
            return Failure("context", message)
        return Failure("refuse", message)
    if isinstance(exc, DeadlinePassed):
        return Failure("retry", f"no answer within the timeout ({exc})")
    if isinstance(exc, UnexpectedAnswer):
        return Failure("retry", redact(str(exc), secrets))
    if isinstance(exc, json.JSONDecodeError):  # a 200 whose body is not JSON (the SDKs let it through)
        return Failure("retry", f"the service's answer is not JSON: {exc}")
    if isinstance(exc, sdk.APIResponseValidationError):
        return Failure("retry", redact(f"the service's answer is not what its API documents: {first_line(exc)}", secrets))
    if isinstance(exc, sdk.APIConnectionError):
        timed_out = isinstance(exc, sdk.APITimeoutError)
        return Failure("retry", "no answer within the timeout" if timed_out else redact(f"connection failed: {_with_cause(exc)}", secrets))
    return None


def _with_cause(exc: BaseException) -> str:
    """The SDK's words and, when they hide it ("Connection error."), the cause underneath:
    an unknown host or a refused connection is said, not left for the user to guess."""
    text, root = first_line(exc), exc
    seen = {id(exc)}
    while (inner := root.__cause__ or root.__context__) is not None and id(inner) not in seen:
        seen.add(id(inner))
        root = inner
    cause = first_line(root) if root is not exc else ""
    return f"{text} ({cause})" if cause and cause not in text else text


def _service_message(exc: Any) -> str:
    """The service's own words from an SDK status error (its JSON ``error.message`` when there is one)."""
    body = getattr(exc, "body", None)
    if isinstance(body, Mapping):
        error = body.get("error", body)
        if isinstance(error, Mapping) and error.get("message"):
            return str(error["message"])[:500]
        if isinstance(error, str):
            return error[:500]
    return first_line(exc, 500)


def call_with_retries(
    send: Callable[[], T],
    *,
    classify: Callable[[BaseException], Failure | None],
    policy: RetryPolicy,
    what: str,
    sleep: Callable[[float], None] = time.sleep,
    rng: random.Random | None = None,
) -> Answer[T]:
    """``send()`` until it answers, by the rules of the module docstring.

    Args:
        send: makes one request (with ``policy.timeout_s``) and returns the parsed answer.
        classify: what an exception of ``send`` means; None lets it through unchanged.
        what: the service, for messages ("OpenAI-compatible server at http://...").

    Raises:
        ContextTooLong: the prompt does not fit; nothing was retried.
        PolicyRequestError: the service refused the request.
        PolicyServiceError: it stayed down past ``policy.max_retries``.
    """
    rng = rng or random.Random()
    started = time.monotonic()
    for attempt in range(policy.max_retries + 1):
        try:
            value = send()
        except Exception as exc:  # noqa: BLE001 - classified below; anything unknown is re-raised
            failure = classify(exc)
            if failure is None:
                raise
            if failure.kind == "context":
                raise ContextTooLong(failure.message, attempt + 1) from None
            if failure.kind == "refuse":
                raise PolicyRequestError(f"{what} refused the request: {failure.message}") from None
            if attempt == policy.max_retries:
                tries = f"{attempt + 1} tries" if attempt else "1 try"
                raise PolicyServiceError(
                    f"{what} did not answer ({tries} in {time.monotonic() - started:.1f} s); the last: {failure.message}"
                ) from None
            wait = policy.wait_s(attempt, rng)
            if failure.retry_after_s is not None:
                wait = max(wait, min(failure.retry_after_s, policy.max_backoff_s))
            sleep(wait)
            continue
        return Answer(value=value, retries=attempt, latency_s=time.monotonic() - started)
    raise AssertionError("unreachable")  # pragma: no cover


__all__ = [
    "CONTEXT_TOO_LONG_MARKERS",
    "Answer",
    "ContextTooLong",
    "DeadlinePassed",
    "Failure",
    "RetryPolicy",
    "UnexpectedAnswer",
    "call_with_retries",
    "classify_sdk_error",
    "redact",
    "require_fields",
    "retry_after_s",
    "within_deadline",
]
