"""Judging the comparisons of two sheets, one aspect each: the data, charts, pivot tables,
styles, frozen panes, auto-filters, rows and columns.

Each reduces both sheets to the same plain summary (:mod:`gui_agent.checks.spreadsheet.summaries`)
and reports where the summaries differ, so a failed check says what is different, not
only that something is.
"""

from __future__ import annotations

from typing import Any

from gui_agent.checks.family import CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import MAX_DIFFERENCES, Report, listing, verdict
from gui_agent.checks.spreadsheet.models import (
    ChartEqualArgs,
    ChartEqualCheck,
    ColumnsEqualArgs,
    ColumnsEqualCheck,
    FilterEqualArgs,
    FilterEqualCheck,
    FreezeEqualArgs,
    FreezeEqualCheck,
    PivotEqualArgs,
    PivotEqualCheck,
    RowsEqualArgs,
    RowsEqualCheck,
    SheetDataEqualArgs,
    SheetDataEqualCheck,
    SheetPairArgs,
    StyleEqualArgs,
    StyleEqualCheck,
)
from gui_agent.checks.spreadsheet.refs import column_name
from gui_agent.checks.spreadsheet.summaries import chart_summary, dimension_summary, filter_state, freeze_state, pivot_summary, style_summary
from gui_agent.checks.spreadsheet.workbooks import load_reference, load_workbook, open_sheet, plain_value, same_value, sheet_pair


def _where(args: SheetPairArgs, ours: Any, theirs: Any) -> str:
    other = args.expected or args.path
    return f"{args.path}!{ours.title} vs {other}!{theirs.title}"


def _compare_maps(ours: dict[Any, Any], theirs: dict[Any, Any], what: str) -> list[str]:
    """Differences between two keyed summaries (charts by series, pivots by source...)."""
    out: list[str] = []
    for key in theirs:
        if key not in ours:
            out.append(f"no {what} {key!r} (expected one)")
        elif ours[key] != theirs[key]:
            props = sorted(k for k in set(ours[key]) | set(theirs[key]) if ours[key].get(k) != theirs[key].get(k))
            out.extend(f"{what} {key!r} {p} is {ours[key].get(p)!r}, expected {theirs[key].get(p)!r}" for p in props)
    out.extend(f"an extra {what} {key!r}" for key in ours if key not in theirs)
    return out


def _sheet_data_equal(args: SheetDataEqualArgs, probe: DesktopProbe, report: Report) -> None:
    workbook = load_workbook(probe, args.path, report)
    if workbook is None:
        return
    reference = load_reference(probe, args.expected) if args.expected is not None else workbook
    other = args.expected or args.path
    ours = list(args.sheets) if args.sheets is not None else list(range(len(reference.worksheets)))
    theirs = list(args.expected_sheets) if args.expected_sheets is not None else ours
    differences: list[str] = []
    for mine, wanted in zip(ours, theirs):
        want = open_sheet(reference, wanted, other, {})
        if want is None:
            raise ValueError(f"{other} has no sheet {wanted!r} (sheets: {reference.sheetnames})")
        sheet_report: dict[str, Any] = {}
        got = open_sheet(workbook, mine, args.path, sheet_report)
        if got is None:
            differences.append(sheet_report["reason"])
            continue
        differences += _value_differences(got, want, args.tolerance, args.precision)
    report["observed"] = {"differences": differences[:MAX_DIFFERENCES], "count": len(differences)}
    if differences:
        report["reason"] = f"{len(differences)} difference(s) from {other}: " + listing(differences)
    else:
        report.update(passed=True, reason=f"the data of sheet(s) {ours} equal {other} {theirs}")


def _rounded(value: Any, precision: int | None) -> Any:
    if precision is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    return round(float(value), precision)


def _value_differences(got: Any, want: Any, tolerance: float, precision: int | None = None) -> list[str]:
    """Every cell whose value differs between two sheets (an empty cell and empty text are
    alike); with ``precision``, numbers rounded to that many decimals must be equal."""
    differences = []
    if precision is not None:
        tolerance = 0.0
    for r in range(1, max(got.max_row, want.max_row) + 1):
        for c in range(1, max(got.max_column, want.max_column) + 1):
            a, b = _rounded(got.cell(r, c).value, precision), _rounded(want.cell(r, c).value, precision)
            if not same_value(a, b, tolerance) and not (a in (None, "") and b in (None, "")):
                differences.append(f"{got.title}!{column_name(c)}{r} is {plain_value(a)!r}, expected {plain_value(b)!r}")
    return differences


