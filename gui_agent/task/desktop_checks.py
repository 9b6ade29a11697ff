"""Evaluator checks of desktop tasks: files, spreadsheets (read with openpyxl) and e-mail.

Spreadsheet checks read the saved file, so a task that edits a document usually saves
it in ``post_steps`` first (``hotkey: {keys: [ctrl, s]}`` + ``wait_for_file``). ``sheet``
names a worksheet; omitted, the first one. Cells are A1 references (``B7``), ranges
``A1:C4``. Their implementations live in :mod:`gui_agent.task.desktop_evaluator`.
"""

from __future__ import annotations

import re
from typing import Annotated, ClassVar

from pydantic import AfterValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.task._base import NonBlank, Regex, _Model, _SingleKey
from gui_agent.task.desktop_paths import HomePath, TaskPath

#: A cell value a check compares with: text, a number, true/false, or null (empty).
CellScalar = bool | int | float | str | None

_CELL_RE = re.compile(r"^\$?([A-Za-z]{1,3})\$?([1-9][0-9]{0,6})$")


def _cell(value: str) -> str:
    if not _CELL_RE.match(value.strip()):
        raise ValueError(f"expected a cell reference like 'B7', got {value!r}")
    return value.strip().replace("$", "").upper()


def _range(value: str) -> str:
    parts = value.strip().split(":")
    if len(parts) != 2 or not all(_CELL_RE.match(p.strip()) for p in parts):
        raise ValueError(f"expected a cell range like 'A1:C4', got {value!r}")
    return ":".join(_cell(p) for p in parts)


CellRef = Annotated[str, AfterValidator(_cell)]
RangeRef = Annotated[str, AfterValidator(_range)]


def _exactly_one(model: _Model, names: tuple[str, ...]) -> None:
    given = [n for n in names if getattr(model, n) is not None]
    if len(given) != 1:
        raise PydanticCustomError(
            "one_of", "expected exactly one of: {names}; got {got}",
            {"names": ", ".join(names), "got": ", ".join(given) or "none", "key": given[1] if len(given) > 1 else None},
        )


class FileExistsArgs(_Model):
    """A file (or folder) exists at the home-relative ``path``."""

    path: HomePath


class FileContainsArgs(_Model):
    """The file at ``path``, read as UTF-8 text, contains ``text`` (or matches ``matches``)."""

    path: HomePath
    text: NonBlank | None = None
    matches: Regex | None = None

    @model_validator(mode="after")
    def _one(self) -> FileContainsArgs:
        _exactly_one(self, ("text", "matches"))
        return self


class FileEqualArgs(_Model):
    """The text of ``path`` equals that of ``expected`` (a file shipped in the task's folder),
    line by line, ignoring line endings and trailing spaces (OSWorld's ``compare_csv``)."""

    path: HomePath
    expected: TaskPath


class CellValueArgs(_Model):
    """The value of ``cell`` (formulas: their saved result) equals ``equals``.

    Numbers compare within ``tolerance``; text exactly (surrounding spaces ignored);
    ``null`` means an empty cell.
    """

    path: HomePath
    sheet: NonBlank | None = None
    cell: CellRef
    equals: CellScalar
    tolerance: float = Field(default=1e-6, ge=0)


class CellFormulaArgs(_Model):
    """The formula in ``cell`` equals ``equals`` (ignoring case, spaces and the leading
    ``=``) or matches the regex ``matches`` (tested against the normalised formula)."""

    path: HomePath
    sheet: NonBlank | None = None
    cell: CellRef
    equals: NonBlank | None = None
    matches: Regex | None = None

    @model_validator(mode="after")
    def _one(self) -> CellFormulaArgs:
        _exactly_one(self, ("equals", "matches"))
        return self


class CellRangeArgs(_Model):
    """The values of ``range`` (rows of cells) equal ``equals`` (a list of rows)."""

    path: HomePath
    sheet: NonBlank | None = None
    range: RangeRef
    equals: list[list[CellScalar]] = Field(min_length=1)
    tolerance: float = Field(default=1e-6, ge=0)

    @model_validator(mode="after")
    def _shape(self) -> CellRangeArgs:
        first, last = self.range.split(":")
        rows, cols = _shape(first, last)
        if len(self.equals) != rows or any(len(row) != cols for row in self.equals):
            raise PydanticCustomError(
                "shape", "range {range} has {rows} row(s) of {cols} cell(s); 'equals' must have the same shape",
                {"range": self.range, "rows": rows, "cols": cols, "key": "equals"},
            )
        return self


def _shape(first: str, last: str) -> tuple[int, int]:
    from_col, from_row = _split(first)
    to_col, to_row = _split(last)
    return abs(to_row - from_row) + 1, abs(to_col - from_col) + 1


def _split(cell: str) -> tuple[int, int]:
    match = _CELL_RE.match(cell)
    assert match is not None
    letters, digits = match.groups()
    col = 0
    for ch in letters.upper():
        col = col * 26 + ord(ch) - 64
    return col, int(digits)


class SheetNamesArgs(_Model):
    """The workbook's sheet names, in order, equal ``equals``, or include all of ``contains``."""

    path: HomePath
    equals: list[NonBlank] | None = Field(default=None, min_length=1)
    contains: list[NonBlank] | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _one(self) -> SheetNamesArgs:
        _exactly_one(self, ("equals", "contains"))
        return self


