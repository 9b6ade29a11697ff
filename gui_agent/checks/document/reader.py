"""Reading a text document (``.docx`` or ``.odt``) into the one plain model the document
checks share (:mod:`gui_agent.checks.document.parts`): paragraphs with their runs and
formats, tables, pictures, footers, page breaks, equations.

Why one model: OSWorld's Writer tasks save ``.docx`` and ``.odt`` alike, and a check
should mean the same thing on both. ``.docx`` is read with python-docx
(:mod:`.docx_reader`), ``.odt`` from its XML with the standard library (:mod:`.odt_reader`).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from gui_agent.checks.document.docx_reader import HIGHLIGHT_HEX, read_docx
from gui_agent.checks.document.odt_reader import read_odt
from gui_agent.checks.document.parts import Document, Paragraph, Run, TabStop


def read_document(path: Path) -> Document:
    """Read ``path`` (``.docx`` or ``.odt``, by its content).

    Raises:
        ValueError: it is neither (or is damaged).
    """
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except zipfile.BadZipFile:
        raise ValueError(f"{path.name} is not a .docx or .odt document (not a zip archive)") from None
    if "word/document.xml" in names:
        return read_docx(path)
    if "content.xml" in names:
        return read_odt(path)
    raise ValueError(f"{path.name} is not a .docx or .odt document")


__all__ = ["HIGHLIGHT_HEX", "Document", "Paragraph", "Run", "TabStop", "read_document"]
