"""What the reward networks see: screens, actions and text turned into fixed-size arrays.

Everything here is numpy (no torch), so the data set can be built and cached once and
the same encoding is used in training and at inference; a mismatch between the two is
the classic silent bug of reward models.

* A screen becomes a ``GLOBAL`` x ``GLOBAL`` RGB thumbnail (the layout), and a
  ``GLIMPSE`` x ``GLIMPSE`` crop at native resolution around the action's point (the
  target's text and state, which a thumbnail blurs away). Actions without a point
  (typing, keys) look where the screen changed most, else at the centre.
* Text (the instruction, a hotkey's key names) becomes hashed character trigrams, so no
  tokenizer or vocabulary is needed and unseen words still share pieces with seen ones.
* An action becomes a small vector: kind, normalised position(s), wheel, click count,
  how much of the typed text the instruction contains (:func:`typed_text_overlap`), and
  whether it is a typo of something the instruction says (:func:`typed_text_near_miss`).
"""

from __future__ import annotations

import difflib
import re
import zlib

import numpy as np
from PIL import Image

from gui_agent.actions import (
    ACTION_TYPES,
    Action,
    Click,
    Done,
    Drag,
    Hotkey,
    Move,
    Scroll,
    Type,
)

#: Side of the whole-screen thumbnail, in pixels.
GLOBAL = 64
#: Side of the native-resolution crop around the action's point, in pixels.
GLIMPSE = 48
#: Hash buckets of character trigrams (text embedding rows).
TEXT_BUCKETS = 4096
#: Trigrams kept per text (longer texts are cut; instructions are a sentence or two).
MAX_TRIGRAMS = 96
#: Length of :func:`action_vector`.
ACTION_DIMS = len(ACTION_TYPES) + 10

_KIND_INDEX = {cls.kind: i for i, cls in enumerate(ACTION_TYPES)}


def thumbnail(screen: np.ndarray) -> np.ndarray:
    """The whole screen as a ``GLOBAL`` x ``GLOBAL`` x 3 uint8 image (aspect not kept: coordinates are normalised)."""
    return np.asarray(Image.fromarray(screen).resize((GLOBAL, GLOBAL), Image.BILINEAR))


