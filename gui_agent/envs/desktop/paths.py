"""Paths in desktop task files: where an episode's files are, and where a task's are.

A desktop episode runs in a fresh home folder of its own; every path a task file names
(files to place, files to open, files the evaluator reads, protected paths) is relative
to that home: ``report.xlsx``, ``~/report.xlsx`` and ``Documents/report.xlsx`` are fine,
absolute paths and ``..`` are not, so a task can never reach outside its sandbox.
Files *shipped with the task* (``place_file: {from: ...}``) are relative to the task
file's folder instead.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Annotated

from pydantic import AfterValidator


def home_relative(value: str) -> str:
    """Validate a path relative to the episode's home; return it unchanged."""
    text = value.strip()
    if not text:
        raise ValueError("expected a non-empty path")
    rest = text.removeprefix("~/")
    if text == "~" or not rest:
        raise ValueError(f"expected a file path under the home folder, got {value!r}")
    if rest.startswith("/") or (text.startswith("~") and not text.startswith("~/")):
        raise ValueError(
            f"path {value!r} must be relative to the episode's home folder (like 'report.xlsx' or "
            "'~/Documents/report.xlsx'); absolute paths are not allowed"
        )
    if ".." in PurePosixPath(rest).parts:
        raise ValueError(f"path {value!r} must stay inside the home folder ('..' is not allowed)")
    return value


def task_relative(value: str) -> str:
    """Validate a path relative to the task file's folder; return it unchanged."""
    text = value.strip()
    if not text:
        raise ValueError("expected a non-empty path")
    if text.startswith(("/", "~")):
        raise ValueError(f"path {value!r} must be relative to the task file's folder")
    if ".." in PurePosixPath(text).parts:
        raise ValueError(f"path {value!r} must stay inside the task file's folder ('..' is not allowed)")
    return value


#: A path relative to the episode's home folder (see the module docstring).
HomePath = Annotated[str, AfterValidator(home_relative)]
#: A path relative to the task file's folder.
TaskPath = Annotated[str, AfterValidator(task_relative)]


def strip_home(path: str) -> str:
    """``~/a/b`` -> ``a/b`` (for joining to a home folder); other paths unchanged."""
    return path.removeprefix("~/")
