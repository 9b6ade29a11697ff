"""Best-of-N: sample N decisions from a policy, let the reward model pick one.

At each step the wrapped policy is asked N times for its next decision on the same
observation; the reward model's step scorer rates each decision's first action *before*
it is taken (after-screen unknown, which the scorer is trained for, see
:mod:`gui_agent.models.reward.training`), and the best-rated decision is acted on. Ties keep the
earliest candidate, so N=1 is the policy itself.

Sampling: a :class:`~gui_agent.policy.SamplingPolicy` (``sample(observation, n)`` and
``accept``: the pixel and VLM policies) is asked once, and the chosen candidate is
``accept``-ed so the policy's memory of the episode (its history, its step count) holds
the action actually taken; any other policy is asked ``act`` N times, which suits stochastic policies that keep no per-step state (the random
policy, sampling VLMs without history). The usage of all N calls is charged, since all
N were paid for.
"""

from __future__ import annotations

from typing import Any

from gui_agent.envs.base import Observation
from gui_agent.episode.format import Usage
from gui_agent.policy import Policy, PolicyOutput, SamplingPolicy, TaskContext


def _summed_usage(outputs: list[PolicyOutput]) -> Usage | None:
    usages = [o.usage for o in outputs if o.usage is not None]
    if not usages:
        return None
    latencies = [u.latency_s for u in usages if u.latency_s is not None]
    return Usage(input_tokens=sum(u.input_tokens for u in usages), output_tokens=sum(u.output_tokens for u in usages),
                 images=sum(u.images for u in usages), latency_s=round(sum(latencies), 6) if latencies else None)


class BestOfNPolicy:
    """Wraps ``policy``; ``model`` is a :class:`gui_agent.models.reward.model.RewardModel` with a step scorer."""

    def __init__(self, policy: Policy, model: Any, n: int) -> None:
        if n < 1:
            raise ValueError(f"best-of needs n >= 1, got {n}")
        self.policy = policy
        self.model = model
        self.n = n
        self.name = f"best-of-{n}:{policy.name}"
        self._instruction = ""

    def reset(self, task: TaskContext) -> None:
        self.policy.reset(task)
        self._instruction = task.instruction

    def candidates(self, observation: Observation) -> list[PolicyOutput]:
        if isinstance(self.policy, SamplingPolicy):
            return list(self.policy.sample(observation, self.n))
        return [self.policy.act(observation) for _ in range(self.n)]

    def act(self, observation: Observation) -> PolicyOutput:
        outputs = self.candidates(observation)
        instruction = self._instruction or observation.instruction
        scores = self.model.score_steps(observation.screenshot, [o.actions[0] for o in outputs], [None] * len(outputs), instruction)
        chosen = max(range(len(outputs)), key=lambda i: (scores[i], -i))
        best = outputs[chosen]
        if isinstance(self.policy, SamplingPolicy):
            self.policy.accept(observation, best)
        info = dict(best.info)
        info["best_of"] = {"n": self.n, "scores": [round(s, 4) for s in scores], "chosen": chosen}
        return PolicyOutput(actions=best.actions, thought=best.thought, usage=_summed_usage(outputs), raw=best.raw, info=info)


def best_of_policy(policy: Policy, checkpoint: str, n: int) -> BestOfNPolicy:
    """Wrap ``policy`` with the reward model at ``checkpoint`` (RewardCheckpointError if it is not one)."""
    from gui_agent.models.reward.model import RewardModel

    model = RewardModel.load(checkpoint)
    if model.step_net is None:
        from gui_agent.errors import RewardCheckpointError

        raise RewardCheckpointError(f"{checkpoint}: has no step scorer, which best-of-N needs (train it on data with reward.jsonl)")
    return BestOfNPolicy(policy, model, n)


def check_reward_model(checkpoint: str) -> None:
    """Fail fast (before workers start) unless ``checkpoint`` is a reward model with a step scorer."""
    from gui_agent.errors import RewardCheckpointError
    from gui_agent.models.reward.checkpoint import load_payload

    if load_payload(checkpoint).get("step_state") is None:
        raise RewardCheckpointError(f"{checkpoint}: has no step scorer, which best-of-N needs (train it on data with reward.jsonl)")
