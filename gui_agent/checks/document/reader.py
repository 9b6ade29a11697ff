"""Reading a text document (``.docx`` or ``.odt``) into one plain model the document
checks share: paragraphs with their runs and formats, footers, page breaks, equations.

Why one model: OSWorld's Writer tasks save ``.docx`` and ``.odt`` alike, and a check
should mean the same thing on both. ``.docx`` is read with python-docx (formats resolved
through paragraph styles where python-docx leaves them unset); ``.odt`` from its XML with
the standard library (automatic and named styles, one level deep).
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
}
#: Word's highlight colour names -> hex.
HIGHLIGHT_HEX = {
    "yellow": "FFFF00", "green": "00FF00", "cyan": "00FFFF", "magenta": "FF00FF", "blue": "0000FF", "red": "FF0000",
    "darkBlue": "000080", "darkCyan": "008080", "darkGreen": "008000", "darkMagenta": "800080", "darkRed": "800000",
    "darkYellow": "808000", "darkGray": "808080", "lightGray": "C0C0C0", "black": "000000", "white": "FFFFFF",
}


@dataclass
class Run:
    """A piece of a paragraph with one format; None = not set (inherited)."""

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


@dataclass
class Document:
    """What the document checks read. ``paragraphs`` are the body's, outside tables."""

    paragraphs: list[Paragraph]
    table_runs: list[Run]
    footers: list[tuple[str, bool]]  # (text, has a page-number field) per section
    page_breaks: int
    equations: int

    def all_runs(self) -> list[Run]:
        return [r for p in self.paragraphs for r in p.runs] + self.table_runs


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
        return _read_docx(path)
    if "content.xml" in names:
        return _read_odt(path)
    raise ValueError(f"{path.name} is not a .docx or .odt document")


# ---------------------------------------------------------------------- docx


def _hex(color: Any) -> str | None:
    rgb = getattr(color, "rgb", None) if color is not None else None
    return str(rgb).upper() if rgb is not None else None


def _docx_run(run: Any, in_table: bool) -> Run:
    font = run.font
    highlight = None
    if font.highlight_color is not None:
        name = str(run.element.rPr.highlight.get(f"{_W}val")) if run.element.rPr is not None and run.element.rPr.highlight is not None else ""
        highlight = HIGHLIGHT_HEX.get(name)
    shading = run.element.rPr.find(f"{_W}shd") if run.element.rPr is not None else None
    if highlight is None and shading is not None and shading.get(f"{_W}fill") not in (None, "auto"):
        highlight = shading.get(f"{_W}fill").upper()
    return Run(
        text=run.text, in_table=in_table, bold=font.bold, italic=font.italic,
        underline=None if font.underline is None else bool(font.underline), strike=font.strike,
        subscript=font.subscript, superscript=font.superscript, font_name=font.name,
        font_size=font.size.pt if font.size is not None else None, color=_hex(font.color), highlight=highlight,
    )


def _resolved(paragraph: Any, attr: str) -> Any:
    """A paragraph format attribute, looked up through its style chain when unset."""
    value = getattr(paragraph.paragraph_format, attr)
    style = paragraph.style
    while value is None and style is not None:
        value = getattr(style.paragraph_format, attr, None)
        style = style.base_style
    return value


_DOCX_ALIGN = {0: "left", 1: "center", 2: "right", 3: "justify"}


def _docx_paragraph(paragraph: Any, in_table: bool = False) -> Paragraph:
    alignment = _resolved(paragraph, "alignment")
    return Paragraph(
        text=paragraph.text, runs=[_docx_run(r, in_table) for r in paragraph.runs],
        alignment=_DOCX_ALIGN.get(int(alignment), str(alignment)) if alignment is not None else None,
        line_spacing=paragraph.paragraph_format.line_spacing,
        space_before=paragraph.paragraph_format.space_before, space_after=paragraph.paragraph_format.space_after,
        left_indent=paragraph.paragraph_format.left_indent, first_line_indent=paragraph.paragraph_format.first_line_indent,
    )


def _read_docx(path: Path) -> Document:
    import docx

    document = docx.Document(str(path))
    body = document.element.body
    table_runs = [
        _docx_run(run, True)
        for table in document.tables for row in table.rows for cell in row.cells
        for paragraph in cell.paragraphs for run in paragraph.runs
    ]
    footers = []
    for section in document.sections:
        xml = section.footer._element.xml if section.footer is not None else ""
        text = " ".join(p.text for p in section.footer.paragraphs) if section.footer is not None else ""
        footers.append((text, re.search(r"\bPAGE\b", xml) is not None))
    breaks = sum(1 for br in body.iter(f"{_W}br") if br.get(f"{_W}type") == "page")
    breaks += sum(1 for el in body.iter(f"{_W}pageBreakBefore") if el.get(f"{_W}val") not in ("0", "false"))
    equations = sum(1 for _ in body.iter(f"{_W}object"))
    equations += sum(1 for el in body.iter() if el.tag == "{http://schemas.openxmlformats.org/officeDocument/2006/math}oMath")
    return Document(
        paragraphs=[_docx_paragraph(p) for p in document.paragraphs], table_runs=table_runs,
        footers=footers, page_breaks=breaks, equations=equations,
    )


