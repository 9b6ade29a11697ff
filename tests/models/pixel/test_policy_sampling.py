"""Best-of-N support: several distinct candidates from one call, memory changed only on accept."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gui_agent.envs.base import Observation
from gui_agent.policy import SamplingPolicy, TaskContext
from gui_agent.models.pixel.checkpoint import save_checkpoint
from gui_agent.models.pixel.network import PixelPolicyNet
from gui_agent.models.pixel.policy import PixelPolicy


def test_sample_gives_distinct_candidates_and_accept_records_one(tmp_path: Path, tiny_net_config) -> None:
    save_checkpoint(tmp_path / "t.pt", PixelPolicyNet(tiny_net_config), {})
    policy = PixelPolicy(tmp_path / "t.pt")
    assert isinstance(policy, SamplingPolicy)
    policy.reset(TaskContext(task_id="miniwob/enter-text", instruction='Enter "Bob" into the text field.'))
    screen = np.random.default_rng(0).integers(0, 255, size=(210, 160, 3), dtype=np.uint8)
    observation = Observation(screenshot=screen)
    candidates = policy.sample(observation, 4, temperature=2.0)
    assert 1 <= len(candidates) <= 4
    actions = [c.actions[0] for c in candidates]
    assert len(set(actions)) == len(actions)
    assert policy.sample(observation, 1)[0].actions == candidates[0].actions  # greedy first, memory untouched
    assert policy._history.steps == 0
    policy.accept(observation, candidates[-1])
    assert policy._history.steps == 1 and policy._history.previous_kind > 0
    policy.act(observation)
    assert policy._history.steps == 2