class CellStyleArgs(_Model):
    """Every cell of ``range`` (or the one ``cell``) has the given style properties.

    ``number_format`` is the format code as saved (``0.00``, ``#,##0.00``, ``0%``).
    """

    path: HomePath
    sheet: NonBlank | None = None
    cell: CellRef | None = None
    range: RangeRef | None = None
    bold: bool | None = None
    italic: bool | None = None
    number_format: NonBlank | None = None

    @model_validator(mode="after")
    def _targets(self) -> CellStyleArgs:
        _exactly_one(self, ("cell", "range"))
        if self.bold is None and self.italic is None and self.number_format is None:
            raise PydanticCustomError(
                "style", "expected at least one of: bold, italic, number_format", {"key": None}
            )
        return self


class SheetLayoutArgs(_Model):
    """The sheet's frozen panes and/or auto-filter.

    ``freeze_panes``: the top-left cell of the scrolling part (``A2`` = first row frozen;
    ``none`` = nothing frozen). ``autofilter``: the filtered range (``A1:C9``; ``none``).
    """

    path: HomePath
    sheet: NonBlank | None = None
    freeze_panes: str | None = None
    autofilter: str | None = None

    @model_validator(mode="after")
    def _given(self) -> SheetLayoutArgs:
        if self.freeze_panes is None and self.autofilter is None:
            raise PydanticCustomError("layout", "expected at least one of: freeze_panes, autofilter", {"key": None})
        if self.freeze_panes is not None and self.freeze_panes != "none":
            self.freeze_panes = _cell(self.freeze_panes)
        if self.autofilter is not None and self.autofilter != "none":
            self.autofilter = _range(self.autofilter)
        return self


class SheetDataEqualArgs(_Model):
    """Every cell value of the saved workbook's sheets equals that of ``expected`` (a file
    shipped in the task's folder), like OSWorld's ``compare_table`` ``sheet_data`` rule.

    ``sheets``: which sheets (0-based positions in both files); all when omitted.
    """

    path: HomePath
    expected: TaskPath
    sheets: list[Annotated[int, Field(strict=True, ge=0)]] | None = None
    tolerance: float = Field(default=1e-6, ge=0)


class EmailReceivedArgs(_Model):
    """The environment's loopback SMTP server received a message matching every given
    condition: a recipient ``to``, a subject containing ``subject_contains``, a text body
    containing ``body_contains``, an attachment called ``attachment`` and, when
    ``attachment_contains`` is given, that attachment containing that text; ``in_reply_to``:
    the message answers the one with this Message-ID (its In-Reply-To or References
    header names it). ``count``: how many such messages there must be at least.
    """

    to: NonBlank | None = None
    subject_contains: NonBlank | None = None
    body_contains: NonBlank | None = None
    attachment: NonBlank | None = None
    attachment_contains: NonBlank | None = None
    in_reply_to: NonBlank | None = None
    count: int = Field(default=1, strict=True, ge=1)

    @model_validator(mode="after")
    def _something(self) -> EmailReceivedArgs:
        if self.attachment_contains is not None and self.attachment is None:
            raise PydanticCustomError(
                "attachment", "attachment_contains needs 'attachment' (the file name)", {"key": "attachment_contains"}
            )
        return self


class FileExistsCheck(_SingleKey):
    name: ClassVar[str] = "file_exists"
    file_exists: FileExistsArgs


class FileContainsCheck(_SingleKey):
    name: ClassVar[str] = "file_contains"
    file_contains: FileContainsArgs


class FileEqualCheck(_SingleKey):
    name: ClassVar[str] = "file_equal"
    file_equal: FileEqualArgs


class CellValueCheck(_SingleKey):
    name: ClassVar[str] = "cell_value"
    cell_value: CellValueArgs


class CellFormulaCheck(_SingleKey):
    name: ClassVar[str] = "cell_formula"
    cell_formula: CellFormulaArgs


class CellRangeCheck(_SingleKey):
    name: ClassVar[str] = "cell_range"
    cell_range: CellRangeArgs


class SheetNamesCheck(_SingleKey):
    name: ClassVar[str] = "sheet_names"
    sheet_names: SheetNamesArgs


class CellStyleCheck(_SingleKey):
    name: ClassVar[str] = "cell_style"
    cell_style: CellStyleArgs


class SheetLayoutCheck(_SingleKey):
    name: ClassVar[str] = "sheet_layout"
    sheet_layout: SheetLayoutArgs


class SheetDataEqualCheck(_SingleKey):
    name: ClassVar[str] = "sheet_data_equal"
    sheet_data_equal: SheetDataEqualArgs


class EmailReceivedCheck(_SingleKey):
    name: ClassVar[str] = "email_received"
    email_received: EmailReceivedArgs


#: The desktop check types, in the order error messages list them.
DESKTOP_CHECK_TYPES: tuple[type[_SingleKey], ...] = (
    FileExistsCheck, FileContainsCheck, FileEqualCheck, CellValueCheck, CellFormulaCheck, CellRangeCheck, SheetNamesCheck,
    CellStyleCheck, SheetLayoutCheck, SheetDataEqualCheck, EmailReceivedCheck,
)


def split_cell(cell: str) -> tuple[int, int]:
    """``"B7"`` -> ``(2, 7)`` (column, row), 1-based."""
    return _split(cell)
