"""Locally made inputs for the imported OSWorld vscode tasks the end-to-end tests run (the
real ones are on the internet), written where the import declares them (``inputs/NAME``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

#: 0ed39f63's document: "text" four times (lower case only, as the replacement is), and words
#: that merely contain it ("texts", "context"), which Replace All changes too.
REPLACE_TEXT = (
    "This is a text file.\n"
    "Each line of text here has the word text in it,\n"
    "and the context around it is plain texts.\n"
)


def replace_text(inputs: Path) -> None:
    """0ed39f63: the document and the expected one (every "text" is "test")."""
    inputs.mkdir(parents=True, exist_ok=True)
    (inputs / "vscode_replace_text.txt").write_text(REPLACE_TEXT)
    (inputs / "vscode_replace_text_gold.txt").write_text(REPLACE_TEXT.replace("text", "test"))


def nothing(inputs: Path) -> None:
    """Settings and key bindings tasks: VS Code alone, no file."""


#: OSWorld id -> the maker of its inputs.
MAKERS: dict[str, Callable[[Path], None]] = {
    "276cc624-87ea-4f08-ab93-f770e3790175": nothing,
    "930fdb3b-11a8-46fe-9bac-577332e2640e": nothing,
    "0ed39f63-6049-43d4-ba4d-5fa2fe04a951": replace_text,
}
