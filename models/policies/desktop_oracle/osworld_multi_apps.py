"""Oracle scripts for imported OSWorld multi_apps tasks: work that crosses two apps.

Imported ids are ``osworld.<snapshot>.<uuid>`` (the config's snapshot names the domain).
Each script does what its instruction asks through the apps' menus and keys, with the
content a person would read off the screen (the speaker notes, the assignment's rules)
written in as data below, so the end-to-end tests can make inputs that say the same.
"""

from __future__ import annotations

from collections.abc import Callable

from gui_agent.actions import Wait
from gui_agent.models.policies.desktop_oracle.calc import go_to
from gui_agent.models.policies.desktop_oracle.script import Item, WaitForTitle, keys, type_text

#: 51f5801c: the speaker notes of Dickinson_Slides.pptx, slide by slide.
DICKINSON_NOTES = (
    "Emily Dickinson wrote nearly 1800 poems.",
    "Death and immortality recur in her work.",
    "Most of her poems were published after her death in 1886.",
)

#: bc2b57f3: the scores sheet's students (name, score) and the pass mark the reminder sets.
SCORES = (("Ann", 72), ("Ben", 45), ("Cleo", 60))
PASS_MARK = 60


#: Imported tasks keep OSWorld's 15 steps, and each poll of a barrier is one: a pause of
#: about the time a window takes comes first, so the barrier mostly passes at once.
WINDOW_PAUSE_S = 3.0


def new_text_document() -> list[Item]:
    """File > New > Text Document from any LibreOffice window (Alt+F, N, T)."""
    return [keys("alt", "f"), keys("n"), keys("t"), Wait(WINDOW_PAUSE_S),
            WaitForTitle(r"^Untitled \d+ - LibreOffice Writer$", timeout_s=30.0)]


def save_new_as_docx(path: str) -> list[Item]:
    """Save As ``path`` (relative to ~/Documents, LibreOffice's work folder, where a new
    document's dialog opens: ``../Desktop/notes.docx``) with the file type "Office Open XML Text (.docx)", chosen by typing its name in the
    type list after Tab (the list finds an entry by its first letters)."""
    return [
        keys("ctrl", "shift", "s"), Wait(1.0), WaitForTitle("(?i)^save as$"), keys("ctrl", "a"),
        type_text(path.removesuffix(".docx") + "\tOffice Open XML\n"), Wait(WINDOW_PAUSE_S),
        WaitForTitle(r"^" + path.rsplit("/", 1)[-1].replace(".", r"\.") + " - LibreOffice Writer$", timeout_s=30.0),
    ]


def notes_document(notes: tuple[str, ...] = DICKINSON_NOTES) -> list[Item]:
    """51f5801c: the presentation's speaker notes, one paragraph each, in Desktop/notes.docx."""
    return [
        WaitForTitle(r"Dickinson_Slides\.pptx - LibreOffice Impress", timeout_s=30.0), *new_text_document(),
        type_text("\n".join(notes)), *save_new_as_docx("../Desktop/notes.docx"),
    ]


def results(scores: tuple[tuple[str, int], ...] = SCORES, mark: int = PASS_MARK) -> list[str]:
    """The "Result" column the reminder asks for: Pass at ``mark`` or more, else Fail."""
    return ["Pass" if score >= mark else "Fail" for _, score in scores]


def result_column(column: list[str] | None = None) -> list[Item]:
    """bc2b57f3: column C of the Scores sheet titled "Result", each student's Pass or Fail, saved."""
    cells = results() if column is None else column
    return [
        WaitForTitle(r"workbook-with-sample-database\.xlsx - LibreOffice Calc", timeout_s=30.0),
        *go_to("C1"), type_text("Result\n" + "\n".join(cells) + "\n"), keys("ctrl", "s"), Wait(2.0),
    ]


#: Task id -> the script solving it.
SCRIPTS: dict[str, Callable[[], list[Item]]] = {
    "osworld.multi_apps.51f5801c-18b3-4f25-b0c3-02f85507a078": notes_document,
    "osworld.multi_apps.bc2b57f3-686d-4ec9-87ce-edf850b7e442": result_column,
}
