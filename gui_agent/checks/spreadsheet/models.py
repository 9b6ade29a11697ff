"""What spreadsheet checks a task file may write: cell values, formulas, ranges and
styles, sheet names and layout, whole-sheet data; and the comparisons of one aspect of a
sheet with a reference sheet (charts, pivot tables, styles, frozen panes, filters, rows
and columns), zoom, data validation and printed values.

Spreadsheet checks read the saved file (with openpyxl), so a task that edits a document
usually saves it in ``post_steps`` first (``hotkey: {keys: [ctrl, s]}`` + ``wait_for_file``).
Cells are A1 references (``B7``), ranges ``A1:C4``. ``sheet`` names a worksheet: its name,
or its 0-based position in the comparisons; omitted, the first one.

The comparisons take two sheets, written the same way everywhere (:class:`SheetPairArgs`):

.. code-block:: yaml

    chart_equal: {path: sales.xlsx, expected: inputs/gold.xlsx, sheet: Sheet2, props: [type, title]}

``expected_sheet`` defaults to ``sheet``; without ``expected`` (a file shipped with the task,
usually OSWorld's gold file) the other sheet is in the saved file itself. Each compares one
aspect, the way OSWorld's ``compare_table`` rules do, so a failure says which.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.checks.spreadsheet.refs import CellRef, CellScalar, RangeRef, SheetRef, cell_ref, range_ref, range_shape
from gui_agent.checks.value_rules import ValueRule
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import NonBlank, Regex, SingleKey, StrictModel, exactly_one


ChartProp = Literal["type", "title", "legend", "xtitle", "ytitle", "ztitle", "direction", "width", "height", "anchor"]
PivotProp = Literal[
    "name", "show_total", "show_empty_row", "show_empty_col", "show_headers", "location", "selection", "filter",
    "col_fields", "row_fields", "data_fields", "ordered", "data_fields_name", "ignore_special_fields",
]
StyleProp = Literal[
    "number_format", "font_name", "font_family", "font_color", "font_bold", "font_italic", "font_underline",
    "font_size", "fill_type", "bgcolor", "fgcolor", "hyperlink", "merge",
]
RowProp = Literal["height", "hidden", "collapsed", "outline_level"]
ColumnProp = Literal["width", "hidden", "collapsed", "outline_level", "auto_size", "min", "max"]
ValidationProp = Literal[
    "ranges", "type", "formula1", "formula2", "operator", "allow_blank", "show_drop_down", "show_input_message",
    "show_error_message", "error", "error_title", "error_style", "prompt", "prompt_title", "ime_mode",
]


# ---------------------------------------------------------------------- cells and sheets


class CellValueArgs(StrictModel):
    """The value of ``cell`` (formulas: their saved result) equals ``equals``.

    Numbers compare within ``tolerance``; text exactly (surrounding spaces ignored);
    ``null`` means an empty cell.
    """

    path: HomePath
    sheet: NonBlank | None = None
    cell: CellRef
    equals: CellScalar
    tolerance: float = Field(default=1e-6, ge=0)


class CellFormulaArgs(StrictModel):
    """The formula in ``cell`` equals ``equals`` (ignoring case, spaces and the leading
    ``=``) or matches the regex ``matches`` (tested against the normalised formula)."""

    path: HomePath
    sheet: NonBlank | None = None
    cell: CellRef
    equals: NonBlank | None = None
    matches: Regex | None = None

    @model_validator(mode="after")
    def _one(self) -> CellFormulaArgs:
        exactly_one(self, ("equals", "matches"))
        return self


class CellRangeArgs(StrictModel):
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


class SheetNamesArgs(StrictModel):
    """The workbook's sheet names, in order, equal ``equals``, include all of ``contains``,
    or equal those of the workbook ``same_as`` (a file shipped in the task's folder:
    OSWorld's ``sheet_name`` rule)."""

    path: HomePath
    equals: list[NonBlank] | None = Field(default=None, min_length=1)
    contains: list[NonBlank] | None = Field(default=None, min_length=1)
    same_as: TaskPath | None = None

    @model_validator(mode="after")
    def _one(self) -> SheetNamesArgs:
        exactly_one(self, ("equals", "contains", "same_as"))
        return self


class CellStyleArgs(StrictModel):
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
        exactly_one(self, ("cell", "range"))
        if self.bold is None and self.italic is None and self.number_format is None:
            raise PydanticCustomError(
                "style", "expected at least one of: bold, italic, number_format", {"key": None}
            )
        return self


class SheetLayoutArgs(StrictModel):
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


class SheetDataEqualArgs(StrictModel):
    """Every cell value of the saved workbook's sheets equals that of ``expected`` (a file
    shipped in the task's folder), like OSWorld's ``compare_table`` ``sheet_data`` rule.

    ``sheets``: which sheets of the saved file, by 0-based position or by name; all when
    omitted. ``expected_sheets``: the sheets they are compared with, one for each (default:
    the same positions or names). Without ``expected`` the sheets are compared with other
    sheets of the saved file itself (a copied sheet must equal its original), and
    ``expected_sheets`` is required. Numbers compare within ``tolerance``; with
    ``precision``, rounded to that many decimals first and then equal (OSWorld rounds to
    4 unless its rule says otherwise).
    """

    path: HomePath
    expected: TaskPath | None = None
    sheets: list[SheetRef] | None = Field(default=None, min_length=1)
    expected_sheets: list[SheetRef] | None = Field(default=None, min_length=1)
    tolerance: float = Field(default=1e-6, ge=0)
    precision: int | None = Field(default=None, strict=True, ge=0, le=15)

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


# ---------------------------------------------------------------------- comparisons with a reference sheet


class SheetPairArgs(StrictModel):
    """Which two sheets a comparison check compares (see the module docstring)."""

    path: HomePath
    sheet: SheetRef = 0
    expected: TaskPath | None = None
    expected_sheet: SheetRef | None = None

    @model_validator(mode="after")
    def _two_sheets(self) -> SheetPairArgs:
        if self.expected is None and self.expected_sheet in (None, self.sheet):
            raise PydanticCustomError(
                "self_compare", "without 'expected' (a reference file) give expected_sheet: another sheet of {path}",
                {"path": self.path, "key": "expected_sheet"},
            )
        return self


class ChartEqualArgs(SheetPairArgs):
    """The sheets' charts are the same: the same data series (value and category ranges),
    and for each the same ``props`` (chart ``type`` such as ``barChart``, ``title``,
    ``legend`` position, axis titles, bar ``direction``, size, anchor)."""

    props: list[ChartProp] = Field(default_factory=lambda: ["type"])


class PivotEqualArgs(SheetPairArgs):
    """The sheets' pivot tables are the same: the same source range, and for each the same
    ``props`` (row, column, filter and data fields, ...)."""

    props: list[PivotProp] = Field(default_factory=lambda: ["row_fields", "col_fields", "data_fields", "filter"])


class StyleEqualArgs(SheetPairArgs):
    """Every cell has the same ``props`` in both sheets (font, fill, number format, merged
    cells); a cell a conditional format with a fixed comparison (``cellIs``) applies to
    counts with that format's style, as in OSWorld."""

    props: list[StyleProp] = Field(min_length=1)


class FreezeEqualArgs(SheetPairArgs):
    """The sheets freeze the same rows and columns (the split, not where they are scrolled)."""


class FilterEqualArgs(SheetPairArgs):
    """The sheets' auto-filters are the same: range, per-column filters, sort state."""


class RowsEqualArgs(SheetPairArgs):
    """Every row with properties has the same ``props`` (height, hidden, ...) in both sheets."""

    props: list[RowProp] = Field(min_length=1)


class ColumnsEqualArgs(SheetPairArgs):
    """Every column with properties has the same ``props`` (width, hidden, ...) in both sheets."""

    props: list[ColumnProp] = Field(min_length=1)


class SheetZoomArgs(StrictModel):
    """The sheet's zoom (percent; 100 when unset) satisfies ``zoom`` (e.g. ``{method: lt, ref: 260}``)."""

    path: HomePath
    sheet: SheetRef = 0
    zoom: ValueRule


class RangeBounds(StrictModel):
    """The validated ranges cover every range of ``contains`` and stay within ``within``
    (each a range list such as ``"D2:D29"`` or ``"A1:A5 C1:C5"``; a range counts as covered
    when one range of the other holds it whole), OSWorld's ``spreadsheet_range``."""

    contains: NonBlank
    within: NonBlank

    @model_validator(mode="after")
    def _ranges(self) -> RangeBounds:
        for key in ("contains", "within"):
            for part in getattr(self, key).split():
                if ":" in part:
                    range_ref(part)
                else:
                    cell_ref(part)
        return self


class DataValidationArgs(StrictModel):
    """The sheet has at least as many data validations as ``validations`` lists, and each
    of its validations satisfies every rule of at least one entry (OSWorld's
    ``data_validation``). ``ranges`` is the validated range text (``"D2:D29"``), judged by
    a value rule or by :class:`RangeBounds`."""

    path: HomePath
    sheet: SheetRef = 0
    validations: list[dict[ValidationProp, ValueRule | RangeBounds]] = Field(min_length=1)

    @model_validator(mode="after")
    def _bounds_only_for_ranges(self) -> DataValidationArgs:
        for entry in self.validations:
            if any(isinstance(rule, RangeBounds) and prop != "ranges" for prop, rule in entry.items()):
                raise PydanticCustomError("bounds", "contains/within judge only 'ranges'", {"key": "validations"})
        return self


class CellPropsArgs(StrictModel):
    """One cell satisfies a rule per property: ``value`` (as the file holds it, the way
    OSWorld's ``check_cell`` reads it: numbers, dates included, as decimals; text as text;
    formulas their result; an empty cell, true/false or an error as nothing) or a style
    property (``font_bold``, ``number_format``, ...)."""

    path: HomePath
    sheet: SheetRef = 0
    cell: CellRef
    props: dict[Literal["value"] | StyleProp, ValueRule] = Field(min_length=1)


class SheetPrintEqualArgs(StrictModel):
    """The sheet, exported as CSV the way LibreOffice shows it (formatted values), equals
    the CSV file ``expected`` line by line (OSWorld's ``sheet_print``). Surrounding spaces
    and trailing empty lines are ignored; ``ignore_case`` ignores case too. The export is
    made from the saved file with a LibreOffice of its own, after the episode."""

    path: HomePath
    sheet: SheetRef = 0
    expected: TaskPath
    ignore_case: bool = False


class CellMatchRule(StrictModel):
    """How the cells of ``ranges`` compare with the same cells of the other sheet, both
    read as text (numbers as decimals, ``5.0``; empty cells as ``None``) and normalised in
    OSWorld's order: ``replace`` pairs, then ``trim_leading`` / ``trim_trailing`` (those
    characters off the ends), ``ignore_chars`` removed, ``ignore_case``. ``match``:
    ``exact``, ``includes`` (ours contains theirs), ``included_by`` (theirs contains ours)
    or ``fuzzy`` (the Indel similarity, 0-100, at least ``threshold``)."""

    ranges: list[NonBlank] = Field(min_length=1)
    match: Literal["exact", "includes", "included_by", "fuzzy"]
    threshold: float = Field(default=85.0, ge=0, le=100)
    ignore_case: bool = False
    ignore_chars: str = ""
    trim_leading: str | None = None
    trim_trailing: str | None = None
    replace: list[tuple[str, str]] = Field(default_factory=list)

    @model_validator(mode="after")
    def _ranges(self) -> CellMatchRule:
        for text in self.ranges:
            for part in text.split():
                range_ref(part) if ":" in part else cell_ref(part)
        return self


class CellsMatchArgs(SheetPairArgs):
    """Cell by cell over the ranges of each rule, the sheet's text matches the other
    sheet's (OSWorld's ``sheet_fuzzy``)."""

    rules: list[CellMatchRule] = Field(min_length=1)


class SparklinesEqualArgs(SheetPairArgs):
    """The sheets have the same sparklines: each at the same cell, drawn from the same range."""


class CellsContainArgs(StrictModel):
    """Each cell of ``range`` (row by row) contains, as text, its entry of ``contains`` (or
    one of the entry's texts when it is a list); an empty or non-text cell fails, and so
    does a range with more cells than entries (OSWorld's ``compare_conference_city_in_order``).
    ``sheet``: the workbook's active sheet when omitted."""

    path: HomePath
    sheet: SheetRef | None = None
    range: RangeRef
    contains: list[NonBlank | list[NonBlank]] = Field(min_length=1)


class CellValueCheck(SingleKey):
    name: ClassVar[str] = "cell_value"
    cell_value: CellValueArgs


class CellFormulaCheck(SingleKey):
    name: ClassVar[str] = "cell_formula"
    cell_formula: CellFormulaArgs


class CellRangeCheck(SingleKey):
    name: ClassVar[str] = "cell_range"
    cell_range: CellRangeArgs


class SheetNamesCheck(SingleKey):
    name: ClassVar[str] = "sheet_names"
    sheet_names: SheetNamesArgs


class CellStyleCheck(SingleKey):
    name: ClassVar[str] = "cell_style"
    cell_style: CellStyleArgs


class SheetLayoutCheck(SingleKey):
    name: ClassVar[str] = "sheet_layout"
    sheet_layout: SheetLayoutArgs


class SheetDataEqualCheck(SingleKey):
    name: ClassVar[str] = "sheet_data_equal"
    sheet_data_equal: SheetDataEqualArgs


class ChartEqualCheck(SingleKey):
    name: ClassVar[str] = "chart_equal"
    chart_equal: ChartEqualArgs


class PivotEqualCheck(SingleKey):
    name: ClassVar[str] = "pivot_equal"
    pivot_equal: PivotEqualArgs


class StyleEqualCheck(SingleKey):
    name: ClassVar[str] = "style_equal"
    style_equal: StyleEqualArgs


class FreezeEqualCheck(SingleKey):
    name: ClassVar[str] = "freeze_equal"
    freeze_equal: FreezeEqualArgs


class FilterEqualCheck(SingleKey):
    name: ClassVar[str] = "filter_equal"
    filter_equal: FilterEqualArgs


class RowsEqualCheck(SingleKey):
    name: ClassVar[str] = "rows_equal"
    rows_equal: RowsEqualArgs


class ColumnsEqualCheck(SingleKey):
    name: ClassVar[str] = "columns_equal"
    columns_equal: ColumnsEqualArgs


class SheetZoomCheck(SingleKey):
    name: ClassVar[str] = "sheet_zoom"
    sheet_zoom: SheetZoomArgs


class DataValidationCheck(SingleKey):
    name: ClassVar[str] = "data_validation"
    data_validation: DataValidationArgs


class CellPropsCheck(SingleKey):
    name: ClassVar[str] = "cell_props"
    cell_props: CellPropsArgs


class CellsMatchCheck(SingleKey):
    name: ClassVar[str] = "cells_match"
    cells_match: CellsMatchArgs


class SparklinesEqualCheck(SingleKey):
    name: ClassVar[str] = "sparklines_equal"
    sparklines_equal: SparklinesEqualArgs


class CellsContainCheck(SingleKey):
    name: ClassVar[str] = "cells_contain"
    cells_contain: CellsContainArgs


class SheetPrintEqualCheck(SingleKey):
    name: ClassVar[str] = "sheet_print_equal"
    sheet_print_equal: SheetPrintEqualArgs
