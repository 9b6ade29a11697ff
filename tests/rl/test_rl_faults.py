"""Faults of the fleet during ``gui-agent train rl``, injected by PID into real processes.

* A browser SIGKILLed and another SIGSTOPped mid-rollout: each is classified (dead,
  hung), torn down, rebuilt, and the rollout run again; the broken attempts are counted
  and never trained on, and the run goes on to its last update.
* A worker process SIGKILLed and another SIGSTOPped: the first is replaced at once, the
  second once its rollout passes its deadline; meanwhile the learner does not wait for
  it (its group is used with the rollouts that came back), and the run ends normally.
Nothing is left running afterwards (the ``private_tmp`` fixture checks, by PID).
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from tests.evaluate.eval_helpers import finish, wait_for
from tests.evaluate.eval_procs import alive, browser_main_pids, state
from tests.paths import MINIWOB_TASKS
from tests.rl.rl_helpers import jsonl, start_train

pytestmark = pytest.mark.slow


def _task(tmp_path: Path) -> str:
    """login-user (several steps a rollout, so a fault lands mid-episode) with a 2 s step timeout."""
    text = (MINIWOB_TASKS / "login-user.yaml").read_text()
    assert "step_timeout_s: 10" in text
    path = tmp_path / "login-user.yaml"
    path.write_text(text.replace("step_timeout_s: 10", "step_timeout_s: 2"))
    return str(path)


def _in_rollout(out: Path, tmpdir: str) -> bool:
    """A browser is up and a rollout has taken a step but not finished."""
    for meta in out.glob("episodes/*/*/*/episode.json"):
        steps = meta.with_name("steps.jsonl")
        try:
            recording = json.loads(meta.read_text())["status"] == "recording"
        except (json.JSONDecodeError, OSError):
            continue
        if recording and steps.exists() and steps.read_text().strip():
            return bool(browser_main_pids(tmpdir))
    return False


def _faults(out: Path) -> list[str]:
    return [f["fault"] for r in jsonl(out / "ledger.jsonl") for f in r.get("env_failures") or []]


def test_browsers_killed_and_frozen_mid_rollout_are_rebuilt_and_their_attempts_dropped(private_tmp: str, tmp_path: Path, kill_on_exit) -> None:
    out = tmp_path / "rl"
    proc = start_train([_task(tmp_path), "--group-size", "3", "--groups-per-update", "1", "--updates", "12",
                        "--wait-deadline", "5", "--out", str(out), "--quiet"], private_tmp)
    kill_on_exit.append(proc)
    injected = []
    # A browser killed in the middle of a step is 'dead', or 'error' when the step's own call
    # saw the closed connection first (gui_agent/envs/browser/env.py wraps that as a plain
    # EnvError): either way classified, rebuilt and counted.
    for sig, faults in ((signal.SIGKILL, ("dead", "error")), (signal.SIGSTOP, ("hung",))):
        before = len(_faults(out))
        wait_for(lambda: _in_rollout(out, private_tmp), what="a rollout in progress", proc=proc, timeout_s=180)
        [browser] = browser_main_pids(private_tmp)
        os.killpg(browser, sig) if sig == signal.SIGSTOP else os.kill(browser, sig)
        injected.append(browser)
        wait_for(lambda n=before: len(_faults(out)) > n, what=f"a rollout with a {faults[0]} attempt", proc=proc, timeout_s=120)
        assert _faults(out)[-1] in faults, _faults(out)
    code, text = finish(proc, timeout_s=300)
    assert code == 0, text
    assert "finished: 12 updates" in text and "hung 1" in text, text
    broken = [r for r in jsonl(out / "ledger.jsonl") if r.get("env_failures")]
    assert len(broken) == 2 and sorted(f["fault"] for r in broken for f in r["env_failures"])[-1] == "hung"
    for record in broken:
        # The rollout was run again and scored; the broken attempt stays on disk as an env_error episode.
        assert record["success"] is not None and record["attempts"] == 2
        [failure] = record["env_failures"]
        meta = json.loads((out / failure["episode"] / "episode.json").read_text())
        assert meta["outcome"]["termination"] == "env_error" and meta["outcome"]["success"] is None
    state_ = json.loads((out / "run.json").read_text())["sessions"][-1]
    assert sum(state_["broken_attempts"].values()) == 2 and state_["broken_attempts"]["hung"] == 1
    assert all(state(pid) in (None, "Z") for pid in injected)


def test_worker_processes_killed_and_frozen_during_training_are_replaced(private_tmp: str, tmp_path: Path, kill_on_exit) -> None:
    out = tmp_path / "rl"
    proc = start_train([_task(tmp_path), "--workers", "2", "--group-size", "3", "--groups-per-update", "1", "--updates", "14",
                        "--rollout-deadline", "10", "--wait-deadline", "4", "--out", str(out)], private_tmp)
    kill_on_exit.append(proc)

    def workers() -> set[int]:
        return {int(r["worker"].rsplit(":", 1)[1]) for r in jsonl(out / "ledger.jsonl") if r.get("worker")}

    wait_for(lambda: len(workers()) >= 2, what="both workers to finish a rollout", proc=proc, timeout_s=180)
    killed, frozen = sorted(workers())[:2]
    os.kill(killed, signal.SIGKILL)
    wait_for(lambda: len(workers() - {killed, frozen}) >= 1, what="the replacement's first rollout", proc=proc, timeout_s=180)
    updates_before = len(jsonl(out / "updates.jsonl"))
    os.kill(frozen, signal.SIGSTOP)
    wait_for(lambda: not alive(frozen), what="the frozen worker to be killed past its rollout's deadline", proc=proc, timeout_s=120)
    updates_while_frozen = len(jsonl(out / "updates.jsonl")) - updates_before
    code, text = finish(proc, timeout_s=300)
    assert code == 0, text
    assert text.count("died") >= 2 and "stuck for more than 10 s" in text and "finished: 14 updates" in text, text
    assert updates_while_frozen >= 1  # the learner went on with the other worker's rollouts
    session = json.loads((out / "run.json").read_text())["sessions"][-1]
    assert session["workers_replaced"] >= 2 and session["updates"] == 14
    assert len(jsonl(out / "updates.jsonl")) > updates_before  # training went on past the faults
    assert not alive(killed) and not alive(frozen)
