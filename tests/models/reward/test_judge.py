"""The VLM judge with a real tiny model built offline: sampled votes are counted; an unchanged
screen is judged without calling the model (counted on the real model's generate)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.actions import Click
from gui_agent.errors import ModelError
from gui_agent.models.reward.judge import (
    VlmJudge,
    check_judge,
    count_votes,
    episode_trajectory,
    load_judge,
)
from tests.models.reward.reward_helpers import episode_with_change as _episode


def test_count_votes_reads_the_first_yes_or_no_word() -> None:
    assert count_votes(["YES", "no.", "Yes, it did", "maybe", "I think NO", "yesterday"]) == (2, 2)


def _counted(judge: VlmJudge) -> list[int]:
    """Count calls of the real model's generate (the real one still runs)."""
    calls = [0]
    real = judge.vlm.model.generate

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return real(*args, **kwargs)

    judge.vlm.model.generate = counting
    return calls


def test_votes_are_sampled_and_counted(yes_model: Path, reward_data: Path) -> None:
    judge = load_judge(f"hf:{yes_model}?votes=5&temperature=0.7&device=cpu")
    assert isinstance(judge, VlmJudge)
    calls = _counted(judge)
    episode = _episode(reward_data, changed=True)
    verdict = judge.judge_episode(episode)
    assert calls[0] == 1  # one generate call returns all 5 samples
    votes = verdict.detail["votes"]
    assert votes["yes"] + votes["no"] + votes["abstain"] == 5 and len(verdict.detail["replies"]) == 5
    assert votes["yes"] >= 3 and verdict.success and verdict.score == votes["yes"] / (votes["yes"] + votes["no"])
    assert verdict.detail["usage"]["images"] == min(3, len(episode_trajectory(episode)[0]))  # first, last-but-one, final


def test_unchanged_screen_is_judged_without_calling_the_model(yes_model: Path, reward_data: Path) -> None:
    judge = load_judge(f"hf:{yes_model}?votes=3&device=cpu")
    calls = _counted(judge)
    still = _episode(reward_data, changed=False)
    verdict = judge.judge_episode(still)
    assert calls[0] == 0 and judge.calls == 0
    assert not verdict.success and "not asked" in verdict.detail["skipped"]
    frames, _, instruction = episode_trajectory(still)
    step = judge.judge_step(frames[0], Click(5, 5), frames[0].copy(), instruction)
    assert calls[0] == 0 and not step.success
    moved = frames[0].copy()
    moved[10:30, 10:30] = 255 - moved[10:30, 10:30]
    step = judge.judge_step(frames[0], Click(5, 5), moved, instruction)
    assert calls[0] == 1 and sum(step.detail["votes"].values()) == 3


def test_bad_judge_specs_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no config.json"):
        check_judge(f"hf:{tmp_path}")
    with pytest.raises(ModelError, match="unknown judge option 'vote'"):
        check_judge(f"hf:{tmp_path}?vote=3")
    with pytest.raises(ModelError, match="need temperature > 0"):
        check_judge(f"hf:{tmp_path}?votes=3&temperature=0")
