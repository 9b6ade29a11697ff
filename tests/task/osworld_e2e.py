"""What the end-to-end tests of imported OSWorld tasks share: importing a sample config with
its locally made inputs, ``gui-agent run`` of it, and a wrong scripted solution as a policy."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gui_agent.cli import main
from gui_agent.episode.reader import read_episode
from gui_agent.models.policies.desktop_oracle.policy import DesktopOraclePolicy
from tests.paths import FIXTURES


def imported(name: str, folder: Path, make_inputs: Callable[[Path], None] | None = None) -> Path:
    """Import the sample config ``name`` (``<domain>-<id>``) into ``folder``, make its inputs
    in ``folder/inputs``, and return the task file."""
    assert main(["import-osworld", str(FIXTURES / "osworld" / f"{name}.json"), "--out", str(folder)]) == 0
    if make_inputs is not None:
        make_inputs(folder / "inputs")
    return folder / f"{name}.yaml"


def run_cli(task_file: Path, spec: str, runs: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    """``gui-agent run`` of ``task_file`` with the policy ``spec``: its exit code and the episode's outcome."""
    code = main(["run", str(task_file), "--policy", spec, "--out", str(runs), "--quiet"])
    capsys.readouterr()
    return code, read_episode(next(runs.iterdir())).meta.outcome


def leaves(report: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every check's report under ``report`` (combinators' children, depth first)."""
    children = report.get("children")
    if not children:
        yield report
    for child in children or []:
        yield from leaves(child)


def leaf(report: dict[str, Any], check: str) -> dict[str, Any]:
    """The report of the first ``check`` under ``report``."""
    return next(r for r in leaves(report) if r["check"] == check)


def passes_right_and_fails_wrong(task_file: Path, wrong: str, saw_the_wrong_work: Callable[[Any], bool], tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The desktop oracle passes ``task_file``; the policy ``wrong`` (a wrong solution doing real
    work) fails it, and ``saw_the_wrong_work`` finds that work in the check's report."""
    code, outcome = run_cli(task_file, "desktop-oracle", tmp_path / "right", capsys)
    assert (code, outcome.termination, outcome.success) == (0, "done", True), outcome
    code, outcome = run_cli(task_file, wrong, tmp_path / "wrong", capsys)
    assert (code, outcome.termination, outcome.success) == (1, "done", False), outcome
    assert saw_the_wrong_work(outcome.detail), outcome.detail


def scripted(task_id: str, script: Callable[[], list[Any]], name: str) -> DesktopOraclePolicy:
    """A policy playing ``script`` on the task ``task_id`` through the desktop oracle's
    machinery, named ``name`` in its episodes (not the oracle's name)."""
    policy = DesktopOraclePolicy({task_id: script})
    policy.name = name
    return policy
