"""Oracle scripts for the LibreOffice Calc suite (``datasets/tasks/desktop/calc``).

Screen coordinates are for the suite's 1280x800 screen with Calc maximised (the
environment's window manager maximises every app window), LibreOffice 7.4's default
toolbars and menus. Cells are reached through the Name Box (Ctrl+Shift+F5, select its
text, type a reference, Enter), which works wherever the sheet is scrolled to.
"""

from __future__ import annotations

from gui_agent.actions import Click
from gui_agent.models.policies.desktop_oracle.script import Item, WaitForTitle, keys, type_text

# Menus of the Calc window (menu bar at y=28) and the items used below.
SHEET_MENU = Click(265, 28)
DATA_MENU = Click(305, 28)
VIEW_MENU = Click(82, 28)
SHEET_INSERT_AT_END = Click(974 - 640, 228)
SHEET_RENAME = Click(962 - 640, 395)
SHEET_DELETE_ROWS = Click(951 - 640, 148)
DATA_SORT_DESCENDING = Click(367, 88)
VIEW_FREEZE_CELLS = Click(131, 344)
VIEW_FREEZE_FIRST_ROW = Click(351, 360)  # in the Freeze Cells submenu
SAVE_AS_TYPE_LIST = Click(1158, 695)
SAVE_AS_TYPE_XLSX = Click(130, 536)  # "Excel 2007-365 (.xlsx)" in the opened list


def go_to(reference: str) -> list[Item]:
    """Select a cell or range by typing it into the Name Box."""
    return [keys("ctrl", "shift", "f5"), keys("ctrl", "a"), type_text(reference + "\n")]


def save() -> list[Item]:
    return [keys("ctrl", "s")]


def enter_data() -> list[Item]:
    return [*go_to("A2"), type_text("Pens\t12\n"), type_text("Paper\t500\n"), type_text("Stapler\t3\n"), *save()]


def sum_column() -> list[Item]:
    return [*go_to("B6"), type_text("=SUM(B2:B5)\n"), *save()]


def product_formula() -> list[Item]:
    return [*go_to("D2"), type_text("=B2*C2\n"), *go_to("D2:D5"), keys("ctrl", "d"), *save()]


def average_max() -> list[Item]:
    return [*go_to("B8"), type_text("=AVERAGE(B2:B6)\n=MAX(B2:B6)\n"), *save()]


def sort_descending() -> list[Item]:
    return [*go_to("B2"), DATA_MENU, DATA_SORT_DESCENDING, *save()]


def autofilter() -> list[Item]:
    return [*go_to("A1"), keys("ctrl", "shift", "l"), *save()]


def insert_sheet() -> list[Item]:
    return [
        SHEET_MENU, SHEET_INSERT_AT_END, WaitForTitle("Append Sheet"),
        keys("ctrl", "a"), type_text("Summary\n"), WaitForTitle(r"LibreOffice Calc"), *save(),
    ]


def rename_sheet() -> list[Item]:
    return [
        SHEET_MENU, SHEET_RENAME, WaitForTitle("Rename Sheet"),
        keys("ctrl", "a"), type_text("Budget\n"), WaitForTitle(r"LibreOffice Calc"), *save(),
    ]


def bold_header() -> list[Item]:
    return [*go_to("A1:D1"), keys("ctrl", "b"), *save()]


def number_format() -> list[Item]:
    return [*go_to("B2:B6"), keys("ctrl", "shift", "1"), *save()]


def freeze_first_row() -> list[Item]:
    return [VIEW_MENU, VIEW_FREEZE_CELLS, VIEW_FREEZE_FIRST_ROW, *save()]


def save_as_xlsx() -> list[Item]:
    return [
        keys("ctrl", "shift", "s"), WaitForTitle("Save as"),
        keys("ctrl", "a"), type_text("report"),
        SAVE_AS_TYPE_LIST, SAVE_AS_TYPE_XLSX, keys("enter"), WaitForTitle(r"report\.xlsx"),
    ]


def delete_row() -> list[Item]:
    return [*go_to("A4"), SHEET_MENU, SHEET_DELETE_ROWS, *save()]


#: Task id -> the script solving it.
SCRIPTS = {
    "desktop.calc.enter-data": enter_data,
    "desktop.calc.sum-column": sum_column,
    "desktop.calc.product-formula": product_formula,
    "desktop.calc.average-max": average_max,
    "desktop.calc.sort-descending": sort_descending,
    "desktop.calc.autofilter": autofilter,
    "desktop.calc.insert-sheet": insert_sheet,
    "desktop.calc.rename-sheet": rename_sheet,
    "desktop.calc.bold-header": bold_header,
    "desktop.calc.number-format": number_format,
    "desktop.calc.freeze-first-row": freeze_first_row,
    "desktop.calc.save-as-xlsx": save_as_xlsx,
    "desktop.calc.delete-row": delete_row,
}
