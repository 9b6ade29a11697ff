"""A trained reward model at inference: score a step, score a whole trajectory.

    >>> model = RewardModel.load("runs/reward-ckpt")
    >>> model.score_step(before, Click(40, 80), after, "Click the OK button")   # 0..1
    >>> model.score_outcome(frames, actions, "Click the OK button")             # P(success)
    >>> model.score_episode("runs/x/episodes/<id>")                              # P(success)

Inputs are pixels, actions and the instruction, nothing else: no DOM, no environment
reward. What the model cannot see it cannot judge: a click on a link that ends the task
leaves the screen as it was, so such an outcome is judged from what was clicked (the
glimpse around the pointer), not from a success banner.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from gui_agent.actions import Action
from gui_agent.errors import RewardCheckpointError
from gui_agent.models.reward.checkpoint import load_payload
from gui_agent.models.reward.network import (
    STEP_LABELS,
    NetConfig,
    OutcomeNet,
    StepNet,
    collate_trajectories,
    collate_transitions,
    step_scores,
)
from gui_agent.models.reward.transitions import (
    encode_trajectory,
    encode_transition,
    episode_trajectory,
)


class RewardModel:
    """Step and outcome scorers loaded from one checkpoint (CPU by default).

    Attributes:
        step_threshold: a step whose P(progress) is at least this counts as progress.
        outcome_threshold: a trajectory whose P(success) is at least this counts as a success.
        info: what the checkpoint says about its training (tasks, figures).
    """

    def __init__(self, step_net: StepNet | None, outcome_net: OutcomeNet | None, *, step_threshold: float = 0.5,
                 outcome_threshold: float = 0.5, info: dict[str, Any] | None = None, device: str = "cpu") -> None:
        self.step_net = step_net.eval().to(device) if step_net is not None else None
        self.outcome_net = outcome_net.eval().to(device) if outcome_net is not None else None
        self.step_threshold = step_threshold
        self.outcome_threshold = outcome_threshold
        self.info = info or {}
        self.device = device

    @classmethod
    def load(cls, path: str | Path, *, device: str = "cpu") -> RewardModel:
        """Load a checkpoint folder (or its ``reward_model.pt``); raises RewardCheckpointError if it is not one."""
        payload = load_payload(path)
        try:
            config = NetConfig(**payload["config"])
            shared = StepNet(config)
            step_net = outcome_net = None
            if payload.get("step_state") is not None:
                shared.load_state_dict(payload["step_state"])
                step_net = shared
            if payload.get("outcome_state") is not None:
                outcome_net = OutcomeNet(config, shared)  # holds the step scorer's weights too
                outcome_net.load_state_dict(payload["outcome_state"])
        except (KeyError, TypeError, RuntimeError) as exc:
            raise RewardCheckpointError(f"{path}: the checkpoint's weights do not fit its network ({type(exc).__name__}: {exc})") from None
        return cls(step_net, outcome_net, step_threshold=float(payload.get("step_threshold", 0.5)),
                   outcome_threshold=float(payload.get("outcome_threshold", 0.5)), info=payload.get("info", {}), device=device)

    # -- steps ---------------------------------------------------------------------------

    def step_label_probs(self, before: np.ndarray, action: Action, after: np.ndarray | None, instruction: str) -> dict[str, float]:
        """P(progress), P(neutral), P(harmful) of one step (``after=None``: not taken yet)."""
        logits = self._step_logits([encode_transition(before, action, after, instruction)])
        return dict(zip(STEP_LABELS, logits.softmax(-1)[0].tolist()))

    def is_progress(self, before: np.ndarray, action: Action, after: np.ndarray | None, instruction: str) -> bool:
        """The step-level decision: does this step make progress (P(progress) >= ``step_threshold``)?"""
        return self.step_label_probs(before, action, after, instruction)["progress"] >= self.step_threshold

    def score_step(self, before: np.ndarray, action: Action, after: np.ndarray | None, instruction: str) -> float:
        """The step's expected reward in [0, 1] (progress 1, neutral 0.5, harmful 0)."""
        return self.score_steps(before, [action], [after], instruction)[0]

    def score_steps(self, before: np.ndarray, actions: list[Action], afters: list[np.ndarray | None], instruction: str) -> list[float]:
        """Scores of several candidate actions on the same screen, in one batch."""
        items = [encode_transition(before, action, after, instruction) for action, after in zip(actions, afters)]
        return step_scores(self._step_logits(items)).tolist()

    def _step_logits(self, items: list) -> torch.Tensor:  # type: ignore[type-arg]
        if self.step_net is None:
            raise RewardCheckpointError("this checkpoint has no step scorer (it was trained without step samples)")
        with torch.inference_mode():
            batch = {k: v.to(self.device) for k, v in collate_transitions(items).items()}
            return self.step_net(batch).float().cpu()

    # -- outcomes ------------------------------------------------------------------------

    def score_outcome(self, frames: list[np.ndarray], actions: list[Action], instruction: str) -> float:
        """P(success) of a trajectory: ``frames[i]`` before action ``i``, ``frames[-1]`` the final screen."""
        if self.outcome_net is None:
            raise RewardCheckpointError("this checkpoint has no outcome scorer (it was trained without outcome samples)")
        batch = collate_trajectories([encode_trajectory(frames, actions, instruction)])
        with torch.inference_mode():
            batch = {k: ({kk: vv.to(self.device) for kk, vv in v.items()} if isinstance(v, dict) else v.to(self.device))
                     for k, v in batch.items()}
            return float(torch.sigmoid(self.outcome_net(batch)).item())

    def score_episode(self, path: str | Path) -> float:
        """P(success) of an episode folder in the trajectory format."""
        return self.score_outcome(*episode_trajectory(path))
