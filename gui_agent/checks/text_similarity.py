"""How alike two texts are, the way OSWorld's document metrics score it: the normalised
Indel similarity (rapidfuzz's ``fuzz.ratio`` / 100), ``2 * LCS / (len(a) + len(b))``.

Why not difflib: its ratio counts matching blocks found greedily, not the longest common
subsequence, so it scores the same pair of texts differently. The LCS length comes from
a bit-parallel recurrence (Hyyrö) on Python integers, fast enough for whole documents.
"""

from __future__ import annotations


def lcs_length(a: str, b: str) -> int:
    """The length of the longest common subsequence of ``a`` and ``b``."""
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return 0
    masks: dict[str, int] = {}
    for i, char in enumerate(b):
        masks[char] = masks.get(char, 0) | (1 << i)
    full = (1 << len(b)) - 1
    row = full
    for char in a:
        matched = row & masks.get(char, 0)
        row = ((row + matched) | (row - matched)) & full
    return len(b) - bin(row).count("1")


def indel_ratio(a: str, b: str) -> float:
    """0..1: 1 for equal texts (two empty texts too), 0 for texts with no character in common."""
    total = len(a) + len(b)
    return 1.0 if total == 0 else 2 * lcs_length(a, b) / total


__all__ = ["indel_ratio", "lcs_length"]
