"""Environment faults injected into a real Chromium by PID, handled by the runner's retries.

Each fault (SIGKILL, SIGSTOP, a page script that never yields) is injected mid-episode;
it must be detected within the task's step timeout, classified, the browser torn down
and rebuilt, the episode run again and scored, and nothing left running.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gui_agent.envs.base import Observation
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.runner import EnvSlot, run_with_retries
from gui_agent.task import load_task
from tests.evaluate.eval_procs import alive, mentioning, state, wait_until_none_mention
from tests.paths import REPO

CLICK_BUTTON = REPO / "datasets" / "tasks" / "miniwob" / "click-button.yaml"
STEP_TIMEOUT_S = 2.0


@pytest.fixture
def inprocess_tmp(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Browsers of this test keep their temp dirs here, so leftovers can be told apart."""
    folder = tempfile.mkdtemp(prefix="gaf-", dir="/tmp")
    monkeypatch.setattr(tempfile, "tempdir", folder)
    try:
        yield folder
    finally:
        left = wait_until_none_mention(folder)
        for pid in left:  # never leave anything behind, even on failure (by PID)
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)
        assert not left, f"processes left running: {left}"


@pytest.fixture(scope="module")
def task(tmp_path_factory: pytest.TempPathFactory):
    text = CLICK_BUTTON.read_text().replace(
        "limits: {max_steps: 5, step_timeout_s: 10, episode_timeout_s: 60}",
        f"limits: {{max_steps: 5, step_timeout_s: {STEP_TIMEOUT_S}, episode_timeout_s: 30}}",
    )
    assert f"step_timeout_s: {STEP_TIMEOUT_S}" in text
    path = tmp_path_factory.mktemp("tasks") / "click-button.yaml"
    path.write_text(text)
    return load_task(path)


class FaultyOracle:
    """The MiniWoB++ oracle, which also breaks its own browser (by PID) on its first ``times`` decisions."""

    name = "faulty-oracle"

    def __init__(self, slot: EnvSlot, fault: str, times: int = 1) -> None:
        from gui_agent.registry import load_policy

        self.oracle = load_policy("oracle")
        self.slot, self.fault, self.times = slot, fault, times
        self.injected: list[tuple[int, float]] = []  # (browser pid, wall time)

    def reset(self, task: TaskContext) -> None:
        self.oracle.reset(task)

    def act(self, observation: Observation) -> PolicyOutput:
        decision = self.oracle.act(observation)
        if len(self.injected) < self.times:
            env = self.slot.env
            pid = env.pid
            if self.fault == "kill":
                os.kill(pid, signal.SIGKILL)
            elif self.fault == "stop":
                os.killpg(pid, signal.SIGSTOP)  # the whole browser freezes
            elif self.fault == "spin":
                env.evaluate_js("setTimeout(() => { for (;;) {} }, 0), 1")  # the page never yields again
            self.injected.append((pid, time.time()))
        return decision


def _failed_episode_end(result, index: int = 0) -> float:
    return os.path.getmtime(Path(result.env_failures[index]["episode"]) / "episode.json")


@pytest.mark.parametrize(("fault", "kind"), [("kill", "dead"), ("stop", "hung"), ("spin", "hung")])
def test_fault_is_detected_classified_rebuilt_and_retried(task, fault: str, kind: str, inprocess_tmp: str, tmp_path: Path) -> None:
    slot = EnvSlot()
    policy = FaultyOracle(slot, fault)
    try:
        result = run_with_retries(task, policy, slot=slot, out_dir=tmp_path, seed=4, max_attempts=3)
        new_pid = slot.env.pid
    finally:
        slot.close()
    assert result.success and result.termination == "done" and result.attempts == 2
    [failure] = result.env_failures
    assert failure["fault"] == kind and failure["attempt"] == 1
    broken_pid, injected_at = policy.injected[0]
    assert new_pid != broken_pid and not alive(broken_pid)  # torn down, rebuilt
    detected_after = _failed_episode_end(result) - injected_at
    assert detected_after < STEP_TIMEOUT_S + 2.0, f"took {detected_after:.1f} s to notice"
    failed = json.loads((Path(failure["episode"]) / "episode.json").read_text())
    assert failed["outcome"]["termination"] == "env_error" and failed["outcome"]["success"] is None
    assert failed["outcome"]["detail"]["fault"] == kind
    if kind == "hung":
        assert "did not answer" in failure["reason"]
    else:
        assert "died" in failure["reason"]
    assert not [pid for pid in mentioning(inprocess_tmp) if state(pid) in ("T", "t")]  # no frozen leftovers


def test_when_every_attempt_fails_the_episode_is_an_unscored_env_failure(task, inprocess_tmp: str, tmp_path: Path) -> None:
    slot = EnvSlot()
    policy = FaultyOracle(slot, "kill", times=99)
    try:
        result = run_with_retries(task, policy, slot=slot, out_dir=tmp_path, seed=0, max_attempts=2)
    finally:
        slot.close()
    assert result.env_failed and result.attempts == 2 and not result.success
    assert [f["fault"] for f in result.env_failures] == ["dead", "dead"]
    assert len({pid for pid, _ in policy.injected}) == 2  # a fresh browser each time
    assert len(list(tmp_path.iterdir())) == 2  # one episode folder per attempt


def test_the_slot_reuses_one_browser_across_miniwob_tasks(inprocess_tmp: str, tmp_path: Path) -> None:
    from gui_agent.registry import load_policy

    tasks = [load_task(CLICK_BUTTON.with_name(name)) for name in ("click-test.yaml", "click-button.yaml", "focus-text.yaml")]
    slot = EnvSlot()
    pids = []
    try:
        for each in tasks:
            result = run_with_retries(each, load_policy("oracle"), slot=slot, out_dir=tmp_path, seed=1)
            assert result.success, (each.id, result.reason)
            pids.append(slot.env.pid)
    finally:
        slot.close()
    assert len(set(pids)) == 1
