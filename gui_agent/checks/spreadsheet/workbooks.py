"""Opening the workbooks and sheets spreadsheet checks read, and comparing cell values.

A missing workbook or sheet of the agent's makes a check fail with the reason in the
report; a reference workbook shipped with the task that is missing or lacks the sheet
raises (the task is broken, not the agent).
"""

from __future__ import annotations

import math
from typing import Any

from gui_agent.checks.reports import missing
from gui_agent.checks.spreadsheet.models import SheetPairArgs
from gui_agent.checks.spreadsheet.refs import SheetRef


def load_workbook(probe: Any, path_text: str, report: dict[str, Any], *, formulas: bool = False) -> Any:
    """The saved workbook at the home-relative ``path_text``, or None (report filled) if missing."""
    import openpyxl

    path = probe.resolve_path(path_text)
    if not path.is_file():
        missing(report, path_text)
        return None
    return openpyxl.load_workbook(path, data_only=not formulas)


def load_reference(probe: Any, task_path: str, *, formulas: bool = False) -> Any:
    """A workbook shipped with the task; a missing one raises (the task is broken, not the agent)."""
    import openpyxl

    return openpyxl.load_workbook(probe.task_file(task_path), data_only=not formulas)


def open_sheet(workbook: Any, ref: SheetRef | None, label: str, report: dict[str, Any]) -> Any:
    """The sheet ``ref`` (position or name; None: the first) of ``workbook``, or None with the report filled."""
    names = list(workbook.sheetnames)
    if ref is None:
        return workbook.worksheets[0]
    if isinstance(ref, int):
        if ref < len(workbook.worksheets):
            return workbook.worksheets[ref]
        report.update(observed={"sheets": names}, reason=f"{label} has no sheet at position {ref} (sheets: {names})")
        return None
    if ref in names:
        return workbook[ref]
    report.update(observed={"sheets": names}, reason=f"{label} has no sheet {ref!r} (sheets: {names})")
    return None


def load_sheet(probe: Any, path_text: str, ref: SheetRef | None, report: dict[str, Any], *, formulas: bool = False) -> Any:
    """The sheet ``ref`` of the saved workbook at ``path_text``, or None (report filled) if either is missing."""
    workbook = load_workbook(probe, path_text, report, formulas=formulas)
    return open_sheet(workbook, ref, path_text, report) if workbook is not None else None


def sheet_pair(args: SheetPairArgs, probe: Any, report: dict[str, Any], *, formulas: bool = False) -> tuple[Any, Any] | None:
    """The two sheets a :class:`~gui_agent.checks.spreadsheet.models.SheetPairArgs` names, or None (report filled)."""
    workbook = load_workbook(probe, args.path, report, formulas=formulas)
    if workbook is None:
        return None
    ours = open_sheet(workbook, args.sheet, args.path, report)
    if ours is None:
        return None
    if args.expected is None:
        other_book, label = workbook, args.path
    else:
        other_book, label = load_reference(probe, args.expected, formulas=formulas), args.expected
    other_ref = args.expected_sheet if args.expected_sheet is not None else args.sheet
    theirs = open_sheet(other_book, other_ref, label, report)
    if theirs is None:
        if args.expected is not None:
            raise ValueError(report["reason"])  # the reference file lacks the sheet: the task is wrong
        return None
    return ours, theirs


def plain_value(value: Any) -> Any:
    """A cell value as JSON can hold it (dates as ISO text)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def same_value(observed: Any, expected: Any, tolerance: float) -> bool:
    """Cell comparison: numbers within ``tolerance``, text stripped, None = empty cell."""
    if expected is None:
        return observed is None or (isinstance(observed, str) and observed.strip() == "")
    if isinstance(expected, bool) or isinstance(observed, bool):
        return isinstance(observed, bool) and isinstance(expected, bool) and observed == expected
    if isinstance(expected, (int, float)):
        if not isinstance(observed, (int, float)):
            return False
        return math.isclose(float(observed), float(expected), rel_tol=0.0, abs_tol=tolerance)
    return isinstance(observed, str) and observed.strip() == str(expected).strip()


def kind_of(value: Any) -> str:
    if value is None:
        return "empty"
    return {bool: "true/false", int: "number", float: "number", str: "text"}.get(type(value), type(value).__name__)
