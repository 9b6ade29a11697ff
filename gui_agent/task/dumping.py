"""Writing a task back to task-file YAML (for converters that write task suites)."""

from __future__ import annotations

from typing import Any

import yaml
from pydantic import BaseModel


class _TaskDumper(yaml.SafeDumper):
    """Writes multi-line strings (scripts, descriptions) as literal blocks."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _represent_list(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.SequenceNode:
    """Short lists of plain values (tags, key combinations) stay on one line."""
    flat = all(isinstance(v, (str, int, float, bool)) and not (isinstance(v, str) and "\n" in v) for v in value)
    short = len(repr(value)) <= 60
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flat and short)


_TaskDumper.add_representer(str, _represent_str)
_TaskDumper.add_representer(list, _represent_list)


def dump_task(task: BaseModel, *, full: bool = False) -> str:
    """The task as task-file YAML, for converters that write task suites.

    Any task-file model dumps this way; the task model calls this function (not the
    other way round), so writing YAML needs nothing of what a task holds.

    Args:
        task: the task (a :class:`~gui_agent.task.spec.Task`).
        full: write every field, defaults included; otherwise only the fields that were
            set (given in the file or passed to the constructor), which keeps converted
            files short and loads back to an equal task.
    """
    data = task.model_dump(mode="json", by_alias=True, exclude_unset=not full)
    return yaml.dump(data, Dumper=_TaskDumper, sort_keys=False, allow_unicode=True, width=100)
