"""``gui-agent eval --judge``: a verdict for episodes whose task has no programmatic evaluator.

The runner leaves such an episode's outcome ``success: null`` ("the task has no
evaluator"). With a judge, the worker asks it after the episode and writes its verdict
into the episode's outcome (``detail.judge`` says which judge, its score and votes) and
into the ledger record, so the run's figures count it. Tasks that have an evaluator are
never judged: the evaluator is the ground truth.

Judges need torch or transformers, so they are built by the scorers ``models/`` registers
(:func:`gui_agent.registry.scorers`), looked up only when a judge is asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gui_agent.episode import read_meta
from gui_agent.episode.writer import write_meta
from gui_agent.registry import scorers


def best_of_reward_model(*, reward_model: str | None, judge: str | None, best_of: int) -> str | None:
    """The reward-model checkpoint that chooses among ``best_of`` decisions per step.

    ``reward_model`` when given; else, with ``best_of`` above 1, the judge when it is a
    checkpoint (a reward model judges episodes and scores decisions alike; an ``hf:``
    judge is a VLM that only judges episodes); else None: nothing chooses, and a run that
    asks for best-of is refused (:func:`gui_agent.evaluate.run.evaluate_suite`).
    """
    if reward_model:
        return reward_model
    if best_of > 1 and judge and not judge.startswith("hf:"):
        return judge
    return None


def load_judge(spec: str) -> Any:
    """The judge for ``spec`` (a reward-model checkpoint or ``hf:MODEL[?options]``)."""
    return scorers().load_judge(spec)


def record_verdict(episode_path: str | Path, verdict: Any) -> None:
    """Write a judge's verdict into the episode's outcome (success, reward = score, detail.judge)."""
    path = Path(episode_path)
    meta = read_meta(path)
    outcome = meta.outcome
    if outcome is None:
        return
    detail = dict(outcome.detail) if isinstance(outcome.detail, dict) else {}
    detail["judge"] = verdict.to_dict()
    updated = outcome.model_copy(update={"success": verdict.success, "reward": round(float(verdict.score), 6), "detail": detail})
    write_meta(path, meta.model_copy(update={"outcome": updated}))
