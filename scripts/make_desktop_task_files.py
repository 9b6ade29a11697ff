#!/usr/bin/env python
"""Write the input files of the desktop task suites (``datasets/tasks/desktop/*/files/``).

The spreadsheets are small and written with openpyxl (fixed document timestamps, so a
re-run gives the same content); ``report.ods`` is converted from its .xlsx by a headless
LibreOffice with a throw-away profile. Re-run after changing a table below; the task
files and the oracle scripts (``models/policies/desktop_oracle/``) assume these contents.

Usage:
    python scripts/make_desktop_task_files.py
"""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CALC_FILES = ROOT / "datasets" / "tasks" / "desktop" / "calc" / "files"
MAIL_FILES = ROOT / "datasets" / "tasks" / "desktop" / "mail" / "files"
FIXED_TIME = dt.datetime(2024, 1, 1, 12, 0, 0)

#: file name -> {sheet name: rows}
WORKBOOKS: dict[str, dict[str, list[tuple[object, ...]]]] = {
    "inventory.xlsx": {"Inventory": [("Item", "Qty")]},
    "sales.xlsx": {"Sales": [("Region", "Q1", "Q2"), ("North", 120, 135), ("South", 95, 110), ("East", 143, 150), ("West", 88, 97)]},
    "orders.xlsx": {"Orders": [("Item", "Price", "Qty", "Total"), ("Desk", 150, 2), ("Chair", 75, 4), ("Lamp", 20, 5), ("Shelf", 60, 3)]},
    "scores.xlsx": {"Scores": [("Student", "Score"), ("Ana", 82), ("Ben", 67), ("Chen", 91), ("Dara", 74), ("Eli", 78)]},
    "ranking.xlsx": {"Ranking": [("Player", "Points"), ("Ana", 82), ("Ben", 67), ("Chen", 91), ("Dara", 74), ("Eli", 78)]},
    "shipments.xlsx": {"Orders": [
        ("Order", "City", "Amount"), (1001, "Lyon", 250), (1002, "Porto", 120), (1003, "Lyon", 75),
        (1004, "Graz", 310), (1005, "Porto", 95), (1006, "Graz", 180), (1007, "Lyon", 60), (1008, "Porto", 205),
    ]},
    "projects.xlsx": {"Data": [("Project", "Budget"), ("Alpha", 12000), ("Beta", 8500)]},
    "budget.xlsx": {"Sheet1": [("Category", "Amount"), ("Rent", 1200), ("Food", 450), ("Travel", 300)]},
    "staff.xlsx": {"Staff": [("Name", "Team", "Start", "Salary"), ("Ines", "Ops", 2019, 52000), ("Jon", "Dev", 2021, 61000)]},
    "prices.xlsx": {"Prices": [("Product", "Price"), ("Tea", 4.5), ("Coffee", 1234.5), ("Cocoa", 3), ("Juice", 2.25), ("Water", 0.9)]},
    "log.xlsx": {"Log": [("Date", "Event")] + [(f"2024-01-{d:02d}", f"event {d}") for d in range(1, 41)]},
    "report.xlsx": {"Report": [("Month", "Visitors"), ("Jan", 1200), ("Feb", 1350), ("Mar", 1410)]},
    "products.xlsx": {"Products": [("Product", "Stock"), ("Printer", 4), ("Scanner", 2), ("Fax machine", 0), ("Monitor", 7), ("Keyboard", 12)]},
}

#: Files converted to OpenDocument after writing (then the .xlsx is removed).
TO_ODS = ("report.xlsx",)


def write_workbook(path: Path, sheets: dict[str, list[tuple[object, ...]]]) -> None:
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for name, rows in sheets.items():
        sheet = workbook.create_sheet(name)
        for row in rows:
            sheet.append(list(row))
    workbook.properties.created = FIXED_TIME
    workbook.properties.modified = FIXED_TIME
    workbook.properties.creator = "gui-agent"
    workbook.save(path)


def to_ods(path: Path) -> None:
    soffice = shutil.which("soffice")
    if soffice is None:
        sys.exit("soffice is needed to write .ods files: apt-get install --no-install-recommends libreoffice-calc")
    with tempfile.TemporaryDirectory(prefix="gui-agent-lo-profile-") as profile:
        subprocess.run(
            [soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "ods",
             "--outdir", str(path.parent), str(path)],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120,
        )
    path.unlink()


def main() -> int:
    CALC_FILES.mkdir(parents=True, exist_ok=True)
    for name, sheets in WORKBOOKS.items():
        path = CALC_FILES / name
        write_workbook(path, sheets)
        if name in TO_ODS:
            to_ods(path)
    MAIL_FILES.mkdir(parents=True, exist_ok=True)
    write_workbook(MAIL_FILES / "q3-figures.xlsx", {"Q3": [("Month", "Revenue"), ("Jul", 41000), ("Aug", 39500), ("Sep", 44250)]})
    (MAIL_FILES / "agenda.txt").write_text("Agenda\n1. Budget review\n2. Hiring plan\n3. Office move\n", encoding="utf-8")
    print(f"wrote {len(WORKBOOKS)} spreadsheets to {CALC_FILES.relative_to(ROOT)} and mail files to {MAIL_FILES.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
