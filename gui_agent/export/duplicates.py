"""One episode id in two folders: the same episode copied, or two different ones?

Merging the DATASETs of stations on several machines meets episodes copied from one to
another. A copy is harmless and exported once; two different episodes under one id are
not something an export can choose between. "The same" is judged on what an export
publishes from a folder: its ``episode.json``, ``steps.jsonl``, frames and screen video,
byte for byte. Files the export never reads (``events.jsonl``, a ``review.html`` page, the
original and ``edits.jsonl`` a review edit keeps) may differ.
"""

from __future__ import annotations

import filecmp
from pathlib import Path

from gui_agent.episode.format import EPISODE_FILE, FRAMES_DIR, STEPS_FILE, VIDEO_FILE, VIDEO_TIMESTAMPS_FILE

_FILES = (EPISODE_FILE, STEPS_FILE, VIDEO_FILE, VIDEO_TIMESTAMPS_FILE)


def _published(folder: Path) -> set[str]:
    names = {name for name in _FILES if (folder / name).is_file()}
    frames = folder / FRAMES_DIR
    if frames.is_dir():
        names |= {f"{FRAMES_DIR}/{p.name}" for p in frames.iterdir() if p.is_file()}
    return names


def episode_difference(first: Path, second: Path) -> str | None:
    """How two episode folders differ in what an export publishes, or ``None`` when they do not.

    The metadata and the steps are compared first: they say the most about how two
    episodes differ, and are small.
    """
    a, b = _published(first), _published(second)
    for name in (EPISODE_FILE, STEPS_FILE):
        if name in a and name in b and not filecmp.cmp(first / name, second / name, shallow=False):
            return f"their {name} differ"
    if a != b:
        only = sorted(a ^ b)
        where = first if only[0] in a else second
        return f"{only[0]} is only in {where}"
    for name in sorted(a - {EPISODE_FILE, STEPS_FILE}):
        if not filecmp.cmp(first / name, second / name, shallow=False):
            return f"their {name} differ"
    return None
