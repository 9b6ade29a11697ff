"""The desktop suites end to end through the runner: real Xvfb, LibreOffice Calc,
Thunderbird sending to the environment's SMTP server, XTEST input.

For each task the scripted oracle (clicks and keys only) passes the evaluator; the
random policy fails; scripted wrong solutions, done through the UI the same way, are
rejected.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gui_agent.actions import Click
from gui_agent.episode import read_episode
from gui_agent.policy import TaskContext
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from gui_agent.models.policies.desktop_oracle import DesktopOraclePolicy, UnsupportedTaskError
from gui_agent.models.policies.desktop_oracle import calc as calc_scripts
from gui_agent.models.policies.desktop_oracle import mail as mail_scripts
from gui_agent.models.policies.desktop_oracle.script import WaitForTitle, keys, type_text
from gui_agent.models.policies.random_policy import RandomPolicy
from tests.paths import REPO

SUITES = REPO / "datasets" / "tasks" / "desktop"
CALC = SUITES / "calc"
MAIL = SUITES / "mail"
CALC_TASKS = sorted(CALC.glob("*.yaml"))
MAIL_TASKS = sorted(MAIL.glob("*.yaml"))
OFFICE_TASKS = sorted((SUITES / "writer").glob("*.yaml")) + sorted((SUITES / "impress").glob("*.yaml"))


@pytest.mark.slow
@pytest.mark.parametrize("path", CALC_TASKS + MAIL_TASKS + OFFICE_TASKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_oracle_solves_task(path: Path, tmp_path: Path) -> None:
    task = load_task(path)
    result = run_episode(task, DesktopOraclePolicy(), out_dir=tmp_path)
    assert result.success, json.dumps(result.detail)[:2000]
    assert result.termination == "done" and result.reward == 1.0
    episode = read_episode(result.episode_path)
    assert episode.meta.env.kind == "desktop" and episode.meta.env.screen.width == 1280
    if path.parent == MAIL:  # the mail really went through the loopback SMTP server
        assert "matching" in json.dumps(result.detail)
    kinds = {action.kind for action in episode.actions()}
    assert kinds <= {"click", "hotkey", "type", "wait", "done"}  # real input only
    assert (result.episode_path / "frames" / "000000.png").is_file()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["calc/sum-column", "calc/sort-descending", "calc/insert-sheet", "mail/compose-send", "mail/reply"])
def test_random_policy_fails(name: str, tmp_path: Path) -> None:
    task = load_task(SUITES / f"{name}.yaml")
    result = run_episode(task, RandomPolicy(seed=1, max_actions=8), out_dir=tmp_path)
    assert result.termination in ("done", "truncated"), result.reason
    assert not result.success, result.detail


WRONG_SCRIPTS = {
    # off by one row: sums B2:B4 instead of B2:B5
    "desktop.calc.sum-column": lambda: [*calc_scripts.go_to("B6"), type_text("=SUM(B2:B4)\n")],
    # sorts ascending (the toolbar's neighbouring menu item) instead of descending
    "desktop.calc.sort-descending": lambda: [*calc_scripts.go_to("B2"), calc_scripts.DATA_MENU, Click(363, 68)],
    # names the new sheet "Summery"
    "desktop.calc.insert-sheet": lambda: [
        calc_scripts.SHEET_MENU, calc_scripts.SHEET_INSERT_AT_END, *[keys("ctrl", "a")], type_text("Summery\n")
    ],
    # replies to the wrong message (Cy's agenda instead of Bo's Q3 figures)
    "desktop.mail.reply": lambda: [
        *mail_scripts.open_inbox(), mail_scripts.SECOND_MESSAGE, keys("ctrl", "r"), WaitForTitle(r"^Write: Re: "),
        type_text("The figures will be ready on Thursday.\n"), *mail_scripts.send(),
    ],
    # forwards to a mistyped address
    "desktop.mail.forward-attachment": lambda: [
        *mail_scripts.open_inbox(), mail_scripts.SECOND_MESSAGE, keys("ctrl", "l"), WaitForTitle(r"^Write: Fwd: "),
        type_text("dnaa@example.test,"), *mail_scripts.send(),
    ],
}


@pytest.mark.slow
@pytest.mark.parametrize("task_id", sorted(WRONG_SCRIPTS))
def test_wrong_ui_solution_is_rejected(task_id: str, tmp_path: Path) -> None:
    _, suite, name = task_id.split(".")
    task = load_task(SUITES / suite / f"{name}.yaml")
    result = run_episode(task, DesktopOraclePolicy(scripts=WRONG_SCRIPTS), out_dir=tmp_path)
    assert result.termination == "done" and not result.success, result.detail
    assert result.detail["passed"] is False and result.detail["reason"]


def test_oracle_refuses_unknown_tasks() -> None:
    with pytest.raises(UnsupportedTaskError, match="no script for 'desktop.calc.nope'"):
        DesktopOraclePolicy().reset(TaskContext(task_id="desktop.calc.nope", instruction=""))


@pytest.mark.slow
def test_protected_file_changed_through_the_ui_is_a_violation(tmp_path: Path) -> None:
    """The destructive-action guard on a desktop: protected paths are the episode's home files."""
    task = load_task(CALC / "save-as-xlsx.yaml")
    assert task.guards.protected_paths == ["report.ods"]
    clean = run_episode(task, DesktopOraclePolicy(), out_dir=tmp_path)
    assert clean.success and not clean.guard_events
    overwrite = {task.id: lambda: [type_text("oops\n"), keys("ctrl", "s"), *calc_scripts.save_as_xlsx()]}
    dirty = run_episode(task, DesktopOraclePolicy(scripts=overwrite), out_dir=tmp_path)
    events = [e for e in dirty.guard_events if e["guard"] == "protected_path"]
    assert events and events[0]["detail"] == {"path": "report.ods", "change": "modified"}, dirty.guard_events
    assert not dirty.success


class _DoneAtOnce:
    name = "done-at-once"

    def reset(self, task: TaskContext) -> None:
        pass

    def act(self, observation):  # type: ignore[no-untyped-def]
        from gui_agent.actions import Done
        from gui_agent.policy import PolicyOutput

        return PolicyOutput(actions=[Done()])


@pytest.mark.slow
@pytest.mark.parametrize("path", OFFICE_TASKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_untouched_office_task_fails(path: Path, tmp_path: Path) -> None:
    result = run_episode(load_task(path), _DoneAtOnce(), out_dir=tmp_path)
    assert result.termination == "done" and not result.success, result.detail
