"""The one registry: MiniWoB++ task name -> solver, merged from the family modules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from gui_agent.models.policies.miniwob_oracle import apps, click, containers, figures, forms, gestures, motion, reading, text
from gui_agent.models.policies.miniwob_oracle.page import PageView, Plan

#: A solver reads the instruction and the current page and plans the next action(s).
Solver = Callable[[str, PageView], Plan]


def _merge(*families: Mapping[str, Solver]) -> Mapping[str, Solver]:
    merged: dict[str, Solver] = {}
    for family in families:
        clash = merged.keys() & family.keys()
        if clash:
            raise RuntimeError(f"tasks registered twice: {sorted(clash)}")
        merged.update(family)
    return MappingProxyType(dict(sorted(merged.items())))


SOLVERS: Mapping[str, Solver] = _merge(
    click.SOLVERS, text.SOLVERS, forms.SOLVERS, containers.SOLVERS, motion.SOLVERS, reading.SOLVERS, apps.SOLVERS, gestures.SOLVERS, figures.SOLVERS,
)
SUPPORTED_TASKS: tuple[str, ...] = tuple(SOLVERS)
