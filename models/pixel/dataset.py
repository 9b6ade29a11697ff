"""Episodes in the trajectory format -> training samples for the pixel policy.

Any episode folder works (oracle demonstrations, human recordings, other policies'
runs): each step whose action the network can produce (left click, type, Enter, done)
becomes a sample of (screen before it, instruction, history so far) -> action. Episodes
whose evaluator said *failure* are skipped: cloning them teaches the wrong actions.
Frames are decoded once and kept as uint8 tensors; batches are assembled (and shifted,
for augmentation) by :func:`collate`.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import torch
from tqdm import tqdm

from gui_agent.actions import Click, Type, action_from_dict
from gui_agent.episode.labels import SEED
from gui_agent.episode.reader import read_episode
from gui_agent.errors import EpisodeFormatError, PolicyDataError
from gui_agent.models.pixel.history import KINDS, History, action_kind
from gui_agent.models.pixel.network import cell_of, heatmap_size
from gui_agent.models.pixel.screen import frame_tensor, network_input, screen_scale
from gui_agent.models.pixel.text import MAX_CHARS, Token, encode_tokens, find_span, tokenize


@dataclass
class Sample:
    """One step to imitate. Coordinates are input pixels (after :func:`screen_scale`)."""

    frame: int
    chars: list[list[int]]
    words: list[int]
    typed: list[int]
    step: int
    previous: int
    clicks: list[tuple[float, float]]
    kind: int
    click: tuple[float, float] | None
    span: tuple[int, int] | None
    task: str
    group: str


@dataclass
class Demonstrations:
    """Samples split into training and validation, and the frames they point to."""

    frames: list[torch.Tensor]
    train: list[Sample]
    val: list[Sample]
    summary: dict[str, object] = field(default_factory=dict)


def find_episodes(paths: Iterable[str | Path]) -> list[Path]:
    """Episode folders in ``paths``: each path is an episode or a folder searched recursively,
    as ``gui-agent export`` finds them; in an annotation station's DATASET, only the episodes
    a reviewer accepted (demonstrations nobody vouched for are not learnt from).

    Raises:
        PolicyDataError: a path does not exist, or holds no episode.
    """
    from gui_agent.episode.reader import read_meta
    from gui_agent.errors import ExportError
    from gui_agent.export.sources import find_episodes as find_all
    from gui_agent.export.stations import review_decision

    given = [Path(p) for p in paths]
    if not given:
        raise PolicyDataError("no episodes: no folder given")
    try:
        found = find_all(given)
    except ExportError as exc:
        raise PolicyDataError(f"no episodes: {exc}" if "holds no episode" in str(exc) else str(exc)) from None

    def accepted(folder: Path) -> bool:
        try:
            return review_decision(read_meta(folder)) == "accepted"
        except EpisodeFormatError:
            return True  # a damaged episode is reported when it is read
    kept = [d for d in found.dirs if d not in found.stations or accepted(d)]
    if not kept:
        shown = ", ".join(str(p) for p in given)
        raise PolicyDataError(f"no episodes in {shown} that a reviewer accepted (a station's DATASET gives only those)")
    return kept


def instruction_tokens(instruction: str) -> list[Token]:
    """Tokens of an instruction; an empty instruction reads as one empty token."""
    return tokenize(instruction) or [Token("", 0, 0)]


def is_validation(group: str, fraction: float) -> bool:
    """Deterministic split by episode group (task and seed), so a seed is never on both sides."""
    return zlib.crc32(group.encode("utf-8")) % 10_000 < fraction * 10_000


def load_demonstrations(
    paths: Iterable[str | Path],
    *,
    max_side: int,
    val_fraction: float = 0.1,
    val_paths: Iterable[str | Path] | None = None,
    progress: bool = True,
) -> Demonstrations:
    """Read episodes into samples.

    Args:
        paths: episode folders or folders holding them.
        max_side: screens are shrunk to this longer side (see :mod:`gui_agent.models.pixel.screen`).
        val_fraction: share of (task, seed) groups held out for validation when
            ``val_paths`` is not given.
        val_paths: episodes to validate on instead of a split.

    Raises:
        PolicyDataError: no episodes, or no step a pixel policy can learn from.
    """
    episodes = find_episodes(paths)
    val_episodes = set(find_episodes(val_paths)) if val_paths else set()
    frames: list[torch.Tensor] = []
    train: list[Sample] = []
    val: list[Sample] = []
    skipped: Counter[str] = Counter()
    tasks: Counter[str] = Counter()
    for folder in tqdm(episodes + sorted(val_episodes - set(episodes)), desc="reading episodes", unit="ep", disable=not progress):
        try:
            episode = read_episode(folder, lenient=True)
        except EpisodeFormatError as exc:
            skipped[f"unreadable episode ({exc.problem})"] += 1
            continue
        outcome = episode.meta.outcome
        if outcome is not None and outcome.success is False:
            skipped["failed episode"] += 1
            continue
        seed = SEED.stored(episode.meta.labels)  # a group key: the seed as written, whatever its shape
        group = f"{episode.meta.task.id}|{seed if seed is not None else episode.meta.episode_id}"
        held_out = folder in val_episodes if val_paths else is_validation(group, val_fraction)
        samples = _episode_samples(episode, frames, max_side, group, skipped)
        tasks[episode.meta.task.id] += 1
        (val if held_out else train).extend(samples)
    if not train:
        raise PolicyDataError(
            f"no steps to learn from in {len(episodes)} episode(s)"
            + (f" (skipped: {dict(skipped)})" if skipped else "")
            + "; a pixel policy learns left clicks, typing, Enter and done from successful or unscored episodes"
        )
    summary = {
        "episodes": len(episodes),
        "train_samples": len(train),
        "val_samples": len(val),
        "skipped": dict(skipped),
        "tasks": dict(sorted(tasks.items())),
    }
    return Demonstrations(frames=frames, train=train, val=val, summary=summary)


def _episode_samples(episode, frames: list[torch.Tensor], max_side: int, group: str, skipped: Counter[str]) -> list[Sample]:  # type: ignore[no-untyped-def]
    instruction = episode.meta.task.instruction
    tokens = instruction_tokens(instruction)
    chars, words = encode_tokens(tokens)
    scale = screen_scale(episode.meta.env.screen.height, episode.meta.env.screen.width, max_side)
    history = History()
    samples: list[Sample] = []
    for step in episode.steps:
        action = action_from_dict(step.action)
        kind = action_kind(action)
        span = find_span(instruction, tokens, action.text) if isinstance(action, Type) else None
        if kind is None:
            skipped[f"{action.kind} steps (not a pixel-policy action)"] += 1
        elif step.frame_before is None:
            skipped["steps without a frame"] += 1
        else:
            if isinstance(action, Type) and span is None:
                skipped["typed text not in the instruction (kind learned, text not)"] += 1
            frame = frame_tensor(episode.load_frame(step.frame_before), max_side)
            frames.append(frame)
            samples.append(
                Sample(
                    frame=len(frames) - 1,
                    chars=chars,
                    words=words,
                    typed=history.typed_counts(len(tokens)),
                    step=history.step_id(),
                    previous=history.previous_kind,
                    clicks=[(x * scale, y * scale) for x, y in history.clicks],
                    kind=KINDS.index(kind),
                    click=(action.x * scale, action.y * scale) if isinstance(action, Click) else None,
                    span=span,
                    task=episode.meta.task.id,
                    group=group,
                )
            )
        history.record(action, span)
    return samples


def collate(samples: list[Sample], frames: list[torch.Tensor], *, shift: int = 0, rng: random.Random | None = None) -> dict[str, torch.Tensor]:
    """Stack samples into network inputs and targets.

    Frames are pasted on a white canvas as large as the largest in the batch; with
    ``shift`` > 0 each is moved by up to that many pixels (clicks and targets with it).
    Targets use -1 where a sample has none (no click, no span).
    """
    height = max(frames[s.frame].shape[1] for s in samples)
    width = max(frames[s.frame].shape[2] for s in samples)
    n_tokens = max(len(s.words) for s in samples)
    out_h, out_w = heatmap_size(height, width)
    batch = len(samples)
    images = torch.empty(batch, 4, height, width)
    chars = torch.zeros(batch, n_tokens, MAX_CHARS, dtype=torch.long)
    words = torch.zeros(batch, n_tokens, dtype=torch.long)
    typed = torch.zeros(batch, n_tokens, dtype=torch.long)
    mask = torch.zeros(batch, n_tokens, dtype=torch.bool)
    click = torch.full((batch,), -1, dtype=torch.long)
    start = torch.full((batch,), -1, dtype=torch.long)
    end = torch.full((batch,), -1, dtype=torch.long)
    for row, sample in enumerate(samples):
        dx = rng.randint(-shift, shift) if rng and shift else 0
        dy = rng.randint(-shift, shift) if rng and shift else 0
        canvas = _paste(frames[sample.frame], height, width, dx, dy)
        images[row] = network_input(canvas, [(x + dx, y + dy) for x, y in sample.clicks])
        count = len(sample.words)
        chars[row, :count] = torch.tensor(sample.chars)
        words[row, :count] = torch.tensor(sample.words)
        typed[row, :count] = torch.tensor(sample.typed)
        mask[row, :count] = True
        if sample.click is not None:
            cx = min(cell_of(sample.click[0] + dx), out_w - 1)
            cy = min(cell_of(sample.click[1] + dy), out_h - 1)
            click[row] = cy * out_w + cx
        if sample.span is not None:
            start[row], end[row] = sample.span
    return {
        "images": images,
        "chars": chars,
        "words": words,
        "typed": typed,
        "token_mask": mask,
        "step": torch.tensor([s.step for s in samples]),
        "previous": torch.tensor([s.previous for s in samples]),
        "kind": torch.tensor([s.kind for s in samples]),
        "click": click,
        "start": start,
        "end": end,
    }


def _paste(frame: torch.Tensor, height: int, width: int, dx: int, dy: int) -> torch.Tensor:
    """``frame`` on a white ``height x width`` canvas, moved right by ``dx`` and down by ``dy``."""
    canvas = torch.full((3, height, width), 255, dtype=torch.uint8)
    h, w = frame.shape[1:]
    src_x, dst_x = max(0, -dx), max(0, dx)
    src_y, dst_y = max(0, -dy), max(0, dy)
    copy_w = min(w - src_x, width - dst_x)
    copy_h = min(h - src_y, height - dst_y)
    if copy_w > 0 and copy_h > 0:
        canvas[:, dst_y : dst_y + copy_h, dst_x : dst_x + copy_w] = frame[:, src_y : src_y + copy_h, src_x : src_x + copy_w]
    return canvas
