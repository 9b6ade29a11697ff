"""Spreadsheet checks (charts, pivot tables, styles, layout, zoom, validation, rows and
columns, filters, printed values, data between named sheets): each on a workbook that
passes and one that fails, both written with openpyxl."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.chart import BarChart, LineChart, Reference
from openpyxl.pivot.cache import CacheDefinition, CacheField, CacheSource, SharedItems, WorksheetSource
from openpyxl.pivot.table import DataField, FieldItem, Location, PivotField, RowColField, TableDefinition
from openpyxl.styles import Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

from tests.checks.check_helpers import FolderProbe, check, passes

ROWS = [("Region", "Sales", "Cost"), ("North", 10, 4), ("South", 20, 5), ("East", 30, 6)]


def book(path: Path, *edits: Callable[[Any], None], second: str | None = None) -> Path:
    """A workbook with ROWS on sheet 'Data' (and an empty sheet ``second``), after ``edits``."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    for row in ROWS:
        ws.append(row)
    if second:
        wb.create_sheet(second)
    for edit in edits:
        edit(wb)
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path


def chart(kind: type = BarChart, title: str = "Sales") -> Callable[[Any], None]:
    def edit(wb: Any) -> None:
        ws = wb["Data"]
        made = kind()
        made.title = title
        made.add_data(Reference(ws, min_col=2, min_row=1, max_row=4), titles_from_data=True)
        made.set_categories(Reference(ws, min_col=1, min_row=2, max_row=4))
        ws.add_chart(made, "E2")
    return edit


def pivot(row_field: int = 0, data_field: int = 1, subtotal: str = "sum") -> Callable[[Any], None]:
    def edit(wb: Any) -> None:
        out = wb.create_sheet("Pivot")
        cache = CacheDefinition(
            cacheSource=CacheSource(type="worksheet", worksheetSource=WorksheetSource(ref="A1:C4", sheet="Data")),
            cacheFields=[CacheField(name=n, sharedItems=SharedItems()) for n in ROWS[0]],
        )
        fields = [PivotField(showAll=False) for _ in ROWS[0]]
        fields[row_field] = PivotField(axis="axisRow", showAll=False, items=[FieldItem(x=i) for i in range(3)] + [FieldItem(t="default")])
        fields[data_field].dataField = True
        table = TableDefinition(
            name="P1", cacheId=1, dataCaption="Values", location=Location(ref="A1:B4", firstHeaderRow=1, firstDataRow=1, firstDataCol=1),
            pivotFields=fields, rowFields=[RowColField(x=row_field)],
            dataFields=[DataField(name="Total", fld=data_field, subtotal=subtotal)],
        )
        table.cache = cache
        out._pivots.append(table)
    return edit


def sheet_edit(fn: Callable[[Any], None]) -> Callable[[Any], None]:
    return lambda wb: fn(wb["Data"])


@pytest.fixture
def probe(tmp_path: Path) -> FolderProbe:
    return FolderProbe(home=tmp_path / "home", task_dir=tmp_path / "task")


def pair(probe: FolderProbe, good: list[Callable[[Any], None]], bad: list[Callable[[Any], None]],
         gold: list[Callable[[Any], None]] | None = None) -> None:
    """Write the gold file (``good`` edits unless given), and a passing and a failing saved file."""
    book(probe.task_dir / "gold.xlsx", *(good if gold is None else gold))
    book(probe.home / "good.xlsx", *good)
    book(probe.home / "bad.xlsx", *bad)


def both(probe: FolderProbe, name: str, **args: Any) -> tuple[bool, bool]:
    good = passes({name: {"path": "good.xlsx", "expected": "gold.xlsx", **args}}, probe)
    bad = passes({name: {"path": "bad.xlsx", "expected": "gold.xlsx", **args}}, probe)
    return good, bad


def test_chart_equal_compares_type_and_title(probe: FolderProbe) -> None:
    pair(probe, [chart(BarChart, "Sales")], [chart(LineChart, "Sales")])
    assert both(probe, "chart_equal", props=["type", "title"]) == (True, False)
    book(probe.home / "retitled.xlsx", chart(BarChart, "Costs"))
    report = check({"chart_equal": {"path": "retitled.xlsx", "expected": "gold.xlsx", "props": ["type", "title"]}}, probe)
    assert not report["passed"] and "title is 'Costs', expected 'Sales'" in report["reason"]
    assert passes({"chart_equal": {"path": "retitled.xlsx", "expected": "gold.xlsx", "props": ["type"]}}, probe)