def glimpse(screen: np.ndarray, x: float, y: float) -> np.ndarray:
    """A ``GLIMPSE``-pixel square of the screen centred on (x, y), padded with black at the edges."""
    height, width = screen.shape[:2]
    half = GLIMPSE // 2
    out = np.zeros((GLIMPSE, GLIMPSE, 3), dtype=np.uint8)
    x0, y0 = round(x) - half, round(y) - half
    sx0, sy0 = max(x0, 0), max(y0, 0)
    sx1, sy1 = min(x0 + GLIMPSE, width), min(y0 + GLIMPSE, height)
    if sx1 > sx0 and sy1 > sy0:
        out[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = screen[sy0:sy1, sx0:sx1, :3]
    return out


def focus_point(action: Action | None, before: np.ndarray, after: np.ndarray | None) -> tuple[float, float]:
    """Where the action happens: its point, else the centre of the biggest change, else the screen's centre."""
    if isinstance(action, (Click, Move, Scroll)):
        return float(action.x), float(action.y)
    if isinstance(action, Drag):
        return float(action.x1), float(action.y1)
    height, width = before.shape[:2]
    if after is not None and after.shape == before.shape:
        changed = np.abs(after.astype(np.int16) - before.astype(np.int16)).max(axis=2) > 16
        if changed.any():
            ys, xs = np.nonzero(changed)
            return float(np.median(xs)), float(np.median(ys))
    return width / 2.0, height / 2.0


def trigram_ids(text: str) -> np.ndarray:
    """Hashed character trigrams of ``text`` (lower-cased, padded), as int64 bucket ids; never empty."""
    padded = f"  {text.lower().strip()} "
    ids = [zlib.crc32(padded[i:i + 3].encode()) % (TEXT_BUCKETS - 1) + 1 for i in range(len(padded) - 2)]
    ids = ids[:MAX_TRIGRAMS] or [0]
    return np.asarray(ids, dtype=np.int64)


def typed_text_overlap(typed: str, instruction: str) -> float:
    """Share of the typed text that the instruction contains as one piece (1.0: copied from it).

    The longest run of the typed text found in the instruction (case and surrounding
    spaces ignored), over the typed text's length. Not a trigram overlap: that one padded
    the typed text with spaces while the instruction quotes it (``"yA"``), so a short
    value copied exactly scored 0 (a two-character password looked like wrong text) and
    a long one never reached 1.
    """
    mine, theirs = typed.strip().lower(), instruction.lower()
    if not mine:
        return 0.0
    match = difflib.SequenceMatcher(None, mine, theirs, autojunk=False).find_longest_match(0, len(mine), 0, len(theirs))
    return match.size / len(mine)


def _edit_distance(a: str, b: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions to turn ``a`` into ``b``."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _instruction_pieces(instruction: str, words: int) -> set[str]:
    """What typed text could have been copied from: the quoted strings, and every run of ``words`` words."""
    lowered = instruction.lower()
    quoted = set(re.findall(r'"([^"]+)"', lowered)) | set(re.findall(r"'([^']+)'", lowered))
    tokens = [t.strip(".,:;!?()[]\"'") for t in lowered.split()]
    runs = {" ".join(tokens[i:i + words]) for i in range(max(len(tokens) - words + 1, 0))}
    return {p for p in quoted | runs if p}


def typed_text_near_miss(typed: str, instruction: str) -> float:
    """1.0 when the typed text is *almost* a piece of the instruction (a typo): not equal, at most one edit per five characters (at least one) off.

    Why it is given explicitly: the overlap alone cannot tell a typo of a quoted value
    ("kU" for "fU": overlap 0.5) from an answer the instruction does not contain (a sum,
    a word read off the page), which overlaps by chance just as much. Only a near miss of a
    piece the instruction offers points to a slip of the hand, whatever the task.
    """
    mine = typed.strip().lower()
    if not mine:
        return 0.0
    allowed = max(1, len(mine) // 5)
    distances = [_edit_distance(mine, piece) for piece in _instruction_pieces(instruction, len(mine.split()))
                 if abs(len(piece) - len(mine)) <= allowed]
    best = min(distances, default=allowed + 1)
    return 1.0 if 0 < best <= allowed else 0.0


def action_vector(action: Action | None, width: int, height: int, instruction: str) -> np.ndarray:
    """The action as ``ACTION_DIMS`` floats: kind one-hot, positions in [0, 1], wheel, count, text overlap and near miss."""
    vector = np.zeros(ACTION_DIMS, dtype=np.float32)
    if action is None:
        return vector
    vector[_KIND_INDEX[action.kind]] = 1.0
    base = len(ACTION_TYPES)
    w, h = max(width, 1), max(height, 1)
    if isinstance(action, (Click, Move, Scroll)):
        vector[base:base + 2] = (action.x / w, action.y / h)
    if isinstance(action, Drag):
        vector[base:base + 4] = (action.x1 / w, action.y1 / h, action.x2 / w, action.y2 / h)
    if isinstance(action, Scroll):
        vector[base + 4] = float(np.sign(action.dy))
        vector[base + 5] = float(np.sign(action.dx))
    if isinstance(action, Click):
        vector[base + 6] = action.count / 3.0
        vector[base + 5] = 0.0 if action.button == "left" else 1.0
    if isinstance(action, Type):
        vector[base + 7] = typed_text_overlap(action.text, instruction)
        vector[base + 8] = min(len(action.text), 40) / 40.0
        vector[base + 9] = typed_text_near_miss(action.text, instruction)
    if isinstance(action, Hotkey):
        vector[base + 8] = len(action.keys) / 4.0
    if isinstance(action, Done):
        vector[base + 7] = 1.0 if action.success else 0.0
    return vector


def action_text(action: Action | None) -> str:
    """What the text encoder reads of an action: key names of a hotkey, "enter" for typed text with a newline; else ''.

    Never the typed characters themselves: their identity says nothing about whether a
    step helps (a right value in one task is a wrong one in another), so a network that
    read them memorised strings: a task's password seen as wrongly spliced-in text in
    other tasks' failures made typing it look harmful everywhere. What matters of typed
    text, whether the instruction contains it, is :func:`typed_text_overlap`.
    """
    if isinstance(action, Type):
        return "enter" if "\n" in action.text else ""
    if isinstance(action, Hotkey):
        return "+".join(action.keys)
    return ""
