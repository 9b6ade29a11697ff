"""Imported OSWorld tasks of each app, end to end through ``gui-agent run`` on the real
desktop with locally made inputs: the desktop oracle passes, doing nothing fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gui_agent.actions import Done
from gui_agent.cli import main
from gui_agent.envs.base import Observation
from gui_agent.episode.reader import read_episode
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from tests.paths import FIXTURES
from tests.task.osworld_local_inputs import MAKERS

TASKS = [
    "libreoffice_calc-1e8df695-bd1b-45b3-b557-e7d599cf7597",
    "libreoffice_calc-4188d3a4-077d-46b7-9c86-23e1a036f6c1",
    "libreoffice_writer-ecc2413d-8a48-416e-a3a2-d30106ca36cb",
    "libreoffice_writer-3ef2b351-8a84-4ff2-8724-d86eae9b842e",
    "libreoffice_impress-73c99fb9-f828-43ce-b87a-01dc07faa224",
    "libreoffice_impress-a097acff-6266-4291-9fbd-137af7ecd439",
    "thunderbird-2ad9387a-65d8-4e33-ad5b-7580065a27ca",
]


class DoNothing:
    name = "do-nothing"

    def reset(self, task: TaskContext) -> None:
        pass

    def act(self, observation: Observation) -> PolicyOutput:
        return PolicyOutput(actions=[Done()])


def imported(name: str, folder: Path) -> Path:
    """Import the sample config ``name`` into ``folder`` and make its inputs there."""
    assert main(["import-osworld", str(FIXTURES / "osworld" / f"{name}.json"), "--out", str(folder)]) == 0
    MAKERS[name.split("-", 1)[1]](folder / "inputs")
    return folder / f"{name}.yaml"


@pytest.mark.slow
@pytest.mark.parametrize("name", TASKS)
def test_imported_task_passes_with_the_oracle_and_fails_untouched(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task_file = imported(name, tmp_path / "tasks")
    code = main(["run", str(task_file), "--policy", "desktop-oracle", "--out", str(tmp_path / "runs"), "--quiet"])
    printed = capsys.readouterr().out
    episode = read_episode(next((tmp_path / "runs").iterdir()))
    assert code == 0, (printed, episode.meta.outcome)
    wrong = run_episode(load_task(task_file), DoNothing(), out_dir=tmp_path / "wrong")
    assert not wrong.success and wrong.termination == "done", wrong.detail



#: Imported tasks -> the solutions (policy specs for ``gui-agent run``) that must pass and
#: must fail, and what the check must have observed after the wrong one (so it failed for
#: the wrong work, not for no work).
SCRIPTED = {
    "thunderbird-10a730d5-d414-4b40-b479-684bed1ae522": (
        "desktop-oracle",
        "py:tests.task.osworld_scripted_solutions:wrong_solution",
        {"extensions.activeThemeID": "thunderbird-compact-light@mozilla.org"},
    ),
}


def run_cli(task_file: Path, spec: str, runs: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    """``gui-agent run`` of ``task_file`` with the policy ``spec``: its exit code and the episode's outcome."""
    code = main(["run", str(task_file), "--policy", spec, "--out", str(runs), "--quiet"])
    capsys.readouterr()
    return code, read_episode(next(runs.iterdir())).meta.outcome


@pytest.mark.slow
@pytest.mark.parametrize("name", SCRIPTED)
def test_imported_task_passes_scripted_right_and_fails_scripted_wrong(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    right, wrong, wrong_observed = SCRIPTED[name]
    task_file = imported(name, tmp_path / "tasks")
    code, outcome = run_cli(task_file, right, tmp_path / "right", capsys)
    assert (code, outcome.termination, outcome.success) == (0, "done", True), outcome
    code, outcome = run_cli(task_file, wrong, tmp_path / "wrong", capsys)
    assert (code, outcome.termination, outcome.success) == (1, "done", False), outcome
    assert outcome.detail["observed"].items() >= wrong_observed.items(), outcome.detail
