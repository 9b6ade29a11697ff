"""A run over tasks of several groups (imported OSWorld domains) reports each group."""

from __future__ import annotations

from gui_agent.cli.results_table import fit_results_table
from gui_agent.evaluate.report import summarize, task_group, to_markdown


def _record(task_id: str, n: int, success: bool) -> dict:
    return {"key": f"{task_id}#{n}", "task_id": task_id, "success": success, "reward": float(success), "steps": 3,
            "termination": "done", "duration_s": 1.0}


def test_groups_are_the_ids_less_their_last_part() -> None:
    assert task_group("osworld.chrome.0d8b7de3") == "osworld.chrome"
    assert task_group("osworld.libreoffice_calc.1e8df695.win") == "osworld.libreoffice_calc.1e8df695"
    assert task_group("solo") == "solo"


def test_mixed_domains_get_one_line_each_with_their_own_success() -> None:
    records = [_record("osworld.chrome.a", 0, True), _record("osworld.chrome.b", 0, False),
               _record("osworld.gimp.c", 0, True), _record("osworld.gimp.d", 0, True), _record("osworld.vlc.e", 0, False)]
    results = summarize(records, k=1, run={"policy": "p", "suite": ["mixed"]})
    by_group = {g["group"]: g for g in results["groups"]}
    assert set(by_group) == {"osworld.chrome", "osworld.gimp", "osworld.vlc"}
    assert (by_group["osworld.chrome"]["pass@1"], by_group["osworld.gimp"]["pass@1"], by_group["osworld.vlc"]["pass@1"]) == (0.5, 1.0, 0.0)
    assert by_group["osworld.gimp"]["tasks"] == 2
    page = to_markdown(results)
    assert "| osworld.gimp (all 2 tasks) | 2/2 | 100.0 |" in page
    assert "| osworld.vlc (all 1 task) | 0/1 | 0.0 |" in page
    assert fit_results_table(results, 80).table.row_count == 5 + 3 + 1


def test_one_group_adds_no_lines() -> None:
    results = summarize([_record("osworld.chrome.a", 0, True), _record("osworld.chrome.b", 0, True)], k=1)
    assert results["groups"] == []
    assert "(all" not in to_markdown(results)
