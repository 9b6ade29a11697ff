"""The progress bar every long CLI command shows, in one place so they all read the same.

``LABEL ━━━━━━━━ 12/40 0:00:07 0:00:21 AFTER``: a label, the bar, done/total, time elapsed,
time remaining (optional) and a trailing text (optional). Label and trailing text are rich
``TextColumn`` formats, e.g. ``"{task.description}"`` or ``"loss {task.fields[loss]}"``.
rich's progress module is imported only when a bar is made, so commands that show none
(``--quiet``, output not a terminal) never pay for it.

On a narrow terminal (80 columns) the label and the trailing text give way, cut to one
line with an ellipsis, and then the bar: the counts and times keep their full width.
Left to rich's defaults every column shrank alike, and the counts read ``1… 0…``.
"""

from __future__ import annotations

from typing import Any


def progress_bar(console: Any, label: str, *, after: str | None = None, remaining: bool = True, transient: bool = True) -> Any:
    """A ``rich.progress.Progress`` on ``console``; use it as a context manager (or start/stop it)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.table import Column

    class OneLineText(TextColumn):
        """A text column that may shrink (the table gives it up first) but never wraps."""

        def render(self, task: Any) -> Any:
            text = super().render(task)
            text.no_wrap, text.overflow = True, "ellipsis"
            return text

    def fixed() -> Column:  # never shrunk: the table takes width from the shrinkable columns
        return Column(no_wrap=True)

    def shrinkable() -> Column:  # TextColumn's own default is no_wrap, which rich never shrinks first
        return Column(no_wrap=False)

    columns: list[Any] = [OneLineText(label, table_column=shrinkable()),
                          BarColumn(bar_width=min(40, max(10, console.width // 6))), MofNCompleteColumn(table_column=fixed()),
                          TimeElapsedColumn(table_column=fixed())]
    if remaining:
        columns.append(TimeRemainingColumn(table_column=fixed()))
    if after is not None:
        columns.append(OneLineText(after, table_column=shrinkable()))
    return Progress(*columns, console=console, transient=transient)
