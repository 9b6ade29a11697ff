"""The spreadsheet family: checks of workbooks the agent saved (openpyxl; a LibreOffice of
its own for printed values).

* ``models``: what a task file may write (cell values, formulas, styles; comparisons of
  one aspect of a sheet with a reference sheet), with ``refs`` (cell references);
* ``workbooks``: opening workbooks and sheets, comparing cell values;
* ``cells``: judging the checks of one sheet;
* ``summaries`` and ``comparisons``: sheet features as plain data, and judging two sheets
  by them;
* ``printing``: a sheet's printed (formatted) values, exported as CSV;
* ``matching``: cells judged by their text (fuzzy, includes, contains);
* ``sparklines``: sparklines, read from the sheet's XML.

Each judging module ends with its checks' registrations; ``CHECKS`` is the family's.
"""

from __future__ import annotations

from gui_agent.checks.family import CheckType
from gui_agent.checks.spreadsheet import cells, comparisons, matching, printing, sparklines

#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (*cells.CHECKS, *comparisons.CHECKS, *matching.CHECKS, *sparklines.CHECKS, *printing.CHECKS)

__all__ = ["CHECKS"]
