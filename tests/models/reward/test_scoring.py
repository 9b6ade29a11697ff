"""The inference API: step and outcome scores from pixels, actions and the instruction."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from gui_agent.actions import Click, Type
from gui_agent.episode import read_episode
from gui_agent.models.reward.model import RewardModel


def _episode(reward_data: Path, policy: str) -> Path:
    for line in (reward_data / "outcomes.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record["detail"]["policy"] == policy:
            return reward_data / record["episode"]
    raise AssertionError(policy)


def test_step_scores_are_expected_rewards_and_batch_like_single(reward_data: Path, trained_checkpoint: Path) -> None:
    model = RewardModel.load(trained_checkpoint)
    episode = read_episode(_episode(reward_data, "oracle"))
    before, after = episode.load_frame(episode.steps[0].frame_before), episode.load_frame(episode.final_frame if len(episode.steps) == 1 else episode.steps[1].frame_before)
    action = episode.actions()[0]
    probs = model.step_label_probs(before, action, after, episode.meta.task.instruction)
    assert set(probs) == {"progress", "neutral", "harmful"} and abs(sum(probs.values()) - 1) < 1e-5
    single = model.score_step(before, action, after, episode.meta.task.instruction)
    assert single == probs["progress"] + 0.5 * probs["neutral"] or abs(single - (probs["progress"] + 0.5 * probs["neutral"])) < 1e-5
    candidates = [action, Click(1, 1), Type("zzz")]
    batch = model.score_steps(before, candidates, [None] * 3, episode.meta.task.instruction)
    assert len(batch) == 3 and all(0.0 <= s <= 1.0 for s in batch)
    assert abs(batch[1] - model.score_step(before, Click(1, 1), None, episode.meta.task.instruction)) < 1e-5


def test_outcome_scores_from_an_episode_folder_and_from_arrays_agree(reward_data: Path, trained_checkpoint: Path) -> None:
    model = RewardModel.load(trained_checkpoint)
    path = _episode(reward_data, "oracle")
    episode = read_episode(path)
    frames = [episode.load_frame(s.frame_before) for s in episode.steps] + [episode.load_frame(episode.final_frame)]
    from_folder = model.score_episode(path)
    from_arrays = model.score_outcome(frames, episode.actions(), episode.meta.task.instruction)
    assert 0.0 <= from_folder <= 1.0 and abs(from_folder - from_arrays) < 1e-6
    # The score depends on what the trajectory shows: a blank trajectory does not score like the real one.
    blank = [np.zeros_like(frames[0])] * len(frames)
    assert abs(model.score_outcome(blank, episode.actions(), episode.meta.task.instruction) - from_arrays) > 1e-4
