"""Which reward model chooses among best-of-N decisions (a rule of the evaluation, not of its CLI)."""

from __future__ import annotations

from gui_agent.evaluate.judging import best_of_reward_model


def test_the_reward_model_given_chooses_else_a_judge_that_is_a_checkpoint() -> None:
    assert best_of_reward_model(reward_model="runs/rm-a", judge="runs/rm-b", best_of=4) == "runs/rm-a"
    assert best_of_reward_model(reward_model=None, judge="runs/reward-ckpt", best_of=4) == "runs/reward-ckpt"
    # A VLM judge judges whole episodes; it does not score decisions.
    assert best_of_reward_model(reward_model=None, judge="hf:Qwen/Qwen2-VL-2B-Instruct", best_of=4) is None
    assert best_of_reward_model(reward_model=None, judge="runs/reward-ckpt", best_of=1) is None  # nothing to choose
    assert best_of_reward_model(reward_model=None, judge=None, best_of=4) is None
