"""``gui-agent eval --observe a11y_tree``: the workers load the task files again, and the
policy of every episode still sees the tree; a browser task in such a run is bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.envs.desktop.test_accessibility_cli import TASK, _cli, shell  # noqa: F401 - shell is a fixture
from tests.paths import MINIWOB_TASKS


def _answers(out: Path) -> list[str]:
    """The done answers the run's episodes recorded (from their steps)."""
    answers = []
    for steps in out.rglob("steps.jsonl"):
        for line in steps.read_text().splitlines():
            action = json.loads(line).get("action") or {}
            if action.get("kind") == "done":
                answers.append(action.get("answer"))
    return answers


@pytest.mark.slow
@pytest.mark.parametrize("flag", [True, False])
def test_eval_workers_give_the_policy_the_tree_when_asked(tmp_path: Path, shell: dict[str, str], flag: bool) -> None:  # noqa: F811
    task = tmp_path / "task.yaml"
    task.write_text(TASK.replace("OBSERVE", ""))
    out = tmp_path / "run"
    result = _cli("eval", task, "--policy", "py:treepolicy:TreeReporter", "--out", out, "--quiet",
                  *(["--observe", "a11y_tree"] if flag else []), cwd=tmp_path, env=shell)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    assert _answers(out) == (["<desktop-frame"] if flag else ["no tree"]), result.stdout + result.stderr
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["observe"] == (["a11y_tree"] if flag else None)
    if flag:  # a resume must ask for the same observations
        again = _cli("eval", task, "--policy", "py:treepolicy:TreeReporter", "--out", out, "--resume", "--quiet",
                     cwd=tmp_path, env=shell)
        assert again.returncode == 2 and "observe" in again.stdout + again.stderr, again.stdout + again.stderr


def test_eval_refuses_the_tree_for_a_browser_task(tmp_path: Path, shell: dict[str, str]) -> None:  # noqa: F811
    result = _cli("eval", MINIWOB_TASKS / "click-button.yaml", "--observe", "a11y_tree", "--out", tmp_path / "o",
                  cwd=tmp_path, env=shell)
    assert result.returncode == 2 and "the tree is a desktop's" in result.stdout + result.stderr, result.stdout + result.stderr
    assert not (tmp_path / "o").exists()
