"""Matching one observed value against a rule: ``{method: ..., ref: ...}``.

OSWorld's evaluators compare settings (a zoom level, a preference, a data-validation
property, a cell) with small rules such as ``{"method": "lt", "ref": 260}`` or
``{"method": "re", "ref": "dark"}``. Several of our checks accept the same rules, so
imported tasks keep their meaning; this module is the one definition of what each
method means.

=================  ===============================================================
method             passes when
=================  ===============================================================
``eq`` / ``ne``    the value equals / differs from ``ref``
``lt`` ``le``      the value is below / at most / at least / above ``ref``
``ge`` ``gt``      (numbers; a value that is not a number fails)
``approx``         a number within ``tolerance`` of ``ref``
``re``             ``ref`` (a regex) is found in the value's text; ``flags`` (e.g.
                   ``[S, I]``) are :mod:`re` flag names
``in_range``       ``ref`` is ``[low, high]``; ``inclusive`` says per end whether
                   it counts (``e``) or not (``t``): the default ``"te"``, OSWorld's
                   ``range.te``, is ``low < value <= high``
``str_list_eq``    the value, a comma-separated text, split equals the list ``ref``
``str_set_eq``     the same, ignoring order and repeats
=================  ===============================================================
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.schema import StrictModel

Method = Literal["eq", "ne", "lt", "le", "ge", "gt", "approx", "re", "in_range", "str_list_eq", "str_set_eq"]
#: The :mod:`re` flag names a rule may use.
FLAG_NAMES = ("A", "I", "L", "M", "S", "X")


class ValueRule(StrictModel):
    """A rule one value must satisfy (see the module docstring for the methods)."""

    method: Method
    ref: Any = None
    tolerance: float = Field(default=0.0, ge=0)
    flags: list[Literal["A", "I", "L", "M", "S", "X"]] = Field(default_factory=list)
    inclusive: Literal["tt", "te", "et", "ee"] = "te"

    @model_validator(mode="after")
    def _ref_fits(self) -> ValueRule:
        if self.method == "re":
            if not isinstance(self.ref, str):
                raise PydanticCustomError("ref", "method 're' needs a regex text as ref", {"key": "ref"})
            try:
                re.compile(self.ref)
            except re.error as exc:
                raise PydanticCustomError("ref", "invalid regular expression {ref!r}: {exc}",
                                          {"ref": self.ref, "exc": str(exc), "key": "ref"}) from None
        if self.method in ("lt", "le", "ge", "gt", "approx") and not _is_number(self.ref):
            raise PydanticCustomError("ref", "method {m!r} needs a number as ref", {"m": self.method, "key": "ref"})
        if self.method == "in_range" and not (isinstance(self.ref, list) and len(self.ref) == 2 and all(map(_is_number, self.ref))):
            raise PydanticCustomError("ref", "method 'in_range' needs ref: [low, high]", {"key": "ref"})
        if self.method in ("str_list_eq", "str_set_eq") and not isinstance(self.ref, list):
            raise PydanticCustomError("ref", "method {m!r} needs a list as ref", {"m": self.method, "key": "ref"})
        return self

    def describe(self) -> str:
        """The rule in words, for reasons (``< 260``, ``matches 'dark'``)."""
        symbols = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "ge": ">=", "gt": ">"}
        if self.method in symbols:
            return f"{symbols[self.method]} {self.ref!r}"
        if self.method == "approx":
            return f"≈ {self.ref!r} (±{self.tolerance:g})"
        if self.method == "re":
            return f"matches {self.ref!r}" + (f" (flags {''.join(self.flags)})" if self.flags else "")
        if self.method == "in_range":
            low, high = self.ref
            return f"in {'[' if self.inclusive[0] == 'e' else '('}{low}, {high}{']' if self.inclusive[1] == 'e' else ')'}"
        return f"{self.method} {self.ref!r}"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _as_number(value: Any) -> float | None:
    if _is_number(value):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def matches(value: Any, rule: ValueRule) -> bool:
    """Whether ``value`` satisfies ``rule``; a value of the wrong kind never does."""
    method = rule.method
    if method == "eq":
        return bool(value == rule.ref)
    if method == "ne":
        return bool(value != rule.ref)
    if method in ("lt", "le", "ge", "gt", "approx"):
        number = _as_number(value)
        if number is None:
            return False
        ref = float(rule.ref)
        return {
            "lt": number < ref, "le": number <= ref, "ge": number >= ref, "gt": number > ref,
            "approx": math.isclose(number, ref, rel_tol=0.0, abs_tol=rule.tolerance),
        }[method]
    if method == "re":
        flags = 0
        for name in rule.flags:
            flags |= getattr(re, name)
        return value is not None and re.search(rule.ref, str(value), flags) is not None
    if method == "in_range":
        number = _as_number(value)
        if number is None:
            return False
        low, high = (float(v) for v in rule.ref)
        above = number >= low if rule.inclusive[0] == "e" else number > low
        below = number <= high if rule.inclusive[1] == "e" else number < high
        return above and below
    if not isinstance(value, str):
        return False
    items = value.strip("\"'").split(",")
    if method == "str_list_eq":
        return items == list(map(str, rule.ref))
    return set(items) == set(map(str, rule.ref))
