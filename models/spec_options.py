"""The ``?key=value`` options of a policy or judge spec: one parser, a table per policy.

A spec names a model and may set options after a ``?``: ``openai:gpt-4o?format=json&images=2``,
``hf:runs/vlm?history=3``, ``--judge hf:MODEL?votes=5``. Each policy declares its options
next to it, as a table from option name to value parser (:data:`Options`); :func:`parse_spec`
splits the spec, checks every key against the table and types every value, so every policy
refuses a misspelt key or a bad value with the same message:
``openai:gpt-4o: images must be at least 1, got '0'``.

A value parser takes the text and returns the value, or raises ValueError saying what the
value must be (``must be at least 1``); the common ones are here (:func:`whole`,
:func:`number`, :func:`text`, :func:`one_of`). A repeated key takes its last value.

This module lives in ``models/`` because only the policies and judges there have such specs
(the core names a policy and hands the rest of the spec to it); it needs the standard
library only, so an HTTP policy parses its spec without torch.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qsl

from gui_agent.errors import ModelError

#: Text -> typed value; raises ValueError with what the value must be.
ValueParser = Callable[[str], Any]
#: A policy's options: name -> value parser.
Options = Mapping[str, ValueParser]


def whole(minimum: int) -> ValueParser:
    """A whole number of at least ``minimum``."""

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise ValueError("must be a whole number") from None
        if number < minimum:
            raise ValueError(f"must be at least {minimum}")
        return number

    return parse


def number(minimum: float, *, above: bool = False) -> ValueParser:
    """A finite number of at least ``minimum`` (more than it, with ``above``)."""

    def parse(value: str) -> float:
        try:
            result = float(value)
        except ValueError:
            raise ValueError("must be a number") from None
        if not math.isfinite(result) or result < minimum or (above and result == minimum):
            raise ValueError(f"must be a number {'>' if above else '>='} {minimum:g}")
        return result

    return parse


def text(value: str) -> str:
    """Any text but none."""
    if not value:
        raise ValueError("needs a value")
    return value


def one_of(*choices: str) -> ValueParser:
    """One of ``choices``, as written."""

    def parse(value: str) -> str:
        if value not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}")
        return value

    return parse


def parse_options(
    query: str,
    options: Options,
    *,
    where: str,
    noun: str = "option",
    refused: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Typed options from ``key=value&key=value``.

    Args:
        query: the text after the spec's ``?``.
        options: the policy's table.
        where: what the messages name (``openai:gpt-4o``).
        noun: what an option is called in the messages (``judge option``).
        refused: keys refused whatever the table says, each with the reason given (an HTTP
            spec refuses ``api_key``: keys come from the environment).

    Raises:
        ModelError: a refused or unknown key (the message lists the known ones) or a bad value.
    """
    values: dict[str, Any] = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        if refused and key in refused:
            raise ModelError(f"{where}: {refused[key]}")
        if key not in options:
            raise ModelError(f"{where}: unknown {noun} {key!r}; expected one of {', '.join(sorted(options))}")
        try:
            values[key] = options[key](value)
        except ValueError as exc:
            raise ModelError(f"{where}: {key} {exc}, got {value!r}") from None
    return values


def parse_spec(
    prefix: str,
    argument: str,
    options: Options,
    *,
    missing: str,
    noun: str = "option",
    refused: Mapping[str, str] | None = None,
) -> tuple[str, dict[str, Any]]:
    """``SOURCE?key=value&...`` (the text after ``PREFIX:``) -> (source, typed options).

    Args:
        prefix: the spec's prefix (``openai``, ``hf``).
        argument: the text after ``PREFIX:``.
        options, noun, refused: as for :func:`parse_options`.
        missing: what the message says when there is no source (``needs a model name, e.g. ...``).

    Raises:
        ModelError: no source, or an option :func:`parse_options` refuses.
    """
    source, _, query = argument.partition("?")
    if not source:
        raise ModelError(f"{prefix}: {missing}")
    return source, parse_options(query, options, where=f"{prefix}:{source}", noun=noun, refused=refused)


__all__ = ["Options", "ValueParser", "number", "one_of", "parse_options", "parse_spec", "text", "whole"]
