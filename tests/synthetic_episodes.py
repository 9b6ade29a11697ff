"""Synthetic episodes for tests, written with the real :class:`EpisodeWriter`.

The one builder the tests share: a test that needs an episode on disk (to export,
review, replay or read back) says what is special about it, and everything else takes
a default that exercises the format (a frame per step, a thought, a target, a reward,
timings, a final frame, an outcome).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gui_agent.actions import Action
from gui_agent.episode import ActorInfo, EnvInfo, EpisodeWriter, Outcome, ScreenSize, TaskInfo

ANNOTATOR = ActorInfo(type="human", name="annotator-7")
#: The outcome a synthetic episode gets unless the test says otherwise.
SUCCESS = Outcome(success=True, reward=1.0, termination="done", detail={"check": "synthetic"})
_DEFAULT: Any = object()


def frame(width: int, height: int, value: int) -> np.ndarray:
    """A deterministic picture with structure (gradients, a moving bar), distinct for each ``value``."""
    y, x = np.mgrid[0:height, 0:width]
    pixels = np.stack([(x * 3 + value) % 256, (y * 5 + value * 7) % 256, ((x ^ y) + value) % 256], axis=-1).astype(np.uint8)
    pixels[(value * 3) % height, :, :] = 255
    return pixels


def write_synthetic(
    root: Path,
    episode_id: str | None,
    actions: Sequence[Action],
    *,
    task_id: str = "synthetic/all-actions",
    instruction: str = "Do every kind of action once",
    task_source: str = "test",
    size: tuple[int, int] = (64, 48),
    env: EnvInfo | None = None,
    actor: ActorInfo = ANNOTATOR,
    labels: Mapping[str, Any] | None = None,
    frame_format: str = "png",
    frames: Sequence[np.ndarray | None] | None = None,
    thoughts: Sequence[str | None] | None = None,
    times: Sequence[float] | None = None,
    events: Sequence[tuple[int, int]] | None = None,
    step_details: bool = True,
    per_step: Sequence[Mapping[str, Any]] | None = None,
    final: bool | np.ndarray = True,
    finalize: bool = True,
    outcome: Outcome | None = _DEFAULT,
    success: bool | None = True,
) -> Path:
    """Write an episode under ``root`` and return its folder.

    Args:
        episode_id: the folder name (None: the writer makes one).
        size: the screen (width, height) of the default desktop ``env`` and frames.
        frames: the frame before each step (default: :func:`frame`; None in it: no frame).
        thoughts: each step's thought (default ``"step N"``).
        times, events: each step's time and event range (default: none).
        step_details: give each step a target, a reward (1 on the last) and timings.
        per_step: more :meth:`EpisodeWriter.add_step` arguments for each step.
        final: write a final frame (True: the default picture; an array: that picture).
        finalize: mark it complete; False leaves it ``recording``, as a crash would.
        outcome: the outcome (default: success with reward 1, or failure when
            ``success`` is False).
        success: for the default outcome only.
    """
    width, height = size
    writer = EpisodeWriter.create(
        root,
        task=TaskInfo(id=task_id, instruction=instruction, source=task_source),
        env=env or EnvInfo(kind="desktop", app="synthetic", screen=ScreenSize(width=width, height=height)),
        actor=actor,
        episode_id=episode_id,
        labels=dict(labels) if labels is not None else {"session": 3},
        frame_format=frame_format,  # type: ignore[arg-type]
    )
    for index, action in enumerate(actions):
        details: dict[str, Any] = {}
        if step_details:
            details = {"target": {"role": "button", "name": f"b{index}"}, "reward": float(index == len(actions) - 1),
                       "timings": {"act_s": 0.01 * index}}
        arguments: dict[str, Any] = {
            "frame_before": frames[index] if frames is not None else frame(width, height, index),
            "thought": thoughts[index] if thoughts is not None else f"step {index}",
            "t": times[index] if times is not None else None,
            "events": events[index] if events is not None else None,
            **details,
            **(per_step[index] if per_step is not None else {}),
        }
        writer.add_step(action, **arguments)
    if final is not False:
        writer.add_final_frame(frame(width, height, len(actions)) if final is True else final)
    if not finalize:
        return writer.path
    if outcome is _DEFAULT:
        outcome = SUCCESS if success else Outcome(success=success, reward=0.0, termination="done", detail={"check": "synthetic"})
    writer.finalize(outcome)
    return writer.path
