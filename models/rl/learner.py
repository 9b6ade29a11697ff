"""The learner: a clipped policy-gradient step on group-relative advantages, anchored and kept curious.

For every decision of every rollout in the batch (its advantage is its rollout's)::

    ratio = pi_theta(a|s) / pi_behaviour(a|s)        the behaviour log-prob came with the rollout
    loss  = -min(ratio * A, clip(ratio, 1-eps, 1+eps) * A)
          + kl_coef * KL(pi_theta || pi_start)        exact per head (distribution.kl_divergence)
          - entropy_coef * H(pi_theta)

averaged over decisions. The ratio is the importance correction for policy lag: a
rollout sampled with weights up to ``max_lag`` versions old is reweighted to the current
policy, and the clip bounds how far one batch can move it (older rollouts are dropped
before they get here, :mod:`gui_agent.models.rl.groups`). The KL term anchors the policy to
the checkpoint it started from, so rewards cannot drag it far from what it was taught.

:class:`PolicyLearner` is what the training loop needs from any policy it trains;
:class:`PixelLearner` is the pixel network's, and
:class:`gui_agent.models.rl.vlm_learner.VlmLearner` a VLM's (LoRA; the log-probability of
the action text is the sum over its tokens). Both minimise :func:`clipped_objective`.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import torch

from gui_agent.models.pixel.dataset import collate
from gui_agent.models.pixel.network import PixelPolicyNet
from gui_agent.models.rl import distribution
from gui_agent.models.rl.checkpoints import RunState, save_policy
from gui_agent.models.rl.groups import TrainGroup


@dataclass(frozen=True)
class LearnerConfig:
    """Hyperparameters of the policy-gradient step.

    Attributes:
        lr: Adam's learning rate.
        clip: the ratio's clip range (PPO's epsilon).
        kl_coef: weight of KL(policy || starting policy).
        entropy_coef: weight of the entropy bonus.
        epochs: passes over each batch.
        minibatch: decisions per gradient step.
        max_grad_norm: gradients are clipped to this norm.
    """

    lr: float = 3e-4
    clip: float = 0.2
    kl_coef: float = 0.05
    entropy_coef: float = 0.01
    epochs: int = 2
    minibatch: int = 32
    max_grad_norm: float = 1.0


class PolicyLearner(Protocol):
    """What the training loop needs from a trainable policy (see the module doc)."""

    def update(self, groups: list[TrainGroup], rng: random.Random) -> dict[str, float]:
        """One update on ``groups``; returns its figures (loss, kl, entropy, ...)."""

    #: How published weights are named: ``.pt`` a file, ``""`` a folder (see :func:`~gui_agent.models.rl.checkpoints.weights_path`).
    weights_suffix: str

    def publish(self, path: str | Path) -> None:
        """Write the current weights where rollout workers load them (atomically)."""

    def save(self, out: Path, state: RunState, *, settings: dict[str, Any], finished: bool, keep_copy: bool) -> Path:
        """Write the run's checkpoint (policy, optimizer, ``state``) in ``out``; a numbered copy when ``keep_copy``."""

    def state(self) -> dict[str, Any]:
        """The optimizer's state, for a checkpoint to resume from."""

    def load_state(self, state: dict[str, Any]) -> None:
        """Continue from :meth:`state`'s output."""


def clipped_objective(logp: torch.Tensor, behaviour: torch.Tensor, advantage: torch.Tensor, kl: torch.Tensor,
                      entropy: torch.Tensor, config: LearnerConfig) -> tuple[torch.Tensor, dict[str, float]]:
    """The loss of the module doc, averaged over the decisions given (one value each in every
    tensor), and its parts as figures; every policy family's learner minimises this one."""
    ratio = torch.exp(logp - behaviour)
    surrogate = torch.minimum(ratio * advantage, ratio.clamp(1 - config.clip, 1 + config.clip) * advantage)
    policy_loss = -surrogate.mean()
    kl, entropy = kl.mean(), entropy.mean()
    loss = policy_loss + config.kl_coef * kl - config.entropy_coef * entropy
    clipped = ((ratio - 1).abs() > config.clip).float().mean()
    return loss, {"policy_loss": policy_loss.item(), "kl": kl.item(), "entropy": entropy.item(),
                  "ratio": ratio.mean().item(), "clip_fraction": clipped.item()}


