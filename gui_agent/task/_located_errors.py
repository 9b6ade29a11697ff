"""Turning pydantic validation errors into located messages: the line in the YAML file,
the key path (``evaluator.all_of[1].element_text.selector``) and what was expected."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from gui_agent.errors import TaskFileError
from gui_agent.schema import describe_value
from gui_agent.task.environments import _environment_kinds


class _Located:
    """Where a pydantic error ``loc`` lands in the YAML node tree."""

    def __init__(self, root: yaml.Node, loc: tuple[Any, ...]):
        self.node: yaml.Node = root
        self.key_node: yaml.Node | None = None
        self.parts: list[str | int] = []
        self.resolved = True
        i = 0
        while i < len(loc):
            elem = loc[i]
            if isinstance(elem, str) and i + 1 < len(loc) and loc[i + 1] == elem:
                # A single-key union puts its tag before the field of the same name:
                # drop the tag, keep the field.
                i += 1
            elif isinstance(elem, str) and self._child(elem) is None and self._kind_value() == elem:
                i += 1  # the environment union's tag: the value of 'kind', not a key
                continue
            self._step(loc[i])
            i += 1

    def _step(self, elem: str | int) -> None:
        self.parts.append(elem)
        if self.resolved:
            child = self._child(elem)
            if child is None:
                self.resolved = False
            else:
                self.key_node, self.node = child

    def _kind_value(self) -> str | None:
        if isinstance(self.node, yaml.MappingNode):
            for key_node, value_node in self.node.value:
                if key_node.value == "kind" and isinstance(value_node, yaml.ScalarNode):
                    return value_node.value
        return None

    def _child(self, elem: str | int) -> tuple[yaml.Node | None, yaml.Node] | None:
        if isinstance(self.node, yaml.MappingNode) and isinstance(elem, str):
            for key_node, value_node in self.node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.value == elem:
                    return key_node, value_node
        if isinstance(self.node, yaml.SequenceNode) and isinstance(elem, int) and 0 <= elem < len(self.node.value):
            return None, self.node.value[elem]
        return None

    def descend(self, key: Any) -> bool:
        """Move to the key ``key`` of the current mapping, if it is there."""
        if not self.resolved or self._child(str(key)) is None:
            return False
        self._step(str(key))
        return True

    def path(self) -> str:
        text = ""
        for part in self.parts:
            text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
        return text

    def value_line(self) -> int:
        """The line of the value; for a nested block, the line of the key that holds it."""
        if self.key_node is not None and isinstance(self.node, (yaml.MappingNode, yaml.SequenceNode)):
            return self.key_node.start_mark.line + 1
        return self.node.start_mark.line + 1

    def key_line(self) -> int:
        node = self.key_node if self.key_node is not None else self.node
        return node.start_mark.line + 1


_TYPE_WORDS = {
    "model_type": "a mapping", "dict_type": "a mapping", "model_attributes_type": "a mapping",
    "list_type": "a list", "string_type": "a string", "int_type": "an integer",
    "int_parsing": "an integer", "int_from_float": "an integer", "float_type": "a number",
    "float_parsing": "a number", "bool_type": "true or false", "bool_parsing": "true or false",
}
_BOUND_WORDS = {
    "greater_than": ("greater than", "gt"), "greater_than_equal": ("of at least", "ge"),
    "less_than": ("less than", "lt"), "less_than_equal": ("of at most", "le"),
}


def _explain(err: Mapping[str, Any], root: yaml.Node) -> tuple[int, str]:
    """Turn one pydantic error into (line, "key.path: what was wrong and expected")."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    got = err.get("input")
    where = _Located(root, tuple(err["loc"]))
    if kind == "missing":
        line = where.key_line() if not where.resolved else where.value_line()
        message = f"missing required key {where.parts[-1]!r}"
    elif kind == "union_tag_invalid":
        where.descend(str(ctx.get("discriminator", "kind")).strip("'"))
        line = where.value_line()
        expected = str(ctx.get("expected_tags", "")).replace("'", "")
        message = f"unknown {where.parts[-1]} {ctx.get('tag')!r}; expected one of: {expected}"
    elif kind == "union_tag_not_found":
        line = where.value_line()
        message = f"missing required key 'kind'; expected one of: {', '.join(_environment_kinds())}"
    elif kind in _TYPE_WORDS:
        line = where.value_line()
        message = f"expected {_TYPE_WORDS[kind]}, got {describe_value(got)}"
        if kind == "string_type" and isinstance(got, (int, float, bool)):
            message += " (quote it to make it a string)"
    elif kind in _BOUND_WORDS:
        words, bound = _BOUND_WORDS[kind]
        line = where.value_line()
        message = f"expected a value {words} {ctx.get(bound)}, got {describe_value(got)}"
    elif kind == "value_error":
        line = where.value_line()
        message = str(ctx.get("error", err["msg"]))
    elif kind == "too_short":
        line = where.value_line()
        message = f"expected at least {ctx.get('min_length')} item(s), got {ctx.get('actual_length')}"
    elif kind == "literal_error":
        line = where.value_line()
        expected = str(ctx.get("expected", "")).replace("' or '", "', '").replace("'", "")
        message = f"expected one of: {expected}; got {describe_value(got)}"
    elif kind == "extra_forbidden":  # backstop; StrictModel reports unknown keys itself
        line = where.key_line()
        message = f"unknown key {where.parts[-1]!r}"
    else:
        # Our own PydanticCustomErrors: ctx["key"] names the key the problem is about.
        if ctx.get("key") is not None and where.descend(ctx["key"]):
            line = where.key_line()
        else:
            line = where.key_line() if where.key_node is not None else where.value_line()
        message = err["msg"]
    path = where.path()
    return line, f"{path}: {message}" if path else message


def _task_file_error(exc: ValidationError, root: yaml.Node, path: str | Path) -> TaskFileError:
    problems = sorted({_explain(err, root) for err in exc.errors()}, key=lambda p: (p[0], p[1]))
    line, problem = problems[0]
    if len(problems) > 1:
        problem += "".join(f"\n  also {path}:{ln}: {text}" for ln, text in problems[1:])
    return TaskFileError(path, problem, line)
