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

from gui_agent.envs.desktop.paths import task_relative
from gui_agent.errors import TaskFileError


@dataclass(frozen=True)
class TaskInput:
    """A file the task uses from its folder: ``path`` (task-relative), where it came from if
    declared, and ``key``: where the task file names it first, as the key path's parts
    (``("setup", 0, "place_file", "from")``)."""

    path: str
    source_url: str | None = None
    key: tuple[str | int, ...] = ()


def task_inputs(task: Any) -> list[TaskInput]:
    """Every task-folder file the task's setup, post steps and checks use, in order, once each."""
    found: dict[str, TaskInput] = {}

    def walk(value: Any, key: tuple[str | int, ...]) -> None:
        if isinstance(value, BaseModel):
            for name, info in type(value).model_fields.items():
                item = getattr(value, name)
                here = (*key, info.alias or name)
                if isinstance(item, str) and _is_task_file(type(value), name):
                    url = getattr(value, "source_url", None)
                    if item not in found:
                        found[item] = TaskInput(path=item, source_url=url, key=here)
                    elif url and not found[item].source_url:
                        found[item] = TaskInput(path=item, source_url=url, key=found[item].key)
                else:
                    walk(item, here)
        elif isinstance(value, (list, tuple)):
            for index, item in enumerate(value):
                walk(item, (*key, index))
        elif isinstance(value, dict):
            for name, item in value.items():
                walk(item, (*key, name))

    walk(list(task.setup), ("setup",))
    walk(list(task.post_steps), ("post_steps",))
    if task.evaluator is not None:
        walk(task.evaluator, ("evaluator",))
    return list(found.values())


def _is_task_file(model: type[BaseModel], name: str) -> bool:
    """Whether the field is a task-folder path (a :data:`~gui_agent.envs.desktop.paths.TaskPath`):
    place_file's ``from``, attachments, the reference files of checks."""

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


def missing_input_errors(task: Any) -> list[TaskFileError]:
    """One located error per missing input (``FILE:LINE: setup[0].place_file.from: ...``), for
    ``gui-agent validate``: a task whose files are not there loads, but cannot run."""
    from gui_agent.task.loading import key_line

    file: Path | None = getattr(task, "_file", None)
    errors = []
    for item in missing_inputs(task):
        folder = getattr(task, "task_dir", None)
        where = folder / item.path if folder is not None else Path(item.path)
        key = "".join(f"[{part}]" if isinstance(part, int) else (f".{part}" if i else str(part)) for i, part in enumerate(item.key))
        fix = (f"; download it with `gui-agent import-osworld CONFIG.json --fetch` (from {item.source_url})"
               if item.source_url else "; put the file there or correct the path")
        errors.append(TaskFileError(file or task.id, f"{key}: the file {item.path!r} is missing (no {where}){fix}",
                                    key_line(file, item.key) if file is not None else None))
    return errors


def missing_inputs_message(task: Any) -> str | None:
    """The refusal message when input files are missing, else None (``gui-agent run`` exits 2 with it)."""
    missing = missing_inputs(task)
    return describe_missing(task, missing) if missing else None


__all__ = ["TaskInput", "describe_missing", "missing_input_errors", "missing_inputs", "missing_inputs_message", "task_inputs"]
