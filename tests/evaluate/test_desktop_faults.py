"""The X server of a desktop episode killed or frozen mid-episode, handled by the runner's retries.

The desktop counterpart of ``test_faults.py``: a real LibreOffice Calc task on a real Xvfb,
the scripted desktop oracle acting. On its first decision the policy kills (SIGKILL) or
freezes (SIGSTOP) the Xvfb by PID. The next step must fail within the task's step timeout,
be classified (dead / hung), the whole desktop (Xvfb, window manager, LibreOffice) be torn
down and a fresh one built, and the retried episode pass the evaluator; nothing is left
running or stopped.
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from gui_agent.envs.base import Observation
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.runner import EnvSlot, run_with_retries
from gui_agent.task import load_task
from gui_agent.models.policies.desktop_oracle import DesktopOraclePolicy
from tests.envs.desktop.desktop_helpers import wait_gone
from tests.evaluate.eval_procs import state
from tests.paths import REPO

CALC = REPO / "datasets" / "tasks" / "desktop" / "calc"
STEP_TIMEOUT_S = 4.0


@pytest.fixture(scope="module")
def calc_task(tmp_path_factory: pytest.TempPathFactory):
    """calc/enter-data with a short step timeout (its own folder, so its spreadsheet comes along)."""
    folder = tmp_path_factory.mktemp("calc-task")
    shutil.copytree(CALC / "files", folder / "files")
    text = (CALC / "enter-data.yaml").read_text()
    short = text.replace("step_timeout_s: 20,", f"step_timeout_s: {STEP_TIMEOUT_S},")
    assert short != text
    (folder / "enter-data.yaml").write_text(short)
    return load_task(folder / "enter-data.yaml")


class DisplayBreakingOracle:
    """The desktop oracle, which also kills or freezes its own X server (by PID) on its first decision."""

    name = "display-breaking-oracle"

    def __init__(self, slot: EnvSlot, fault: str) -> None:
        self.oracle = DesktopOraclePolicy()
        self.slot, self.fault = slot, fault
        self.broken: list[tuple[list[int], float]] = []  # (the desktop's pids, wall time)

    def reset(self, task: TaskContext) -> None:
        self.oracle.reset(task)

    def act(self, observation: Observation) -> PolicyOutput:
        decision = self.oracle.act(observation)
        if not self.broken:
            env = self.slot.env
            pids = env.pids()  # type: ignore[union-attr]
            os.kill(env.pid, signal.SIGKILL if self.fault == "kill" else signal.SIGSTOP)  # type: ignore[union-attr]
            self.broken.append((pids, time.time()))
        return decision


@pytest.mark.slow
@pytest.mark.parametrize(("fault", "kind"), [("kill", "dead"), ("stop", "hung")])
def test_a_lost_display_is_classified_rebuilt_and_the_episode_retried(calc_task, fault: str, kind: str, tmp_path: Path) -> None:
    slot = EnvSlot()
    policy = DisplayBreakingOracle(slot, fault)
    new_pids: list[int] = []
    try:
        result = run_with_retries(calc_task, policy, slot=slot, out_dir=tmp_path, seed=0, max_attempts=2)
        new_pids = slot.env.pids()  # type: ignore[union-attr]
    finally:
        slot.close()
    broken_pids, broken_at = policy.broken[0]
    assert result.success and result.attempts == 2, (result.reason, result.env_failures)
    [failure] = result.env_failures
    assert failure["fault"] == kind and failure["attempt"] == 1, failure
    assert ("Xvfb" in failure["reason"]) if kind == "dead" else ("did not" in failure["reason"]), failure["reason"]
    failed_end = os.path.getmtime(Path(failure["episode"]) / "episode.json")
    assert failed_end - broken_at < STEP_TIMEOUT_S + 5.0, f"took {failed_end - broken_at:.1f} s to notice"
    assert not set(new_pids) & set(broken_pids)  # a whole new desktop
    assert wait_gone(broken_pids) == [] and wait_gone(new_pids) == []  # torn down; closed
    assert not [pid for pid in broken_pids if state(pid) in ("T", "t")]  # nothing left frozen
