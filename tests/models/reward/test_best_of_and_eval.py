"""--best-of N picks the reward model's favourite among real policy samples; gui-agent eval --judge
scores tasks that have no evaluator (real Chromium, real workers)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from gui_agent.envs.base import Observation
from gui_agent.episode import read_episode, read_meta
from gui_agent.policy import TaskContext
from gui_agent.models.policies.random_policy import RandomPolicy
from gui_agent.models.reward.best_of import BestOfNPolicy
from gui_agent.models.reward.model import RewardModel
from tests.models.reward.reward_helpers import TASKS_DIR


def _first_frame(reward_data: Path):  # type: ignore[no-untyped-def]
    record = json.loads((reward_data / "outcomes.jsonl").read_text().splitlines()[0])
    episode = read_episode(reward_data / record["episode"])
    return episode.load_frame(episode.steps[0].frame_before), record["instruction"]


def test_best_of_picks_the_candidate_the_reward_model_scores_highest(reward_data: Path, trained_checkpoint: Path) -> None:
    model = RewardModel.load(trained_checkpoint)
    screen, instruction = _first_frame(reward_data)
    context = TaskContext(task_id="miniwob/click-button", instruction=instruction, seed=0)
    policy = BestOfNPolicy(RandomPolicy(seed=7), model, 6)
    policy.reset(context)
    twin = RandomPolicy(seed=7)  # draws the same 6 candidates
    twin.reset(context)
    observation = Observation(screenshot=screen, instruction=instruction)
    for _ in range(3):
        candidates = [twin.act(observation).actions[0] for _ in range(6)]
        assert len({repr(c) for c in candidates}) > 1
        scores = model.score_steps(screen, candidates, [None] * 6, instruction)
        decision = policy.act(observation)
        best = max(range(6), key=lambda i: (scores[i], -i))
        assert decision.actions[0] == candidates[best]
        assert decision.info["best_of"]["chosen"] == best
        assert decision.info["best_of"]["scores"] == [round(s, 4) for s in scores]
    assert policy.name == "best-of-6:random"


def test_best_of_tells_a_sampling_policy_which_candidate_was_taken(reward_data: Path, trained_checkpoint: Path) -> None:
    # The pixel policy remembers its steps (step count, clicks, typed tokens): under best-of it
    # must remember the action actually taken, not none of the samples.
    from gui_agent.models.pixel.policy import PixelPolicy

    model = RewardModel.load(trained_checkpoint)
    screen, instruction = _first_frame(reward_data)
    pixel = PixelPolicy()
    policy = BestOfNPolicy(pixel, model, 4)
    policy.reset(TaskContext(task_id="miniwob/click-button", instruction=instruction, seed=0))
    observation = Observation(screenshot=screen, instruction=instruction)
    for step in range(1, 3):
        decision = policy.act(observation)
        assert pixel._history.steps == step
        assert decision.info["best_of"]["n"] == 4


def _no_evaluator_task(tmp_path: Path) -> Path:
    spec = yaml.safe_load((TASKS_DIR / "click-button.yaml").read_text())
    spec.pop("evaluator")
    # Same id, so the oracle (which knows tasks by id) plays it; no evaluator, so only a judge can score it.
    path = tmp_path / "tasks" / "click-button-unjudged.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(yaml.safe_dump(spec))
    return path


def _eval(*args: str) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    return subprocess.run([sys.executable, "-m", "gui_agent", "eval", *args, "--quiet"], check=False, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_eval_judge_scores_only_tasks_without_an_evaluator(trained_checkpoint: Path, tmp_path: Path) -> None:
    task = _no_evaluator_task(tmp_path)
    out = tmp_path / "run"
    result = _eval(str(task), str(TASKS_DIR / "click-link.yaml"), "--policy", "oracle", "-k", "2", "--judge", str(trained_checkpoint), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    records = [json.loads(line) for line in (out / "ledger.jsonl").read_text().splitlines()]
    judged = [r for r in records if r["task_id"] == "miniwob/click-button"]
    evaluated = [r for r in records if r["task_id"] == "miniwob/click-link"]
    assert len(judged) == 2 and len(evaluated) == 2
    model = RewardModel.load(trained_checkpoint)
    for record in judged:
        episode = out / record["episode"]
        expected = model.score_episode(episode)
        assert record["judge"]["judge"].startswith("reward-model:")
        assert record["judge"]["score"] == pytest.approx(expected, abs=1e-4)
        assert record["success"] == (expected >= model.outcome_threshold)
        outcome = read_meta(episode).outcome
        assert outcome.detail["judge"]["score"] == pytest.approx(expected, abs=1e-4) and outcome.success == record["success"]
    assert all("judge" not in r and r["success"] for r in evaluated)
    results = json.loads((out / "results.json").read_text())
    assert results["run"]["judge"] == str(trained_checkpoint)


@pytest.mark.slow
def test_eval_judge_with_a_vlm_votes_in_the_worker(yes_model: Path, tmp_path: Path) -> None:
    task = _no_evaluator_task(tmp_path)
    out = tmp_path / "run"
    result = _eval(str(task), "--policy", "oracle", "--judge", f"hf:{yes_model}?votes=3&device=cpu", "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    record = json.loads((out / "ledger.jsonl").read_text().splitlines()[0])
    verdict = record["judge"]
    assert verdict["judge"] == f"vlm:{yes_model}"
    assert sum(verdict["votes"].values()) == 3 and len(verdict["replies"]) == 3
    assert record["success"] == (verdict["votes"]["yes"] > verdict["votes"]["no"])
    assert read_meta(out / record["episode"]).outcome.detail["judge"]["votes"] == verdict["votes"]


@pytest.mark.slow
def test_eval_best_of_runs_the_wrapped_policy(trained_checkpoint: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = _eval(str(TASKS_DIR / "click-button.yaml"), "--policy", "random:1", "--best-of", "3", "--reward-model", str(trained_checkpoint), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    record = json.loads((out / "ledger.jsonl").read_text().splitlines()[0])
    assert read_meta(out / record["episode"]).actor.name == "best-of-3:random"


def test_eval_refuses_bad_judge_and_best_of_without_a_model(tmp_path: Path) -> None:
    task = str(TASKS_DIR / "click-button.yaml")
    missing = _eval(task, "--judge", str(tmp_path / "no-ckpt"), "--out", str(tmp_path / "a"))
    assert missing.returncode == 2 and "no reward-model checkpoint here" in missing.stdout
    assert not (tmp_path / "a").exists()
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "reward_model.pt").write_bytes(b"not a checkpoint")
    damaged = _eval(task, "--best-of", "2", "--reward-model", str(broken), "--out", str(tmp_path / "b"))
    assert damaged.returncode == 2 and "not a readable checkpoint" in damaged.stdout
    alone = _eval(task, "--best-of", "2", "--out", str(tmp_path / "c"))
    assert alone.returncode == 2 and "--best-of needs a reward model" in alone.stdout
