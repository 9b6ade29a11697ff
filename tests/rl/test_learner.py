"""The learner's arithmetic on the real pixel network: log-probs, the anchor, and rewards that rise.

No browser here: the decisions are sampled by the rollout policy from the shipped
checkpoint on a drawn screen, and a reward function stands in for a task's evaluator,
so a few updates run in seconds.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
import torch

from gui_agent.envs.base import Observation
from gui_agent.models.pixel.checkpoint import load_checkpoint
from gui_agent.models.pixel.dataset import collate
from gui_agent.models.pixel.policy import DEFAULT_CHECKPOINT
from gui_agent.models.rl import distribution
from gui_agent.models.rl.groups import Rollout, TrainGroup, advantages
from gui_agent.models.rl.learner import LearnerConfig, PixelLearner
from gui_agent.models.rl.rollout_policy import PixelRolloutPolicy
from gui_agent.policy import TaskContext

INSTRUCTION = 'Click on the "OK" button.'


def _screen() -> np.ndarray:
    """A 160x210 page with two grey buttons side by side, as MiniWoB++ draws them."""
    screen = np.full((210, 160, 3), 255, dtype=np.uint8)
    screen[:50] = (246, 246, 246)
    screen[100:120, 20:70] = (220, 220, 220)
    screen[100:120, 90:140] = (220, 220, 220)
    return screen


def _inputs(batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, ...]:
    return tuple(batch[k] for k in ("images", "chars", "words", "typed", "token_mask", "step", "previous"))


@pytest.fixture(scope="module")
def policy() -> PixelRolloutPolicy:
    torch.set_num_threads(1)
    return PixelRolloutPolicy(DEFAULT_CHECKPOINT)


def _decide(policy: PixelRolloutPolicy, seed: int, steps: int = 1):
    policy.reset(TaskContext(task_id="t", instruction=INSTRUCTION))
    policy.seed(seed)
    outputs = [policy.act(Observation(screenshot=_screen())) for _ in range(steps)]
    return outputs, policy.steps()


def test_the_learner_scores_a_decision_as_the_actor_sampled_it(policy: PixelRolloutPolicy) -> None:
    _, steps = _decide(policy, seed=3, steps=4)
    assert [s.version for s in steps] == [0, 0, 0, 0]
    batch = collate([replace(s.sample, frame=i) for i, s in enumerate(steps)], [torch.from_numpy(s.frame) for s in steps])
    with torch.no_grad():
        outputs = policy.model(*_inputs(batch))
    again = distribution.log_prob(outputs, batch)
    assert torch.allclose(again, torch.tensor([s.logp for s in steps]), atol=1e-4)
    assert all(s.logp <= 0 for s in steps)
    # The anchor is zero against itself and positive against other weights; entropy is positive.
    assert torch.allclose(distribution.kl_divergence(outputs, outputs), torch.zeros(4), atol=1e-6)
    other = {k: v + torch.randn_like(v) for k, v in outputs.items()}
    assert (distribution.kl_divergence(other, outputs) > 0).all()
    assert (distribution.entropy(outputs) > 0).all()


def test_sampling_is_seeded(policy: PixelRolloutPolicy) -> None:
    first = [o.actions for o in _decide(policy, seed=11, steps=3)[0]]
    again = [o.actions for o in _decide(policy, seed=11, steps=3)[0]]
    assert first == again


def test_group_advantages_compare_rollouts_of_a_group() -> None:
    assert advantages([1, 0, 0, 1], scale=False) == [0.5, -0.5, -0.5, 0.5]
    assert advantages([1, 0, 0, 1]) == [1.0, -1.0, -1.0, 1.0]
    assert advantages([1, 1, 1]) == [0.0, 0.0, 0.0]  # nothing to learn from a group that all succeeded


def _left_click(output) -> float:
    action = output.actions[0]
    return 1.0 if action.kind == "click" and action.x < 80 else 0.0


def _groups(policy: PixelRolloutPolicy, first_seed: int) -> list[TrainGroup]:
    """Four groups of eight one-step rollouts, rewarded for a click on the left half."""
    groups = []
    for group in range(4):
        rollouts = []
        for member in range(8):
            outputs, steps = _decide(policy, seed=first_seed + group * 10 + member)
            rollouts.append(Rollout({"reward": _left_click(outputs[0])}, steps))
        groups.append(TrainGroup(group, "t", rollouts, advantages([r.reward for r in rollouts])))
    return groups


def test_rewarded_clicks_become_more_likely(policy: PixelRolloutPolicy) -> None:
    """The reward pays for clicks on the left half of the screen (the left button), which the
    shipped policy hardly ever makes here: a few group-relative updates make it the habit."""
    policy.model.load_state_dict(load_checkpoint(DEFAULT_CHECKPOINT).model.state_dict())
    learner = PixelLearner(policy.model, load_checkpoint(DEFAULT_CHECKPOINT).model, LearnerConfig(lr=1e-3))
    rng = random.Random(0)

    def left_rate(seeds: range) -> float:
        return sum(_left_click(_decide(policy, seed)[0][0]) for seed in seeds) / len(seeds)

    before = left_rate(range(1000, 1040))
    learnt = sum(learner.update(_groups(policy, update * 100), rng)["decisions"] for update in range(6))
    after = left_rate(range(1000, 1040))
    print(f"left clicks: {before:.2f} before, {after:.2f} after ({learnt} decisions learnt from)")
    assert learnt > 0 and before < 0.5 and after >= before + 0.4, (before, after)


def test_the_kl_anchor_holds_the_policy_near_its_start(policy: PixelRolloutPolicy) -> None:
    """The same updates on the same rollouts move the policy less far from where it started
    (KL on the batch's screens) with a strong anchor than with none."""
    start = load_checkpoint(DEFAULT_CHECKPOINT).model
    policy.model.load_state_dict(start.state_dict())
    groups = _groups(policy, 0)
    assert any(g.informative for g in groups)
    distances = {}
    for kl_coef in (0.0, 2.0):
        model = load_checkpoint(DEFAULT_CHECKPOINT).model
        learner = PixelLearner(model, start, LearnerConfig(lr=1e-3, kl_coef=kl_coef, entropy_coef=0.0))
        for _ in range(3):
            learner.update(groups, random.Random(0))
        steps = [s for g in groups for r in g.rollouts for s in r.steps]
        batch = collate([replace(s.sample, frame=i) for i, s in enumerate(steps)], [torch.from_numpy(s.frame) for s in steps])
        with torch.no_grad():
            distances[kl_coef] = float(distribution.kl_divergence(model(*_inputs(batch)), start(*_inputs(batch))).mean())
    assert distances[2.0] < 0.5 * distances[0.0], distances