def _inputs(batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, ...]:
    return (batch["images"], batch["chars"], batch["words"], batch["typed"], batch["token_mask"], batch["step"], batch["previous"])


class PixelLearner:
    """Trains a :class:`PixelPolicyNet` (``model``) anchored to a frozen copy of where it started (``reference``)."""

    weights_suffix = ".pt"

    def __init__(self, model: PixelPolicyNet, reference: PixelPolicyNet, config: LearnerConfig) -> None:
        self.model = model
        self.reference = reference.eval()
        for parameter in self.reference.parameters():
            parameter.requires_grad_(False)
        self.config = config
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.lr)

    def save(self, out: Path, state: RunState, *, settings: dict[str, Any], finished: bool, keep_copy: bool) -> Path:
        """``<out>/policy.pt``, a pixel checkpoint (:func:`~gui_agent.models.rl.checkpoints.save_policy`)."""
        return save_policy(out, self.model, state, settings=settings, optimizer=self.state(), finished=finished, keep_copy=keep_copy)

    def publish(self, path: str | Path) -> None:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(target.name + ".tmp")
        torch.save(self.model.state_dict(), temporary)
        os.replace(temporary, target)

    def state(self) -> dict[str, Any]:
        return {"optimizer": self.optimizer.state_dict()}

    def load_state(self, state: dict[str, Any]) -> None:
        if state.get("optimizer"):
            self.optimizer.load_state_dict(state["optimizer"])

    def update(self, groups: list[TrainGroup], rng: random.Random) -> dict[str, float]:
        """See :meth:`PolicyLearner.update`; groups whose rewards are all equal teach nothing and are skipped."""
        decisions = [(step, advantage) for group in groups if group.informative
                     for rollout, advantage in zip(group.rollouts, group.advantages) for step in rollout.steps]
        if not decisions:
            return {"decisions": 0}
        batches = self._minibatches(decisions, rng)
        references = [self._reference(batch) for batch, _, _ in batches]
        totals: dict[str, float] = {}
        self.model.train()
        for _ in range(self.config.epochs):
            order = list(range(len(batches)))
            rng.shuffle(order)
            for index in order:
                figures = self._step(*batches[index], references[index])
                for key, value in figures.items():
                    totals[key] = totals.get(key, 0.0) + value
        self.model.eval()
        steps = self.config.epochs * len(batches)
        return {"decisions": len(decisions), "grad_steps": steps, **{k: round(v / steps, 5) for k, v in totals.items()}}

    def _minibatches(self, decisions: list[tuple[Any, float]], rng: random.Random) -> list[tuple[dict[str, torch.Tensor], torch.Tensor, torch.Tensor]]:
        """(inputs and actions, behaviour log-probs, advantages) per minibatch; a minibatch
        holds screens of one size, so no padding changes the click distribution."""
        by_shape: dict[tuple[int, ...], list[tuple[Any, float]]] = {}
        for decision in decisions:
            by_shape.setdefault(tuple(decision[0].frame.shape), []).append(decision)
        batches = []
        for same in by_shape.values():
            rng.shuffle(same)
            for begin in range(0, len(same), self.config.minibatch):
                chunk = same[begin : begin + self.config.minibatch]
                frames = [torch.from_numpy(step.frame) for step, _ in chunk]
                samples = [replace(step.sample, frame=i) for i, (step, _) in enumerate(chunk)]
                batches.append((collate(samples, frames), torch.tensor([step.logp for step, _ in chunk]),
                                torch.tensor([advantage for _, advantage in chunk], dtype=torch.float32)))
        return batches

    @torch.no_grad()
    def _reference(self, batch: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        return self.reference(*_inputs(batch))

    def _step(self, batch: dict[str, torch.Tensor], behaviour: torch.Tensor, advantage: torch.Tensor,
              reference: dict[str, torch.Tensor]) -> dict[str, float]:
        config = self.config
        outputs = self.model(*_inputs(batch))
        loss, figures = clipped_objective(distribution.log_prob(outputs, batch), behaviour, advantage,
                                          distribution.kl_divergence(outputs, reference), distribution.entropy(outputs), config)
        self.optimizer.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), config.max_grad_norm)
        self.optimizer.step()
        return {"loss": loss.item(), **figures, "grad_norm": norm.item()}
