"""The building blocks of the models hand-written files are read into (task files).

A task file is assembled from parts declared in three places: the task itself
(:mod:`gui_agent.task`), the setup steps each environment runs (next to the code running
them, in :mod:`gui_agent.envs`) and the checks (:mod:`gui_agent.checks`). They share
these blocks, which is why they live below all three:

* :class:`StrictModel`, the base of every model: unknown keys are errors listing the valid ones;
* the annotated field types used across the schema (:data:`NonBlank`, :data:`Regex`, ...);
* :class:`SingleKey` and :func:`single_key_union`, the one-key-mapping form of setup
  steps and checks (``- goto: {url: ...}``);
* :func:`exactly_one`, the "expected exactly one of ..." rule of alternative keys;
* :func:`describe_value`, the "got ..." wording shared by validators and the loader.
"""

from __future__ import annotations

import difflib
import re
from typing import Annotated, Any, ClassVar, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    model_validator,
)
from pydantic_core import PydanticCustomError


class StrictModel(BaseModel):
    """Base of every task-file model: unknown keys are errors that list the valid ones.

    Pydantic's own ``extra_forbid`` error does not say which keys *are* valid, so a
    before-validator reports the first unknown key itself (with close matches); the
    ``extra="forbid"`` setting stays as the backstop.
    """

    # populate_by_name: Python code writes NotCheck(not_=...); serialize_by_alias (pydantic
    # >= 2.11): model_dump() writes the file's spelling ("not"), so it loads back.
    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)

    @model_validator(mode="before")
    @classmethod
    def _reject_unknown_keys(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        allowed = _yaml_keys(cls)
        names = set(cls.model_fields)
        unknown = [k for k in data if k not in allowed and k not in names]
        if unknown:
            key = unknown[0]
            more = f" (and {', '.join(repr(k) for k in unknown[1:])})" if unknown[1:] else ""
            raise PydanticCustomError(
                "unknown_key",
                "unknown key {key_repr}{more}; expected one of: {allowed}{hint}",
                {"key": key, "key_repr": repr(key), "more": more, "allowed": ", ".join(allowed),
                 "hint": _did_you_mean(str(key), allowed)},
            )
        return data


def _yaml_keys(model: type[BaseModel]) -> list[str]:
    """The keys a model accepts in a file, in declaration order (aliases where set)."""
    return [f.alias or name for name, f in model.model_fields.items()]


def _did_you_mean(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


def _nonblank(value: str) -> str:
    if not value.strip():
        raise ValueError("expected a non-empty string")
    return value


def _regex(value: str) -> str:
    try:
        re.compile(value)
    except re.error as exc:
        raise ValueError(f"invalid regular expression {value!r}: {exc}") from None
    return value


NonBlank = Annotated[str, AfterValidator(_nonblank)]
#: A Python regular expression (``re`` syntax), checked when the file is loaded.
Regex = Annotated[str, AfterValidator(_regex)]
PositiveInt = Annotated[int, Field(strict=True, gt=0)]
PositiveFloat = Annotated[float, Field(strict=True, gt=0)]



def exactly_one(model: BaseModel, names: tuple[str, ...]) -> None:
    """Raise the schema error "expected exactly one of ..." unless exactly one of ``names`` is set.

    A field named like a Python keyword (``from_``) is shown as the file writes it (``from``).
    """
    given = [n for n in names if getattr(model, n) is not None]
    if len(given) != 1:
        raise PydanticCustomError(
            "one_of", "expected exactly one of: {names}; got {got}",
            {"names": ", ".join(n.rstrip("_") for n in names), "got": ", ".join(g.rstrip("_") for g in given) or "none",
             "key": given[1].rstrip("_") if len(given) > 1 else None},
        )


def describe_value(value: Any) -> str:
    """A short description of a YAML value for 'got ...' in messages."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --------------------------------------------------------------------------- single-key items


class SingleKey(StrictModel):
    """A step or check written as a one-key mapping; its one field is named like the key."""

    name: ClassVar[str]

    @property
    def args(self) -> Any:
        """The value under the key: an arguments model, a list of checks, or a check."""
        return getattr(self, next(iter(type(self).model_fields)))


def single_key_union(kind: str, members: tuple[type[SingleKey], ...]) -> Any:
    """A union of single-key models, picked by the key, with errors a person can act on."""
    names = [m.name for m in members]

    def pick(value: Any) -> str | None:
        if isinstance(value, dict) and len(value) == 1:
            return str(next(iter(value)))
        return getattr(value, "name", None)

    def check_shape(value: Any) -> Any:
        if isinstance(value, SingleKey):
            return value
        expected = ", ".join(names)
        if not isinstance(value, dict):
            raise PydanticCustomError(
                "single_key_type", "expected a {kind}: a mapping with one key, one of: {expected}; got {got}",
                {"kind": kind, "expected": expected, "got": describe_value(value)},
            )
        if len(value) != 1:
            keys = ", ".join(map(str, value)) or "none"
            raise PydanticCustomError(
                "single_key_count", "a {kind} is a mapping with exactly one key (one of: {expected}); got keys: {keys}",
                {"kind": kind, "expected": expected, "keys": keys},
            )
        key = next(iter(value))
        if key not in names:
            raise PydanticCustomError(
                "unknown_key", "unknown {kind} {key_repr}; expected one of: {expected}{hint}",
                {"kind": kind, "key": key, "key_repr": repr(key), "expected": expected,
                 "hint": _did_you_mean(str(key), names)},
            )
        return value

    tagged = tuple(Annotated[m, Tag(m.name)] for m in members)
    return Annotated[Union[tagged], Discriminator(pick), BeforeValidator(check_shape)]  # noqa: UP007
