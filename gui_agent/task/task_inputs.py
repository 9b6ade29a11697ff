"""The files a desktop task needs from its own folder, and which of them are missing.

An imported OSWorld task declares its inputs (``place_file: {from: inputs/NAME,
source_url: URL}``, and reference files its checks compare with); they are downloaded
with ``gui-agent import-osworld --fetch`` or put there by hand. ``gui-agent run``
refuses a task whose inputs are missing (exit 2) and lists them, instead of starting a
desktop that fails half-way through its set-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel


@dataclass(frozen=True)
class TaskInput:
    """A file the task uses from its folder: ``path`` (task-relative), where it came from if declared."""

    path: str
    source_url: str | None = None


def task_inputs(task: Any) -> list[TaskInput]:
    """Every task-folder file the task's setup, post steps and checks use, in order, once each."""
    found: dict[str, TaskInput] = {}

    def walk(value: Any) -> None:
        if isinstance(value, BaseModel):
            for name in type(value).model_fields:
                item = getattr(value, name)
                if isinstance(item, str) and _is_task_file(type(value), name):
                    url = getattr(value, "source_url", None)
                    if item not in found or (url and not found[item].source_url):
                        found[item] = TaskInput(path=item, source_url=url)
                else:
                    walk(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk(list(task.setup) + list(task.post_steps))
    if task.evaluator is not None:
        walk(task.evaluator)
    return list(found.values())


def _is_task_file(model: type[BaseModel], name: str) -> bool:
    """Whether the field is a task-folder path (a :data:`~gui_agent.task.desktop_paths.TaskPath`):
    place_file's ``from``, attachments, the reference files of checks."""
    from gui_agent.task.desktop_paths import task_relative

    annotation = repr(model.model_fields[name].annotation) + repr(model.model_fields[name].metadata)
    return task_relative.__name__ in annotation


def missing_inputs(task: Any) -> list[TaskInput]:
    """The task-folder files the task uses that are not there (all of them if it has no folder)."""
    folder: Path | None = getattr(task, "task_dir", None)
    return [i for i in task_inputs(task) if folder is None or not (folder / i.path).exists()]


def describe_missing(task: Any, missing: list[TaskInput]) -> str:
    """The refusal message: which files, where, and how to get them."""
    folder = getattr(task, "task_dir", None)
    lines = [f"{task.id}: {len(missing)} input file(s) of the task are missing:"]
    for item in missing:
        where = folder / item.path if folder is not None else Path(item.path)
        lines.append(f"  {where}" + (f" <- {item.source_url}" if item.source_url else ""))
    lines.append("download them with `gui-agent import-osworld CONFIG.json --fetch`, or put the files there")
    return "\n".join(lines)


def missing_inputs_message(task: Any) -> str | None:
    """The refusal message when input files are missing, else None (``gui-agent run`` exits 2 with it)."""
    missing = missing_inputs(task)
    return describe_missing(task, missing) if missing else None


__all__ = ["TaskInput", "describe_missing", "missing_inputs", "missing_inputs_message", "task_inputs"]
