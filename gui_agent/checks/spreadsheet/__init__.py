"""The spreadsheet family: checks of workbooks the agent saved (openpyxl; a LibreOffice of
its own for printed values).

* ``models``: what a task file may write (cell values, formulas, styles; comparisons of
  one aspect of a sheet with a reference sheet), with ``refs`` (cell references);
* ``workbooks``: opening workbooks and sheets, comparing cell values;
* ``cells``: judging the checks of one sheet;
* ``summaries`` and ``comparisons``: sheet features as plain data, and judging two sheets
  by them;
* ``printing``: a sheet's printed (formatted) values, exported as CSV.
"""

from __future__ import annotations

from typing import Any

from gui_agent.checks.spreadsheet import cells, comparisons, printing
from gui_agent.checks.spreadsheet.models import SPREADSHEET_CHECK_TYPES

HANDLERS: dict[type, Any] = {**cells.HANDLERS, **comparisons.HANDLERS, **printing.HANDLERS}

__all__ = ["HANDLERS", "SPREADSHEET_CHECK_TYPES"]
