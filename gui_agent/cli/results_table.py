"""``gui-agent eval``'s results table on a terminal: the columns its width holds, whole.

An 80-column terminal cannot show the full table (a dozen columns and long task ids).
Left to rich, every column shrank until the numbers read ``[20.6…`` and the last columns
fell off the edge unseen. Here the task column folds long ids onto a second line, and
the columns that matter least are left out whole, named under the table; every column
is in results.md either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gui_agent.evaluate.report import headline, table_rows

if TYPE_CHECKING:  # rich is imported when a command runs, not when the parser is built
    from rich.table import Table

#: The columns a narrow terminal gives up, first to last, after those with nothing to say.
DROP_ORDER = ("guards", "tokens/ep", "wall s", "steps", "reward", "$/success", "95% CI", "$/ep")
#: The columns never left out: which task, how many episodes scored, and how many passed.
ALWAYS = ("task", "n", "pass@1 %")
#: The task column is folded no narrower than this (or its longest id, if shorter).
TASK_MIN_WIDTH = 20


@dataclass
class FittedTable:
    """The table to print, and the headers of the columns left out for the width."""

    table: Table
    left_out: list[str]

    def note(self) -> str | None:
        """The line that names the columns left out, or None when all are shown."""
        if not self.left_out:
            return None
        return f"left out for the terminal's width: {', '.join(self.left_out)} (every column is in results.md)"


def _width(cells: list[str]) -> int:
    return max(len(cell) for cell in cells)


def _table_width(widths: list[int]) -> int:
    """A rich table's width for these column widths: one space of padding each side, a border between."""
    return sum(w + 2 for w in widths) + len(widths) + 1


def fit_results_table(results: dict[str, Any], width: int) -> FittedTable:
    """The results table for a terminal ``width`` columns wide."""
    from rich.table import Table

    header, rows = table_rows(results)
    columns = [[name, *(row[i] for row in rows)] for i, name in enumerate(header)]
    keep = list(range(len(header)))
    task_width = min(_width(columns[0]), max(TASK_MIN_WIDTH, len(header[0])))

    def needed() -> int:
        return _table_width([task_width if i == 0 else _width(columns[i]) for i in keep])

    # Columns with nothing to say (every cell "-" or "0") go first, then the least useful.
    empty = [name for name, cells in zip(header, columns) if name not in ALWAYS and set(cells[1:]) <= {"-", "0"}]
    left_out = []
    for name in [*reversed(empty), *(n for n in DROP_ORDER if n not in empty)]:
        if needed() <= width:
            break
        if name in header:
            keep.remove(header.index(name))
            left_out.append(name)
    others = _table_width([_width(columns[i]) for i in keep[1:]]) - 1  # the task column's border is counted below
    task_room = max(task_width, min(_width(columns[0]), width - others - 3))
    table = Table(title=f"{results['run'].get('policy')}: {headline(results)}", title_justify="left")
    for i in keep:
        if i == 0:
            table.add_column(header[i], justify="left", overflow="fold", max_width=task_room)
        else:
            table.add_column(header[i], justify="right", no_wrap=True, min_width=len(header[i]))
    sections = {len(results["tasks"]) - 1, len(rows) - 2}  # after the tasks, and before the overall line
    for index, row in enumerate(rows):
        table.add_row(*(row[i] for i in keep), end_section=index in sections)
    return FittedTable(table=table, left_out=left_out)
