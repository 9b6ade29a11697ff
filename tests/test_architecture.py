"""The architecture's rules, kept by reading the source (docs/architecture.md, "Rules the tests keep").

Everything here reads the code with :mod:`ast` and imports none of it, so a rule is checked
in the same way whether or not its package's dependencies (torch, Playwright) load.

* The core's layers import downward, and no module of any package takes part in an import
  cycle. Imports inside functions and under ``if TYPE_CHECKING:`` count: a lazy import is
  still a dependency a reader has to follow, and one that closes a loop only works for as
  long as nobody moves it to the top of its module.
* Every exception class is defined in its package's ``errors.py``, private ones included:
  one place per package to see what can go wrong, so ``except`` clauses are written
  against a known list. Signals that never leave their module (the importer's
  :class:`~gui_agent.errors.ImportSkip`, the HTTP calls' ``ContextTooLong``) are no
  exception to this: the simple rule has no judgement call in it.
* Every process is started through :mod:`gui_agent.envs.owned_process` (its own session,
  stopped by PID, dies with this Python).
* No function outside the tests is longer than :data:`MAX_FUNCTION_LINES` lines.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.paths import REPO

#: The installed packages: every rule applies to each.
PACKAGES = ("gui_agent", "models", "replay", "recorder", "station")


#: Folders beside gui_agent/ that install under its namespace (setup.py): models/ is gui_agent.models.
NAMESPACED_FOLDERS = ("models", "replay", "recorder", "station")


def _module_name(path: Path) -> str:
    """The name a module is imported by: ``models/http/calls.py`` is ``gui_agent.models.http.calls``."""
    parts = path.relative_to(REPO).with_suffix("").parts
    if parts[0] in NAMESPACED_FOLDERS:
        parts = ("gui_agent", *parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(*folders: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder in folders:
        root = REPO / folder
        paths = [root] if root.suffix == ".py" else sorted(root.rglob("*.py"))
        found.update({_module_name(p): p for p in paths})
    return found


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth (``from a.b import c`` counts as ``a.b`` and
    ``a.b.c``; a relative import is resolved against ``path``'s package)."""
    names: set[str] = set()
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *([node.module] if node.module else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _reaches(imported: str, package: str) -> bool:
    return imported == package or imported.startswith(package + ".")


# ---------------------------------------------------------------------- layers and cycles


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


def _import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of ``modules`` it imports (``a.b.func`` counts as ``a.b``)."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for imported in _imports(path):
            parts = imported.split(".")
            while parts and ".".join(parts) not in modules:
                parts.pop()
            target = ".".join(parts)
            # A package's __init__ that imports its own submodules is its face, not a loop: a
            # submodule importing a sibling by its full name does not run back through it.
            if target and target != name and not name.startswith(target + "."):
                targets.add(target)
        graph[name] = targets
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One loop through each cycle a depth-first walk meets (empty: the graph is acyclic)."""
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        state[start] = 1
        path, stack = [start], [iter(sorted(graph[start]))]
        while stack:  # iterative: the graph is deeper than a comfortable recursion
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(graph[nxt])))
    return cycles


def test_nothing_imports_a_folder_by_its_top_level_name() -> None:
    """``import models`` would work from the repository's root only, and there find the
    folder as a second copy: every package is imported under the one ``gui_agent`` namespace."""
    offenders = sorted(
        f"{name} imports {imported}"
        for name, path in _modules(*PACKAGES, "tests", "scripts").items()
        for imported in _imports(path)
        if imported.split(".")[0] in NAMESPACED_FOLDERS
    )
    assert not offenders, offenders


def test_no_module_of_any_package_takes_part_in_an_import_cycle() -> None:
    cycles = _cycles(_import_graph(_modules(*PACKAGES)))
    assert not cycles, cycles


def test_the_cycle_check_finds_a_cycle() -> None:
    """The check above would pass on a graph it cannot read; here it must find the one loop."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c", "a"]]


# ---------------------------------------------------------------------- exceptions

#: The one module of each package that defines exception classes.
ERRORS_MODULES = {f"{package}/errors.py" for package in PACKAGES}


def _classes(path: Path) -> Iterator[tuple[ast.ClassDef, list[str]]]:
    """Each class defined in ``path`` (nested ones too), with the last part of each base's name."""
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ClassDef):
            yield node, [ast.unparse(base).split("(")[0].split("[")[0].rsplit(".", 1)[-1] for base in node.bases]


