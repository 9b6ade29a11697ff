"""The human simulator: variants of a successful trajectory, executed and judged.

For each variant kind (:mod:`gui_agent.replay.perturb`) one variant is planned from the source's
actions, *executed* in the task's environment from the same start state (same seed) by
:func:`gui_agent.replay.scripted.execute`, and judged by the task's evaluator: its outcome is what
the episode earned, not what the perturbation was assumed to do. Its steps are then
labelled by executing prefixes (:mod:`gui_agent.replay.labels`); those scratch executions are
written to a scratch folder and deleted.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from gui_agent.actions import Action
from gui_agent.envs.base import Env
from gui_agent.errors import EnvError
from gui_agent.runner import RunResult
from gui_agent.replay.labels import FeasibilityCache, StepVerdict, label_steps
from gui_agent.replay.perturb import VARIANT_KINDS, Variant, make_variant, variant_rng
from gui_agent.replay.scripted import execute
from gui_agent.replay.source import SourceEpisode


@dataclass
class SimulatedVariant:
    """A variant, the episode its execution wrote, and its step labels."""

    variant: Variant
    run: RunResult
    verdicts: list[StepVerdict]


class Simulator:
    """Plans, executes and labels variants of one source trajectory in one environment.

    Args:
        source: a successful source trajectory with its task and seed.
        env: an open environment for the task (the caller closes it).
        seed: varies which step each variant changes (same seed, same variants).
        donors: steps of other tasks' trajectories for ``splice_other``.
    """

    def __init__(self, source: SourceEpisode, *, env: Env, seed: int = 0, donors: Sequence[Action] = ()) -> None:
        self.source = source
        self.env = env
        self.seed = seed
        self.donors = list(donors)
        self.original = source.actions
        self.screen = source.screen
        self.feasible = FeasibilityCache(self._judge)
        self.feasible.remember(self.original, True)

    def _judge(self, actions: list[Action]) -> bool:
        scratch = Path(tempfile.mkdtemp(prefix="gui-agent-feasible-"))
        try:
            run = execute(self.source.task, actions, env=self.env, seed=self.source.seed, out_dir=scratch, name="feasibility")
            if run.env_failed:
                raise EnvError(f"the environment failed while labelling: {run.reason}")
            return run.success
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def plan(self, kind: str) -> Variant | None:
        rng = variant_rng(self.source.episode_id, kind, self.seed)
        return make_variant(kind, self.original, rng=rng, screen=self.screen, donors=self.donors)

    def run(self, variant: Variant, out_dir: str | Path) -> SimulatedVariant:
        """Execute ``variant`` (its episode goes under ``out_dir``) and label its steps."""
        result = execute(self.source.task, variant.actions, env=self.env, seed=self.source.seed, out_dir=out_dir)
        if result.env_failed:
            return SimulatedVariant(variant, result, [])
        self.feasible.remember(variant.actions, result.success)
        verdicts = label_steps(self.original, variant.steps, result.steps, result.success, self.feasible)
        return SimulatedVariant(variant, result, verdicts)

    def variants(
        self, out_dir: str | Path, kinds: Sequence[str] = VARIANT_KINDS, *, skip: Callable[[str], bool] = lambda _k: False
    ) -> Iterator[tuple[str, SimulatedVariant | None]]:
        """Each kind with its executed variant (None: the trajectory has nothing that kind changes)."""
        for kind in kinds:
            if skip(kind):
                continue
            variant = self.plan(kind)
            yield kind, (None if variant is None else self.run(variant, out_dir))
