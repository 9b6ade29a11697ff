"""Judging cells by their text: one sheet's against another's cell by cell with OSWorld's
normalisations (``cells_match``, its ``sheet_fuzzy``), and cells against expected
fragments (``cells_contain``, its ``compare_conference_city_in_order``).

OSWorld reads such cells from the file's XML (:func:`osworld_text`): numbers as floats,
text as text, anything else (an empty cell, true/false, an error) as nothing, then
compares ``str()`` of that, so an empty cell reads ``None`` and 5 reads ``5.0``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from gui_agent.checks.text_similarity import indel_ratio
from gui_agent.checks.family import CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut, verdict
from gui_agent.checks.spreadsheet.models import CellMatchRule, CellsContainArgs, CellsContainCheck, CellsMatchArgs, CellsMatchCheck
from gui_agent.checks.spreadsheet.refs import column_name
from gui_agent.checks.spreadsheet.workbooks import load_workbook, open_sheet, sheet_pair


def osworld_value(cell: Any) -> Any:
    """A cell's value as OSWorld's ``read_cell_value`` reads it from the file: numbers (dates
    and times too, as the serial numbers the file holds) as floats, text as text, anything
    else (empty, true/false, an error) as None."""
    from openpyxl.utils.datetime import to_excel

    value = cell.value
    if cell.data_type == "e" or value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time, dt.timedelta)):
        return float(to_excel(value))
    return str(value)


def _indel_ratio(a: str, b: str) -> float:
    """rapidfuzz's ``fuzz.ratio`` (0-100), which ``sheet_fuzzy`` compares with its threshold."""
    return 100.0 * indel_ratio(a, b)


def normalised(text: str, rule: CellMatchRule) -> str:
    """``text`` normalised as ``sheet_fuzzy`` does, in its order."""
    for old, new in rule.replace:
        text = text.replace(old, new)
    if rule.trim_leading is not None:
        text = text.lstrip(rule.trim_leading)
    if rule.trim_trailing is not None:
        text = text.rstrip(rule.trim_trailing)
    if rule.ignore_chars:
        text = "".join(ch for ch in text if ch not in rule.ignore_chars)
    return text.lower() if rule.ignore_case else text


def _matches(ours: str, theirs: str, rule: CellMatchRule) -> bool:
    if rule.match == "includes":
        return theirs in ours
    if rule.match == "included_by":
        return ours in theirs
    if rule.match == "fuzzy":
        return _indel_ratio(ours, theirs) >= rule.threshold
    return ours == theirs


def _cells(ranges: list[str]) -> list[tuple[int, int]]:
    """(row, column) of every cell of the ranges, each once, in order."""
    from openpyxl.worksheet.cell_range import CellRange

    seen: dict[tuple[int, int], None] = {}
    for text in ranges:
        for part in text.split():
            for row, col in CellRange(part.replace("$", "")).cells:
                seen.setdefault((row, col), None)
    return list(seen)


def _cells_match(args: CellsMatchArgs, probe: DesktopProbe, report: Report) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    ours, theirs = pair
    problems, compared = [], 0
    for rule in args.rules:
        for row, col in _cells(rule.ranges):
            a = normalised(str(osworld_value(ours.cell(row, col))), rule)
            b = normalised(str(osworld_value(theirs.cell(row, col))), rule)
            compared += 1
            if not _matches(a, b, rule):
                how = f"{rule.match}" + (f" >= {rule.threshold:g} (is {_indel_ratio(a, b):.0f})" if rule.match == "fuzzy" else "")
                problems.append(f"{column_name(col)}{row} reads {cut(a)!r} against {cut(b)!r}: not {how}")
    report["observed"] = {"cells": compared}
    verdict(report, problems, ok=f"{compared} cell(s) of {ours.title} match {theirs.title}")


def _cells_contain(args: CellsContainArgs, probe: DesktopProbe, report: Report) -> None:
    workbook = load_workbook(probe, args.path, report)
    if workbook is None:
        return
    sheet = workbook.active if args.sheet is None else open_sheet(workbook, args.sheet, args.path, report)
    if sheet is None:
        return
    cells = [cell for row in sheet[args.range] for cell in row]
    problems = []
    if len(cells) > len(args.contains):
        problems.append(f"{args.range} has {len(cells)} cells, but only {len(args.contains)} expected entries")
    for cell, wanted in zip(cells, args.contains):
        options = wanted if isinstance(wanted, list) else [wanted]
        value = cell.value
        if not isinstance(value, str) or not any(option in value for option in options):
            problems.append(f"{cell.coordinate} is {cut(str(value))!r}, which contains none of {options}")
    report["observed"] = {"sheet": sheet.title, "values": [cut(str(c.value)) for c in cells]}
    verdict(report, problems, ok=f"every cell of {sheet.title}!{args.range} holds its expected text")


#: This module's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(CellsMatchCheck, _cells_match),
    CheckType(CellsContainCheck, _cells_contain),
)

__all__ = ["CHECKS", "normalised", "osworld_value"]