# ---------------------------------------------------------------------- odt


def _styles(root: ET.Element) -> dict[str, ET.Element]:
    return {s.get(f"{{{_NS['style']}}}name", ""): s for s in root.iter(f"{{{_NS['style']}}}style")}


def _text_props(style: ET.Element | None) -> dict[str, str]:
    if style is None:
        return {}
    props = style.find("style:text-properties", _NS)
    return {k.split("}")[1]: v for k, v in (props.attrib.items() if props is not None else [])}


def _odt_text(element: ET.Element) -> str:
    parts = [element.text or ""]
    for child in element:
        tag = child.tag.split("}")[1]
        if tag == "s":
            parts.append(" " * int(child.get(f"{{{_NS['text']}}}c", "1")))
        elif tag == "tab":
            parts.append("\t")
        elif tag == "line-break":
            parts.append("\n")
        elif tag not in ("note", "annotation"):
            parts.append(_odt_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _odt_run(text: str, props: dict[str, str], in_table: bool) -> Run:
    position = props.get("text-position", "")
    size = props.get("font-size", "")
    return Run(
        text=text, in_table=in_table,
        bold=props.get("font-weight") == "bold" if "font-weight" in props else None,
        italic=props.get("font-style") == "italic" if "font-style" in props else None,
        underline=props.get("text-underline-style", "none") != "none" if "text-underline-style" in props else None,
        strike=props.get("text-line-through-style", "none") != "none" if "text-line-through-style" in props else None,
        subscript=(position.startswith("sub") or position.startswith("-")) if position else None,
        superscript=(position.startswith("super") or (bool(position) and position[0].isdigit() and not position.startswith("0"))) if position else None,
        font_name=props.get("font-name"), font_size=float(size[:-2]) if size.endswith("pt") else None,
        color=props["color"].lstrip("#").upper() if props.get("color", "").startswith("#") else None,
        highlight=props["background-color"].lstrip("#").upper() if props.get("background-color", "").startswith("#") else None,
    )


_ODT_ALIGN = {"start": "left", "left": "left", "center": "center", "end": "right", "right": "right", "justify": "justify"}


def _read_odt(path: Path) -> Document:
    with zipfile.ZipFile(path) as archive:
        content = ET.fromstring(archive.read("content.xml"))
        styles_root = ET.fromstring(archive.read("styles.xml")) if "styles.xml" in archive.namelist() else ET.Element("x")
    styles = {**_styles(styles_root), **_styles(content)}
    attr = f"{{{_NS['text']}}}style-name"
    body = content.find("office:body/office:text", _NS)
    paragraphs: list[Paragraph] = []
    table_runs: list[Run] = []
    breaks = 0

    def runs_of(element: ET.Element, in_table: bool) -> list[Run]:
        base = _text_props(styles.get(element.get(attr, "")))
        out = [_odt_run(element.text, base, in_table)] if element.text else []
        for child in element:
            if child.tag == f"{{{_NS['text']}}}span":
                out.append(_odt_run(_odt_text(child), {**base, **_text_props(styles.get(child.get(attr, "")))}, in_table))
            elif child.tag.split("}")[1] not in ("note", "annotation", "bookmark", "bookmark-start", "bookmark-end"):
                text = _odt_text(child)
                if text:
                    out.append(_odt_run(text, base, in_table))
            if child.tail:
                out.append(_odt_run(child.tail, base, in_table))
        return out

    paragraph_tags = (f"{{{_NS['text']}}}p", f"{{{_NS['text']}}}h")
    elements = list(body.iter()) if body is not None else []
    in_tables = {id(e) for cell in elements if cell.tag == f"{{{_NS['table']}}}table-cell" for e in cell.iter()}
    for element in elements:
        if element.tag not in paragraph_tags:
            continue
        if id(element) in in_tables:
            table_runs.extend(runs_of(element, True))
            continue
        style = styles.get(element.get(attr, ""))
        props = style.find("style:paragraph-properties", _NS) if style is not None else None
        fo = {k.split("}")[1]: v for k, v in (props.attrib.items() if props is not None else [])}
        if "page" in (fo.get("break-before"), fo.get("break-after")):
            breaks += 1
        paragraphs.append(Paragraph(text=_odt_text(element), runs=runs_of(element, False),
                                    alignment=_ODT_ALIGN.get(fo.get("text-align", "")), line_spacing=fo.get("line-height"),
                                    space_before=fo.get("margin-top"), space_after=fo.get("margin-bottom"),
                                    left_indent=fo.get("margin-left"), first_line_indent=fo.get("text-indent")))
    footers = []
    for footer in styles_root.iter(f"{{{_NS['style']}}}footer"):
        footers.append((_odt_text(footer), footer.find(".//text:page-number", _NS) is not None))
    equations = sum(1 for obj in content.iter(f"{{{_NS['draw']}}}object"))
    return Document(paragraphs=paragraphs, table_runs=table_runs, footers=footers, page_breaks=breaks, equations=equations)
