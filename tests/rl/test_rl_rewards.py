"""Learned rewards in a real ``gui-agent train rl`` run: a reward model mixed with the evaluator,
and its false successes counted (the reward-hacking rate) where the evaluator failed the rollout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from gui_agent.models.reward.checkpoint import save_model
from gui_agent.models.reward.network import NetConfig, OutcomeNet, StepNet
from tests.evaluate.eval_helpers import finish
from tests.paths import MINIWOB_TASKS
from tests.rl.rl_helpers import blank_kind_checkpoint, jsonl, start_train


def _gullible_reward_model(folder: Path) -> Path:
    """A reward model (the real format and networks, small) whose outcome scorer calls every episode a success."""
    config = NetConfig(width=8, text_dims=16, hidden=32)
    step = StepNet(config)
    outcome = OutcomeNet(config, step)
    last = outcome.head[-1]
    with torch.no_grad():
        last.weight.zero_()
        last.bias.fill_(8.0)
    save_model(folder, {"config": config.to_dict(), "step_state": step.state_dict(), "outcome_state": outcome.state_dict(),
                        "step_threshold": 0.5, "outcome_threshold": 0.5, "info": {"note": "says yes to everything"}})
    return folder


@pytest.mark.slow
def test_a_reward_model_mixed_with_the_evaluator_and_its_false_successes_counted(private_tmp: str, tmp_path: Path, kill_on_exit) -> None:
    model = _gullible_reward_model(tmp_path / "reward-ckpt")
    out = tmp_path / "rl"
    proc = start_train([str(MINIWOB_TASKS / "click-test.yaml"), "--from", str(blank_kind_checkpoint(tmp_path / "blank.pt")),
                        "--reward", "evaluator=0.5,reward-model=0.5", "--reward-model", str(model), "--group-size", "4",
                        "--groups-per-update", "1", "--updates", "3", "--out", str(out), "--quiet"], private_tmp)
    kill_on_exit.append(proc)
    code, text = finish(proc, timeout_s=300)
    assert code == 0, text
    scored = [r for r in jsonl(out / "ledger.jsonl") if r["success"] is not None]
    assert scored
    for record in scored:
        sources = record["rewards"]
        assert set(sources) == {"evaluator", "reward-model"} and sources["reward-model"] > 0.99
        assert record["reward"] == pytest.approx((sources["evaluator"] + sources["reward-model"]) / 2, abs=1e-5)
        assert record["success"] == record["evaluator_success"]  # the evaluator's verdict is the run's measure
        assert record["learned"] == {"reward-model": True}
        assert ("disagreement" in record) == (not record["evaluator_success"])
    failed = [r for r in scored if not r["evaluator_success"]]
    assert failed, "the blanked policy fails some rollouts"
    assert len(jsonl(out / "disagreements.jsonl")) == len(failed)
    overall = json.loads((out / "per_task.json").read_text())["overall"]
    assert overall["learned_successes"] == len(scored) and overall["learned_success_evaluator_failed"] == len(failed)
    assert overall["hacking_rate"] == pytest.approx(len(failed) / len(scored), abs=1e-3)
    assert "the evaluator failed" in text
