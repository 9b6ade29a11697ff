"""Cell references in spreadsheet checks (``B7``, ``A1:C4``, a sheet by position or name).

One place so that every spreadsheet check parses and reports cells the same way.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field

#: A cell value a check compares with: text, a number, true/false, or null (empty).
CellScalar = bool | int | float | str | None

_CELL_RE = re.compile(r"^\$?([A-Za-z]{1,3})\$?([1-9][0-9]{0,6})$")


def cell_ref(value: str) -> str:
    """``"$b$7"`` -> ``"B7"``; anything that is not one cell raises ValueError."""
    if not _CELL_RE.match(value.strip()):
        raise ValueError(f"expected a cell reference like 'B7', got {value!r}")
    return value.strip().replace("$", "").upper()


def range_ref(value: str) -> str:
    """``"a1:c4"`` -> ``"A1:C4"``; anything that is not a two-cell range raises ValueError."""
    parts = value.strip().split(":")
    if len(parts) != 2 or not all(_CELL_RE.match(p.strip()) for p in parts):
        raise ValueError(f"expected a cell range like 'A1:C4', got {value!r}")
    return ":".join(cell_ref(p) for p in parts)


CellRef = Annotated[str, AfterValidator(cell_ref)]
RangeRef = Annotated[str, AfterValidator(range_ref)]
#: A worksheet: its 0-based position (``0`` is the first) or its name (``"Sheet2"``).
SheetRef = Annotated[int, Field(strict=True, ge=0)] | Annotated[str, Field(min_length=1)]


def split_cell(cell: str) -> tuple[int, int]:
    """``"B7"`` -> ``(2, 7)`` (column, row), 1-based."""
    match = _CELL_RE.match(cell)
    if match is None:
        raise ValueError(f"expected a cell reference like 'B7', got {cell!r}")
    letters, digits = match.groups()
    col = 0
    for ch in letters.upper():
        col = col * 26 + ord(ch) - 64
    return col, int(digits)


def column_name(index: int) -> str:
    """``1`` -> ``"A"``, ``27`` -> ``"AA"``."""
    name = ""
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def range_shape(cell_range: str) -> tuple[int, int]:
    """``"A1:C4"`` -> ``(4, 3)`` (rows, columns)."""
    first, last = cell_range.split(":")
    from_col, from_row = split_cell(first)
    to_col, to_row = split_cell(last)
    return abs(to_row - from_row) + 1, abs(to_col - from_col) + 1


__all__ = [
    "CellRef", "CellScalar", "RangeRef", "SheetRef", "cell_ref", "column_name", "range_ref", "range_shape", "split_cell",
]
