"""Which task files a suite means: files, folders of ``*.yaml``, or a named suite.

A named suite is a folder under ``datasets/tasks/`` of this checkout (``miniwob`` is
``datasets/tasks/miniwob/``, ``desktop`` every desktop task, ``desktop/calc`` the Calc
ones). Folders, named or given, are searched at any depth, as ``gui-agent validate``
searches them, and their task files are taken in path order.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

#: Where named suites live: ``<repository>/datasets/tasks/<name>/``.
SUITES_DIR = Path(__file__).resolve().parents[2] / "datasets" / "tasks"

#: The suffixes of task files.
TASK_SUFFIXES = (".yaml", ".yml")


def task_files_in(folder: Path) -> list[Path]:
    """The task files (``*.yaml``, ``*.yml``) in ``folder`` and every folder below it, in path order."""
    return sorted(p for p in folder.rglob("*") if p.suffix in TASK_SUFFIXES and p.is_file())


def named_suites() -> list[str]:
    """Names of the suites under :data:`SUITES_DIR` (its folders that hold task files)."""
    if not SUITES_DIR.is_dir():
        return []
    return sorted(p.name for p in SUITES_DIR.iterdir() if p.is_dir() and task_files_in(p))


def resolve_suite(specs: Sequence[str | Path]) -> list[Path]:
    """The task files ``specs`` name, each once, in the order given.

    Raises:
        ValueError: a spec is neither a task file, a folder holding task files, nor a named suite.
    """
    files: list[Path] = []
    for spec in specs:
        path = Path(spec)
        if path.is_file():
            found = [path]
        elif path.is_dir():
            found = task_files_in(path)
            if not found:
                raise ValueError(f"{path}: no task files (*.yaml, *.yml) in this folder or below it")
        elif _is_suite_name(str(spec)) and (SUITES_DIR / str(spec)).is_dir():
            found = task_files_in(SUITES_DIR / str(spec))
        else:
            known = ", ".join(named_suites()) or "none"
            raise ValueError(f"{spec}: not a task file, a folder of task files or a named suite (named suites: {known})")
        files.extend(p.resolve() for p in found)
    unique = list(dict.fromkeys(files))
    if not unique:
        raise ValueError("the suite has no tasks")
    return unique


def _is_suite_name(name: str) -> bool:
    """A name inside :data:`SUITES_DIR`: plain words joined by ``/``, never leaving the folder."""
    parts = name.replace("\\", "/").split("/")
    return not name.startswith("/") and all(part not in ("", ".", "..") for part in parts)
