"""What a rollout earns: the task's evaluator, a trained reward model, a judge, or a weighted mix.

Chosen per run (``gui-agent train rl --reward ...``). Each source gives a number in
[0, 1] and a success verdict:

* ``evaluator`` -- the task file's own check, what ``gui-agent eval`` scores (the default):
  its reward clipped to [0, 1] (MiniWoB++ pages give -1 for a failure);
* ``reward-model`` -- a ``gui-agent train reward`` checkpoint: its outcome scorer's
  P(success) (``outcome``), the mean of its step scorer's step scores (``step``: progress
  1, neutral 0.5, harmful 0), or their mean (``both``);
* ``judge`` -- any ``--judge`` of ``gui-agent eval``: a reward-model checkpoint or
  ``hf:MODEL`` (a VLM voting YES/NO); its score.

The reward is the weighted mean of the chosen sources. The evaluator runs on every
rollout of a task that has one, whatever the mix: its verdict is the run's measure of
success, and where a learned source calls an episode a success that the evaluator
failed (or the other way round), the rollout's record says so -- the reward-hacking
rate of a learned reward.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SOURCES = ("evaluator", "reward-model", "judge")
SCORE_KINDS = ("outcome", "step", "both")
#: A learned source's score at or above this calls the episode a success (reward models store their own threshold).
SUCCESS_AT = 0.5


@dataclass(frozen=True)
class RewardSpec:
    """Which sources make the reward, with their weights (plain data: it travels to the workers).

    Attributes:
        weights: source -> weight (> 0), for the sources in :data:`SOURCES` that are used.
        reward_model: the reward-model checkpoint (``reward-model`` source).
        reward_model_scores: ``outcome``, ``step`` or ``both``.
        judge: the judge spec (``judge`` source).
    """

    weights: dict[str, float] = field(default_factory=lambda: {"evaluator": 1.0})
    reward_model: str | None = None
    reward_model_scores: str = "outcome"
    judge: str | None = None

    @property
    def learned(self) -> list[str]:
        """The learned sources in the mix (whose verdicts are checked against the evaluator's)."""
        return [s for s in ("reward-model", "judge") if s in self.weights]

    def describe(self) -> str:
        return " + ".join(f"{w:g}*{s}" for s, w in self.weights.items())


def parse_mix(text: str | None, *, reward_model: str | None = None, judge: str | None = None,
              reward_model_scores: str = "outcome") -> RewardSpec:
    """The spec of ``--reward SOURCE[=WEIGHT],...``; without ``--reward``: the reward model if
    given, else the judge if given, else the evaluator.

    Raises:
        ValueError: an unknown source, a bad weight, or a source without its model.
    """
    if reward_model_scores not in SCORE_KINDS:
        raise ValueError(f"--reward-model-scores must be one of {', '.join(SCORE_KINDS)}, not {reward_model_scores!r}")
    if not text:
        text = "reward-model" if reward_model else "judge" if judge else "evaluator"
    weights: dict[str, float] = {}
    for part in text.split(","):
        name, _, weight = part.strip().partition("=")
        name = name.strip().replace("_", "-")
        if name not in SOURCES:
            raise ValueError(f"--reward: unknown source {name!r}; sources are {', '.join(SOURCES)} (e.g. evaluator=0.5,reward-model=0.5)")
        try:
            value = float(weight) if weight else 1.0
        except ValueError:
            raise ValueError(f"--reward: the weight of {name} must be a number, not {weight!r}") from None
        if not value > 0:
            raise ValueError(f"--reward: the weight of {name} must be > 0, not {weight}")
        weights[name] = weights.get(name, 0.0) + value
    if "reward-model" in weights and not reward_model:
        raise ValueError("--reward reward-model needs --reward-model CKPT (a 'gui-agent train reward' checkpoint)")
    if "judge" in weights and not judge:
        raise ValueError("--reward judge needs --judge CKPT|hf:MODEL")
    return RewardSpec(weights=weights, reward_model=reward_model, reward_model_scores=reward_model_scores, judge=judge)


class RewardScorer:
    """Scores finished rollouts in a worker; models are loaded on first use."""

    def __init__(self, spec: RewardSpec) -> None:
        self.spec = spec
        self._model: Any = None
        self._judge: Any = None

    def score(self, episode: Path, *, evaluator_reward: float | None, evaluator_success: bool | None) -> dict[str, Any]:
        """The rollout's reward and each source's part.

        Returns:
            ``reward`` (the mix), ``sources`` (source -> score), ``success`` (the
            evaluator's verdict where it judged, else the learned sources' mean verdict),
            and ``disagreement`` (learned source -> its verdict) where a learned source
            and the evaluator disagree.
        """
        sources: dict[str, float] = {}
        verdicts: dict[str, bool] = {}
        if evaluator_success is not None:
            sources["evaluator"] = min(1.0, max(0.0, float(evaluator_reward or 0.0)))
        if "reward-model" in self.spec.weights:
            sources["reward-model"], verdicts["reward-model"] = self._reward_model_score(episode)
        if "judge" in self.spec.weights:
            verdict = self._load_judge().judge_episode(episode)
            sources["judge"], verdicts["judge"] = float(verdict.score), bool(verdict.success)
        used = {name: weight for name, weight in self.spec.weights.items() if name in sources}
        if not used:
            raise ValueError("no reward source could score this rollout (a task without an evaluator needs --reward-model or --judge)")
        reward = sum(weight * sources[name] for name, weight in used.items()) / sum(used.values())
        success = evaluator_success if evaluator_success is not None else sum(verdicts.values()) * 2 > len(verdicts)
        disagreement = ({name: verdict for name, verdict in verdicts.items() if verdict != evaluator_success}
                        if evaluator_success is not None else {})
        return {"reward": round(reward, 6), "sources": {k: round(v, 6) for k, v in sources.items()},
                "success": success, "learned": verdicts, "disagreement": disagreement}

    def _reward_model_score(self, episode: Path) -> tuple[float, bool]:
        from gui_agent.models.reward.model import RewardModel
        from gui_agent.models.reward.transitions import episode_trajectory

        if self._model is None:
            self._model = RewardModel.load(str(self.spec.reward_model))
        frames, actions, instruction = episode_trajectory(episode)
        parts: list[float] = []
        if self.spec.reward_model_scores in ("outcome", "both"):
            parts.append(self._model.score_outcome(frames, actions, instruction))
        if self.spec.reward_model_scores in ("step", "both"):
            steps = [self._model.score_step(frames[i], action, frames[i + 1] if i + 1 < len(frames) else None, instruction)
                     for i, action in enumerate(actions) if i < len(frames)]
            parts.append(sum(steps) / len(steps) if steps else 0.0)
        score = sum(parts) / len(parts)
        threshold = self._model.outcome_threshold if self.spec.reward_model_scores == "outcome" else SUCCESS_AT
        return score, score >= threshold

    def _load_judge(self) -> Any:
        if self._judge is None:
            from gui_agent.models.reward.judge import load_judge

            self._judge = load_judge(str(self.spec.judge))
        return self._judge
