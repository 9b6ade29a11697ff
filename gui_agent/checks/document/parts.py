"""The plain model of a text document the document checks read (what
:func:`gui_agent.checks.document.reader.read_document` makes of a ``.docx`` or ``.odt``).

Why one model: OSWorld's Writer tasks save ``.docx`` and ``.odt`` alike, and a check
should mean the same thing on both. Values left unset in the file (inherited from a
style) are None, as python-docx gives them for the run and paragraph properties OSWorld reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Run:
    """A piece of a paragraph with one format; None = not set (inherited).

    ``has_image``: the run holds a drawing (an inline or anchored picture).
    """

    text: str
    in_table: bool = False
    bold: bool | None = None
    italic: bool | None = None
    underline: bool | None = None
    strike: bool | None = None
    subscript: bool | None = None
    superscript: bool | None = None
    font_name: str | None = None
    font_size: float | None = None
    color: str | None = None
    highlight: str | None = None
    has_image: bool = False


@dataclass
class TabStop:
    """A tab stop set on a paragraph itself (not inherited from its style).

    ``alignment``: ``left``, ``center``, ``right``, ``decimal``, ``bar``, ``clear``...
    (Word's names); ``position``: from the text's left edge, in EMU (914400 an inch).
    """

    alignment: str
    position: int


@dataclass
class Paragraph:
    text: str
    runs: list[Run] = field(default_factory=list)
    alignment: str | None = None
    line_spacing: Any = None
    space_before: Any = None
    space_after: Any = None
    left_indent: Any = None
    first_line_indent: Any = None
    tab_stops: list[TabStop] = field(default_factory=list)


#: A table as rows of cell texts, one entry per grid column (a merged cell repeats its text).
Table = list[list[str]]


@dataclass
class Document:
    """What the document checks read. ``paragraphs`` are the body's, outside tables.

    ``tables``: the body's tables (not nested ones); ``images``: the pictures the document
    embeds, as stored bytes, in the order the file lists them; ``text_width``: the first
    section's page width less its left and right margins, in EMU (None when unknown).
    """

    paragraphs: list[Paragraph]
    table_runs: list[Run]
    footers: list[tuple[str, bool]]  # (text, has a page-number field) per section
    page_breaks: int
    equations: int
    tables: list[Table] = field(default_factory=list)
    images: list[bytes] = field(default_factory=list)
    text_width: int | None = None

    def all_runs(self) -> list[Run]:
        return [r for p in self.paragraphs for r in p.runs] + self.table_runs


#: EMU per unit of the lengths documents write (ODF: ``2.5cm``, ``1in``, ``12pt``...).
EMU_PER_UNIT = {"in": 914400, "cm": 360000, "mm": 36000, "pt": 12700, "pc": 152400, "px": 9525}


def emu(length: str | None) -> int | None:
    """An ODF length (``"2.5cm"``) in EMU, or None when it is not one."""
    if not length:
        return None
    for unit, factor in EMU_PER_UNIT.items():
        if length.endswith(unit):
            try:
                return round(float(length[: -len(unit)]) * factor)
            except ValueError:
                return None
    return None


__all__ = ["Document", "EMU_PER_UNIT", "Paragraph", "Run", "TabStop", "Table", "emu"]
