"""Each guard triggered by a policy built to misbehave, on real Chromium; and the budgets."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from gui_agent.actions import Click, Hotkey, Type, Wait
from gui_agent.envs.base import Observation
from gui_agent.episode import Usage, read_episode
from gui_agent.guards import Budget, BudgetMeter
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.runner import run_episode
from tests.guards.guard_page import BLANK, CLOSE, FIELD, INC, OPEN


class Scripted:
    """Plays a fixed list of actions, then repeats the last one; remembers what it was told."""

    name = "scripted"

    def __init__(self, actions, *, usage: Usage | None = None) -> None:
        self.actions = list(actions)
        self.usage = usage
        self.errors: list[str | None] = []
        self.calls = 0

    def reset(self, task: TaskContext) -> None:
        self.calls = 0
        self.errors = []

    def act(self, observation: Observation) -> PolicyOutput:
        self.errors.append(observation.last_action_error)
        action = self.actions[min(self.calls, len(self.actions) - 1)]
        self.calls += 1
        return PolicyOutput(actions=[action], usage=self.usage)


class LoopThenRecover(Scripted):
    """Clicks a blank spot until told it is looping, then does the task."""

    def act(self, observation: Observation) -> PolicyOutput:
        self.errors.append(observation.last_action_error)
        told = any(e and "doom loop" in e for e in self.errors)
        self.calls += 1
        return PolicyOutput(actions=[Click(*INC) if told else Click(*BLANK)])


def _guard_events(result) -> list[dict]:
    return result.detail.get("guards", [])


def test_a_no_op_click_forever_is_stopped_as_a_doom_loop(guard_task, guard_env, protected, tmp_path: Path) -> None:
    result = run_episode(guard_task, Scripted([Click(*BLANK)]), out_dir=tmp_path, seed=0, env=guard_env)
    assert result.termination == "truncated" and not result.success
    assert result.steps == 4  # max_repeats in the task file, well before the 12-step limit
    assert "doom loop" in result.reason and "click(250, 220)" in result.reason
    events = _guard_events(result)
    assert [(e["guard"], e["kind"], e["step"]) for e in events] == [("doom_loop", "stopped", 3)]
    episode = read_episode(result.episode_path)
    assert episode.meta.outcome.termination == "truncated" and "doom loop" in episode.meta.outcome.reason
    assert episode.steps[-1].info["guard_events"][0]["guard"] == "doom_loop"


def test_a_two_step_cycle_with_the_screen_flipping_back_is_a_loop(guard_task, guard_env, protected, tmp_path: Path) -> None:
    result = run_episode(guard_task, Scripted([Click(*OPEN), Click(*CLOSE)] * 10), out_dir=tmp_path, seed=0, env=guard_env)
    assert result.termination == "truncated" and "cycle" in result.reason
    assert _guard_events(result)[0]["detail"]["period"] == 2
    assert result.steps == 4


class Alternate(Scripted):
    def act(self, observation: Observation) -> PolicyOutput:
        self.calls += 1
        return PolicyOutput(actions=[Click(*OPEN) if self.calls % 2 else Click(*CLOSE)])


def test_repeating_an_action_that_changes_the_screen_is_progress_not_a_loop(guard_task, guard_env, protected, tmp_path: Path) -> None:
    # +1 ten times: the same action, but the counter on screen changes every time.
    result = run_episode(guard_task, Scripted([Click(*INC)] * 10 + [Click(*BLANK)]), out_dir=tmp_path, seed=0, env=guard_env)
    assert not any(e["guard"] == "doom_loop" for e in _guard_events(result))
    assert result.termination == "truncated" and "step limit" in result.reason
    assert result.success  # the count is past 3


def test_warn_mode_tells_the_policy_which_then_recovers(guard_task, guard_env, protected, tmp_path: Path) -> None:
    policy = LoopThenRecover([])
    result = run_episode(guard_task, policy, out_dir=tmp_path, seed=0, env=guard_env, on_loop="warn")
    warnings = [e for e in policy.errors if e and "doom loop" in e]
    assert len(warnings) == 1 and "try something different" in warnings[0]
    assert [e["kind"] for e in _guard_events(result)] == ["warned"]
    # It went on after the warning, pressed +1 until the step limit, and the task is solved.
    assert result.success and result.termination == "truncated" and result.steps == 12


def test_forbidden_hotkeys_and_text_are_refused_before_the_browser_sees_them(guard_task, guard_env, protected, tmp_path: Path) -> None:
    actions = [
        Click(*FIELD),
        Hotkey(("ctrl", "W")),          # a capital letter: still ctrl+w
        Hotkey(("ctrl", "shift", "w")),  # a superset of a forbidden combination
        Type("sudo rm  -rf /\n"),
        Hotkey(("alt", "f4")),
        Type("hello"),                   # allowed: reaches the page
        Hotkey(("ctrl", "a")),           # allowed
        Click(*INC), Click(*INC), Click(*INC),
    ]
    policy = Scripted(actions + [Wait(0)])
    result = run_episode(guard_task, policy, out_dir=tmp_path, seed=0, env=guard_env)
    blocked = [e for e in _guard_events(result) if e["kind"] == "blocked"]
    assert [e["step"] for e in blocked] == [1, 2, 3, 4]
    assert all(e["guard"] == "forbidden_action" for e in blocked)
    assert "ctrl+w" in blocked[0]["message"] and "rm" in blocked[2]["message"]
    # The refusal is what the policy saw after each blocked action.
    assert all(policy.errors[i] and policy.errors[i].startswith("refused:") for i in (2, 3, 4, 5))
    assert policy.errors[7] is None
    # The page never received a forbidden key; the allowed typing and keys arrived.
    keys = guard_env.evaluate_js("window.keys")
    assert not any("ctrl+w" in k or "ctrl+shift+w" in k or k == "f4" for k in keys)
    assert "h" in keys and "ctrl+a" in keys
    assert "rm" not in guard_env.evaluate_js("document.getElementById('field').value")
    episode = read_episode(result.episode_path)
    assert episode.steps[1].error.startswith("refused:") and episode.steps[1].info["guard_events"][0]["kind"] == "blocked"
    assert result.success  # refusals are not failures in themselves


class FileVandal(Scripted):
    """Solves the task, and meanwhile deletes one protected file and edits another (as a desktop agent could)."""

    def __init__(self, protected: Path) -> None:
        super().__init__([Click(*INC)] * 3 + [Wait(0)])
        self.protected = protected

    def act(self, observation: Observation) -> PolicyOutput:
        if self.calls == 1:
            (self.protected / "keep.txt").unlink()
            (self.protected / "sub" / "data.csv").write_text("a,b\n1,3\n")
            (self.protected / "new.txt").write_text("x")
        return super().act(observation)


def test_changed_protected_files_are_violations_and_fail_the_episode(guard_task, guard_env, protected, tmp_path: Path) -> None:
    clean = run_episode(guard_task, Scripted([Click(*INC)] * 3 + [Hotkey(("enter",))] * 2), out_dir=tmp_path, seed=0, env=guard_env)
    assert clean.success and not [e for e in _guard_events(clean) if e["kind"] == "violation"]

    result = run_episode(guard_task, FileVandal(protected), out_dir=tmp_path, seed=0, env=guard_env)
    violations = {(Path(e["detail"]["path"]).name, e["detail"]["change"]) for e in _guard_events(result) if e["kind"] == "violation"}
    assert violations == {("keep.txt", "deleted"), ("data.csv", "modified"), ("new.txt", "added")}
    assert not result.success and "guard violation" in result.reason
    assert result.detail["passed"] is True  # the evaluator alone would have passed it
    meta = read_episode(result.episode_path).meta
    assert meta.outcome.success is False and "keep.txt was deleted" in meta.outcome.reason


def test_token_budget_truncates_with_the_reason(guard_task, guard_env, protected, tmp_path: Path) -> None:
    policy = Scripted([Click(*INC), Click(*OPEN), Click(*CLOSE), Click(*INC)], usage=Usage(input_tokens=300, output_tokens=100, images=1))
    budget = Budget.from_limits(guard_task.limits, max_tokens=1000)
    result = run_episode(guard_task, policy, out_dir=tmp_path, seed=0, env=guard_env, budget=budget)
    assert result.termination == "truncated" and result.reason == "token budget reached (1200 of 1000 tokens)"
    assert result.steps == 3
    assert result.usage == {"input_tokens": 900, "output_tokens": 300, "images": 3}


def test_time_budget_truncates_with_the_reason(guard_task, guard_env, protected, tmp_path: Path) -> None:
    started = time.monotonic()
    result = run_episode(guard_task, Scripted([Wait(0.3)]), out_dir=tmp_path, seed=0, env=guard_env,
                         budget=Budget(max_steps=100, max_seconds=1.0))
    assert result.termination == "truncated" and result.reason == "episode time limit reached (1 s)"
    assert result.steps <= 4 and time.monotonic() - started < 15  # the clock includes the page load


def test_budget_meter_counts_and_names_the_first_budget_spent() -> None:
    meter = BudgetMeter(Budget(max_steps=3, max_tokens=50), started=time.monotonic())
    assert meter.exhausted() is None
    meter.charge(Usage(input_tokens=30, output_tokens=10))
    meter.charge(None)
    meter.steps = 2
    assert meter.exhausted() is None and meter.tokens == 40
    meter.charge(Usage(input_tokens=5, output_tokens=5, images=2))
    assert meter.exhausted() == "token budget reached (50 of 50 tokens)"
    meter.steps = 3
    assert meter.exhausted() == "step limit reached (3 steps)"
    assert meter.usage() == {"input_tokens": 35, "output_tokens": 15, "images": 2}
    with pytest.raises(ValueError):
        from gui_agent.guards import DoomLoopGuard

        DoomLoopGuard(None, max_repeats=1)  # type: ignore[arg-type]
