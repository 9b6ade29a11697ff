"""``gui-agent eval`` end to end on local worker processes, each with its own real Chromium.

Covers the results files, workers dying mid-episode (replaced, episode redone), faults
injected into a worker's browser by PID during a run, and ``--resume`` after Ctrl-C and
after the coordinator was killed outright.
"""

from __future__ import annotations

import json
import os
import signal
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from gui_agent.envs import procfs
from gui_agent.polling import poll
from tests.evaluate.eval_helpers import finish, ledger_lines, start_eval, wait_for
from tests.evaluate.eval_procs import alive, browser_main_pids, state
from tests.paths import MINIWOB_TASKS as MINIWOB

TASKS = [str(MINIWOB / f"{name}.yaml") for name in ("click-test", "click-button", "focus-text")]
SLOW = "py:tests.evaluate.slow_policies:SlowOracle"


def still_alive(pids: list[int], timeout_s: float = 10.0) -> dict[int, str]:
    """Those of ``pids`` still running after ``timeout_s``, with their command lines."""
    poll(lambda: not any(alive(pid) for pid in pids), timeout_s=timeout_s, interval_s=0.1)
    return {pid: (procfs.command_line(pid) or "")[:200] for pid in pids if alive(pid)}


def test_eval_two_workers_writes_ledger_results_table_and_plot(private_tmp: str, tmp_path: Path, kill_on_exit) -> None:
    out = tmp_path / "run"
    proc = start_eval([*TASKS, "--repeats", "3", "--workers", "2", "--out", str(out), "--quiet"], private_tmp)
    kill_on_exit.append(proc)
    code, text = finish(proc)
    assert code == 0, text
    lines = ledger_lines(out)
    assert sorted(r["key"] for r in lines) == sorted(f"miniwob/{t}#{r}" for t in ("click-test", "click-button", "focus-text") for r in range(3))
    assert all(r["success"] is True and r["termination"] == "done" for r in lines)
    assert {r["seed"] for r in lines} == {0, 1, 2}
    assert 1 <= len({r["worker"] for r in lines}) <= 2  # (both work in parallel: see the next test)
    for record in lines:  # each ledger line points at its complete episode
        meta = json.loads((out / record["episode"] / "episode.json").read_text())
        assert meta["status"] == "complete" and meta["outcome"]["success"] is True
    results = json.loads((out / "results.json").read_text())
    overall = results["overall"]
    assert (overall["scored"], overall["successes"], overall["env_failures"]) == (9, 9, 0)
    assert overall["pass@1"] == 1.0 and overall["pass@k"] == 1.0 and overall["pass^k"] == 1.0
    assert overall["pass@1_ci95"] == [0.7009, 1.0]  # Wilson, 9 of 9: 9 / (9 + 1.96**2)
    assert [t["task_id"] for t in results["tasks"]] == ["miniwob/click-button", "miniwob/click-test", "miniwob/focus-text"]
    assert results["run"]["episodes_per_s"] > 0
    assert "| miniwob/click-test | 3/3 | 100.0 |" in (out / "results.md").read_text()
    with Image.open(out / "cost_effectiveness.png") as image:
        assert image.format == "PNG" and image.size[0] > 600
    assert "pass^3 %" in text and "ALL" in text


@pytest.mark.slow
def test_a_worker_killed_mid_episode_is_replaced_and_its_episode_redone(private_tmp: str, tmp_path: Path, kill_on_exit) -> None:
    out = tmp_path / "run"
    proc = start_eval([*TASKS, "--repeats", "4", "--workers", "2", "--policy", SLOW, "--out", str(out), "--quiet"], private_tmp)
    kill_on_exit.append(proc)
    wait_for(lambda: len(ledger_lines(out)) >= 2, what="two finished episodes", proc=proc)
    victim = int(ledger_lines(out)[0]["worker"].rsplit(":", 1)[1])
    assert alive(victim)
    os.kill(victim, signal.SIGKILL)
    code, text = finish(proc)
    assert code == 0, text
    assert f"(pid {victim}) died" in text and "replacing it" in text
    lines = ledger_lines(out)
    keys = Counter(r["key"] for r in lines)
    assert len(keys) == 12 and set(keys.values()) == {1}  # every episode once, none lost
    assert all(r["success"] is True for r in lines)
    workers = {r["worker"] for r in lines}
    assert len(workers) >= 3 and not alive(victim)  # the replacement worked too


