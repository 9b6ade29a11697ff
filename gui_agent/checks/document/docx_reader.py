"""Reading a ``.docx`` into the plain model of :mod:`gui_agent.checks.document.parts`,
with python-docx: what OSWorld's Writer metrics read with the same library (run and
paragraph formats set on the element itself, tab stops, tables cell by grid cell, the
pictures the main part relates to), plus paragraph alignment resolved through styles."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from gui_agent.checks.document.parts import Document, Paragraph, Run, TabStop, Table

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MATH = "{http://schemas.openxmlformats.org/officeDocument/2006/math}oMath"
_GRAPHIC = "{http://schemas.openxmlformats.org/drawingml/2006/main}graphicData"
#: Word's highlight colour names -> hex.
HIGHLIGHT_HEX = {
    "yellow": "FFFF00", "green": "00FF00", "cyan": "00FFFF", "magenta": "FF00FF", "blue": "0000FF", "red": "FF0000",
    "darkBlue": "000080", "darkCyan": "008080", "darkGreen": "008000", "darkMagenta": "800080", "darkRed": "800000",
    "darkYellow": "808000", "darkGray": "808080", "lightGray": "C0C0C0", "black": "000000", "white": "FFFFFF",
}


def _hex(color: Any) -> str | None:
    rgb = getattr(color, "rgb", None) if color is not None else None
    return str(rgb).upper() if rgb is not None else None


def _highlight(run: Any) -> str | None:
    properties = run.element.rPr
    if properties is None:
        return None
    if run.font.highlight_color is not None and properties.highlight is not None:
        named = HIGHLIGHT_HEX.get(str(properties.highlight.get(f"{_W}val")))
        if named is not None:
            return named
    shading = properties.find(f"{_W}shd")
    if shading is not None and shading.get(f"{_W}fill") not in (None, "auto"):
        return str(shading.get(f"{_W}fill")).upper()
    return None


def _docx_run(run: Any, in_table: bool) -> Run:
    font = run.font
    return Run(
        text=run.text, in_table=in_table, bold=font.bold, italic=font.italic,
        underline=None if font.underline is None else bool(font.underline), strike=font.strike,
        subscript=font.subscript, superscript=font.superscript, font_name=font.name,
        font_size=font.size.pt if font.size is not None else None, color=_hex(font.color), highlight=_highlight(run),
        has_image=any(el.tag == _GRAPHIC for el in run.element.iter()),
    )


def _resolved(paragraph: Any, attr: str) -> Any:
    """A paragraph format attribute, looked up through its style chain when unset.

    A value python-docx has no name for (LibreOffice writes ``w:jc w:val="start"``, the
    newer spelling of left) counts as unset rather than breaking the whole document.
    """
    def read(fmt: Any) -> Any:
        try:
            return getattr(fmt, attr, None)
        except ValueError:
            return None

    value = read(paragraph.paragraph_format)
    style = paragraph.style
    while value is None and style is not None:
        value = read(style.paragraph_format)
        style = style.base_style
    return value


_DOCX_ALIGN = {0: "left", 1: "center", 2: "right", 3: "justify"}


def _tab_stops(paragraph: Any) -> list[TabStop]:
    return [TabStop(alignment=str(getattr(t.alignment, "xml_value", t.alignment)), position=int(t.position))
            for t in paragraph.paragraph_format.tab_stops]


def _docx_paragraph(paragraph: Any, in_table: bool = False) -> Paragraph:
    alignment = _resolved(paragraph, "alignment")
    fmt = paragraph.paragraph_format
    return Paragraph(
        text=paragraph.text, runs=[_docx_run(r, in_table) for r in paragraph.runs],
        alignment=_DOCX_ALIGN.get(int(alignment), str(alignment)) if alignment is not None else None,
        line_spacing=fmt.line_spacing, space_before=fmt.space_before, space_after=fmt.space_after,
        left_indent=fmt.left_indent, first_line_indent=fmt.first_line_indent, tab_stops=_tab_stops(paragraph),
    )


def _table(table: Any) -> Table:
    """Rows x grid columns of cell texts, as python-docx's ``table.cell(row, column)`` gives them."""
    rows, columns = len(table.rows), len(table.columns)
    grid: Table = []
    for i in range(rows):
        row = []
        for j in range(columns):
            try:
                row.append(table.cell(i, j).text)
            except IndexError:  # a row shorter than the grid (cells skipped before or after it)
                row.append("")
        grid.append(row)
    return grid


def _images(document: Any) -> list[bytes]:
    return [rel.target_part.blob for rel in document.part.rels.values()
            if "image" in rel.reltype and not rel.is_external]


def _text_width(document: Any) -> int | None:
    if not document.sections:
        return None
    section = document.sections[0]
    sizes = (section.page_width, section.left_margin, section.right_margin)
    return None if any(s is None for s in sizes) else int(sizes[0] - sizes[1] - sizes[2])


def _footers(document: Any) -> list[tuple[str, bool]]:
    footers = []
    for section in document.sections:
        xml = section.footer._element.xml if section.footer is not None else ""
        text = " ".join(p.text for p in section.footer.paragraphs) if section.footer is not None else ""
        footers.append((text, re.search(r"\bPAGE\b", xml) is not None))
    return footers


def read_docx(path: Path) -> Document:
    """Read a ``.docx`` (python-docx raises on a damaged one)."""
    import docx

    document = docx.Document(str(path))
    body = document.element.body
    table_runs = [
        _docx_run(run, True)
        for table in document.tables for row in table.rows for cell in row.cells
        for paragraph in cell.paragraphs for run in paragraph.runs
    ]
    breaks = sum(1 for br in body.iter(f"{_W}br") if br.get(f"{_W}type") == "page")
    breaks += sum(1 for el in body.iter(f"{_W}pageBreakBefore") if el.get(f"{_W}val") not in ("0", "false"))
    equations = sum(1 for _ in body.iter(f"{_W}object")) + sum(1 for el in body.iter() if el.tag == _MATH)
    return Document(
        paragraphs=[_docx_paragraph(p) for p in document.paragraphs], table_runs=table_runs,
        footers=_footers(document), page_breaks=breaks, equations=equations,
        tables=[_table(t) for t in document.tables], images=_images(document), text_width=_text_width(document),
    )


__all__ = ["HIGHLIGHT_HEX", "read_docx"]
