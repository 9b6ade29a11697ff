"""Oracle scripts for the Writer and Impress suites (``datasets/tasks/desktop/writer``,
``.../impress``), keyboard only: Writer's shortcuts; in Impress, Tab selects the slide's
next object and Enter edits its text."""

from __future__ import annotations

from gui_agent.actions import Wait
from gui_agent.models.policies.desktop_oracle.script import Item, keys, type_text


def center_title() -> list[Item]:
    return [keys("ctrl", "home"), keys("ctrl", "e")]


def appendix_page() -> list[Item]:
    return [keys("ctrl", "end"), keys("ctrl", "enter"), type_text("Appendix")]


def edit_object_text(slide_downs: int, tabs: int) -> list[Item]:
    """Go ``slide_downs`` slides on, select the slide's ``tabs``-th object and edit its text
    (then a pause: keys typed while Impress switches to text editing can be lost)."""
    return [*[keys("pagedown")] * slide_downs, *[keys("tab")] * tabs, keys("enter"), Wait(0.5)]


def retitle_slide() -> list[Item]:
    return [*edit_object_text(0, 1), keys("ctrl", "a"), type_text("Roadmap"), keys("escape"), keys("escape")]


def agenda_item() -> list[Item]:
    return [*edit_object_text(1, 2), keys("ctrl", "end"), type_text("\nQuestions"), keys("escape"), keys("escape")]


#: Task id -> the script solving it.
SCRIPTS = {
    "desktop.writer.center-title": center_title,
    "desktop.writer.appendix-page": appendix_page,
    "desktop.impress.retitle-slide": retitle_slide,
    "desktop.impress.agenda-item": agenda_item,
}
