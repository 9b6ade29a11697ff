"""Spreadsheet checks beyond cell values: charts, pivot tables, styles, layout, zoom,
data validation, rows and columns, filters and printed values.

Most compare one sheet of the saved workbook with a sheet of a reference workbook (a
file shipped with the task, usually OSWorld's gold file), the way OSWorld's
``compare_table`` rules do; each check compares one aspect, so a failure says which.
The sheet pair is written the same way everywhere (:class:`SheetPairArgs`):

.. code-block:: yaml

    chart_equal: {path: sales.xlsx, expected: inputs/gold.xlsx, sheet: Sheet2, props: [type, title]}

``sheet`` and ``expected_sheet`` are 0-based positions or names; ``expected_sheet``
defaults to ``sheet``. Without ``expected`` the other sheet is in the saved file itself.
Their implementations are in :mod:`gui_agent.task.sheet_evaluator`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.task._base import _Model, _SingleKey
from gui_agent.task.cell_refs import CellRef, SheetRef
from gui_agent.task.desktop_paths import HomePath, TaskPath
from gui_agent.task.value_rules import ValueRule

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
    "show_error_message", "error", "error_title", "error_style", "prompt", "prompt_title",
]


class SheetPairArgs(_Model):
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


class SheetZoomArgs(_Model):
    """The sheet's zoom (percent; 100 when unset) satisfies ``zoom`` (e.g. ``{method: lt, ref: 260}``)."""

    path: HomePath
    sheet: SheetRef = 0
    zoom: ValueRule


class DataValidationArgs(_Model):
    """The sheet has at least as many data validations as ``validations`` lists, and each
    of its validations satisfies every rule of at least one entry (OSWorld's
    ``data_validation``). ``ranges`` is the validated range text (``"D2:D29"``)."""

    path: HomePath
    sheet: SheetRef = 0
    validations: list[dict[ValidationProp, ValueRule]] = Field(min_length=1)


class CellPropsArgs(_Model):
    """One cell satisfies a rule per property: ``value`` (as saved; formulas: their result)
    or a style property (``font_bold``, ``number_format``, ...)."""

    path: HomePath
    sheet: SheetRef = 0
    cell: CellRef
    props: dict[Literal["value"] | StyleProp, ValueRule] = Field(min_length=1)


class SheetPrintEqualArgs(_Model):
    """The sheet, exported as CSV the way LibreOffice shows it (formatted values), equals
    the CSV file ``expected`` line by line (OSWorld's ``sheet_print``). Surrounding spaces
    and trailing empty lines are ignored; ``ignore_case`` ignores case too. The export is
    made from the saved file with a LibreOffice of its own, after the episode."""

    path: HomePath
    sheet: SheetRef = 0
    expected: TaskPath
    ignore_case: bool = False


class ChartEqualCheck(_SingleKey):
    name: ClassVar[str] = "chart_equal"
    chart_equal: ChartEqualArgs


class PivotEqualCheck(_SingleKey):
    name: ClassVar[str] = "pivot_equal"
    pivot_equal: PivotEqualArgs


class StyleEqualCheck(_SingleKey):
    name: ClassVar[str] = "style_equal"
    style_equal: StyleEqualArgs


class FreezeEqualCheck(_SingleKey):
    name: ClassVar[str] = "freeze_equal"
    freeze_equal: FreezeEqualArgs


class FilterEqualCheck(_SingleKey):
    name: ClassVar[str] = "filter_equal"
    filter_equal: FilterEqualArgs


class RowsEqualCheck(_SingleKey):
    name: ClassVar[str] = "rows_equal"
    rows_equal: RowsEqualArgs


class ColumnsEqualCheck(_SingleKey):
    name: ClassVar[str] = "columns_equal"
    columns_equal: ColumnsEqualArgs


class SheetZoomCheck(_SingleKey):
    name: ClassVar[str] = "sheet_zoom"
    sheet_zoom: SheetZoomArgs


class DataValidationCheck(_SingleKey):
    name: ClassVar[str] = "data_validation"
    data_validation: DataValidationArgs


class CellPropsCheck(_SingleKey):
    name: ClassVar[str] = "cell_props"
    cell_props: CellPropsArgs


class SheetPrintEqualCheck(_SingleKey):
    name: ClassVar[str] = "sheet_print_equal"
    sheet_print_equal: SheetPrintEqualArgs


#: The checks of this module, in the order error messages list them.
SHEET_CHECK_TYPES: tuple[type[_SingleKey], ...] = (
    ChartEqualCheck, PivotEqualCheck, StyleEqualCheck, FreezeEqualCheck, FilterEqualCheck, RowsEqualCheck,
    ColumnsEqualCheck, SheetZoomCheck, DataValidationCheck, CellPropsCheck, SheetPrintEqualCheck,
)
