"""HTTP policies in whole episodes on real Chromium: service failures apart, money budgets,
no key in anything written, Ctrl-C during a call, one endpoint's concurrency across processes."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from gui_agent.envs.base import Observation
from gui_agent.episode import read_episode
from gui_agent.guards import Budget
from gui_agent.policy import TaskContext
from gui_agent.registry import load_policy
from gui_agent.runner import run_episode
from gui_agent.task import load_task
from gui_agent.models.http.concurrency import EndpointSlots
from tests.models.http.standin import Reply, chat_completion, openai_error, stand_in
from tests.paths import MINIWOB_TASKS, REPO

KEY = "sk-test-episode-key-abcdef123456"
CLICK_BUTTON = MINIWOB_TASKS / "click-button.yaml"
WAIT = chat_completion("nothing to do yet", tool_calls=[{"name": "wait", "arguments": {"seconds": 0}}],
                       prompt_tokens=100_000, completion_tokens=100)


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def _cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gui_agent", *args], capture_output=True, text=True, timeout=timeout, cwd=REPO,
                          env={**os.environ, "OPENAI_API_KEY": KEY})


def test_a_service_that_stays_down_ends_the_episode_as_a_service_failure(tmp_path: Path) -> None:
    with stand_in([Reply(status=503, body=openai_error("The engine is currently overloaded", kind="server_error"))]) as server:
        policy = load_policy(f"openai:gpt-4o?base_url={server.url}/v1&retries=2&backoff=0.01&format=json")
        result = run_episode(load_task(CLICK_BUTTON), policy, out_dir=tmp_path, seed=0)
    assert result.service_failed and not result.env_failed and not result.success
    assert result.termination == "service_error" and result.fault == "unavailable"
    assert "HTTP 503: The engine is currently overloaded" in result.reason
    meta = read_episode(result.episode_path).meta
    assert meta.outcome.success is None and meta.outcome.termination == "service_error"
    assert len(server.requests) == 3


def test_run_and_eval_count_a_service_failure_apart_and_never_score_it(tmp_path: Path) -> None:
    with stand_in([Reply(status=500, body=openai_error("boom", kind="server_error"))]) as server:
        spec = f"openai:gpt-4o?base_url={server.url}/v1&retries=1&backoff=0.01&format=json"
        run = _cli("run", str(CLICK_BUTTON), "--policy", spec, "--out", str(tmp_path / "run"), "--quiet")
        evaluation = _cli("eval", str(CLICK_BUTTON), "--policy", spec, "--repeats", "2", "--out", str(tmp_path / "eval"), "--quiet")
    assert run.returncode == 3 and "SERVICE FAILURE" in run.stdout, run.stdout + run.stderr
    assert evaluation.returncode == 3, evaluation.stdout + evaluation.stderr
    overall = json.loads((tmp_path / "eval" / "results.json").read_text())["overall"]
    assert (overall["scored"], overall["service_failures"], overall["env_failures"]) == (0, 2, 0)
    # The outage is the service's, never an environment fault. (A browser that really had a
    # fault while starting an episode, on a busy machine, is one, retried and counted as such.)
    assert "unavailable" not in overall["env_faults"], overall["env_faults"]
    faults_line = [line for line in evaluation.stdout.lower().splitlines() if "environment faults" in line]
    assert not any("unavailable" in line for line in faults_line), faults_line
    assert "2 policy service failures not scored" in (tmp_path / "eval" / "results.md").read_text()


def test_a_money_budget_ends_the_episode_with_the_reason(tmp_path: Path) -> None:
    with stand_in([Reply(body=WAIT)]) as server:  # each call: 100k prompt tokens of gpt-4o, $0.251
        policy = load_policy(f"openai:gpt-4o?base_url={server.url}/v1&format=json")
        task = load_task(CLICK_BUTTON)
        result = run_episode(task, policy, out_dir=tmp_path, seed=0, budget=Budget.from_limits(task.limits, max_cost_usd=0.5))
    assert result.termination == "truncated" and result.reason.startswith("cost budget reached ($0.5020 of $0.5)")
    assert len(server.requests) == 2 and result.usage["cost_usd"] == pytest.approx(0.502)
    steps = read_episode(result.episode_path).steps
    assert [s.usage.cost_usd for s in steps] == [pytest.approx(0.251)] * 2


def test_the_key_is_in_no_file_the_run_writes(tmp_path: Path) -> None:
    masked = f"Incorrect API key provided: {KEY[:8]}****{KEY[-4:]}"
    with stand_in([Reply(body=WAIT), Reply(status=401, body=openai_error(masked, code="invalid_api_key"))]) as server:
        run = _cli("run", str(CLICK_BUTTON), "--policy", f"openai:gpt-4o?base_url={server.url}/v1&key_env=OPENAI_API_KEY&format=json",
                   "--out", str(tmp_path / "o"))
    assert run.returncode == 3 and "refused the request: HTTP 401" in run.stdout
    written = b"".join(p.read_bytes() for p in (tmp_path / "o").rglob("*") if p.is_file())
    assert b"Incorrect API key provided" in written  # the service's words are kept...
    for leaked in (KEY, KEY[:8], KEY[-6:]):
        assert leaked.encode() not in written and leaked not in run.stdout + run.stderr  # ...its key is not


def test_ctrl_c_during_a_call_stops_the_run_cleanly(tmp_path: Path) -> None:
    with stand_in([Reply(fault="hang", hang_s=30)]) as server:
        proc = subprocess.Popen([sys.executable, "-m", "gui_agent", "run", str(CLICK_BUTTON), "--policy",
                                 f"openai:gpt-4o?base_url={server.url}/v1&format=json&timeout=60", "--out", str(tmp_path / "o")],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO, start_new_session=True,
                                env={**os.environ, "OPENAI_API_KEY": KEY})
        try:
            deadline = time.monotonic() + 60
            while not server.requests and time.monotonic() < deadline:
                time.sleep(0.05)
            assert server.requests, "the run never called the model"
            started = time.monotonic()
            os.kill(proc.pid, signal.SIGINT)
            out, _ = proc.communicate(timeout=20)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    assert proc.returncode == 130 and "interrupted" in out, out
    assert time.monotonic() - started < 15
    assert "Traceback" not in out


def _three_calls(url: str, limit: int, root: str) -> None:
    os.environ["OPENAI_API_KEY"] = KEY
    policy = load_policy(f"openai:gpt-4o?base_url={url}/v1&format=json&max_concurrent={limit}")
    policy._slots = EndpointSlots(str(policy._client.base_url), limit, root=Path(root))
    policy.reset(TaskContext(task_id="t", instruction="wait"))
    for _ in range(3):
        policy.act(Observation(screenshot=np.zeros((40, 60, 3), np.uint8)))


@pytest.mark.parametrize("limit", [1, 2])
def test_max_concurrent_holds_across_worker_processes(limit: int, tmp_path: Path) -> None:
    with stand_in([Reply(body=WAIT)]) as server:
        server.delay_s = 0.3
        context = multiprocessing.get_context("spawn")
        workers = [context.Process(target=_three_calls, args=(server.url, limit, str(tmp_path))) for _ in range(3)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(60)
        assert [w.exitcode for w in workers] == [0, 0, 0]
    assert len(server.requests) == 9
    assert server.max_in_flight == limit


@pytest.mark.parametrize("workers", [1, 2])
def test_a_run_money_budget_stops_starting_episodes_and_a_resume_with_more_runs_the_rest(workers: int, tmp_path: Path) -> None:
    out = tmp_path / "eval"
    with stand_in([Reply(body=WAIT)]) as server:  # each episode: 2 calls of $0.251, then its own --max-cost ends it
        spec = f"openai:gpt-4o?base_url={server.url}/v1&format=json"
        common = [str(CLICK_BUTTON), "--policy", spec, "--repeats", "4", "--max-cost", "0.3", "--out", str(out), "--quiet",
                  "--workers", str(workers), "--no-pin-cpus"]
        first = _cli("eval", *common, "--max-run-cost", "0.5")
        results = json.loads((out / "results.json").read_text())
        assert first.returncode == 0, first.stdout + first.stderr
        assert "stopped early: run cost budget reached" in first.stdout
        assert results["run"]["stopped"].startswith("run cost budget reached ($")
        done = results["run"]["finished"]
        # The first episode spends the budget: nothing starts after it. Only episodes already
        # under way on other workers then finish (one worker: none).
        assert 1 <= done <= workers
        if workers == 1:  # a resume whose ledger has spent the same budget starts nothing
            again = _cli("eval", *common, "--max-run-cost", "0.5", "--resume")
            assert again.returncode == 0 and json.loads((out / "results.json").read_text())["run"]["finished"] == done, again.stdout
        assert results["overall"]["cost_usd"] == pytest.approx(0.502 * done)
        assert all(t == "truncated" for t in results["overall"]["terminations"])
        second = _cli("eval", *common, "--max-run-cost", "100", "--resume")
    assert second.returncode == 0, second.stdout + second.stderr
    results = json.loads((out / "results.json").read_text())
    assert results["run"]["finished"] == 4 and results["run"]["stopped"] is None
    assert results["overall"]["cost_per_episode"] == pytest.approx(0.502)


@pytest.mark.parametrize("vendor", ["anthropic", "openai-cua"])
def test_a_computer_use_agent_solves_a_page_through_a_scaled_display(vendor: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle's click, said in the declared display's pixels, lands on the button of the real page."""
    from gui_agent.action_formats._gestures import DisplayScale
    from tests.models.http.standin import anthropic_message, computer_call, openai_response, tool_use

    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    task = load_task(CLICK_BUTTON)
    oracle = run_episode(task, load_policy("oracle"), out_dir=tmp_path / "oracle", seed=0)
    (click,) = [step.action for step in read_episode(oracle.episode_path).steps]
    display = (80, 105) if vendor == "anthropic" else (320, 420)  # half, and twice, the 160x210 task area
    x, y = DisplayScale(*display, 160, 210).to_display(click["x"], click["y"])
    if vendor == "anthropic":
        reply = anthropic_message(tool_use("left_click", coordinate=[x, y]))
        spec = f"anthropic:claude-sonnet-4-5?display={display[0]}x{display[1]}"
    else:
        reply = openai_response(computer_call({"type": "click", "button": "left", "x": x, "y": y}))
        spec = f"openai-cua:computer-use-preview?display={display[0]}x{display[1]}&environment=browser"
    with stand_in([Reply(body=reply)]) as server:
        url = server.url if vendor == "anthropic" else f"{server.url}/v1"
        result = run_episode(task, load_policy(f"{spec}&base_url={url}"), out_dir=tmp_path / "agent", seed=0)
    assert result.success, result.reason
    (step,) = read_episode(result.episode_path).steps
    assert abs(step.action["x"] - click["x"]) <= 1 and abs(step.action["y"] - click["y"]) <= 1
    assert step.usage.cost_usd is not None and step.usage.cost_usd > 0


