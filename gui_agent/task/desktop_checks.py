"""Evaluator checks of desktop tasks: files, spreadsheets (read with openpyxl) and e-mail.

Spreadsheet checks read the saved file, so a task that edits a document usually saves
it in ``post_steps`` first (``hotkey: {keys: [ctrl, s]}`` + ``wait_for_file``). ``sheet``
names a worksheet; omitted, the first one. Cells are A1 references (``B7``), ranges
``A1:C4``. Their implementations live in :mod:`gui_agent.task.desktop_evaluator`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.task._base import NonBlank, Regex, _Model, _SingleKey
from gui_agent.task.cell_refs import CellRef, CellScalar, RangeRef, SheetRef, cell_ref, range_ref, range_shape, split_cell
from gui_agent.task.cell_refs import exactly_one as _exactly_one
from gui_agent.task.data_checks import DATA_CHECK_TYPES
from gui_agent.task.desktop_paths import HomePath, TaskPath
from gui_agent.task.document_checks import DOCUMENT_CHECK_TYPES
from gui_agent.task.presentation_checks import PRESENTATION_CHECK_TYPES
from gui_agent.task.sheet_checks import SHEET_CHECK_TYPES


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
        rows, cols = range_shape(self.range)
        if len(self.equals) != rows or any(len(row) != cols for row in self.equals):
            raise PydanticCustomError(
                "shape", "range {range} has {rows} row(s) of {cols} cell(s); 'equals' must have the same shape",
                {"range": self.range, "rows": rows, "cols": cols, "key": "equals"},
            )
        return self


class SheetNamesArgs(_Model):
    """The workbook's sheet names, in order, equal ``equals``, include all of ``contains``,
    or equal those of the workbook ``same_as`` (a file shipped in the task's folder:
    OSWorld's ``sheet_name`` rule)."""

    path: HomePath
    equals: list[NonBlank] | None = Field(default=None, min_length=1)
    contains: list[NonBlank] | None = Field(default=None, min_length=1)
    same_as: TaskPath | None = None

    @model_validator(mode="after")
    def _one(self) -> SheetNamesArgs:
        _exactly_one(self, ("equals", "contains", "same_as"))
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
            self.freeze_panes = cell_ref(self.freeze_panes)
        if self.autofilter is not None and self.autofilter != "none":
            self.autofilter = range_ref(self.autofilter)
        return self


class SheetDataEqualArgs(_Model):
    """Every cell value of the saved workbook's sheets equals that of ``expected`` (a file
    shipped in the task's folder), like OSWorld's ``compare_table`` ``sheet_data`` rule.

    ``sheets``: which sheets of the saved file, by 0-based position or by name; all when
    omitted. ``expected_sheets``: the sheets they are compared with, one for each (default:
    the same positions or names). Without ``expected`` the sheets are compared with other
    sheets of the saved file itself (a copied sheet must equal its original), and
    ``expected_sheets`` is required. Numbers compare within ``tolerance``.
    """

    path: HomePath
    expected: TaskPath | None = None
    sheets: list[SheetRef] | None = Field(default=None, min_length=1)
    expected_sheets: list[SheetRef] | None = Field(default=None, min_length=1)
    tolerance: float = Field(default=1e-6, ge=0)

    @model_validator(mode="after")
    def _pairs(self) -> SheetDataEqualArgs:
        if self.expected_sheets is not None and (self.sheets is None or len(self.sheets) != len(self.expected_sheets)):
            raise PydanticCustomError(
                "pairs", "expected_sheets needs 'sheets' with as many entries (one expected sheet per sheet)",
                {"key": "expected_sheets"},
            )
        if self.expected is None and self.expected_sheets is None:
            raise PydanticCustomError(
                "self_compare", "without 'expected' (another file) give expected_sheets: the sheets of the same file to compare with",
                {"key": "expected_sheets"},
            )
        return self


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


class InfeasibleReportedArgs(_Model):
    """The agent ended the episode saying the task cannot be done: ``done(success=False)``
    with an answer (why), as OSWorld's infeasible tasks require. ``answer_matches``: a
    regex the answer must match too (case-insensitive)."""

    answer_matches: Regex | None = None


class InfeasibleReportedCheck(_SingleKey):
    name: ClassVar[str] = "infeasible_reported"
    infeasible_reported: InfeasibleReportedArgs = Field(default_factory=lambda: InfeasibleReportedArgs())

    @field_validator("infeasible_reported", mode="before")
    @classmethod
    def _empty_means_defaults(cls, value: Any) -> Any:
        return {} if value is None else value  # ``infeasible_reported:`` alone


#: The checks defined in this module, in the order error messages list them.
_OWN_CHECK_TYPES: tuple[type[_SingleKey], ...] = (
    FileExistsCheck, FileContainsCheck, FileEqualCheck, CellValueCheck, CellFormulaCheck, CellRangeCheck, SheetNamesCheck,
    CellStyleCheck, SheetLayoutCheck, SheetDataEqualCheck, EmailReceivedCheck, InfeasibleReportedCheck,
)
#: Every desktop check type: this module's, then spreadsheets', documents', presentations',
#: mail's and data files'.
DESKTOP_CHECK_TYPES: tuple[type[_SingleKey], ...] = (
    *_OWN_CHECK_TYPES, *SHEET_CHECK_TYPES, *DOCUMENT_CHECK_TYPES, *PRESENTATION_CHECK_TYPES, *DATA_CHECK_TYPES,
)


__all__ = ["DESKTOP_CHECK_TYPES", "CellScalar", "split_cell"]
