"""Sparklines (small charts in one cell), which openpyxl does not read: they live in the
sheet's XML extension list (``x14:sparkline``: the cell, ``xm:sqref``, and the data range,
``xm:f``), read here straight from the file, as OSWorld's ``sparkline`` rule does."""

from __future__ import annotations

import posixpath
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

from gui_agent.checks.family import CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, verdict
from gui_agent.checks.spreadsheet.models import SparklinesEqualArgs, SparklinesEqualCheck
from gui_agent.checks.spreadsheet.workbooks import sheet_pair

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_X14 = "{http://schemas.microsoft.com/office/spreadsheetml/2009/9/main}"
_XM = "{http://schemas.microsoft.com/office/excel/2006/main}"


def _sheet_part(book: zipfile.ZipFile, sheet_name: str) -> str | None:
    """The zip member holding the worksheet named ``sheet_name``."""
    workbook = ET.fromstring(book.read("xl/workbook.xml"))
    rel_id = next((s.get(f"{_REL}id") for s in workbook.iter(f"{_MAIN}sheet") if s.get("name") == sheet_name), None)
    if rel_id is None:
        return None
    rels = ET.fromstring(book.read("xl/_rels/workbook.xml.rels"))
    target = next((r.get("Target", "") for r in rels.iter(f"{_PKG_REL}Relationship") if r.get("Id") == rel_id), None)
    if target is None:
        return None
    return target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))


def sparklines(path: Path, sheet_name: str) -> dict[str, str]:
    """Cell -> data range of every sparkline of the sheet (none for a file that is no zip)."""
    try:
        with zipfile.ZipFile(path) as book:
            part = _sheet_part(book, sheet_name)
            if part is None or part not in book.namelist():
                return {}
            root = ET.fromstring(book.read(part))
    except zipfile.BadZipFile:
        return {}
    found = {}
    for line in root.iter(f"{_X14}sparkline"):
        cell, data = line.find(f"{_XM}sqref"), line.find(f"{_XM}f")
        found[(cell.text or "") if cell is not None else ""] = (data.text or "") if data is not None else ""
    return found


def _sparklines_equal(args: SparklinesEqualArgs, probe: DesktopProbe, report: Report) -> None:
    pair = sheet_pair(args, probe, report)
    if pair is None:
        return
    ours_path = probe.resolve_path(args.path)
    theirs_path = probe.task_file(args.expected) if args.expected is not None else ours_path
    ours, theirs = sparklines(ours_path, pair[0].title), sparklines(theirs_path, pair[1].title)
    report["observed"] = {"sparklines": ours, "expected_sparklines": theirs}
    differences = [f"{cell} draws {ours.get(cell)!r}, expected {theirs.get(cell)!r}"
                              for cell in sorted(set(ours) | set(theirs)) if ours.get(cell) != theirs.get(cell)]
    verdict(report, differences, ok=f"{pair[0].title}: {len(ours)} sparkline(s), as in {pair[1].title}")


#: This module's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (CheckType(SparklinesEqualCheck, _sparklines_equal),)

__all__ = ["CHECKS", "sparklines"]
