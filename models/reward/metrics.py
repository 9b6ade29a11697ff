"""Binary classification figures (precision, recall, F1) for reward-model evaluation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np


@dataclass(frozen=True)
class BinaryScores:
    precision: float
    recall: float
    f1: float
    accuracy: float
    positives: int
    count: int

    def to_dict(self) -> dict[str, float | int]:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items()}


def binary_scores(predicted: Sequence[bool], actual: Sequence[bool]) -> BinaryScores:
    """Precision/recall/F1 of the positive class; 0.0 where undefined (no predicted or no actual positives)."""
    if len(predicted) != len(actual):
        raise ValueError(f"{len(predicted)} predictions for {len(actual)} labels")
    tp = sum(1 for p, a in zip(predicted, actual) if p and a)
    fp = sum(1 for p, a in zip(predicted, actual) if p and not a)
    fn = sum(1 for p, a in zip(predicted, actual) if not p and a)
    correct = sum(1 for p, a in zip(predicted, actual) if p == a)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return BinaryScores(precision, recall, f1, correct / len(actual) if actual else 0.0, sum(map(bool, actual)), len(actual))


def roc_auc(scores: Sequence[float], actual: Sequence[bool]) -> float | None:
    """P(a random positive scores above a random negative), ties counting half; None without both classes.

    F1 judges the decision at one threshold; AUC judges the ranking, which is what
    best-of-N and preference data use, and which survives a threshold that is off on
    tasks the model never saw.
    """
    if len(scores) != len(actual):
        raise ValueError(f"{len(scores)} scores for {len(actual)} labels")
    positives = np.array([s for s, a in zip(scores, actual) if a], dtype=np.float64)
    negatives = np.array([s for s, a in zip(scores, actual) if not a], dtype=np.float64)
    if not positives.size or not negatives.size:
        return None
    pairs = positives[:, None] - negatives[None, :]  # every (positive, negative) pair; a bench's tasks are small
    return float((pairs > 0).mean() + 0.5 * (pairs == 0).mean())
