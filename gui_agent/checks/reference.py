"""The reference page of every check and source a task file may write (``docs/checks.md``),
made from the registry and the argument models' docstrings, so the page cannot drift from
the code: a test compares it with what this module makes.

    python -m gui_agent.checks.reference > docs/checks.md
"""

from __future__ import annotations

import inspect
import re
import typing
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from gui_agent.checks.registry import FAMILIES
from gui_agent.checks.sources import SOURCES
from gui_agent.schema import SingleKey

_HEADER = """# Checks and sources

Every check an `evaluator` may name, family by family, and every source a `value` check
(or a check taking `of:`) may read. Checks combine with `all_of`, `any_of` and `not`
([task files](task-files.md)). This page is made from the code
(`python -m gui_agent.checks.reference > docs/checks.md`); each entry is the docstring of
the check's arguments, then its keys (required ones first).
"""


def _type_name(annotation: Any) -> str:
    """A field's type in words a task-file writer reads (``text``, ``list of text``)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _type_name(typing.get_args(annotation)[0])
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        kinds = [_type_name(a) for a in typing.get_args(annotation) if a is not type(None)]
        return " or ".join(dict.fromkeys(kinds))
    if origin in (list, tuple):
        inner = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        return "list of " + (_type_name(inner[0]) if inner else "values")
    if origin is dict:
        return "mapping"
    if origin is typing.Literal:
        return " / ".join(f"`{v}`" for v in typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, SingleKey):
        return "a " + annotation.name
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "mapping"
    names = {str: "text", int: "integer", float: "number", bool: "true/false"}
    if annotation in names:
        return names[annotation]
    if annotation is Any:
        return "any value"
    return "a source" if "Source" in str(annotation) else re.sub(r"^typing\.", "", str(getattr(annotation, "__name__", annotation)))


def _fields(model: type[BaseModel]) -> list[str]:
    lines = []
    fields = sorted(model.model_fields.items(), key=lambda item: not item[1].is_required())
    for name, field in fields:
        key = field.alias or name
        default = "" if field.is_required() else _default(field)
        lines.append(f"- `{key}`: {_type_name(field.annotation)}{default}")
    return lines


def _default(field: Any) -> str:
    if field.default_factory is not None:
        return ""
    if field.default is PydanticUndefined or field.default is None:
        return ", optional"
    value = field.default
    return f", default `{str(value).lower() if isinstance(value, bool) else value}`"


def _entry(name: str, model: type[SingleKey]) -> list[str]:
    annotation = model.model_fields[next(iter(model.model_fields))].annotation
    args = annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None
    doc = inspect.cleandoc(args.__doc__ or "") if args is not None else inspect.cleandoc(model.__doc__ or "")
    lines = [f"### `{name}`", "", doc or "(no description)", ""]
    if args is not None and args.model_fields:
        lines += [*_fields(args), ""]
    return lines


def reference() -> str:
    """The whole page, as ``docs/checks.md`` holds it."""
    lines = [_HEADER]
    for family, kinds in FAMILIES.items():
        lines += [f"## {family}", ""]
        for kind in kinds:
            lines += _entry(kind.name, kind.model)
    lines += ["## Sources (`of:`)", ""]
    for source in SOURCES:
        lines += _entry(source.name, source.model)
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    print(reference(), end="")
