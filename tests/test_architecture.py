"""The core's layers import downward only (docs/architecture.md, "Rules the tests hold").

Read from the source with :mod:`ast`, imports inside functions and ``if TYPE_CHECKING:``
blocks included: a lazy import is still a dependency a reader has to follow.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.paths import REPO

CORE = REPO / "gui_agent"


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(*folders: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder in folders:
        root = REPO / folder
        paths = [root] if root.suffix == ".py" else sorted(root.rglob("*.py"))
        found.update({_module_name(p): p for p in paths})
    return found


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports (``from a.b import c`` counts as ``a.b`` and ``a.b.c``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _reaches(imported: str, package: str) -> bool:
    return imported == package or imported.startswith(package + ".")


@pytest.mark.parametrize(
    ("lower", "higher", "why"),
    [
        ("gui_agent/envs", "gui_agent.task", "environments declare their own settings and steps; the task schema collects them"),
        ("gui_agent/envs", "gui_agent.checks", "checks ask an environment through its probe; environments know no check"),
        ("gui_agent/checks", "gui_agent.task", "a task file names checks; the checks know no task file"),
        ("gui_agent/action_formats", "gui_agent.envs", "key names belong to the action layer (gui_agent/keys.py)"),
        ("gui_agent/schema.py", "gui_agent.task", "the building blocks of task-file models sit below every part"),
        ("gui_agent/schema.py", "gui_agent.envs", "the building blocks of task-file models sit below every part"),
    ],
)
def test_a_lower_layer_does_not_import_a_higher_one(lower: str, higher: str, why: str) -> None:
    offenders = sorted(
        f"{name} imports {imported}"
        for name, path in _modules(lower).items()
        for imported in _imports(path)
        if _reaches(imported, higher)
    )
    assert not offenders, f"{why}: {offenders}"


def test_task_checks_and_envs_have_no_import_cycle() -> None:
    modules = _modules("gui_agent/task", "gui_agent/checks", "gui_agent/envs", "gui_agent/schema.py", "gui_agent/keys.py")
    graph = {name: {i for i in _imports(path) if i in modules and i != name} for name, path in modules.items()}
    # A package's __init__ that imports its own submodules is its face, not a loop: a
    # submodule importing a sibling by its full name does not run back through it.
    for name in graph:
        graph[name] = {i for i in graph[name] if not name.startswith(i + ".")}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for nxt in sorted(graph[name]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles, cycles
