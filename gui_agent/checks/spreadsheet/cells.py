"""Judging the checks of one sheet: cell values, formulas, ranges and styles, sheet names,
frozen panes and auto-filter, zoom, data validations and one cell's properties."""

from __future__ import annotations

import re
from typing import Any

from gui_agent.checks.family import CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import MAX_DIFFERENCES, Report, listing, verdict
from gui_agent.checks.spreadsheet.models import (
    CellFormulaArgs,
    CellFormulaCheck,
    CellPropsArgs,
    CellPropsCheck,
    CellRangeArgs,
    CellRangeCheck,
    CellStyleArgs,
    CellStyleCheck,
    CellValueArgs,
    CellValueCheck,
    DataValidationArgs,
    DataValidationCheck,
    RangeBounds,
    SheetLayoutArgs,
    SheetLayoutCheck,
    SheetNamesArgs,
    SheetNamesCheck,
    SheetZoomArgs,
    SheetZoomCheck,
)
from gui_agent.checks.spreadsheet.refs import column_name, split_cell
from gui_agent.checks.spreadsheet.summaries import cell_style
from gui_agent.checks.spreadsheet.workbooks import kind_of, load_sheet, load_workbook, plain_value, same_value
from gui_agent.checks.spreadsheet.matching import osworld_value
from gui_agent.checks.value_rules import ValueRule, matches


def _cell_value(args: CellValueArgs, probe: DesktopProbe, report: Report) -> None:
    sheet = load_sheet(probe, args.path, args.sheet, report)
    if sheet is None:
        return
    value = sheet[args.cell].value
    report["observed"] = {"sheet": sheet.title, "value": plain_value(value), "type": kind_of(value)}
    ok = same_value(value, args.equals, args.tolerance)
    where = f"{sheet.title}!{args.cell}"
    if ok:
        report.update(passed=True, reason=f"{where} is {plain_value(value)!r}")
    else:
        report["reason"] = f"{where} is {plain_value(value)!r} ({kind_of(value)}), expected {args.equals!r} ({kind_of(args.equals)})"


def normalize_formula(formula: str) -> str:
    """``"= sum(b2:b6)"`` -> ``"SUM(B2:B6)"``: no leading ``=``, no spaces, upper case, ``;`` as ``,``."""
    text = formula.strip()
    text = text.removeprefix("=")
    return re.sub(r"\s+", "", text).upper().replace(";", ",")


def _formula_text(value: Any) -> str | None:
    if isinstance(value, str) and value.startswith("="):
        return value
    text = getattr(value, "text", None)  # openpyxl ArrayFormula / DataTableFormula
    return text if isinstance(text, str) else None


def _cell_formula(args: CellFormulaArgs, probe: DesktopProbe, report: Report) -> None:
    sheet = load_sheet(probe, args.path, args.sheet, report, formulas=True)
    if sheet is None:
        return
    raw = sheet[args.cell].value
    formula = _formula_text(raw)
    where = f"{sheet.title}!{args.cell}"
    report["observed"] = {"sheet": sheet.title, "formula": formula, "value": plain_value(raw) if formula is None else None}
    if formula is None:
        report["reason"] = f"{where} holds no formula (its content is {plain_value(raw)!r})"
        return
    got = normalize_formula(formula)
    if args.equals is not None:
        wanted = normalize_formula(args.equals)
        ok, how = got == wanted, f"equal {wanted!r}"
    else:
        ok, how = re.search(args.matches or "", got) is not None, f"match {args.matches!r}"
    report.update(passed=ok, reason=f"the formula in {where} is {got!r}, which {'does' if ok else 'does not'} {how}")


def _cells(sheet: Any, cell_range: str) -> list[list[Any]]:
    rows = sheet[cell_range]
    return [[c.value for c in row] for row in rows]