def test_chart_equal_fails_without_a_chart(probe: FolderProbe) -> None:
    pair(probe, [chart()], [])
    assert both(probe, "chart_equal") == (True, False)


def test_pivot_equal_compares_fields(probe: FolderProbe) -> None:
    pair(probe, [pivot(0, 1)], [pivot(0, 2)])
    assert both(probe, "pivot_equal", sheet="Pivot") == (True, False)
    book(probe.home / "count.xlsx", pivot(0, 1, "count"))
    report = check({"pivot_equal": {"path": "count.xlsx", "expected": "gold.xlsx", "sheet": "Pivot"}}, probe)
    assert not report["passed"] and "data_fields" in report["reason"]


def test_style_equal_compares_fonts_and_fills(probe: FolderProbe) -> None:
    def bold_red(ws: Any) -> None:
        ws["B2"].font = Font(bold=True, color="FFFF0000")
        ws["A1"].fill = PatternFill("solid", fgColor="FFFFFF00")
    pair(probe, [sheet_edit(bold_red)], [sheet_edit(lambda ws: setattr(ws["B2"], "font", Font(bold=True)))])
    assert both(probe, "style_equal", props=["font_bold", "font_color", "bgcolor"]) == (True, False)
    assert both(probe, "style_equal", props=["font_bold"]) == (True, True)


def test_style_equal_counts_a_fixed_conditional_format(probe: FolderProbe) -> None:
    from openpyxl.formatting.rule import CellIsRule

    def conditional(ws: Any) -> None:
        ws.conditional_formatting.add("B2:B4", CellIsRule(operator="greaterThan", formula=["25"], font=Font(color="FF00FF00")))
    direct = sheet_edit(lambda ws: setattr(ws["B4"], "font", Font(color="FF00FF00")))
    book(probe.task_dir / "gold.xlsx", direct)
    book(probe.home / "good.xlsx", sheet_edit(conditional))
    book(probe.home / "bad.xlsx")
    assert both(probe, "style_equal", props=["font_color"]) == (True, False)


def test_number_format_through_cell_props_and_style(probe: FolderProbe) -> None:
    pair(probe, [sheet_edit(lambda ws: setattr(ws["B2"], "number_format", "0.00%"))], [])
    assert both(probe, "style_equal", props=["number_format"]) == (True, False)
    assert passes({"cell_props": {"path": "good.xlsx", "sheet": "Data", "cell": "B2",
                                  "props": {"number_format": {"method": "eq", "ref": "0.00%"}, "value": {"method": "approx", "ref": 10.0001, "tolerance": 0.001}}}}, probe)
    assert not passes({"cell_props": {"path": "bad.xlsx", "cell": "B2", "props": {"number_format": {"method": "re", "ref": "%"}}}}, probe)


def test_freeze_equal_ignores_scrolling_but_not_the_split(probe: FolderProbe) -> None:
    pair(probe, [sheet_edit(lambda ws: setattr(ws, "freeze_panes", "B2"))], [sheet_edit(lambda ws: setattr(ws, "freeze_panes", "A2"))])
    assert both(probe, "freeze_equal") == (True, False)
    def scrolled(ws: Any) -> None:
        ws.freeze_panes = "B2"
        ws.sheet_view.pane.topLeftCell = "C40"
    book(probe.home / "scrolled.xlsx", sheet_edit(scrolled))
    assert passes({"freeze_equal": {"path": "scrolled.xlsx", "expected": "gold.xlsx"}}, probe)


def test_sheet_zoom(probe: FolderProbe) -> None:
    book(probe.home / "z.xlsx", sheet_edit(lambda ws: setattr(ws.sheet_view, "zoomScale", 300)))
    book(probe.home / "plain.xlsx")
    assert not passes({"sheet_zoom": {"path": "z.xlsx", "zoom": {"method": "lt", "ref": 260}}}, probe)
    assert passes({"sheet_zoom": {"path": "plain.xlsx", "zoom": {"method": "lt", "ref": 260}}}, probe)


