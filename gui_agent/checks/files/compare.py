"""Comparing the text of a file the agent wrote with that of an expected file.

``file_equal`` (OSWorld's ``compare_csv``) compares line by line; ``archive_equal``
compares each file of an archive with its counterpart the same ways OSWorld's
``compare_archive`` does (``compare_text_file``: the whole text; ``compare_csv``: line by
line). Each comparison returns None when the files match, else what differs, in words.
"""

from __future__ import annotations

import re
from pathlib import Path

from gui_agent.checks.reports import cut


def read_text(path: Path) -> str:
    """The file as text (UTF-8, a byte-order mark dropped, undecodable bytes replaced)."""
    return path.read_text(encoding="utf-8-sig", errors="replace")


def lines_of(path: Path, *, strip: bool = False, ignore_case: bool = False) -> list[str]:
    """The file's lines without line endings or trailing spaces (all surrounding spaces with
    ``strip``), lower-cased with ``ignore_case``, trailing empty lines dropped."""
    lines = [line.strip() if strip else line.rstrip() for line in read_text(path).splitlines()]
    if ignore_case:
        lines = [line.lower() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def line_difference(got: list[str], want: list[str], got_name: str, want_name: str) -> str | None:
    """The first line where ``got`` differs from ``want``, or a difference in line count, or None."""
    differing = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), None)
    if differing is not None:
        return f"line {differing + 1} of {got_name} is {cut(got[differing])!r}, expected {cut(want[differing])!r}"
    if len(got) != len(want):
        return f"{got_name} has {len(got)} line(s), {want_name} has {len(want)}"
    return None


def compare_lines(got: Path, want: Path, *, strip: bool = False, ignore_case: bool = False) -> str | None:
    """Line by line (OSWorld's ``compare_csv``; ``strip`` is its ``strict: false``)."""
    return line_difference(lines_of(got, strip=strip, ignore_case=ignore_case),
                           lines_of(want, strip=strip, ignore_case=ignore_case), got.name, want.name)


def normal_text(text: str, *, ignore_blanks: bool = False, ignore_case: bool = False) -> str:
    """``text`` as OSWorld's ``compare_text_file`` compares it: with ``ignore_blanks`` every
    run of spaces, tabs and line breaks is one space and the ends are stripped."""
    if ignore_blanks:
        text = re.sub(r"\s+", " ", text).strip()
    return text.lower() if ignore_case else text


def text_difference(got: str, want: str, got_name: str, want_name: str) -> str | None:
    """Where two texts first differ, or None when they are equal."""
    if got == want:
        return None
    at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return (f"{got_name} differs from {want_name} at character {at + 1}: "
            f"{cut(got[max(0, at - 20):at + 40])!r} where {cut(want[max(0, at - 20):at + 40])!r} is expected")


def compare_text(got: Path, want: Path, *, ignore_blanks: bool = False, ignore_case: bool = False) -> str | None:
    """The whole text (OSWorld's ``compare_text_file``)."""
    return text_difference(normal_text(read_text(got), ignore_blanks=ignore_blanks, ignore_case=ignore_case),
                           normal_text(read_text(want), ignore_blanks=ignore_blanks, ignore_case=ignore_case),
                           got.name, want.name)


__all__ = ["compare_lines", "compare_text", "line_difference", "lines_of", "normal_text", "read_text", "text_difference"]
