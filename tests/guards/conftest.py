"""Fixtures of the guard tests: the page and task file of guard_page.py, on real Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.guards.guard_page import PAGE, TASK


@pytest.fixture(scope="module")
def guard_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("guards")
    page = folder / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    protected = folder / "protected"
    task = folder / "task.yaml"
    task.write_text(TASK.format(url=page.as_uri(), protected=protected), encoding="utf-8")
    return {"task": task, "protected": protected, "folder": folder}


@pytest.fixture
def protected(guard_files: dict[str, Path]) -> Path:
    """The protected folder, filled afresh for each test."""
    import shutil

    root = guard_files["protected"]
    shutil.rmtree(root, ignore_errors=True)
    (root / "sub").mkdir(parents=True)
    (root / "keep.txt").write_text("precious\n")
    (root / "sub" / "data.csv").write_text("a,b\n1,2\n")
    return root


@pytest.fixture(scope="module")
def guard_task(guard_files: dict[str, Path]):
    from gui_agent.task import load_task

    return load_task(guard_files["task"])


@pytest.fixture(scope="module")
def guard_env(guard_task) -> Iterator[object]:
    from gui_agent.envs.factory import make_env

    env = make_env(guard_task)
    try:
        yield env
    finally:
        env.close()