def test_eval_refuses_a_policy_without_its_key_before_any_worker_starts(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    out = tmp_path / "eval"
    run = subprocess.run([sys.executable, "-m", "gui_agent", "eval", str(CLICK_BUTTON), "--policy", "openai:gpt-4o", "--out", str(out)],
                         capture_output=True, text=True, timeout=60, cwd=REPO, env=env)
    assert run.returncode == 2 and "set the environment variable OPENAI_API_KEY" in run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr and not (out / "run.json").exists()  # the same command works once the key is set


def test_resume_asks_a_service_that_was_down_again(tmp_path: Path) -> None:
    out = tmp_path / "eval"
    with stand_in([Reply(status=503, body=openai_error("down for maintenance", kind="server_error"))]) as server:
        spec = f"openai:gpt-4o?base_url={server.url}/v1&format=json&retries=0"
        args = [str(CLICK_BUTTON), "--policy", spec, "--repeats", "2", "--max-cost", "0.3", "--out", str(out), "--quiet"]
        first = _cli("eval", *args)
        assert first.returncode == 3
        assert json.loads((out / "results.json").read_text())["overall"]["service_failures"] == 2
        server.script = [Reply(body=WAIT)]  # the service is back
        second = _cli("eval", *args, "--resume")
    assert second.returncode == 0, second.stdout + second.stderr
    overall = json.loads((out / "results.json").read_text())["overall"]
    assert (overall["scored"], overall["service_failures"]) == (2, 0)