def _chart_equal(args: ChartEqualArgs, probe: DesktopProbe, report: Report) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    ours, theirs = (chart_summary(s, list(args.props)) for s in pair)
    report["observed"] = {"charts": ours, "expected_charts": theirs}
    verdict(report, _compare_maps(ours, theirs, "chart"), ok=f"{_where(args, *pair)}: {len(ours)} chart(s) alike")


def _pivot_equal(args: PivotEqualArgs, probe: DesktopProbe, report: Report) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    ours, theirs = (pivot_summary(s, list(args.props)) for s in pair)
    report["observed"] = {"pivot_tables": ours, "expected_pivot_tables": theirs}
    verdict(report, _compare_maps(ours, theirs, "pivot table"), ok=f"{_where(args, *pair)}: {len(ours)} pivot table(s) alike")


def _used_cells(sheet: Any) -> set[tuple[int, int]]:
    return {(r, c) for r in range(1, sheet.max_row + 1) for c in range(1, sheet.max_column + 1)}


def _style_equal(args: StyleEqualArgs, probe: DesktopProbe, report: Report) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    cells = _used_cells(pair[0]) | _used_cells(pair[1])
    ours, theirs = (style_summary(s, list(args.props), cells) for s in pair)
    differences = [
        f"{cell} {prop} is {a!r}, expected {b!r}"
        for cell in theirs for prop, a, b in zip(args.props, ours[cell], theirs[cell]) if a != b
    ]
    report["observed"] = {"cells": len(cells)}
    verdict(report, differences, ok=f"{_where(args, *pair)}: {', '.join(args.props)} alike in {len(cells)} cell(s)")


def _freeze_equal(args: FreezeEqualArgs, probe: DesktopProbe, report: Report) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    ours, theirs = (freeze_state(s) for s in pair)
    report["observed"] = {"freeze": ours, "expected_freeze": theirs}
    differences = [f"{k} is {ours[k]!r}, expected {theirs[k]!r}" for k in theirs if ours[k] != theirs[k]]
    verdict(report, differences, ok=f"{_where(args, *pair)}: frozen alike ({ours})")


def _filter_equal(args: FilterEqualArgs, probe: DesktopProbe, report: Report) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    ours, theirs = (filter_state(s) for s in pair)
    report["observed"] = {"filter": ours, "expected_filter": theirs}
    differences = [f"{k} is {ours.get(k)!r}, expected {theirs.get(k)!r}" for k in sorted(set(ours) | set(theirs)) if ours.get(k) != theirs.get(k)]
    verdict(report, differences, ok=f"{_where(args, *pair)}: filters alike")


def _dimensions_equal(args: Any, probe: Any, report: dict[str, Any], axis: str) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    ours, theirs = (dimension_summary(s, axis, list(args.props)) for s in pair)
    default_ours, default_theirs = ours.pop(None), theirs.pop(None)
    differences = []
    for key in sorted(set(ours) | set(theirs), key=lambda k: (len(str(k)), str(k))):
        a, b = ours.get(key, default_ours), theirs.get(key, default_theirs)
        differences += [f"{axis} {key} {p} is {a[p]!r}, expected {b[p]!r}" for p in args.props if a[p] != b[p]]
    report["observed"] = {f"{axis}s": len(ours)}
    verdict(report, differences, ok=f"{_where(args, *pair)}: {axis} {', '.join(args.props)} alike")


def _rows_equal(args: RowsEqualArgs, probe: DesktopProbe, report: Report) -> None:
    _dimensions_equal(args, probe, report, "row")


def _columns_equal(args: ColumnsEqualArgs, probe: DesktopProbe, report: Report) -> None:
    _dimensions_equal(args, probe, report, "column")


#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(SheetDataEqualCheck, _sheet_data_equal),
    CheckType(ChartEqualCheck, _chart_equal),
    CheckType(PivotEqualCheck, _pivot_equal),
    CheckType(StyleEqualCheck, _style_equal),
    CheckType(FreezeEqualCheck, _freeze_equal),
    CheckType(FilterEqualCheck, _filter_equal),
    CheckType(RowsEqualCheck, _rows_equal),
    CheckType(ColumnsEqualCheck, _columns_equal),
)