def test_data_validation(probe: FolderProbe) -> None:
    def listed(ws: Any) -> None:
        dv = DataValidation(type="list", formula1='"Yes,No"', allow_blank=True)
        dv.add("D2:D4")
        ws.add_data_validation(dv)
    book(probe.home / "good.xlsx", sheet_edit(listed))
    book(probe.home / "bad.xlsx")
    spec = {"validations": [{"type": {"method": "eq", "ref": "list"}, "ranges": {"method": "eq", "ref": "D2:D4"},
                             "formula1": {"method": "re", "ref": "Yes"}}]}
    assert passes({"data_validation": {"path": "good.xlsx", **spec}}, probe)
    report = check({"data_validation": {"path": "bad.xlsx", **spec}}, probe)
    assert not report["passed"] and "0 data validation(s)" in report["reason"]


def test_rows_and_columns_equal(probe: FolderProbe) -> None:
    def sized(ws: Any) -> None:
        ws.column_dimensions["A"].width = 30
        ws.row_dimensions[3].hidden = True
    pair(probe, [sheet_edit(sized)], [sheet_edit(lambda ws: setattr(ws.column_dimensions["A"], "width", 30))])
    assert both(probe, "columns_equal", props=["width"]) == (True, True)
    assert both(probe, "rows_equal", props=["hidden"]) == (True, False)
    book(probe.home / "narrow.xlsx", sheet_edit(lambda ws: setattr(ws.column_dimensions["A"], "width", 8)))
    assert not passes({"columns_equal": {"path": "narrow.xlsx", "expected": "gold.xlsx", "props": ["width"]}}, probe)


def test_filter_equal(probe: FolderProbe) -> None:
    def filtered(ws: Any) -> None:
        ws.auto_filter.ref = "A1:C4"
        ws.auto_filter.add_filter_column(0, ["North"])
    pair(probe, [sheet_edit(filtered)], [sheet_edit(lambda ws: setattr(ws.auto_filter, "ref", "A1:C4"))])
    assert both(probe, "filter_equal") == (True, False)


def test_sheet_data_between_sheets_by_name(probe: FolderProbe) -> None:
    def copy_sheet(wb: Any) -> None:
        copy = wb.copy_worksheet(wb["Data"])
        copy.title = "Copy"
    book(probe.home / "good.xlsx", copy_sheet)
    book(probe.home / "bad.xlsx", lambda wb: wb.create_sheet("Copy"))
    spec = {"sheets": ["Copy"], "expected_sheets": ["Data"]}
    assert passes({"sheet_data_equal": {"path": "good.xlsx", **spec}}, probe)
    assert not passes({"sheet_data_equal": {"path": "bad.xlsx", **spec}}, probe)
    book(probe.task_dir / "gold.xlsx", copy_sheet)
    assert passes({"sheet_data_equal": {"path": "good.xlsx", "expected": "gold.xlsx", "sheets": ["Copy", 0]}}, probe)
    report = check({"sheet_data_equal": {"path": "bad.xlsx", "expected": "gold.xlsx", "sheets": ["Copy"]}}, probe)
    assert not report["passed"] and "Copy!A1 is None, expected 'Region'" in report["reason"]


def test_sheet_names_same_as_a_reference(probe: FolderProbe) -> None:
    book(probe.task_dir / "gold.xlsx", second="Summary")
    book(probe.home / "good.xlsx", second="Summary")
    book(probe.home / "bad.xlsx", second="Sheet2")
    assert passes({"sheet_names": {"path": "good.xlsx", "same_as": "gold.xlsx"}}, probe)
    assert not passes({"sheet_names": {"path": "bad.xlsx", "same_as": "gold.xlsx"}}, probe)


def test_a_missing_saved_file_fails_with_its_name(probe: FolderProbe) -> None:
    book(probe.task_dir / "gold.xlsx", chart())
    report = check({"chart_equal": {"path": "nowhere.xlsx", "expected": "gold.xlsx"}}, probe)
    assert not report["passed"] and "nowhere.xlsx does not exist" in report["reason"] and "error" not in report


def test_comparing_a_sheet_with_itself_is_refused_when_the_file_loads() -> None:
    from gui_agent.errors import TaskFileError
    from gui_agent.task import load_task_text

    with pytest.raises(TaskFileError, match="expected_sheet"):
        load_task_text("id: t\ninstruction: x\nenvironment: {kind: desktop}\nevaluator:\n  freeze_equal: {path: a.xlsx}\n")


