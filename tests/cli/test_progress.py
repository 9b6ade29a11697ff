"""The CLI's one progress bar, rendered on a terminal as the long commands show it."""

from __future__ import annotations

import io
import re

from rich.console import Console

from gui_agent.cli.progress import progress_bar


def _render(**options) -> str:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120, color_system=None)
    with progress_bar(console, "{task.description}", transient=False, **options) as bar:
        task = bar.add_task("exporting", total=10, steps=0)
        bar.update(task, completed=3, steps=42)
    return out.getvalue()


def test_bar_shows_label_counts_and_the_trailing_text() -> None:
    shown = _render(after="{task.fields[steps]} steps")
    assert "exporting" in shown and "3/10" in shown and "42 steps" in shown


def test_remaining_time_column_is_optional() -> None:
    assert "-:--:--" in _render()  # rich's "not known yet" for the remaining time
    assert "-:--:--" not in _render(remaining=False)


def test_on_an_80_column_terminal_the_counts_and_times_stay_whole() -> None:
    """A long label and trailing text used to squeeze every column alike: "1… 0…"."""
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80, color_system=None)
    with progress_bar(console, "{task.description}", after="{task.fields[last]}", transient=False) as bar:
        task = bar.add_task("miniwob/click-checkboxes-transfer seed=12 policy=openai:gpt-4.1-mini", total=152,
                            last="click(120, 45) ! the element is hidden behind the dialog")
        bar.update(task, completed=18)
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue())  # cursor moves of the live display
    lines = [line for line in shown.splitlines() if line.strip()]
    final = lines[-1]
    assert "18/152" in final and "0:00:" in final and "-:--:--" in final
    assert final.startswith("miniwob/click") and "…" in final  # the texts give way, cut on one line
    assert all(len(line) <= 80 for line in lines)
