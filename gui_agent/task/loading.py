"""Reading task files: YAML parsing, duplicate keys, and schema errors as file:line."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import ValidationError

from gui_agent.errors import TaskFileError
from gui_agent.schema import describe_value
from gui_agent.task._located_errors import _Located, _task_file_error
from gui_agent.task.spec import Task


def load_task(path: str | Path) -> Task:
    """Read and validate a task file.

    Raises:
        TaskFileError: the file cannot be read, is not YAML, or does not fit the schema;
            the message names the file, the line, the key path and what was expected.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TaskFileError(path, f"not UTF-8 text: {exc}") from None
    except OSError as exc:
        raise TaskFileError(path, f"cannot read the file: {exc.strerror or exc}") from None
    task = load_task_text(text, path)
    task._file = path.resolve()
    return task


def load_task_text(text: str, path_for_messages: str | Path = "<string>") -> Task:
    """Validate task-file YAML given as text; ``path_for_messages`` names it in errors.

    Raises:
        TaskFileError: as :func:`load_task`.
    """
    loader = yaml.SafeLoader(text)
    try:
        root = loader.get_single_node()
        _check_duplicate_keys(root, path_for_messages)
        data = loader.construct_document(root) if root is not None else None
    except yaml.MarkedYAMLError as exc:
        raise TaskFileError(path_for_messages, *_yaml_problem(exc)) from None
    except yaml.YAMLError as exc:
        raise TaskFileError(path_for_messages, f"invalid YAML: {exc}") from None
    finally:
        loader.dispose()
    if root is None:
        raise TaskFileError(
            path_for_messages, "the file is empty; expected a task mapping (id, instruction, environment, ...)", 1
        )
    if not isinstance(data, dict):
        raise TaskFileError(
            path_for_messages, f"expected a mapping of task keys at the top level, got {describe_value(data)}",
            root.start_mark.line + 1,
        )
    try:
        return Task.model_validate(data)
    except ValidationError as exc:
        raise _task_file_error(exc, root, path_for_messages) from None


def key_line(path: str | Path, key: tuple[str | int, ...]) -> int | None:
    """The 1-based line of the value at ``key`` (``("setup", 0, "place_file", "from")``) in
    the task file ``path``, or None when the file cannot be read or has no such key."""
    try:
        root = yaml.compose(Path(path).read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    if root is None:
        return None
    located = _Located(root, key)
    return located.value_line() if located.resolved else None


def _yaml_problem(exc: yaml.MarkedYAMLError) -> tuple[str, int | None]:
    """PyYAML's error as (problem, 1-based line), the context's line given in words."""
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "cannot parse"
    if exc.context and exc.problem:
        where = exc.context_mark
        if where is not None and mark is not None and where.line != mark.line:
            problem += f" ({exc.context} started at line {where.line + 1})"
        else:
            problem += f" ({exc.context})"
    return f"invalid YAML: {problem}", (mark.line + 1 if mark is not None else None)


def _check_duplicate_keys(node: yaml.Node | None, path: str | Path) -> None:
    """PyYAML keeps the last of two equal keys silently; a task file must not rely on that."""
    seen_nodes: set[int] = set()
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if id(current) in seen_nodes:  # aliases share nodes
            continue
        seen_nodes.add(id(current))
        if isinstance(current, yaml.MappingNode):
            first_line: dict[str, int] = {}
            for key_node, value_node in current.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                    line = key_node.start_mark.line + 1
                    if key_node.value in first_line:
                        raise TaskFileError(
                            path, f"duplicate key {key_node.value!r} (first at line {first_line[key_node.value]})", line
                        )
                    first_line[key_node.value] = line
                stack.extend((key_node, value_node))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
