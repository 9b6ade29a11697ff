"""Steps and trajectories as the arrays the reward networks take (numpy; built once, cached).

A *transition* is (screen before, action, screen after, instruction). The screen after may
be unknown, when a policy asks "which of these candidate actions?" before acting
(best-of-N): then the after-thumbnail repeats the before one and ``after_known`` is 0,
and the network, trained with the after screen sometimes hidden the same way, judges the
action from the screen it would be applied to.

A *trajectory* keeps what decides an outcome and fits a fixed size: its last
:data:`LAST_STEPS` transitions, its first and final screens, and two counts (length,
share of steps that changed nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gui_agent.actions import Action, Click, Drag, Move, Scroll
from gui_agent.episode import read_episode
from gui_agent.errors import EpisodeFormatError, RewardDataError
from gui_agent.models.reward.encoding import (
    GLOBAL,
    action_text,
    action_vector,
    focus_point,
    glimpse,
    thumbnail,
    trigram_ids,
)

#: Transitions at the end of a trajectory the outcome network looks at.
LAST_STEPS = 6
#: A pixel counts as changed when a channel moves by more than this (PNG-exact screens: noise is 0).
CHANGE_THRESHOLD = 16


@dataclass
class TransitionArrays:
    """One encoded transition (see the module docstring); images are uint8 HWC."""

    before: np.ndarray
    after: np.ndarray
    glimpse_before: np.ndarray
    glimpse_after: np.ndarray
    point_map: np.ndarray
    after_known: float
    action: np.ndarray
    action_text: np.ndarray
    instruction: np.ndarray
    change: np.ndarray


#: Length of :attr:`TransitionArrays.change`.
CHANGE_DIMS = 3


def change_features(before: np.ndarray, after: np.ndarray | None, x: float, y: float) -> np.ndarray:
    """How much the screen changed: any pixel, share of the screen, share of the glimpse around (x, y); zeros when unknown.

    Given explicitly because "did the step do anything, and where" is the strongest single
    cue of a step's value, and a small network learns it faster when told.
    """
    if after is None:
        return np.zeros(CHANGE_DIMS, dtype=np.float32)
    if before.shape != after.shape:
        return np.array([1.0, 1.0, 1.0], dtype=np.float32)
    changed = (np.abs(after.astype(np.int16) - before.astype(np.int16)) > CHANGE_THRESHOLD).any(axis=2)
    height, width = changed.shape
    half = 24
    x0, y0 = max(int(x) - half, 0), max(int(y) - half, 0)
    local = changed[y0:min(int(y) + half, height), x0:min(int(x) + half, width)]
    return np.array([float(changed.any()), min(1.0, changed.mean() * 5), float(local.mean()) if local.size else 0.0], dtype=np.float32)


def screen_changed(before: np.ndarray, after: np.ndarray) -> bool:
    """True when any pixel differs by more than :data:`CHANGE_THRESHOLD` (or the size changed)."""
    if before.shape != after.shape:
        return True
    return bool((np.abs(after.astype(np.int16) - before.astype(np.int16)) > CHANGE_THRESHOLD).any())


def _point_map(action: Action | None, width: int, height: int) -> np.ndarray:
    """A ``GLOBAL``-square map with a small blob where the action points (zeros for typing and keys)."""
    canvas = np.zeros((GLOBAL, GLOBAL), dtype=np.uint8)
    points: list[tuple[float, float]] = []
    if isinstance(action, (Click, Move, Scroll)):
        points = [(action.x, action.y)]
    elif isinstance(action, Drag):
        points = [(action.x1, action.y1), (action.x2, action.y2)]
    ys, xs = np.mgrid[0:GLOBAL, 0:GLOBAL]
    for x, y in points:
        cx, cy = x / max(width, 1) * GLOBAL, y / max(height, 1) * GLOBAL
        blob = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * 2.0 ** 2)) * 255
        canvas = np.maximum(canvas, blob.astype(np.uint8))
    return canvas


def encode_transition(before: np.ndarray, action: Action | None, after: np.ndarray | None, instruction: str) -> TransitionArrays:
    """Encode one step; ``after=None`` when the action has not been taken yet."""
    before = np.ascontiguousarray(before[..., :3])
    height, width = before.shape[:2]
    known = after is not None
    after_screen = np.ascontiguousarray(after[..., :3]) if after is not None else before
    x, y = focus_point(action, before, after_screen if known else None)
    return TransitionArrays(
        before=thumbnail(before),
        after=thumbnail(after_screen),
        glimpse_before=glimpse(before, x, y),
        glimpse_after=glimpse(after_screen, x * after_screen.shape[1] / width, y * after_screen.shape[0] / height),
        point_map=_point_map(action, width, height),
        after_known=1.0 if known else 0.0,
        action=action_vector(action, width, height, instruction),
        action_text=trigram_ids(action_text(action)),
        instruction=trigram_ids(instruction),
        change=change_features(before, after_screen if known else None, x, y),
    )


@dataclass
class TrajectoryArrays:
    """One encoded trajectory: the last transitions (``mask`` says which are real), first/final screen, counts."""

    steps: list[TransitionArrays]
    mask: np.ndarray
    first: np.ndarray
    final: np.ndarray
    stats: np.ndarray
    instruction: np.ndarray


def _empty_transition(instruction: str, shape: tuple[int, ...]) -> TransitionArrays:
    blank = np.zeros(shape, dtype=np.uint8)
    arrays = encode_transition(blank, None, blank, instruction)
    arrays.after_known = 0.0
    return arrays


def encode_trajectory(frames: list[np.ndarray], actions: list[Action], instruction: str) -> TrajectoryArrays:
    """Encode a whole episode: ``frames[i]`` is the screen before action ``i``, ``frames[-1]`` the final screen.

    ``frames`` has ``len(actions) + 1`` entries (or ``len(actions)`` when the final screen is
    missing, as after an environment failure: then the last known screen stands for it).
    """
    if not frames:
        raise ValueError("a trajectory needs at least one screen")
    n = len(actions)
    screens = list(frames) + [frames[-1]] * max(0, n + 1 - len(frames))
    changed = [screen_changed(screens[i], screens[i + 1]) for i in range(n)]
    start = max(0, n - LAST_STEPS)
    steps = [encode_transition(screens[i], actions[i], screens[i + 1], instruction) for i in range(start, n)]
    pad = LAST_STEPS - len(steps)
    shape = screens[0][..., :3].shape
    steps = [_empty_transition(instruction, shape) for _ in range(pad)] + steps
    mask = np.array([0.0] * pad + [1.0] * (LAST_STEPS - pad), dtype=np.float32)
    stats = np.array([
        np.log1p(n) / 3.0,
        (n - sum(changed)) / max(n, 1),
        1.0 if n and screen_changed(screens[0], screens[n]) else 0.0,
    ], dtype=np.float32)
    return TrajectoryArrays(steps=steps, mask=mask, first=thumbnail(screens[0][..., :3]), final=thumbnail(screens[n][..., :3]),
                            stats=stats, instruction=trigram_ids(instruction))


def episode_trajectory(path: str | Path) -> tuple[list[np.ndarray], list[Action], str]:
    """(frames, actions, instruction) of an episode folder; frames end with the final screen when it exists."""
    try:
        episode = read_episode(path)
    except EpisodeFormatError as exc:
        raise RewardDataError(f"cannot judge {path}: {exc}") from None
    names = [s.frame_before for s in episode.steps] + ([episode.final_frame] if episode.final_frame else [])
    frames = [episode.load_frame(n) for n in names if n is not None]
    if not frames:
        raise RewardDataError(f"cannot judge {path}: it has no frames")
    return frames, episode.actions(), episode.meta.task.instruction