@pytest.mark.slow
def test_browser_faults_injected_during_a_run_are_retried_and_counted(private_tmp: str, tmp_path: Path, kill_on_exit) -> None:
    task = tmp_path / "click-button.yaml"
    task.write_text((MINIWOB / "click-button.yaml").read_text().replace("step_timeout_s: 10", "step_timeout_s: 2"))
    out = tmp_path / "run"
    proc = start_eval([str(task), "--repeats", "4", "--policy", SLOW, "--out", str(out), "--quiet"], private_tmp)
    kill_on_exit.append(proc)

    def in_episode() -> bool:  # a browser is up and an episode has taken a step but not finished
        for meta in out.glob("episodes/*/*/*/episode.json"):
            steps = meta.with_name("steps.jsonl")
            if json.loads(meta.read_text())["status"] == "recording" and steps.exists() and steps.read_text().strip():
                return bool(browser_main_pids(private_tmp))
        return False

    injected = []
    for sig in (signal.SIGKILL, signal.SIGSTOP):
        done_before = len(ledger_lines(out))
        wait_for(in_episode, what="an episode in progress", proc=proc)
        [browser] = browser_main_pids(private_tmp)
        os.killpg(browser, sig) if sig == signal.SIGSTOP else os.kill(browser, sig)
        injected.append(browser)
        wait_for(lambda before=done_before: len(ledger_lines(out)) > before, what="the episode to finish", proc=proc)
    code, text = finish(proc)
    assert code == 0, text
    lines = ledger_lines(out)
    assert len(lines) == 4 and all(r["success"] is True for r in lines)
    faults = [f["fault"] for r in lines for f in r["env_failures"]]
    assert sorted(faults) == ["dead", "hung"]
    results = json.loads((out / "results.json").read_text())
    assert results["overall"]["env_faults"] == {"dead": 1, "hung": 1}
    assert results["overall"]["env_failures"] == 0 and results["overall"]["retried_episodes"] == 2
    assert all(state(pid) in (None, "Z") for pid in injected)


@pytest.mark.slow
def test_resume_after_ctrl_c_and_after_a_kill_redoes_only_unfinished_episodes(private_tmp: str, tmp_path: Path, kill_on_exit) -> None:
    out = tmp_path / "run"
    args = [*TASKS, "--repeats", "4", "--policy", SLOW, "--out", str(out), "--quiet"]

    # 1. Ctrl-C: the run stops, says how to resume, and leaves no worker or browser.
    first = start_eval(args, private_tmp)
    kill_on_exit.append(first)
    wait_for(lambda: len(ledger_lines(out)) >= 2, what="two episodes", proc=first)
    workers = procfs.children(first.pid)
    first.send_signal(signal.SIGINT)
    code, text = finish(first, 60)
    assert code == 130 and "--resume" in text, text
    assert not still_alive(workers)
    after_first = {r["key"]: r for r in ledger_lines(out)}

    # 2. Resumed, then killed outright: its workers die with it (and close their browsers).
    second = start_eval([*args, "--resume"], private_tmp)
    kill_on_exit.append(second)
    wait_for(lambda: len(ledger_lines(out)) >= len(after_first) + 2, what="two more episodes", proc=second)
    workers = procfs.children(second.pid)
    second.kill()
    second.wait(10)
    assert not still_alive(workers, timeout_s=20)
    with open(out / "ledger.jsonl", "a") as ledger:  # as if killed in the middle of a line
        ledger.write('{"key": "miniwob/click-test#3", "succ')
    after_second = {r["key"]: r for r in ledger_lines(out)}
    assert set(after_first) < set(after_second) and len(after_second) < 12

    # 3. Resumed to the end: only what was missing ran; earlier lines are untouched.
    third = start_eval([*args, "--resume"], private_tmp)
    kill_on_exit.append(third)
    code, text = finish(third)
    assert code == 0, text
    assert f"resuming: {len(after_second)} of 12 episodes already in the ledger, {12 - len(after_second)} to run" in text
    lines = ledger_lines(out)
    assert len(lines) == 12 and len({r["key"] for r in lines}) == 12
    for key, record in after_second.items():
        assert next(r for r in lines if r["key"] == key) == record
    assert all(r["success"] is True for r in lines)
    manifest = json.loads((out / "run.json").read_text())
    assert [s["resumed"] for s in manifest["sessions"]] == [False, True, True]
    assert json.loads((out / "results.json").read_text())["overall"]["scored"] == 12

    # A resume with other settings is refused instead of mixing experiments.
    code, text = finish(start_eval([*TASKS, "--repeats", "4", "--policy", "random", "--out", str(out), "--resume"], private_tmp))
    assert code == 2 and "other settings" in text and "policy" in text
    # And a new run never overwrites an existing one.
    code, text = finish(start_eval([*TASKS, "--out", str(out)], private_tmp))
    assert code == 2 and "already holds a run" in text
