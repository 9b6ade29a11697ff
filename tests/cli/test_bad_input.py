"""Bad input is handled as bad input: exit 2, one ``error:`` line, no traceback, nothing left behind.

Each case runs the real CLI in a subprocess, as a user's shell would: a backward seed
range, a misspelt ``py:`` policy, an oracle on a task it cannot solve, ``--headed``
without a working X display; and Ctrl-C in ``make-reward-data`` exits 130 quietly.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.paths import MINIWOB_TASKS, REPO, TASKS

CLICK = MINIWOB_TASKS / "click-button.yaml"

#: A user's module of policies: one that works, one whose construction refuses, one that
#: cannot act on any task (as an oracle without a solver says at reset).
POLICIES = '''
from gui_agent.errors import PolicyTaskError
from gui_agent.models.policies.random_policy import RandomPolicy


class Clicker(RandomPolicy):
    pass


def needs_a_model():
    raise ValueError("needs_a_model: no model path given")


class Refuses(RandomPolicy):
    def reset(self, task):
        raise PolicyTaskError(f"Refuses has no solver for {task.task_id}")
'''


def _cli(*args: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gui_agent", *map(str, args)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


def _bad_input(result: subprocess.CompletedProcess[str], *expected: str) -> None:
    """Exit 2, the expected words, and no traceback or Chromium log anywhere in the output."""
    output = result.stdout + result.stderr
    assert result.returncode == 2, output
    assert "Traceback" not in output and "chromium" not in output.lower(), output
    for text in expected:
        assert text in output, output


@pytest.fixture
def user_module(tmp_path: Path) -> dict[str, str]:
    """The environment of a shell whose PYTHONPATH holds the user's module ``mypolicies``."""
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "mypolicies.py").write_text(POLICIES)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)])}


def _episodes(folder: Path) -> list[Path]:
    return sorted(p.parent for p in folder.rglob("episode.json")) if folder.exists() else []


# --------------------------------------------------------------------------- seeds


@pytest.mark.parametrize("command", ["run", "eval"])
def test_a_backward_seed_range_is_refused(tmp_path: Path, command: str) -> None:
    """`--seeds 5-2` used to run seed 0 alone and exit 0."""
    out = tmp_path / "out"
    result = _cli(command, CLICK, "--policy", "oracle", "--seeds", "5-2", "--out", out, cwd=tmp_path)
    _bad_input(result, "--seeds", "5-2", "runs backwards", "2-5")
    assert not out.exists()


# --------------------------------------------------------------------------- py: policies


def test_a_misspelt_py_policy_is_one_line_in_run_and_eval(tmp_path: Path, user_module: dict[str, str]) -> None:
    """`--policy py:mod:Clickr` used to print an AttributeError traceback."""
    for command in ("run", "eval"):
        out = tmp_path / f"{command}-out"
        result = _cli(command, CLICK, "--policy", "py:mypolicies:Clickr", "--out", out, cwd=tmp_path, env=user_module)
        _bad_input(result, "mypolicies has no 'Clickr'", "Clicker")
        assert not out.exists()
    result = _cli("run", CLICK, "--policy", "py:mypolicy:Clicker", "--out", tmp_path / "o", cwd=tmp_path, env=user_module)
    _bad_input(result, "no module named 'mypolicy'")


@pytest.mark.slow  # a real eval: a worker, a browser
def test_eval_leaves_out_free_when_its_workers_cannot_build_the_policy(tmp_path: Path, user_module: dict[str, str]) -> None:
    """A policy that refuses in the worker used to leave run.json behind: the same --out then
    said "already holds a run: pass --resume"."""
    out = tmp_path / "runs" / "mine"
    failed = _cli("eval", CLICK, "--policy", "py:mypolicies:needs_a_model", "--out", out, "--quiet", cwd=tmp_path, env=user_module)
    _bad_input(failed, "needs_a_model: no model path given")
    assert not out.exists()
    fixed = _cli("eval", CLICK, "--policy", "py:mypolicies:Clicker", "--out", out, "--quiet", cwd=tmp_path, env=user_module)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert len((out / "ledger.jsonl").read_text().splitlines()) == 1


# --------------------------------------------------------------------------- an oracle on a task it cannot solve


def test_the_oracle_on_a_task_it_cannot_solve_is_refused_before_anything_starts(tmp_path: Path) -> None:
    """It used to start the desktop, print a traceback and leave a 'recording' episode; in eval,
    every episode became an environment fault."""
    out = tmp_path / "out"
    result = _cli("run", TASKS / "desktop" / "calc" / "sum-column.yaml", "--policy", "oracle", "--out", out, cwd=tmp_path)
    _bad_input(result, "--policy oracle cannot act on desktop.calc.sum-column", "desktop-oracle")
    assert not out.exists()

    result = _cli("eval", TASKS / "desktop" / "calc", "--out", out, cwd=tmp_path)  # the default policy is the oracle
    _bad_input(result, "--policy oracle cannot act on 13 of the 13 tasks", "desktop-oracle")
    assert not out.exists()

    # A user's tasks (no evaluator, to be judged) with the default policy: refused with the way out, not scored as faults.
    mine = tmp_path / "my-tasks"
    mine.mkdir()
    (mine / "find-the-button.yaml").write_text(
        "id: mine/find-the-button\ninstruction: Click the button\nenvironment: {kind: browser, url: 'miniwob:click-button'}\n")
    result = _cli("eval", mine, "--judge", tmp_path / "no-checkpoint-needed-yet", "--out", out, cwd=tmp_path)
    _bad_input(result, "--policy oracle cannot act on mine/find-the-button", "a model (hf:, openai:, anthropic:)")
    assert not out.exists()