def _cell_range(args: CellRangeArgs, probe: DesktopProbe, report: Report) -> None:
    sheet = load_sheet(probe, args.path, args.sheet, report)
    if sheet is None:
        return
    values = _cells(sheet, args.range)
    report["observed"] = {"sheet": sheet.title, "values": [[plain_value(v) for v in row] for row in values]}
    first_col, first_row = split_cell(args.range.split(":")[0])
    wrong = [
        f"{column_name(first_col + j)}{first_row + i} is {plain_value(got)!r}, expected {want!r}"
        for i, (got_row, want_row) in enumerate(zip(values, args.equals))
        for j, (got, want) in enumerate(zip(got_row, want_row))
        if not same_value(got, want, args.tolerance)
    ]
    if wrong:
        report["reason"] = f"{len(wrong)} cell(s) of {sheet.title}!{args.range} differ: " + listing(wrong)
    else:
        report.update(passed=True, reason=f"all cells of {sheet.title}!{args.range} are as expected")


def _sheet_names(args: SheetNamesArgs, probe: DesktopProbe, report: Report) -> None:
    workbook = load_workbook(probe, args.path, report)
    if workbook is None:
        return
    names = list(workbook.sheetnames)
    report["observed"] = {"sheets": names}
    if args.equals is not None:
        ok, how = names == args.equals, f"equal {args.equals}"
    elif args.same_as is not None:
        import openpyxl

        wanted = list(openpyxl.load_workbook(probe.task_file(args.same_as), read_only=True).sheetnames)
        ok, how = names == wanted, f"equal those of {args.same_as} {wanted}"
    else:
        missing = [n for n in args.contains or [] if n not in names]
        ok, how = not missing, f"include {args.contains}" + (f" (missing: {missing})" if missing else "")
    report.update(passed=ok, reason=f"the sheets are {names}, which {'does' if ok else 'does not'} {how}")


def _cell_style(args: CellStyleArgs, probe: DesktopProbe, report: Report) -> None:
    sheet = load_sheet(probe, args.path, args.sheet, report)
    if sheet is None:
        return
    target = args.range or f"{args.cell}:{args.cell}"
    observed: dict[str, Any] = {}
    wrong: list[str] = []
    for row in sheet[target]:
        for cell in row:
            style = {"bold": bool(cell.font.b), "italic": bool(cell.font.i), "number_format": cell.number_format}
            observed[cell.coordinate] = style
            for key in ("bold", "italic", "number_format"):
                wanted = getattr(args, key)
                if wanted is not None and style[key] != wanted:
                    wrong.append(f"{cell.coordinate} {key} is {style[key]!r}, expected {wanted!r}")
    report["observed"] = {"sheet": sheet.title, "cells": observed}
    if wrong:
        report["reason"] = f"{len(wrong)} style difference(s): " + "; ".join(wrong[:MAX_DIFFERENCES])
    else:
        report.update(passed=True, reason=f"every cell of {sheet.title}!{target} has the expected style")


def _sheet_layout(args: SheetLayoutArgs, probe: DesktopProbe, report: Report) -> None:
    sheet = load_sheet(probe, args.path, args.sheet, report)
    if sheet is None:
        return
    freeze = sheet.freeze_panes or "none"
    autofilter = sheet.auto_filter.ref or "none"
    report["observed"] = {"sheet": sheet.title, "freeze_panes": freeze, "autofilter": autofilter}
    wrong = []
    if args.freeze_panes is not None and freeze != args.freeze_panes:
        wrong.append(f"frozen panes start at {freeze!r}, expected {args.freeze_panes!r}")
    if args.autofilter is not None and autofilter != args.autofilter:
        wrong.append(f"the auto-filter covers {autofilter!r}, expected {args.autofilter!r}")
    if wrong:
        report["reason"] = f"{sheet.title}: " + "; ".join(wrong)
    else:
        report.update(passed=True, reason=f"{sheet.title}: frozen panes {freeze!r}, auto-filter {autofilter!r}")


