"""Which task files a suite means: files, folders of ``*.yaml``, or a named suite.

A named suite is a folder under ``datasets/tasks/`` of this checkout (``miniwob`` is
``datasets/tasks/miniwob/*.yaml``). Folders are read non-recursively, in name order.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

#: Where named suites live: ``<repository>/datasets/tasks/<name>/``.
SUITES_DIR = Path(__file__).resolve().parents[2] / "datasets" / "tasks"

_TASK_SUFFIXES = (".yaml", ".yml")


def named_suites() -> list[str]:
    """Names of the suites under :data:`SUITES_DIR`."""
    if not SUITES_DIR.is_dir():
        return []
    return sorted(p.name for p in SUITES_DIR.iterdir() if p.is_dir() and any(p.glob("*.y*ml")))


def resolve_suite(specs: Sequence[str | Path]) -> list[Path]:
    """The task files ``specs`` name, each once, in the order given.

    Raises:
        ValueError: a spec is neither a task file, a folder of them, nor a named suite.
    """
    files: list[Path] = []
    for spec in specs:
        path = Path(spec)
        if path.is_file():
            found = [path]
        elif path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix in _TASK_SUFFIXES and p.is_file())
            if not found:
                raise ValueError(f"{path}: no task files (*.yaml) in this folder")
        elif (SUITES_DIR / str(spec)).is_dir() and _is_plain_name(str(spec)):
            found = sorted(p for p in (SUITES_DIR / str(spec)).iterdir() if p.suffix in _TASK_SUFFIXES)
        else:
            known = ", ".join(named_suites()) or "none"
            raise ValueError(f"{spec}: not a task file, a folder of task files or a named suite (named suites: {known})")
        files.extend(p.resolve() for p in found)
    unique = list(dict.fromkeys(files))
    if not unique:
        raise ValueError("the suite has no tasks")
    return unique


def _is_plain_name(name: str) -> bool:
    return "/" not in name and "\\" not in name and name not in ("", ".", "..")
