"""``gui-agent eval`` over a folder of imported OSWorld tasks of all ten domains: the tasks
run mixed on two workers, and the results give each domain its own line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gui_agent.cli import main
from tests.task.osworld_domain_samples import SAMPLES, import_sample


@pytest.mark.slow
def test_eval_runs_all_ten_domains_mixed_and_reports_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = tmp_path / "tasks"
    for domain in SAMPLES:
        import_sample(domain, tasks)
    capsys.readouterr()
    out = tmp_path / "eval"
    code = main(["eval", str(tasks), "--policy", "desktop-oracle", "--workers", "2", "--out", str(out), "--quiet"])
    printed = capsys.readouterr().out
    results = json.loads((out / "results.json").read_text())
    groups = {g["group"]: g for g in results["groups"]}
    assert set(groups) == {f"osworld.{domain}" for domain in SAMPLES}, printed
    failed = {name: g["pass@1"] for name, g in groups.items() if g["pass@1"] != 1.0}
    assert not failed, (failed, printed)
    assert code == 0
    for domain in SAMPLES:
        assert f"osworld.{domain} (all 1 task)" in (out / "results.md").read_text()
    ledger = [json.loads(line) for line in (out / "ledger.jsonl").read_text().splitlines()]
    assert len({r["worker"] for r in ledger}) == 2  # both workers ran tasks of different apps
