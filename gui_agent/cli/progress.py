"""The progress bar every long CLI command shows, in one place so they all read the same.

``LABEL ━━━━━━━━ 12/40 0:00:07 0:00:21 AFTER``: a label, the bar, done/total, time elapsed,
time remaining (optional) and a trailing text (optional). Label and trailing text are rich
``TextColumn`` formats, e.g. ``"{task.description}"`` or ``"loss {task.fields[loss]}"``.
rich's progress module is imported only when a bar is made, so commands that show none
(``--quiet``, output not a terminal) never pay for it.
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

    columns: list[Any] = [TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    if remaining:
        columns.append(TimeRemainingColumn())
    if after is not None:
        columns.append(TextColumn(after))
    return Progress(*columns, console=console, transient=transient)
