"""Reward-model figures against hand-computed tables."""

from __future__ import annotations

import pytest

from gui_agent.models.reward.metrics import binary_scores, roc_auc


def test_binary_scores_table() -> None:
    # tp 2, fp 1, fn 1, tn 1
    s = binary_scores([True, True, True, False, False], [True, True, False, True, False])
    assert (s.precision, s.recall, s.accuracy, s.positives, s.count) == (pytest.approx(2 / 3), pytest.approx(2 / 3), 0.6, 3, 5)
    assert s.f1 == pytest.approx(2 / 3)


def test_roc_auc_counts_ordered_pairs_and_half_ties() -> None:
    assert roc_auc([0.9, 0.8, 0.1], [True, True, False]) == 1.0
    assert roc_auc([0.1, 0.2, 0.9], [True, True, False]) == 0.0
    # positives 0.8, 0.4; negatives 0.6, 0.4: pairs (0.8>0.6) 1, (0.8>0.4) 1, (0.4<0.6) 0, (0.4=0.4) 0.5 -> 2.5 / 4
    assert roc_auc([0.8, 0.4, 0.6, 0.4], [True, True, False, False]) == pytest.approx(0.625)
    assert roc_auc([0.5, 0.5, 0.5], [True, False, False]) == pytest.approx(0.5)


def test_roc_auc_needs_both_classes_and_matching_lengths() -> None:
    assert roc_auc([0.3, 0.7], [True, True]) is None
    assert roc_auc([], []) is None
    with pytest.raises(ValueError, match="2 scores for 1 labels"):
        roc_auc([0.1, 0.2], [True])
