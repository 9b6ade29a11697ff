"""Locally made inputs for imported OSWorld multi_apps tasks (the real ones are on the
internet), written where the import declares them (``inputs/NAME`` next to the task file):
each task's starting files and the gold file its check compares with, made the way the
instruction says. The content the oracle reads off the screen comes from its module."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import docx
import openpyxl
from pptx import Presentation

from gui_agent.models.policies.desktop_oracle.osworld_multi_apps import DICKINSON_NOTES, PASS_MARK, SCORES, results


def dickinson_notes(inputs: Path) -> None:
    """51f5801c: three slides with speaker notes; the gold document has the notes, one paragraph each."""
    inputs.mkdir(parents=True, exist_ok=True)
    deck = Presentation()
    for title, note in zip(("Emily Dickinson", "Themes", "Legacy"), DICKINSON_NOTES):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = f"About {title.lower()}"
        slide.notes_slide.notes_text_frame.text = note
    deck.save(str(inputs / "Dickinson_Slides.pptx"))
    gold = docx.Document()
    for note in DICKINSON_NOTES:
        gold.add_paragraph(note)
    gold.save(str(inputs / "notes_gold.docx"))


#: The other seven sheets of the assignment's workbook (OSWorld's checks compare eight).
OTHER_SHEETS = ("Customers", "Orders", "Products", "Regions", "Staff", "Suppliers", "Notes")


def _assignment(path: Path, result_column: list[str] | None) -> None:
    book = openpyxl.Workbook()
    scores = book.active
    scores.title = "Scores"
    scores.append(("Student", "Score"))
    for row in SCORES:
        scores.append(row)
    if result_column is not None:
        for row, value in enumerate(["Result", *result_column], start=1):
            scores.cell(row=row, column=3, value=value)
    for number, name in enumerate(OTHER_SHEETS, start=1):
        sheet = book.create_sheet(name)
        sheet.append(("Id", "Name"))
        sheet.append((number, f"{name} {number}"))
    book.save(path)


def assignment(inputs: Path) -> None:
    """bc2b57f3: the workbook (Scores first), the reminder saying what to add, and the gold with it added."""
    inputs.mkdir(parents=True, exist_ok=True)
    _assignment(inputs / "workbook-with-sample-database.xlsx", None)
    reminder = docx.Document()
    reminder.add_paragraph(f'In the Scores sheet, add a column C titled "Result": "Pass" for a score of {PASS_MARK} '
                           'or more, "Fail" otherwise.')
    reminder.save(str(inputs / "reminder.docx"))
    _assignment(inputs / "workbook-with-sample-database_Gold.xlsx", results())


#: Imported task id (without ``osworld.<domain>.``) -> its input maker.
MAKERS: dict[str, Callable[[Path], None]] = {
    "51f5801c-18b3-4f25-b0c3-02f85507a078": dickinson_notes,
    "bc2b57f3-686d-4ec9-87ce-edf850b7e442": assignment,
}
