"""``gui-agent run --observe a11y_tree`` and ``observe: {a11y_tree: true}`` in a task file:
the policy gets the tree in its observations, and bad requests are refused as bad input."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from gui_agent.envs.observe_modes import apply_observe, observed
from gui_agent.registry import check_policy
from gui_agent.task import load_task
from tests.paths import MINIWOB_TASKS, REPO

#: A policy that ends the episode at once, answering with what the tree's XML starts with
#: (or "no tree"), so the episode's record says what the policy saw.
POLICY = '''
from gui_agent.actions import Done
from gui_agent.policy import PolicyOutput


class TreeReporter:
    name = "tree-reporter"

    def reset(self, task):
        pass

    def act(self, observation):
        tree = observation.a11y_tree
        return PolicyOutput(actions=[Done(success=True, answer=tree[:14] if tree else "no tree")])
'''

TASK = """
id: desktop.tree-observed
instruction: Say what you see.
environment:
  kind: desktop
  screen: {width: 640, height: 480}
  OBSERVE
limits: {max_steps: 2}
"""


def _cli(*args: str | Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gui_agent", *map(str, args)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, check=False)


@pytest.fixture
def shell(tmp_path: Path) -> dict[str, str]:
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "treepolicy.py").write_text(POLICY)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)])}


@pytest.mark.slow
@pytest.mark.parametrize(("in_file", "flag"), [(True, False), (False, True), (False, False)])
def test_the_policy_sees_the_tree_when_the_task_or_the_run_asks(tmp_path: Path, shell: dict[str, str], in_file: bool,
                                                                  flag: bool) -> None:
    task = tmp_path / "task.yaml"
    task.write_text(TASK.replace("OBSERVE", "observe: {a11y_tree: true}" if in_file else ""))
    out = tmp_path / "out"
    result = _cli("run", task, "--policy", "py:treepolicy:TreeReporter", "--out", out,
                  *(["--observe", "a11y_tree"] if flag else []), cwd=tmp_path, env=shell)
    assert result.returncode == 4, result.stdout + result.stderr  # no verdict: the task has no evaluator
    seen = 'done(answer="<desktop-frame")' if in_file or flag else 'done(answer="no tree")'
    assert seen in result.stdout, result.stdout
    assert len(list(out.rglob("episode.json"))) == 1


def test_bad_observe_requests_are_bad_input(tmp_path: Path, shell: dict[str, str]) -> None:
    result = _cli("run", MINIWOB_TASKS / "click-button.yaml", "--observe", "a11y_tree", "--out", tmp_path / "o",
                  cwd=tmp_path, env=shell)
    assert result.returncode == 2 and "the tree is a desktop's" in result.stdout + result.stderr
    result = _cli("run", MINIWOB_TASKS / "click-button.yaml", "--observe", "dom_tree", cwd=tmp_path, env=shell)
    assert result.returncode == 2 and "a11y_tree" in result.stderr
    task = tmp_path / "task.yaml"
    task.write_text(TASK.replace("OBSERVE", "observe: {a11y_tree: true}"))
    loaded = load_task(task)
    assert loaded.environment.observe.a11y_tree is True  # type: ignore[union-attr]


def test_a_policy_that_reads_the_tree_is_refused_where_the_run_gives_none(tmp_path: Path, shell: dict[str, str]) -> None:
    task = tmp_path / "tasks" / "task.yaml"
    task.parent.mkdir()
    task.write_text(TASK.replace("OBSERVE", ""))
    with socket.create_server(("127.0.0.1", 0)) as endpoint:  # the policy's check connects to its endpoint
        base = f"http://127.0.0.1:{endpoint.getsockname()[1]}/v1"
        for mode in ("som", "a11y_tree"):
            spec = f"openai:tiny?base_url={base}&observation={mode}"
            for command in (["run", task], ["eval", task.parent]):
                result = _cli(*command, "--policy", spec, "--out", tmp_path / "out", cwd=tmp_path, env=shell)
                said = result.stdout + result.stderr
                assert result.returncode == 2 and "it observes a11y_tree" in said and "--observe a11y_tree" in said, said
        assert not (tmp_path / "out").exists()  # refused before anything started
        loaded = load_task(task)
        check_policy(f"openai:tiny?base_url={base}", [loaded.id], observed={loaded.id: observed(loaded)})  # screenshots only
        apply_observe(loaded, ["a11y_tree"], where="task")
        check_policy(f"openai:tiny?base_url={base}&observation=som", [loaded.id], observed={loaded.id: observed(loaded)})
