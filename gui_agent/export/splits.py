"""Assigning episodes to splits: by a seeded ratio, over episodes or over tasks.

The unit of assignment is a whole episode (``by="episode"``) or a whole task with all its
episodes (``by="task"``: test tasks are never seen in training), so one episode is never
split across splits. Units are sorted, shuffled with ``random.Random(seed)`` and cut by
exact counts (largest remainders), every split getting at least one unit when there are
enough: the same episodes and seed always give the same assignment, whatever the order
they were listed in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from gui_agent.errors import ExportError
from gui_agent.export.layout import SPLIT_NAME_RE

SplitBy = Literal["episode", "task"]


@dataclass(frozen=True)
class SplitSpec:
    """Which splits, in what proportions, over which unit, with which seed."""

    ratios: tuple[tuple[str, float], ...] = (("train", 1.0),)
    by: SplitBy = "episode"
    seed: int = 0

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.ratios]


def parse_ratios(text: str) -> tuple[tuple[str, float], ...]:
    """Parse ``train=0.9,test=0.1`` (or a single name, ``train``, for one split).

    Raises:
        ExportError: a bad name, a ratio that is not a positive number, a repeated name,
            or ratios that do not add up to 1.
    """
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts:
        raise ExportError("--split is empty; expected e.g. train=0.9,test=0.1")
    if len(parts) == 1 and "=" not in parts[0]:
        parts = [parts[0] + "=1"]
    ratios: list[tuple[str, float]] = []
    for part in parts:
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep:
            raise ExportError(f"--split: {part!r} has no ratio; expected NAME=RATIO, e.g. train=0.9,test=0.1")
        if not SPLIT_NAME_RE.match(name):
            raise ExportError(f"--split: {name!r} is not a valid split name (letters, digits, _ and dots only)")
        try:
            ratio = float(value)
        except ValueError:
            raise ExportError(f"--split: the ratio of {name!r} must be a number, got {value!r}") from None
        if not (ratio > 0 and math.isfinite(ratio)):
            raise ExportError(f"--split: the ratio of {name!r} must be above 0, got {value}")
        if name in dict(ratios):
            raise ExportError(f"--split: split {name!r} is named twice")
        ratios.append((name, ratio))
    total = sum(r for _, r in ratios)
    if abs(total - 1.0) > 1e-6:
        raise ExportError(f"--split: ratios add up to {total:g}; they must add up to 1")
    return tuple(ratios)


def _counts(n: int, ratios: Sequence[float]) -> list[int]:
    exact = [n * r for r in ratios]
    counts = [math.floor(x) for x in exact]
    order = sorted(range(len(ratios)), key=lambda i: (exact[i] - counts[i], ratios[i]), reverse=True)
    for i in order[: n - sum(counts)]:
        counts[i] += 1
    if n >= len(ratios):  # no split left empty when it can be filled
        for i, count in enumerate(counts):
            if count == 0:
                donor = max(range(len(counts)), key=lambda j: counts[j])
                counts[donor] -= 1
                counts[i] = 1
    return counts


def assign_splits(episodes: Sequence[tuple[str, str]], spec: SplitSpec) -> dict[str, str]:
    """Map each episode id to its split.

    Args:
        episodes: ``(episode_id, task_id)`` pairs.
        spec: the split spec.
    """
    if len(spec.ratios) == 1:
        return {episode_id: spec.ratios[0][0] for episode_id, _ in episodes}
    units = sorted({task if spec.by == "task" else episode for episode, task in episodes})
    random.Random(spec.seed).shuffle(units)
    counts = _counts(len(units), [r for _, r in spec.ratios])
    unit_split: dict[str, str] = {}
    start = 0
    for (name, _), count in zip(spec.ratios, counts):
        for unit in units[start : start + count]:
            unit_split[unit] = name
        start += count
    return {episode: unit_split[task if spec.by == "task" else episode] for episode, task in episodes}
