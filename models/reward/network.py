"""The reward networks: a step scorer and an outcome scorer, small enough to train on a CPU.

:class:`StepNet` reads a transition (thumbnails before/after and their difference, the
action's point, native-resolution glimpses of the action's target before/after, the
action vector, the instruction and a hotkey's key names) and gives logits over the step labels
``progress``, ``neutral``, ``harmful`` (:data:`STEP_LABELS`).

:class:`OutcomeNet` reads a trajectory: its last transitions through its own
:class:`TransitionEncoder`, the first and final screens, and the counts; it gives one
logit for success.

The instruction conditions the image features (FiLM: a per-channel scale and shift), so
"is *this* button the one the instruction names" can be learned, not just "did
something happen".
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch import nn

from gui_agent.models.reward.encoding import ACTION_DIMS, TEXT_BUCKETS
from gui_agent.models.reward.transitions import (
    CHANGE_DIMS,
    LAST_STEPS,
    TrajectoryArrays,
    TransitionArrays,
)

STEP_LABELS: tuple[str, ...] = ("progress", "neutral", "harmful")
#: The reward each label stands for (the data's LABEL_REWARD); a step's score is its expectation.
LABEL_VALUES = torch.tensor([1.0, 0.5, 0.0])
STATS_DIMS = 3


@dataclass(frozen=True)
class NetConfig:
    """Sizes of the networks (stored in checkpoints, so a checkpoint rebuilds its own network)."""

    width: int = 32
    text_dims: int = 64
    hidden: int = 128

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def _conv_tower(channels_in: int, width: int) -> nn.Sequential:
    """A 4x4-patch stem then two 3x3 layers: cheap enough to train on a shared 2-core CPU."""
    return nn.Sequential(
        nn.Conv2d(channels_in, width, 4, stride=4), nn.ReLU(),
        nn.Conv2d(width, 2 * width, 3, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(2 * width, 2 * width, 3, stride=1, padding=1), nn.ReLU(),
    )


def _pooled(features: torch.Tensor) -> torch.Tensor:
    return torch.cat([features.mean(dim=(2, 3)), features.amax(dim=(2, 3))], dim=1)


class TextEncoder(nn.Module):
    """Mean of hashed-trigram embeddings (bucket 0 is padding).

    The embeddings start at zero, not torch's N(0, 1): a trigram that no training
    instruction contained then adds nothing, instead of a random vector that shifts
    every score on a new task's instruction. Cross-validated over the training tasks
    (each scored by a model that never saw it; 5 folds, two training seeds), this raised
    the outcome F1 from 0.75 to 0.78 and the step F1 from 0.805 to 0.818
    (``scripts/bench_reward.py --cv 5``).
    """

    def __init__(self, dims: int) -> None:
        super().__init__()
        self.embedding = nn.EmbeddingBag(TEXT_BUCKETS, dims, mode="mean", padding_idx=0)
        nn.init.zeros_(self.embedding.weight)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.embedding(ids)


class TransitionEncoder(nn.Module):
    """A transition to a feature vector of size ``hidden``."""

    def __init__(self, config: NetConfig, text: TextEncoder) -> None:
        super().__init__()
        w = config.width
        self.text = text
        # before (3) + after (3) + |after - before| (3) + point map (1) + after-known plane (1)
        self.screen = _conv_tower(11, w)
        # glimpse before (3) + after (3) + |difference| (3)
        self.target = _conv_tower(9, w)
        self.film = nn.Linear(config.text_dims, 2 * 2 * 4 * w)  # (scale, shift) x (screen, target) x pooled width
        visual = 4 * w * 2
        self.mix = nn.Sequential(
            nn.Linear(visual + ACTION_DIMS + 1 + CHANGE_DIMS + 2 * config.text_dims, config.hidden), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(config.hidden, config.hidden), nn.ReLU(),
        )

    def forward(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        before, after = batch["before"], batch["after"]
        known = batch["after_known"].view(-1, 1, 1, 1)
        planes = torch.cat([before, after, (after - before).abs(), batch["point_map"], known.expand_as(batch["point_map"])], 1)
        gb, ga = batch["glimpse_before"], batch["glimpse_after"]
        instruction = self.text(batch["instruction"])
        typed = self.text(batch["action_text"])
        scale_shift = self.film(instruction)
        s = self.screen(planes)
        t = self.target(torch.cat([gb, ga, (ga - gb).abs()], 1))
        scale, shift = scale_shift.chunk(2, dim=1)
        s_scale, t_scale = scale.chunk(2, dim=1)
        s_shift, t_shift = shift.chunk(2, dim=1)
        s = _pooled(s) * (1 + s_scale) + s_shift
        t = _pooled(t) * (1 + t_scale) + t_shift
        return self.mix(torch.cat([s, t, batch["action"], batch["after_known"].view(-1, 1), batch["change"], instruction, typed], 1))


class StepNet(nn.Module):
    """Transition -> logits over :data:`STEP_LABELS`."""

    def __init__(self, config: NetConfig) -> None:
        super().__init__()
        self.config = config
        self.encoder = TransitionEncoder(config, TextEncoder(config.text_dims))
        self.head = nn.Linear(config.hidden, len(STEP_LABELS))

    def forward(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        return self.head(self.encoder(batch))


class OutcomeNet(nn.Module):
    """Trajectory -> one success logit.

    It shares the step scorer (``step``): its last transitions go through the step
    scorer's encoder and label head, so "some step looked harmful" is a feature of the
    outcome, and the outcome loss also teaches the shared encoder.
    """

    def __init__(self, config: NetConfig, step: StepNet) -> None:
        super().__init__()
        self.config = config
        self.step = step
        self.screens = _conv_tower(9, config.width)
        h = config.hidden
        self.head = nn.Sequential(
            nn.Linear(3 * h + 3 + 4 * config.width + STATS_DIMS + config.text_dims, h), nn.ReLU(), nn.Dropout(0.2), nn.Linear(h, 1),
        )

    def forward(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        steps = batch["steps"]  # a transition batch flattened to (B * LAST_STEPS)
        mask = batch["mask"]  # (B, LAST_STEPS)
        encoded = self.step.encoder(steps)
        labels = self.step.head(encoded).softmax(-1).view(mask.shape[0], LAST_STEPS, -1)
        encoded = encoded.view(mask.shape[0], LAST_STEPS, -1)
        weights = mask.unsqueeze(-1)
        count = weights.sum(1).clamp(min=1.0)
        mean = (encoded * weights).sum(1) / count
        peak = (encoded + (weights - 1) * 1e4).amax(1).clamp(min=-1e3) * (weights.sum(1) > 0)
        last = encoded[:, -1]
        harmful = (labels[..., 2] * mask).amax(1, keepdim=True)
        weakest = (labels[..., 0] + (1 - mask)).amin(1, keepdim=True)
        progress = (labels[..., 0] * mask).sum(1, keepdim=True) / count
        first, final = batch["first"], batch["final"]
        screens = _pooled(self.screens(torch.cat([first, final, (final - first).abs()], 1)))
        instruction = self.step.encoder.text(batch["instruction"])
        features = [mean, peak, last, harmful, weakest, progress, screens, batch["stats"], instruction]
        return self.head(torch.cat(features, 1)).squeeze(1)


# -- batching: numpy arrays to tensors ------------------------------------------------------


def _images(arrays: list[np.ndarray]) -> torch.Tensor:
    return torch.from_numpy(np.stack(arrays)).permute(0, 3, 1, 2).float().div_(255.0)


def _ids(arrays: list[np.ndarray]) -> torch.Tensor:
    longest = max(len(a) for a in arrays)
    out = np.zeros((len(arrays), longest), dtype=np.int64)
    for row, ids in enumerate(arrays):
        out[row, :len(ids)] = ids
    return torch.from_numpy(out)


def collate_transitions(items: list[TransitionArrays]) -> dict[str, torch.Tensor]:
    """Stack encoded transitions into a batch of tensors (images in [0, 1], NCHW)."""
    return {
        "before": _images([i.before for i in items]),
        "after": _images([i.after for i in items]),
        "glimpse_before": _images([i.glimpse_before for i in items]),
        "glimpse_after": _images([i.glimpse_after for i in items]),
        "point_map": torch.from_numpy(np.stack([i.point_map for i in items])).unsqueeze(1).float().div_(255.0),
        "after_known": torch.tensor([i.after_known for i in items], dtype=torch.float32),
        "action": torch.from_numpy(np.stack([i.action for i in items])),
        "action_text": _ids([i.action_text for i in items]),
        "instruction": _ids([i.instruction for i in items]),
        "change": torch.from_numpy(np.stack([i.change for i in items])),
    }


def collate_trajectories(items: list[TrajectoryArrays]) -> dict[str, object]:
    """Stack encoded trajectories; their transitions are flattened into one transition batch."""
    return {
        "steps": collate_transitions([step for item in items for step in item.steps]),
        "mask": torch.from_numpy(np.stack([i.mask for i in items])),
        "first": _images([i.first for i in items]),
        "final": _images([i.final for i in items]),
        "stats": torch.from_numpy(np.stack([i.stats for i in items])),
        "instruction": _ids([i.instruction for i in items]),
    }


def progress_probability(logits: torch.Tensor) -> torch.Tensor:
    """P(progress): what the step-level decision (progress or not) is made on."""
    return logits.softmax(-1)[..., 0]


def step_scores(logits: torch.Tensor) -> torch.Tensor:
    """Expected step reward (progress 1, neutral 0.5, harmful 0) from label logits."""
    return logits.softmax(-1) @ LABEL_VALUES.to(logits.device)