def _exception_classes() -> list[str]:
    """``path:line Name`` of every class that derives from an exception, wherever it is defined.

    Read from the source: a base is an exception when it is a built-in one, a class of
    this project already known to be one, or named like one (``...Error``,
    ``...Exception``: a third-party library's).
    """
    known = {name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)}
    found: list[tuple[str, ast.ClassDef, list[str]]] = []
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            found += [(path.relative_to(REPO).as_posix(), node, bases) for node, bases in _classes(path)]
    exceptions: dict[str, str] = {}
    grew = True
    while grew:
        grew = False
        for where, node, bases in found:
            key = f"{where}:{node.lineno} {node.name}"
            if key not in exceptions and any(b in known or b.endswith(("Error", "Exception")) for b in bases):
                exceptions[key] = where
                known.add(node.name)
                grew = True
    return sorted(exceptions)


def test_every_exception_class_is_defined_in_its_packages_errors_module() -> None:
    classes = _exception_classes()
    assert any(c.startswith("gui_agent/errors.py:") for c in classes)  # the scan does see them
    elsewhere = [c for c in classes if c.split(":")[0] not in ERRORS_MODULES]
    assert not elsewhere, f"define these in their package's errors.py: {elsewhere}"


# ---------------------------------------------------------------------- processes

#: Modules that may start a process some other way than an OwnedProcess, and why.
PROCESS_STARTERS = {
    # OwnedProcess itself: Popen for a process that need not die with its parent.
    "gui_agent/envs/owned_process.py": "the one owner of processes",
    # Popen under setpriv --pdeathsig, from the one thread that lives as long as Python.
    "gui_agent/envs/spawner.py": "forks for OwnedProcess",
    # Python workers started by multiprocessing (spawn) and spoken to over its pipes: each
    # arms its own parent-death signal, the pool stops each by PID (terminate, then kill)
    # and kills what its browsers left by PID. An OwnedProcess cannot carry the pipe and
    # the pickled work that multiprocessing gives them.
    "gui_agent/workers/local_pool.py": "the local worker pool",
}

#: Calls that start a process (as written: ``module.function`` or the bare name imported).
_STARTS = {
    "subprocess": {"Popen", "run", "call", "check_call", "check_output", "getoutput", "getstatusoutput"},
    "os": {"fork", "forkpty", "system", "popen", "execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp",
           "execlpe", "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe",
           "posix_spawn", "posix_spawnp"},
    "pty": {"fork", "spawn"},
    "asyncio": {"create_subprocess_exec", "create_subprocess_shell"},
}


def _process_starts(path: Path) -> list[str]:
    """``line what`` for each process start in ``path``: a call of :data:`_STARTS` (also through a
    ``from module import name``), or any import of :mod:`multiprocessing`."""
    tree = _tree(path)
    bare = {alias.asname or alias.name: f"{node.module}.{alias.name}"
            for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module in _STARTS
            for alias in node.names if alias.name in _STARTS[node.module]}
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr in _STARTS.get(func.value.id, ()):
                found.append(f"{node.lineno} {func.value.id}.{func.attr}")
            elif isinstance(func, ast.Name) and func.id in bare:
                found.append(f"{node.lineno} {bare[func.id]}")
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"{node.lineno} import {n}" for n in names if _reaches(n, "multiprocessing")]
    return found


def test_processes_start_only_through_owned_process() -> None:
    """``scripts/`` and ``tests/`` are outside this rule: benchmarks start ``gui-agent`` as a
    user would to measure it from outside, and tests start what they test."""
    offenders = [
        f"{path.relative_to(REPO).as_posix()}:{start}"
        for package in PACKAGES
        for path in sorted((REPO / package).rglob("*.py"))
        if path.relative_to(REPO).as_posix() not in PROCESS_STARTERS
        for start in _process_starts(path)
    ]
    assert not offenders, f"start these as an OwnedProcess (gui_agent/envs/owned_process.py): {offenders}"


def test_the_process_scan_sees_each_way_of_starting_one(tmp_path: Path) -> None:
    source = tmp_path / "starts.py"
    source.write_text(
        "import os, subprocess\nfrom subprocess import Popen as P\nimport multiprocessing.pool\n"
        "subprocess.Popen(['x'])\nP(['x'])\nos.fork()\nsubprocess.run(['x'])\nos.spawnv(0, 'x', [])\n"
    )
    assert sorted(_process_starts(source)) == [
        "3 import multiprocessing.pool", "4 subprocess.Popen", "5 subprocess.Popen", "6 os.fork", "7 subprocess.run", "8 os.spawnv",
    ]


# ---------------------------------------------------------------------- function length

#: The longest a function (or method) may be, its docstring and nested functions included.
MAX_FUNCTION_LINES = 100


def test_no_function_outside_the_tests_is_longer_than_the_limit() -> None:
    too_long = sorted(
        f"{path.relative_to(REPO).as_posix()}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for folder in (*PACKAGES, "scripts")
        for path in sorted((REPO / folder).rglob("*.py"))
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    )
    assert not too_long, f"split these into functions of at most {MAX_FUNCTION_LINES} lines: {too_long}"
