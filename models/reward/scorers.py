"""Judges and reward models as the core's evaluation finds them (see :mod:`gui_agent.registry`).

``pyproject.toml`` names :data:`SCORERS` under ``gui_agent.scorers``. Each function imports
its module only when called, so the registry lookup itself loads no torch.
"""

from __future__ import annotations

from typing import Any

from gui_agent.policy import Policy
from gui_agent.registry import Scorers


def _check_judge(spec: str) -> None:
    from gui_agent.models.reward.judge import check_judge

    check_judge(spec)


def _load_judge(spec: str) -> Any:
    from gui_agent.models.reward.judge import load_judge

    return load_judge(spec)


def _check_reward_model(checkpoint: str) -> None:
    from gui_agent.models.reward.best_of import check_reward_model

    check_reward_model(checkpoint)


def _best_of_policy(policy: Policy, checkpoint: str, n: int) -> Policy:
    from gui_agent.models.reward.best_of import best_of_policy

    return best_of_policy(policy, checkpoint, n)


SCORERS = Scorers(
    check_judge=_check_judge,
    load_judge=_load_judge,
    check_reward_model=_check_reward_model,
    best_of_policy=_best_of_policy,
)
