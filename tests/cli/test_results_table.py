"""``gui-agent eval``'s results table: pass@1 once at k = 1, counts in the right number, and
whole columns on an 80-column terminal (rendered by rich, as the command prints it)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from gui_agent.cli.eval import _print_results
from gui_agent.evaluate.report import summarize, table_rows, to_markdown

TASKS = ("miniwob/click-checkboxes-transfer", "desktop.calc.product-formula")


def _results(k: int, tasks: tuple[str, ...] = TASKS) -> dict:  # type: ignore[type-arg]
    records = [
        {"key": f"{task}#{r}", "task_id": task, "repeat": r, "success": (r + t) % 2 == 0, "reward": float((r + t) % 2 == 0),
         "steps": 3, "duration_s": 1.5, "termination": "done", "usage": {"input_tokens": 1200, "output_tokens": 40}}
        for t, task in enumerate(tasks) for r in range(k)
    ]
    return summarize(records, k=k, run={"policy": "oracle", "suite": ["miniwob"]})


def _printed(results: dict, width: int) -> str:  # type: ignore[type-arg]
    out = io.StringIO()
    _print_results(Console(file=out, width=width, color_system=None, highlight=False), results, Path("runs/x"))
    return out.getvalue()


def test_at_k_1_pass_at_1_is_shown_once_and_one_task_is_singular() -> None:
    results = _results(1, TASKS[:1])
    header, _ = table_rows(results)
    assert header.count("pass@1 %") == 1 and not any(h.startswith("pass^") for h in header)
    page = to_markdown(results)
    assert "1 task x 1 try: pass@1 " in page and page.count("pass@1") == 2  # the headline and the table's header
    shown = _printed(results, 200)
    assert "oracle: 1 task x 1 try" in shown and shown.count("pass@1") == 1


def test_plural_counts_and_k_above_1_keep_pass_at_k() -> None:
    results = _results(4)
    header, _ = table_rows(results)
    assert {"pass@1 %", "pass@4 %", "pass^4 %"} <= set(header)
    assert "2 tasks x 4 tries: pass@1" in to_markdown(results)


@pytest.mark.parametrize("k", [1, 4])
def test_an_80_column_terminal_shows_whole_columns_and_names_the_ones_left_out(k: int) -> None:
    results = _results(k)
    shown = _printed(results, 80)
    table_lines = [line for line in shown.splitlines() if line[:1] in "┏┃┡│├└"]
    assert table_lines and all(len(line) <= 80 for line in table_lines)
    assert "…" not in shown  # nothing cut: numbers and headers are whole
    header, rows = table_rows(results)
    head_line = next(line for line in table_lines if line.startswith("┃"))
    columns = [cell.strip() for cell in head_line.split("┃") if cell.strip()]
    note = " ".join(" ".join(shown.split()).partition("terminal's width: ")[2].partition(" (every column")[0].split())
    left_out = note.split(", ") if note else []
    assert sorted(columns + left_out) == sorted(header)  # every column shown whole, or named as left out
    assert {"task", "n", "pass@1 %"} <= set(columns)
    overall = rows[-1]
    assert overall[header.index("pass@1 %")] in shown  # the numbers read whole
    for task in TASKS:  # long ids fold onto a second line rather than being cut
        assert task in "".join(line.split("│")[1].strip() for line in table_lines if line.startswith("│"))


def test_a_wide_terminal_shows_every_column() -> None:
    shown = _printed(_results(4), 200)
    assert "left out" not in shown
    header, _ = table_rows(_results(4))
    assert all(name in shown for name in header)
