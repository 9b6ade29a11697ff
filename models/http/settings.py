"""The options of an HTTP policy spec: ``PREFIX:MODEL?key=value&key=value``.

Shared by ``openai:``, ``anthropic:`` and ``openai-cua:``; each policy adds its own
options to :data:`COMMON`. Keys come from the environment only, never from the command
line (a command line lands in shell history, process lists and logs): ``key_env=NAME``
names the variable when it is not the vendor's usual one.

=================  ==========================================================  ==========
option             meaning                                                     default
=================  ==========================================================  ==========
base_url           the service's base URL (``http://host:8000/v1``)             vendor's
key_env            environment variable holding the API key                    vendor's (none
                                                                               with base_url=)
timeout            seconds one request may take                                120
retries            requests after a failed one (connection, 429, 5xx)          4
backoff            seconds before the first retry; each next wait doubles      1
max_concurrent     requests in flight at once to this endpoint, machine-wide   unlimited
price_in/out       US dollars per million input/output tokens                  the table
price_cached       US dollars per million cached input tokens                  the table
=================  ==========================================================  ==========
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from gui_agent.errors import ModelError
from models.http.calls import RetryPolicy
from models.http.pricing import Price, override, price_of


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError("must be at least 1")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError("must be 0 or more")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or value <= 0:
        raise ValueError("must be a number > 0")
    return value


def _price(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or value < 0:
        raise ValueError("must be a number >= 0")
    return value


def _text(text: str) -> str:
    if not text:
        raise ValueError("needs a value")
    return text


def _display(text: str) -> tuple[int, int]:
    width, sep, height = text.lower().partition("x")
    if not sep:
        raise ValueError("must be WIDTHxHEIGHT, e.g. 1280x800")
    size = (int(width), int(height))
    if min(size) < 1:
        raise ValueError("must be positive")
    return size


#: Option parsers by name; each raises ValueError with what is wrong.
Parser = Callable[[str], Any]
COMMON: dict[str, Parser] = {
    "base_url": _text, "key_env": _text, "timeout": _positive_float, "retries": _count, "backoff": _positive_float,
    "max_concurrent": _positive_int, "price_in": _price, "price_out": _price, "price_cached": _price,
}
#: Parsers a policy may add to :data:`COMMON`.
PARSERS: dict[str, Parser] = {
    "positive_int": _positive_int, "count": _count, "positive_float": _positive_float, "text": _text, "display": _display,
    "price": _price,
}


@dataclass(frozen=True)
class Endpoint:
    """Where a policy sends its requests, with what key, how robustly, at what price.

    ``api_key`` is held here and handed to the SDK only: it is never part of a name,
    a message or anything written.
    """

    base_url: str | None
    api_key: str = ""
    key_env: str = ""
    retry: RetryPolicy = RetryPolicy()
    max_concurrent: int | None = None
    price: Price | None = None

    def __repr__(self) -> str:  # never the key
        return f"Endpoint(base_url={self.base_url!r}, key_env={self.key_env!r}, max_concurrent={self.max_concurrent})"


def parse_spec(prefix: str, argument: str, extra: Mapping[str, Parser]) -> tuple[str, dict[str, Any]]:
    """``MODEL?options`` (the text after ``PREFIX:``) -> (model, typed options).

    Raises:
        ModelError: no model, an unknown option (the message lists the known ones) or a bad value.
    """
    model, _, query = argument.partition("?")
    if not model:
        raise ModelError(f"{prefix}: needs a model name, e.g. --policy {prefix}:MODEL")
    parsers = {**COMMON, **extra}
    options: dict[str, Any] = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key in ("api_key", "key", "token"):
            raise ModelError(f"{prefix}:{model}: API keys are read from the environment only (key_env=NAME names the variable)")
        if key not in parsers:
            raise ModelError(f"{prefix}:{model}: unknown option {key!r}; expected one of {', '.join(sorted(parsers))}")
        try:
            options[key] = parsers[key](value)
        except ValueError as exc:
            raise ModelError(f"{prefix}:{model}: {key}={value!r} {exc}") from None
    return model, options


def endpoint_from(
    options: Mapping[str, Any],
    *,
    model: str,
    default_key_env: str,
    default_base_url: str | None,
    base_url_env: str | None = None,
    needs_key: bool = True,
    environ: Mapping[str, str] | None = None,
) -> Endpoint:
    """The endpoint of a spec's options, its key read from the environment.

    Args:
        default_key_env: the vendor's usual key variable (``OPENAI_API_KEY``).
        default_base_url: the vendor's URL (None: the SDK's own default).
        base_url_env: a variable that may name the base URL (``OPENAI_BASE_URL``).
        needs_key: a missing key is an error (a self-hosted server may take none).

    Raises:
        ModelError: the key is needed and its variable is unset or empty, or prices are half given.
    """
    environ = os.environ if environ is None else environ
    base_url = options.get("base_url") or (environ.get(base_url_env) if base_url_env else None) or default_base_url
    # A vendor's key goes to the vendor, or to the base URL configured beside it in the
    # environment; a base_url= of the spec (a self-hosted server) gets a key only when
    # key_env= names one, so an OpenAI key never reaches someone's vLLM box by default.
    key_env = options.get("key_env", "" if options.get("base_url") else default_key_env)
    api_key = environ.get(key_env, "") if key_env else ""
    if not api_key and needs_key:
        raise ModelError(f"no API key: set the environment variable {key_env or default_key_env} (keys are never taken from "
                         f"the command line; key_env=NAME reads another variable)")
    try:
        price = override(price_of(model), price_in=options.get("price_in"), price_out=options.get("price_out"),
                         price_cached=options.get("price_cached"))
    except ValueError as exc:
        raise ModelError(f"{model}: {exc}") from None
    retry = RetryPolicy(timeout_s=options.get("timeout", RetryPolicy.timeout_s), max_retries=options.get("retries", RetryPolicy.max_retries),
                        backoff_s=options.get("backoff", RetryPolicy.backoff_s))
    return Endpoint(base_url=base_url, api_key=api_key, key_env=key_env, retry=retry,
                    max_concurrent=options.get("max_concurrent"), price=price)


__all__ = ["COMMON", "PARSERS", "Endpoint", "endpoint_from", "parse_spec"]
