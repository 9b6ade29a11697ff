"""The pixel policy's actions as a probability distribution: sample one, score one, its entropy.

The network scores four decisions (:mod:`gui_agent.models.pixel.network`): the action kind,
the click cell, the first and the last token of a typed span. The behaviour-cloning
trainer fits each head on its own; reinforcement learning needs the probability of a
whole action, so this module defines it, as the policy samples it::

    p(action) = p(kind)                                    done, Enter
              * p(cell)                                    a click
              * p(start) * p(end | start)                  typing: end within MAX_SPAN_TOKENS of start

Actions are given as the targets :func:`gui_agent.models.pixel.dataset.collate` builds
(``kind``, ``click`` as a flat cell index, ``start``, ``end``), so a rollout's decisions
are :class:`~gui_agent.models.pixel.dataset.Sample` objects like demonstrations, and one
batch carries both the inputs and the actions taken.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from gui_agent.models.pixel.history import KINDS
from gui_agent.models.pixel.text import MAX_SPAN_TOKENS

CLICK = KINDS.index("click")
TYPE = KINDS.index("type")


@dataclass(frozen=True)
class Choice:
    """One sampled action as head indices: ``cell`` only for a click, ``start``/``end`` only for typing."""

    kind: int
    cell: int | None = None
    start: int | None = None
    end: int | None = None


def _end_window(end_logits: torch.Tensor, start: torch.Tensor) -> torch.Tensor:
    """End logits with everything outside ``[start, start + MAX_SPAN_TOKENS)`` at -inf (``(B, T)``)."""
    positions = torch.arange(end_logits.shape[1], device=end_logits.device)[None]
    inside = (positions >= start[:, None]) & (positions < start[:, None] + MAX_SPAN_TOKENS)
    return end_logits.masked_fill(~inside, float("-inf"))


def sample(outputs: dict[str, torch.Tensor], generator: torch.Generator | None = None) -> tuple[Choice, float]:
    """Draw one action from the scores of ONE screen (batch of one) and its log-probability."""
    def draw(logits: torch.Tensor) -> int:
        return int(torch.multinomial(torch.softmax(logits.flatten().float(), dim=0), 1, generator=generator))

    kind = draw(outputs["kind"][0])
    choice = Choice(kind)
    if kind == CLICK:
        choice = Choice(kind, cell=draw(outputs["click"][0]))
    elif kind == TYPE:
        start = draw(outputs["start"][0])
        end = draw(_end_window(outputs["end"], torch.tensor([start]))[0])
        choice = Choice(kind, start=start, end=end)
    targets = targets_of([choice])
    return choice, float(log_prob(outputs, targets)[0])


def targets_of(choices: list[Choice]) -> dict[str, torch.Tensor]:
    """Choices as collate-style targets (-1 where a head was not used)."""
    return {
        "kind": torch.tensor([c.kind for c in choices]),
        "click": torch.tensor([c.cell if c.cell is not None else -1 for c in choices]),
        "start": torch.tensor([c.start if c.start is not None else -1 for c in choices]),
        "end": torch.tensor([c.end if c.end is not None else -1 for c in choices]),
    }


def log_prob(outputs: dict[str, torch.Tensor], targets: dict[str, torch.Tensor]) -> torch.Tensor:
    """``(B,)`` log-probability of each row's action (differentiable).

    A click row must have a cell, a typing row a start and an end within the window: the
    targets of a sampled action always do (a demonstration's typing that was not copied
    from the instruction does not, and is not an action of this policy).
    """
    kind = targets["kind"]
    logp = torch.log_softmax(outputs["kind"].float(), dim=1).gather(1, kind[:, None])[:, 0]
    clicks = kind == CLICK
    if clicks.any():
        cells = torch.log_softmax(outputs["click"].flatten(1).float(), dim=1)
        logp = logp + torch.where(clicks, cells.gather(1, targets["click"].clamp(min=0)[:, None])[:, 0], 0.0)
    typing = kind == TYPE
    if typing.any():
        start = targets["start"].clamp(min=0)
        starts = torch.log_softmax(outputs["start"].float(), dim=1).gather(1, start[:, None])[:, 0]
        ends = torch.log_softmax(_end_window(outputs["end"].float(), start), dim=1).gather(1, targets["end"].clamp(min=0)[:, None])[:, 0]
        logp = logp + torch.where(typing, starts + ends, 0.0)
    return logp


def _entropy(logits: torch.Tensor) -> torch.Tensor:
    """Entropy of each row's softmax; -inf logits (padding) count as impossible."""
    logp = torch.log_softmax(logits.float(), dim=1)
    return -(logp.exp() * logp.nan_to_num(neginf=0.0)).sum(dim=1)


def entropy(outputs: dict[str, torch.Tensor]) -> torch.Tensor:
    """``(B,)`` entropy of the kind, plus each argument head's weighted by its kind's probability.

    ``H(kind) + p(click) H(cell) + p(type) H(start)``: the part of the action's entropy the
    bonus keeps from collapsing early (the end token, a short window, is left out).
    """
    kinds = torch.softmax(outputs["kind"].float(), dim=1)
    return (_entropy(outputs["kind"]) + kinds[:, CLICK] * _entropy(outputs["click"].flatten(1))
            + kinds[:, TYPE] * _entropy(outputs["start"]))


def _kl(logits: torch.Tensor, reference: torch.Tensor) -> torch.Tensor:
    logp = torch.log_softmax(logits.float(), dim=1)
    ref = torch.log_softmax(reference.float(), dim=1)
    return (logp.exp() * (logp - ref).nan_to_num(nan=0.0, neginf=0.0, posinf=0.0)).sum(dim=1)


def kl_divergence(outputs: dict[str, torch.Tensor], reference: dict[str, torch.Tensor]) -> torch.Tensor:
    """``(B,)`` KL(policy || reference) of the kind, plus each argument head's weighted by its kind's probability.

    Exact per head, not estimated from the sampled action: the anchor pulls the whole
    distribution on every step of the batch, whatever was sampled there.
    """
    kinds = torch.softmax(outputs["kind"].float(), dim=1)
    return (_kl(outputs["kind"], reference["kind"]) + kinds[:, CLICK] * _kl(outputs["click"].flatten(1), reference["click"].flatten(1))
            + kinds[:, TYPE] * _kl(outputs["start"], reference["start"]))