@pytest.mark.slow
def test_sheet_print_equal_exports_with_libreoffice(probe: FolderProbe) -> None:
    def formatted(ws: Any) -> None:
        ws["B2"].number_format = "0.00"
    book(probe.home / "good.xlsx", sheet_edit(formatted))
    book(probe.home / "bad.xlsx")
    probe.task_dir.mkdir(parents=True, exist_ok=True)
    (probe.task_dir / "gold-Data.csv").write_text("Region,Sales,Cost\nNorth,10.00,4\nSouth,20,5\nEast,30,6\n\n")
    assert passes({"sheet_print_equal": {"path": "good.xlsx", "sheet": "Data", "expected": "gold-Data.csv"}}, probe)
    report = check({"sheet_print_equal": {"path": "bad.xlsx", "expected": "gold-Data.csv"}}, probe)
    assert not report["passed"] and "line 2 is 'North,10,4', expected 'North,10.00,4'" in report["reason"]


def add_sparkline(path: Path, cell: str, data: str) -> None:
    """Put a line sparkline in ``cell`` of the first sheet (openpyxl cannot write one), as
    Excel and LibreOffice save it: in the sheet's extension list."""
    import shutil
    import zipfile

    x14 = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"
    ext = (f'<extLst><ext uri="{{05C60535-1F16-4fd2-B633-F4F36F0B64E0}}" xmlns:x14="{x14}">'
           '<x14:sparklineGroups xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
           f'<x14:sparklineGroup><x14:sparklines><x14:sparkline><xm:f>{data}</xm:f><xm:sqref>{cell}</xm:sqref>'
           '</x14:sparkline></x14:sparklines></x14:sparklineGroup></x14:sparklineGroups></ext></extLst>')
    copy = path.with_suffix(".tmp")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(copy, "w") as dst:
        for item in src.infolist():
            data_bytes = src.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                data_bytes = data_bytes.replace(b"</worksheet>", ext.encode() + b"</worksheet>")
            dst.writestr(item, data_bytes)
    shutil.move(copy, path)


def test_sparklines_equal_reads_the_sheets_xml(probe: FolderProbe) -> None:
    pair(probe, [], [])
    add_sparkline(probe.task_dir / "gold.xlsx", "D2", "Data!B2:C2")
    add_sparkline(probe.home / "good.xlsx", "D2", "Data!B2:C2")
    add_sparkline(probe.home / "bad.xlsx", "D2", "Data!B2:B4")
    assert both(probe, "sparklines_equal") == (True, False)
    book(probe.home / "none.xlsx")
    report = check({"sparklines_equal": {"path": "none.xlsx", "expected": "gold.xlsx"}}, probe)
    assert not report["passed"] and "D2 draws None, expected 'Data!B2:C2'" in report["reason"]


def test_cells_match_normalises_then_compares(probe: FolderProbe) -> None:
    def names(*values: Any) -> Callable[[Any], None]:
        return sheet_edit(lambda ws: [ws.cell(row=i + 2, column=1, value=v) for i, v in enumerate(values)])
    book(probe.task_dir / "gold.xlsx", names("12 Main Road", "+1 (555) 010", "Smith"))
    book(probe.home / "good.xlsx", names("12 main rd", "555010 ext", "Smith"))
    book(probe.home / "bad.xlsx", names("99 Other Street", "555 011", "Smyth"))
    rules = [{"ranges": ["A2"], "match": "fuzzy", "threshold": 85, "ignore_case": True, "replace": [["Rd", "Road"], ["rd", "road"]]},
             {"ranges": ["A3"], "match": "includes", "trim_leading": "+ ", "ignore_chars": " ()-+1"},
             {"ranges": ["A4 B2:C4"], "match": "exact"}]
    assert both(probe, "cells_match", sheet="Data", rules=rules) == (True, False)
    report = check({"cells_match": {"path": "bad.xlsx", "expected": "gold.xlsx", "rules": rules}}, probe)
    assert "A4 reads 'Smyth' against 'Smith': not exact" in report["reason"]
    numbers = [{"ranges": ["B2"], "match": "included_by"}]  # numbers read as decimals: '10.0' within '10.0'
    assert passes({"cells_match": {"path": "good.xlsx", "expected": "gold.xlsx", "rules": numbers}}, probe)


