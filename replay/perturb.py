"""The human simulator's variants of a successful trajectory: what a person gets wrong.

Each variant is a plan: a list of :class:`PlannedStep`, each an action and which original
step it carries out (``original``: its index, or None for a step the original does not
have). The labelling (:mod:`gui_agent.replay.labels`) needs exactly that to know which original
steps are still to come after any prefix. Variants are drawn with a seeded
:class:`random.Random`, so the same source, kind and seed give the same variant.

Kinds (:data:`VARIANT_KINDS`):

``click_offset_small``  one click moved by 2 px (a person's imprecision; should still work)
``click_offset_large``  one click moved by a fifth of the screen's smaller side (misses)
``skip_step``           one step left out
``swap_steps``          two neighbouring, different steps in the other order
``wrong_text``          one typed text changed (a typo)
``early_stop``          stop (done) before the last step
``repeat_step``         one step done twice in a row
``splice_other``        another task's step inserted (clipped to this screen)
``recovery``            an error followed by its correction: a typo, select-all, the right
                        text again; or, without typing, a missed click, then the right click
"""

from __future__ import annotations

import dataclasses
import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gui_agent.actions import Action, Click, Done, Drag, Hotkey, Move, Scroll, Type

VARIANT_KINDS: tuple[str, ...] = (
    "click_offset_small", "click_offset_large", "skip_step", "swap_steps", "wrong_text",
    "early_stop", "repeat_step", "splice_other", "recovery",
)
SMALL_OFFSET_PX = 2


@dataclass(frozen=True)
class PlannedStep:
    """One step of a variant: the action, and the original step it carries out (None: none)."""

    action: Action
    original: int | None
    changed: bool = False


@dataclass(frozen=True)
class Variant:
    """A perturbed plan of one kind, with what was changed (``detail``)."""

    kind: str
    steps: tuple[PlannedStep, ...]
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def actions(self) -> list[Action]:
        return [s.action for s in self.steps]


def variant_rng(source_id: str, kind: str, seed: int) -> random.Random:
    """A generator that depends only on the source, the kind and the seed (not on hash randomisation)."""
    return random.Random(zlib.crc32(f"{source_id}|{kind}|{seed}".encode()))


def _plain(actions: Sequence[Action]) -> list[PlannedStep]:
    return [PlannedStep(a, i) for i, a in enumerate(actions)]


def _clip(value: int, limit: int) -> int:
    return max(0, min(limit - 1, value))


def _offset(action: Action, dx: int, dy: int, width: int, height: int) -> Action:
    if isinstance(action, Drag):
        return dataclasses.replace(action, x1=_clip(action.x1 + dx, width), y1=_clip(action.y1 + dy, height),
                                   x2=_clip(action.x2 + dx, width), y2=_clip(action.y2 + dy, height))
    return dataclasses.replace(action, x=_clip(action.x + dx, width), y=_clip(action.y + dy, height))  # type: ignore[type-var]


def _pointed(actions: Sequence[Action]) -> list[int]:
    return [i for i, a in enumerate(actions) if isinstance(a, (Click, Drag))]


def _direction(rng: random.Random, distance: int) -> tuple[int, int]:
    dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)])
    return dx * distance, dy * distance


def _typo(text: str, rng: random.Random) -> str:
    """A different text: one character replaced, or one appended to a text that ends a line."""
    body, newline = (text[:-1], "\n") if text.endswith("\n") and len(text) > 1 else (text, "")
    position = rng.randrange(len(body))
    letters = [c for c in "qxzjkvw" if c != body[position].lower()]
    return body[:position] + rng.choice(letters) + body[position + 1 :] + newline


def make_variant(
    kind: str,
    actions: Sequence[Action],
    *,
    rng: random.Random,
    screen: tuple[int, int],
    donors: Sequence[Action] = (),
) -> Variant | None:
    """The ``kind`` variant of ``actions`` on a screen of ``screen`` (width, height) pixels.

    Returns None when the trajectory has nothing this kind can change (no click to offset,
    no text to mistype, a single step to swap, no donor step to splice).
    """
    width, height = screen
    steps = _plain(actions)
    n = len(steps)
    if kind in ("click_offset_small", "click_offset_large"):
        pointed = _pointed(actions)
        if not pointed:
            return None
        i = rng.choice(pointed)
        distance = SMALL_OFFSET_PX if kind == "click_offset_small" else max(20, min(width, height) // 5)
        dx, dy = _direction(rng, distance)
        steps[i] = PlannedStep(_offset(actions[i], dx, dy, width, height), i, changed=True)
        return Variant(kind, tuple(steps), {"step": i, "dx": dx, "dy": dy})
    if kind == "skip_step":
        if n < 1:
            return None
        i = rng.randrange(n)
        return Variant(kind, tuple(steps[:i] + steps[i + 1 :]), {"step": i})
    if kind == "swap_steps":
        pairs = [i for i in range(n - 1) if actions[i] != actions[i + 1]]
        if not pairs:
            return None
        i = rng.choice(pairs)
        steps[i], steps[i + 1] = steps[i + 1], steps[i]
        return Variant(kind, tuple(steps), {"steps": [i, i + 1]})
    if kind == "wrong_text":
        typed = [i for i, a in enumerate(actions) if isinstance(a, Type)]
        if not typed:
            return None
        i = rng.choice(typed)
        text = _typo(actions[i].text, rng)  # type: ignore[union-attr]
        steps[i] = PlannedStep(Type(text), i, changed=True)
        return Variant(kind, tuple(steps), {"step": i, "typed": text})
    if kind == "early_stop":
        if n < 1:
            return None
        k = rng.randrange(n)
        return Variant(kind, tuple(steps[:k] + [PlannedStep(Done(success=True), None, changed=True)]), {"stopped_after": k})
    if kind == "repeat_step":
        if n < 1:
            return None
        i = rng.randrange(n)
        return Variant(kind, tuple(steps[: i + 1] + [PlannedStep(actions[i], None, changed=True)] + steps[i + 1 :]), {"step": i})
    if kind == "splice_other":
        if not donors:
            return None
        donor = rng.choice(list(donors))
        if isinstance(donor, (Click, Move, Scroll, Drag)):
            donor = _offset(donor, 0, 0, width, height)
        i = rng.randrange(n + 1)
        return Variant(kind, tuple(steps[:i] + [PlannedStep(donor, None, changed=True)] + steps[i:]), {"position": i})
    if kind == "recovery":
        typed = [i for i, a in enumerate(actions) if isinstance(a, Type) and not a.text.endswith("\n")]
        if typed:
            i = rng.choice(typed)
            wrong = _typo(actions[i].text, rng)  # type: ignore[union-attr]
            fix = [PlannedStep(Type(wrong), None, changed=True), PlannedStep(Hotkey(("ctrl", "a")), None, changed=True)]
            return Variant(kind, tuple(steps[:i] + fix + steps[i:]), {"step": i, "error": "typo", "typed": wrong})
        pointed = _pointed(actions)
        if not pointed:
            return None
        i = rng.choice(pointed)
        dx, dy = _direction(rng, max(20, min(width, height) // 5))
        miss = PlannedStep(_offset(actions[i], dx, dy, width, height), None, changed=True)
        return Variant(kind, tuple(steps[:i] + [miss] + steps[i:]), {"step": i, "error": "missed_click", "dx": dx, "dy": dy})
    raise ValueError(f"unknown variant kind {kind!r}; known: {', '.join(VARIANT_KINDS)}")
