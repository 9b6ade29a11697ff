"""The options of an HTTP policy spec: ``PREFIX:MODEL?key=value&key=value``.

Shared by ``openai:``, ``anthropic:`` and ``openai-cua:``; each policy adds its own
table of options to :data:`COMMON`, and :mod:`gui_agent.models.spec_options` parses them. Keys come from the environment only, never from the command
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

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gui_agent.errors import ModelError
from gui_agent.models import spec_options
from gui_agent.models.http.calls import RetryPolicy
from gui_agent.models.http.pricing import Price, override, price_of
from gui_agent.models.spec_options import Options, number, text, whole


def display_size(value: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` (a computer-use tool's display) as (width, height)."""
    width, sep, height = value.lower().partition("x")
    if not sep:
        raise ValueError("must be WIDTHxHEIGHT, e.g. 1280x800")
    try:
        size = (int(width), int(height))
    except ValueError:
        raise ValueError("must be WIDTHxHEIGHT in whole pixels, e.g. 1280x800") from None
    if min(size) < 1:
        raise ValueError("must be positive")
    return size


#: The options every HTTP policy takes; each adds its own table (next to it) to these.
COMMON: Options = {
    "base_url": text, "key_env": text, "timeout": number(0, above=True), "retries": whole(0),
    "backoff": number(0, above=True), "max_concurrent": whole(1), "price_in": number(0), "price_out": number(0),
    "price_cached": number(0),
}
#: Keys refused in a spec: a command line lands in shell history, process lists and logs.
_KEYS_FROM_THE_ENVIRONMENT = "API keys are read from the environment only (key_env=NAME names the variable)"
_REFUSED = dict.fromkeys(("api_key", "key", "token"), _KEYS_FROM_THE_ENVIRONMENT)


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


def parse_spec(prefix: str, argument: str, extra: Options) -> tuple[str, dict[str, Any]]:
    """``MODEL?options`` (the text after ``PREFIX:``) -> (model, typed options of :data:`COMMON` and ``extra``).

    Raises:
        ModelError: no model, a key given in the spec, an unknown option (the message lists the
            known ones) or a bad value.
    """
    return spec_options.parse_spec(prefix, argument, {**COMMON, **extra}, refused=_REFUSED,
                                   missing=f"needs a model name, e.g. --policy {prefix}:MODEL")


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


__all__ = ["COMMON", "Endpoint", "display_size", "endpoint_from", "parse_spec"]
