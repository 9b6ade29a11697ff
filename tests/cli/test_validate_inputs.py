"""``gui-agent validate`` on a task whose task-folder files (``from:``, reference files) are missing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gui_agent.cli import main
from tests.paths import TASKS

CALC = TASKS / "desktop" / "calc"


def _task_in(folder: Path, *, with_file: bool) -> Path:
    """product-formula.yaml in ``folder``, with or without the files/orders.xlsx its setup places."""
    task = folder / "product-formula.yaml"
    shutil.copy(CALC / "product-formula.yaml", task)
    if with_file:
        (folder / "files").mkdir()
        shutil.copy(CALC / "files" / "orders.xlsx", folder / "files" / "orders.xlsx")
    return task


def test_a_missing_from_file_is_an_error_naming_the_file_the_line_and_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task = _task_in(tmp_path, with_file=False)
    assert main(["validate", str(task)]) == 1
    out, err = capsys.readouterr()
    assert "✓" not in out + err
    line = next(i for i, text in enumerate(task.read_text().splitlines(), 1) if "from: files/orders.xlsx" in text)
    assert f"✗ {task}:{line}: setup[0].place_file.from: the file 'files/orders.xlsx' is missing" in err
    assert str(tmp_path / "files" / "orders.xlsx") in "".join(err.split())


def test_the_same_task_with_its_file_is_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task = _task_in(tmp_path, with_file=True)
    assert main(["validate", "-q", str(task)]) == 0
    assert f"✓ {task}" in capsys.readouterr().out


def test_a_missing_reference_file_of_a_check_is_located_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task = tmp_path / "compare.yaml"
    task.write_text(
        "id: t.compare\n"
        "instruction: make it look like the reference\n"
        "environment: {kind: desktop, apps: [writer]}\n"
        "evaluator:\n"
        "  all_of:\n"
        "    - document_text_equal: {path: a.docx, expected: ref/a.docx}\n"
    )
    code = main(["validate", str(task)])
    out, err = capsys.readouterr()
    assert code == 1 and "✓" not in out + err, out + err
    assert f"{task}:6: evaluator.all_of[0].document_text_equal.expected: the file 'ref/a.docx' is missing" in err
