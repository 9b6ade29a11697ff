"""``gui-agent replay EPISODE``: re-execute a recorded episode from its task's start state.

The replay is an ordinary episode: :func:`gui_agent.runner.run_episode` drives
:class:`gui_agent.replay.policy.AnchoredReplayPolicy` in the task's environment (same seed, same
setup, same guards and evaluator), and writes the replay in the trajectory format with the
evaluator's outcome. The replay's findings (per-step similarity to the recorded keyframe,
re-anchoring, the first step where the screens parted, a refusal) go into the replay
episode's ``labels["replay"]`` and into the returned :class:`ReplayResult`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gui_agent.envs.base import Env
from gui_agent.envs.factory import make_env
from gui_agent.episode import read_meta
from gui_agent.episode.labels import REPLAY
from gui_agent.episode.writer import write_meta
from gui_agent.runner import RunResult, run_episode
from gui_agent.replay.element import element_locator
from gui_agent.replay.policy import AnchoredReplayPolicy, Mode, StepReport
from gui_agent.replay.selector import selector_locator
from gui_agent.replay.similarity import DIVERGENCE_THRESHOLD
from gui_agent.replay.source import SourceEpisode


@dataclass
class ReplayResult:
    """What a replay did; the same facts are in the replay episode's ``labels["replay"]``.

    ``first_divergent_step`` is the first step whose live screen scored below
    ``threshold`` against its recorded keyframe (None: never). ``refused`` is the reason
    the replay stopped rather than click blind (None: it played every step).
    """

    source: Path
    run: RunResult
    mode: str
    steps: list[StepReport] = field(default_factory=list)
    threshold: float = DIVERGENCE_THRESHOLD
    refused: str | None = None

    @property
    def success(self) -> bool:
        return self.run.success

    @property
    def episode_path(self) -> Path:
        return self.run.episode_path

    @property
    def first_divergent_step(self) -> int | None:
        for report in self.steps:
            if report.similarity is not None and report.similarity < self.threshold:
                return report.index
        return None

    @property
    def reanchored_steps(self) -> list[int]:
        return [r.index for r in self.steps if r.moved_by]

    def summary(self) -> dict[str, Any]:
        sims = [r.similarity for r in self.steps if r.similarity is not None]
        return {
            "source_episode": str(self.source),
            "mode": self.mode,
            "steps_played": sum(1 for r in self.steps if r.refused is None),
            "min_similarity": round(min(sims), 4) if sims else None,
            "first_divergent_step": self.first_divergent_step,
            "divergence_threshold": self.threshold,
            "reanchored_steps": self.reanchored_steps,
            "refused": self.refused,
            "steps": [r.to_dict() for r in self.steps],
        }


def replay_episode(
    source: SourceEpisode,
    *,
    out_dir: str | Path,
    mode: Mode = "fast",
    anchoring: bool = True,
    threshold: float = DIVERGENCE_THRESHOLD,
    env: Env | None = None,
    headless: bool | None = None,
    display: str | None = None,
) -> ReplayResult:
    """Replay ``source`` once and write the replay episode under ``out_dir``.

    Args:
        source: the recorded episode with its task and seed (:func:`gui_agent.replay.source.load_source`).
        out_dir: folder the replay episode's folder is created in.
        mode: ``fast`` or ``timed`` (the recording's pace).
        anchoring: re-find click targets (False plays recorded coordinates blind): by the
            recorded selector on a page, by the recorded element in the accessibility tree on
            a desktop (``source.task`` then starts the desktop with accessibility on), else by
            the recorded image patch.
        threshold: similarity below which a step counts as parted from the recording.
        env: an open environment to reuse (the caller closes it); default: the task's own.
        headless / display: browser display overrides, as for ``gui-agent run``.
    """
    owns_env = env is None
    if env is None:
        env = make_env(source.task, headless=headless, display=display)
    try:
        policy = AnchoredReplayPolicy(
            source.episode, actions=source.actions, mode=mode, anchoring=anchoring,
            locate_selector=selector_locator(env) or element_locator(env), frame_origin=source.origin,
        )
        run = run_episode(source.task, policy, out_dir=out_dir, seed=source.seed, env=env)
    finally:
        if owns_env:
            env.close()
    result = ReplayResult(source=source.episode.path, run=run, mode=mode, steps=policy.reports, threshold=threshold, refused=policy.refused)
    meta = read_meta(run.episode_path)
    labels = dict(meta.labels)
    REPLAY.set(labels, result.summary())
    write_meta(run.episode_path, meta.model_copy(update={"labels": labels}))
    return result
