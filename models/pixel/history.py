"""What the pixel policy remembers of its own episode, identical in training and at run time.

The screen alone is ambiguous mid-episode (has the first password field been filled? was
button ONE clicked already?), so the network also sees: the step number, the previous
action's kind, where it clicked before (drawn as a channel of the screen input) and how
often each instruction token has been typed. Training rebuilds this from the recorded
actions with the same :class:`History`, so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gui_agent.actions import Action, Click, Done, Hotkey, Type

#: Action kinds the network predicts, in head order.
KINDS: tuple[str, ...] = ("click", "type", "enter", "done")
#: Previous-kind ids: 0 nothing yet, 1..len(KINDS) a predicted kind, the last one anything else.
PREVIOUS_OTHER = len(KINDS) + 1
#: Step numbers at or above this share one embedding.
MAX_STEP = 15
#: How many typed-count values the token embedding distinguishes (0, 1, 2 or more).
MAX_TYPED = 2


def action_kind(action: Action) -> str | None:
    """The network's kind for a canonical action, or None if it cannot produce it
    (drags, scrolls, waits, hotkeys other than a lone Enter)."""
    if isinstance(action, Click) and action.button == "left" and action.count == 1:
        return "click"
    if isinstance(action, Type):
        return "type"
    if isinstance(action, Hotkey) and action.keys == ("enter",):
        return "enter"
    if isinstance(action, Done):
        return "done"
    return None


@dataclass
class History:
    """The episode so far, as the network sees it."""

    clicks: list[tuple[int, int]] = field(default_factory=list)
    typed_spans: list[tuple[int, int]] = field(default_factory=list)
    previous_kind: int = 0
    steps: int = 0

    def record(self, action: Action, span: tuple[int, int] | None = None) -> None:
        """Remember an action taken (``span``: the instruction tokens it typed, if known)."""
        kind = action_kind(action)
        self.previous_kind = KINDS.index(kind) + 1 if kind else PREVIOUS_OTHER
        self.steps += 1
        if isinstance(action, Click):
            self.clicks.append((action.x, action.y))
        if span is not None:
            self.typed_spans.append(span)

    def typed_counts(self, n_tokens: int) -> list[int]:
        """Per instruction token: how often it was typed, capped at :data:`MAX_TYPED`."""
        counts = [0] * n_tokens
        for start, end in self.typed_spans:
            for index in range(start, min(end + 1, n_tokens)):
                counts[index] = min(counts[index] + 1, MAX_TYPED)
        return counts

    def step_id(self) -> int:
        return min(self.steps, MAX_STEP)
