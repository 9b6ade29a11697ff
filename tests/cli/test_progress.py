"""The CLI's one progress bar, rendered on a terminal as the long commands show it."""

from __future__ import annotations

import io

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
