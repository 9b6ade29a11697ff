"""The protected-path guard in a real desktop episode: Xvfb, LibreOffice Calc, the desktop oracle.

``sum-column`` protects ``notes.txt`` in the episode's home folder. A policy that does the
task but deletes that file on the way must fail the episode with the violation reported,
although the task's own evaluator passes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.envs.base import Observation
from gui_agent.envs.factory import make_env
from gui_agent.episode import read_episode
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from tests.paths import REPO

SUM_COLUMN = REPO / "datasets" / "tasks" / "desktop" / "calc" / "sum-column.yaml"


class OracleThatDeletesNotes:
    """The desktop oracle, which also deletes the protected notes.txt before its first action."""

    name = "oracle-deleting-notes"

    def __init__(self, env) -> None:
        from gui_agent.registry import load_policy

        self.oracle = load_policy("desktop-oracle")
        self.env = env
        self.deleted: Path | None = None

    def reset(self, task: TaskContext) -> None:
        self.oracle.reset(task)

    def act(self, observation: Observation) -> PolicyOutput:
        if self.deleted is None:
            self.deleted = self.env.resolve_path("notes.txt")
            self.deleted.unlink()
        return self.oracle.act(observation)


@pytest.mark.slow
def test_deleting_a_protected_file_in_a_desktop_episode_is_a_violation(tmp_path: Path) -> None:
    task = load_task(SUM_COLUMN)
    assert task.guards.protected_paths == ["notes.txt"]
    env = make_env(task)
    policy = OracleThatDeletesNotes(env)
    try:
        result = run_episode(task, policy, out_dir=tmp_path, seed=0, env=env)
    finally:
        env.close()
    assert policy.deleted is not None and policy.deleted.name == "notes.txt"
    violations = [e for e in result.detail.get("guards", []) if e["kind"] == "violation"]
    assert [(e["detail"]["path"], e["detail"]["change"]) for e in violations] == [("notes.txt", "deleted")]
    assert result.detail["passed"] is True, result.detail  # the spreadsheet itself is right
    assert not result.success and "protected file notes.txt was deleted" in result.reason
    assert read_episode(result.episode_path).meta.outcome.success is False