def _sheet_zoom(args: SheetZoomArgs, probe: DesktopProbe, report: Report) -> None:
    sheet = load_sheet(probe, args.path, args.sheet, report)
    if sheet is None:
        return
    zoom = sheet.sheet_view.zoomScale or 100
    ok = matches(zoom, args.zoom)
    report.update(observed={"sheet": sheet.title, "zoom": zoom}, passed=ok,
                  reason=f"{sheet.title} is zoomed to {zoom}%, which {'is' if ok else 'is not'} {args.zoom.describe()}")


_VALIDATION_ATTRS = {
    "allow_blank": "allowBlank", "show_drop_down": "showDropDown", "show_input_message": "showInputMessage",
    "show_error_message": "showErrorMessage", "error_title": "errorTitle", "error_style": "errorStyle",
    "prompt_title": "promptTitle", "ime_mode": "imeMode",
}


def _validation_value(validation: Any, prop: str) -> Any:
    if prop == "ranges":
        return str(validation.sqref)
    return getattr(validation, _VALIDATION_ATTRS.get(prop, prop))


def _within(inner: Any, outer: Any) -> bool:
    """Every range of ``inner`` lies whole inside one range of ``outer`` (range lists)."""
    return all(any(part.issubset(whole) for whole in outer.ranges) for part in inner.ranges)


def _satisfies(validation: Any, prop: str, rule: ValueRule | RangeBounds) -> bool:
    if isinstance(rule, RangeBounds):
        from openpyxl.worksheet.cell_range import MultiCellRange

        ranges = MultiCellRange(str(validation.sqref))
        return _within(MultiCellRange(rule.contains), ranges) and _within(ranges, MultiCellRange(rule.within))
    return matches(_validation_value(validation, prop), rule)


def _data_validation(args: DataValidationArgs, probe: DesktopProbe, report: Report) -> None:
    sheet = load_sheet(probe, args.path, args.sheet, report)
    if sheet is None:
        return
    found = list(sheet.data_validations.dataValidation)
    shown = [{p: _validation_value(v, p) for p in ("ranges", "type", "formula1", "operator")} for v in found]
    report["observed"] = {"validations": shown}
    problems = []
    if len(found) < len(args.validations):
        problems.append(f"{len(found)} data validation(s), expected at least {len(args.validations)}")
    for validation, summary in zip(found, shown):
        if not any(all(_satisfies(validation, p, rule) for p, rule in wanted.items()) for wanted in args.validations):
            problems.append(f"the validation {summary} fits none of the expected ones")
    verdict(report, problems, ok=f"{sheet.title}: {len(found)} data validation(s), each as expected")


def _cell_props(args: CellPropsArgs, probe: DesktopProbe, report: Report) -> None:
    sheet = load_sheet(probe, args.path, args.sheet, report)
    if sheet is None:
        return
    cell = sheet[args.cell]
    observed = {p: (osworld_value(cell) if p == "value" else cell_style(p, cell)) for p in args.props}
    report["observed"] = {"sheet": sheet.title, "cell": args.cell, **{k: plain_value(v) for k, v in observed.items()}}
    problems = [f"{args.cell} {p} is {plain_value(observed[p])!r}, expected {rule.describe()}"
                for p, rule in args.props.items() if not matches(observed[p], rule)]
    verdict(report, problems, ok=f"{sheet.title}!{args.cell}: " + ", ".join(f"{p} {plain_value(v)!r}" for p, v in observed.items()))


#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(CellValueCheck, _cell_value),
    CheckType(CellFormulaCheck, _cell_formula),
    CheckType(CellRangeCheck, _cell_range),
    CheckType(SheetNamesCheck, _sheet_names),
    CheckType(CellStyleCheck, _cell_style),
    CheckType(SheetLayoutCheck, _sheet_layout),
    CheckType(SheetZoomCheck, _sheet_zoom),
    CheckType(DataValidationCheck, _data_validation),
    CheckType(CellPropsCheck, _cell_props),
)