@pytest.mark.slow  # real Chromium
def test_a_policy_that_refuses_the_task_at_reset_leaves_no_episode(tmp_path: Path, user_module: dict[str, str]) -> None:
    """What no cheap check can foresee: the policy says so at reset. `run`: exit 2, no 'recording'
    episode. `eval`: the agent's failure, scored, never an environment fault."""
    out = tmp_path / "out"
    result = _cli("run", CLICK, "--policy", "py:mypolicies:Refuses", "--out", out, cwd=tmp_path, env=user_module)
    _bad_input(result, "Refuses has no solver for miniwob/click-button")
    assert _episodes(out) == []

    runs = tmp_path / "eval"
    result = _cli("eval", CLICK, "--policy", "py:mypolicies:Refuses", "--out", runs, "--quiet", cwd=tmp_path, env=user_module)
    assert result.returncode == 0, result.stdout + result.stderr
    (record,) = [json.loads(line) for line in (runs / "ledger.jsonl").read_text().splitlines()]
    assert (record["success"], record["termination"]) == (False, "agent_error")
    assert "Refuses has no solver" in record["reason"]
    overall = json.loads((runs / "results.json").read_text())["overall"]
    assert not overall["env_faults"]
    assert _episodes(runs) == []


# --------------------------------------------------------------------------- --headed without a display


def _free_display() -> str:
    """A display number no X server uses here (no socket, no lock file)."""
    for number in range(4000, 4100):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            return f":{number}"
    raise AssertionError("no free display number in 4000-4099")


@pytest.mark.slow  # six commands, each its own process
def test_headed_without_a_display_is_the_users_setting(tmp_path: Path) -> None:
    """It used to be reported as an environment failure (exit 3), or as Chromium's stderr."""
    no_display = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    wrong = _free_display()
    out = tmp_path / "out"
    cases = [
        (["run", CLICK, "--policy", "oracle", "--headed", "--out", out], no_display, ["--headed needs an X display", "--display :N"]),
        (["run", CLICK, "--policy", "oracle", "--headed", "--display", wrong, "--out", out], os.environ,
         [f"--display {wrong}: no X server accepts a connection"]),
        (["eval", CLICK, "--headed", "--out", out], no_display, ["--headed needs an X display", "DISPLAY=:N"]),
        (["eval", CLICK, "--headed", "--out", out], {**no_display, "DISPLAY": wrong}, [f"$DISPLAY ({wrong}): no X server"]),
        (["replay", tmp_path, "--headed", "--display", wrong, "--out", out], os.environ, [f"--display {wrong}"]),
        (["make-reward-data", tmp_path, "--headed", "--out", out], no_display, ["--headed needs an X display"]),
    ]
    for args, env, expected in cases:
        _bad_input(_cli(*args, cwd=tmp_path, env=dict(env)), *expected)
        assert not out.exists()


@pytest.mark.slow  # real Xvfb and a headed Chromium
def test_headed_on_a_real_display_runs(tmp_path: Path) -> None:
    from gui_agent.envs.desktop.xvfb import XvfbDisplay

    with XvfbDisplay(width=1024, height=768) as display:
        result = _cli("run", CLICK, "--policy", "oracle", "--headed", "--display", display.name, "--out", tmp_path / "out",
                      cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout


# --------------------------------------------------------------------------- Ctrl-C


@pytest.mark.slow  # real Chromium: an oracle episode, then its reward data
def test_ctrl_c_in_make_reward_data_exits_130_without_a_traceback(tmp_path: Path) -> None:
    demos = tmp_path / "demos"
    made = _cli("run", MINIWOB_TASKS / "enter-text.yaml", "--policy", "oracle", "--out", demos, "--quiet", cwd=tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    out = tmp_path / "reward-data"
    # Its own process group, as a shell gives a foreground job: Ctrl-C reaches the whole group.
    process = subprocess.Popen([sys.executable, "-m", "gui_agent", "make-reward-data", str(demos), "--out", str(out)],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while not _episodes(out / "episodes") and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)  # until the first replay episode is being written: mid-work
        assert process.poll() is None, "make-reward-data ended before it could be interrupted"
        os.killpg(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, stdout + stderr
    assert "Traceback" not in stdout + stderr and "KeyboardInterrupt" not in stdout + stderr
    assert "interrupted" in stdout and "Run the same command again to resume" in stdout