def test_cells_contain_reads_the_active_sheet(probe: FolderProbe) -> None:
    book(probe.home / "good.xlsx")
    spec = {"range": "A2:A4", "contains": ["Nor", ["West", "Sou"], "East"]}
    assert passes({"cells_contain": {"path": "good.xlsx", **spec}}, probe)
    assert not passes({"cells_contain": {"path": "good.xlsx", **spec, "contains": ["Nor", "West", "East"]}}, probe)
    report = check({"cells_contain": {"path": "good.xlsx", **spec, "contains": ["Nor", "Sou"]}}, probe)
    assert not report["passed"] and "only 2 expected entries" in report["reason"]
    assert not passes({"cells_contain": {"path": "good.xlsx", "range": "B2:B2", "contains": ["10"]}}, probe)  # a number is no text


def test_data_validation_ranges_between_bounds(probe: FolderProbe) -> None:
    def listed(cells: str) -> Callable[[Any], None]:
        def edit(ws: Any) -> None:
            dv = DataValidation(type="list", formula1='"Pass,Fail,Held"')
            dv.add(cells)
            ws.add_data_validation(dv)
        return sheet_edit(edit)
    book(probe.home / "column.xlsx", listed("D2:D1048576"))
    book(probe.home / "exact.xlsx", listed("D2:D29"))
    book(probe.home / "short.xlsx", listed("D2:D20"))
    book(probe.home / "wide.xlsx", listed("D2:E29"))
    spec = {"validations": [{"ranges": {"contains": "D2:D29", "within": "D2:D1048576"}, "type": {"method": "eq", "ref": "list"},
                             "formula1": {"method": "str_set_eq", "ref": ["Pass", "Fail", "Held"]}}]}
    assert [passes({"data_validation": {"path": f, **spec}}, probe) for f in ("column.xlsx", "exact.xlsx", "short.xlsx", "wide.xlsx")] == [
        True, True, False, False]


def test_sheet_data_rounds_to_a_precision(probe: FolderProbe) -> None:
    book(probe.task_dir / "gold.xlsx", sheet_edit(lambda ws: setattr(ws["B2"], "value", 1.23456)))
    book(probe.home / "near.xlsx", sheet_edit(lambda ws: setattr(ws["B2"], "value", 1.23462)))
    book(probe.home / "far.xlsx", sheet_edit(lambda ws: setattr(ws["B2"], "value", 1.2341)))
    spec = {"expected": "gold.xlsx", "precision": 4}
    assert passes({"sheet_data_equal": {"path": "near.xlsx", **spec}}, probe)
    assert not passes({"sheet_data_equal": {"path": "far.xlsx", **spec}}, probe)
    assert not passes({"sheet_data_equal": {"path": "near.xlsx", "expected": "gold.xlsx"}}, probe)


def test_cell_props_reads_values_and_fills_as_osworld(probe: FolderProbe) -> None:
    import datetime as dt

    def filled(ws: Any) -> None:
        ws["A1"].fill = PatternFill("solid", fgColor="FF0000FF", bgColor="FF0000FF")  # as LibreOffice saves a solid fill
        ws["A2"].fill = PatternFill("solid", fgColor="FF0000FF")
        ws["D2"] = dt.datetime(2024, 1, 2)
    book(probe.home / "f.xlsx", sheet_edit(filled))
    blue = {"method": "eq", "ref": "FF0000FF"}
    assert passes({"cell_props": {"path": "f.xlsx", "cell": "A1", "props": {"bgcolor": blue, "fgcolor": blue}}}, probe)
    assert not passes({"cell_props": {"path": "f.xlsx", "cell": "A2", "props": {"bgcolor": blue}}}, probe)
    # Dates read as the serial number the file holds (2024-01-02 is 45293), numbers as decimals.
    assert passes({"cell_props": {"path": "f.xlsx", "cell": "D2", "props": {"value": {"method": "eq", "ref": 45293}}}}, probe)
    assert passes({"cell_props": {"path": "f.xlsx", "cell": "B2", "props": {"value": {"method": "re", "ref": r"^10\.0$"}}}}, probe)
