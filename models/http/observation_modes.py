"""What an HTTP policy sends of an observation: OSWorld's four observation types.

OSWorld's baseline agent (``mm_agents/agent.py``, ``PromptAgent.predict``) observes in one
of four ways, and a policy here does the same (``observation=`` in its spec):

``screenshot``            the screenshot alone (today's prompts, unchanged);
``a11y_tree``             no image: the linearized tree (tag, name, text, class, description,
                          position, size of each visible, usable element) as text;
``screenshot+a11y_tree``  the screenshot, and the table as text in the same turn;
``som``                   the screenshot with the elements drawn as numbered boxes, and the
                          table of marks (index, tag, name, text); the model may name a mark
                          (``click(mark=N)``), which the environment resolves.

The text is OSWorld's wording around the table, and the table is trimmed as OSWorld trims
it (to ``a11y_tree_max_tokens``, 10,000 tokens by its tokenizer; here counted as
:data:`MAX_TABLE_CHARS` characters, about four a token) with ``[...]`` marking the cut.
The tree is a desktop's: an observation without it (a browser task, or a run without
``--observe a11y_tree``) is refused with what to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gui_agent.envs.base import Observation
from gui_agent.envs.marks import draw_marks, marks_table
from gui_agent.action_formats import FORMATS
from gui_agent.errors import PolicyTaskError

#: The observation types, as ``observation=`` takes them.
OBSERVATION_MODES = ("screenshot", "a11y_tree", "screenshot+a11y_tree", "som")
#: Longest table sent, in characters (OSWorld: 10,000 tokens).
MAX_TABLE_CHARS = 40_000
@dataclass(frozen=True)
class Seen:
    """One observation as the model gets it: the image (None: no image) and the text beside it."""

    screenshot: np.ndarray | None
    text: str | None
    table: str | None = None


def observation_mode(value: str) -> str:
    """The mode a spec's ``observation=`` names. In a query string ``+`` reads as a space, so
    ``screenshot+a11y_tree`` arrives as ``screenshot a11y_tree``; OSWorld's own spelling,
    ``screenshot_a11y_tree``, is taken too.

    Raises:
        ValueError: not one of :data:`OBSERVATION_MODES`.
    """
    mode = value.strip().replace(" ", "+").replace("screenshot_a11y_tree", "screenshot+a11y_tree")
    if mode not in OBSERVATION_MODES:
        raise ValueError(f"must be one of {', '.join(OBSERVATION_MODES)}")
    return mode


def needs_tree(mode: str) -> bool:
    """Whether ``mode`` reads the accessibility tree (every mode but ``screenshot``)."""
    return mode != "screenshot"


def _trimmed(table: str) -> str:
    return table if len(table) <= MAX_TABLE_CHARS else table[:MAX_TABLE_CHARS] + "[...]\n"


def _table(observation: Observation) -> str:
    from gui_agent.envs.desktop.accessibility.linearize import linearize

    if observation.a11y_tree is None:
        raise PolicyTaskError("this policy observes the accessibility tree, and the observation has none: "
                              "run a desktop task with --observe a11y_tree (or observe: {a11y_tree: true} in the task file)")
    return _trimmed(linearize(observation.a11y_tree))


def seen(observation: Observation, mode: str, *, action_format: str = "json") -> Seen:
    """What a policy in ``mode`` sends of ``observation`` (OSWorld's text around the table);
    in ``som`` with how ``action_format`` names a mark (its record's ``mark_hint``)."""
    if mode == "screenshot":
        return Seen(observation.screenshot, None)
    if mode == "a11y_tree":
        table = _table(observation)
        return Seen(None, f"Given the info from accessibility tree as below:\n{table}\n"
                          "What's the next step that you will do to help with the task?", table)
    if mode == "screenshot+a11y_tree":
        table = _table(observation)
        return Seen(observation.screenshot, f"Given the screenshot and info from accessibility tree as below:\n{table}\n"
                                            "What's the next step that you will do to help with the task?", table)
    if mode == "som":
        _table(observation)  # the same refusal without a tree
        marks = observation.marks or []
        table = _trimmed(marks_table(marks))
        mark_hint = FORMATS[action_format].mark_hint if action_format in FORMATS else None
        hint = f"{mark_hint}\n" if mark_hint else ""
        return Seen(draw_marks(observation.screenshot, marks),
                    f"Given the tagged screenshot and info from accessibility tree as below:\n{table}\n"
                    f"{hint}What's the next step that you will do to help with the task?", table)
    raise ValueError(f"observation={mode!r}; expected one of {', '.join(OBSERVATION_MODES)}")


def with_text(messages: list[dict[str, Any]], images: list[Any], view: Seen) -> tuple[list[dict[str, Any]], list[Any]]:
    """The prompt (SFT-style messages, images apart) with ``view``'s text in its last user turn,
    after that turn's screenshot; with no image in ``view``, every image taken out."""
    if view.screenshot is None:
        messages = [{**m, "content": [p for p in m["content"] if p["type"] != "image"]} for m in messages]
        images = []
    if view.text is None:
        return messages, images
    last = max(i for i, m in enumerate(messages) if m["role"] == "user")
    turn = messages[last]
    messages = [*messages[:last], {**turn, "content": [*turn["content"], {"type": "text", "text": view.text}]}, *messages[last + 1:]]
    return messages, images


__all__ = ["MAX_TABLE_CHARS", "OBSERVATION_MODES", "Seen", "needs_tree", "observation_mode", "seen", "with_text"]
