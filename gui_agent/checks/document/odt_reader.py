"""Reading an ``.odt`` into the plain model of :mod:`gui_agent.checks.document.parts`,
from its XML with the standard library (automatic and named styles, one level deep), so
the document checks mean the same on a file Writer saved as ODF as on a ``.docx``."""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

from gui_agent.checks.document.parts import Document, Paragraph, Run, TabStop, Table, emu

_NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "xlink": "http://www.w3.org/1999/xlink",
}
_TEXT, _TABLE, _STYLE, _DRAW = (f"{{{_NS[k]}}}" for k in ("text", "table", "style", "draw"))
_ODT_ALIGN = {"start": "left", "left": "left", "center": "center", "end": "right", "right": "right", "justify": "justify"}
#: ODF tab types -> Word's names (a "char" tab aligns on a character, Word's decimal tab).
_TAB_TYPES = {"left": "left", "center": "center", "right": "right", "char": "decimal"}
_SKIPPED = ("note", "annotation", "bookmark", "bookmark-start", "bookmark-end")


def _styles(root: ET.Element) -> dict[str, ET.Element]:
    return {s.get(f"{_STYLE}name", ""): s for s in root.iter(f"{_STYLE}style")}


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
            parts.append(" " * int(child.get(f"{_TEXT}c", "1")))
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


def _has_picture(element: ET.Element) -> bool:
    return any(e.tag == f"{_DRAW}image" for e in element.iter())


class _Runs:
    """The runs of one paragraph: its own text, its spans, pictures framed in it."""

    def __init__(self, styles: dict[str, ET.Element]) -> None:
        self.styles = styles

    def props(self, element: ET.Element) -> dict[str, str]:
        return _text_props(self.styles.get(element.get(f"{_TEXT}style-name", "")))

    def __call__(self, element: ET.Element, in_table: bool) -> list[Run]:
        base = self.props(element)
        out = [_odt_run(element.text, base, in_table)] if element.text else []
        for child in element:
            tag = child.tag.split("}")[1]
            if child.tag == f"{_TEXT}span":
                out.append(_odt_run(_odt_text(child), {**base, **self.props(child)}, in_table))
                out += [Run(text="", in_table=in_table, has_image=True) for f in child.iter(f"{_DRAW}frame") if _has_picture(f)]
            elif child.tag == f"{_DRAW}frame" and _has_picture(child):
                out.append(Run(text="", in_table=in_table, has_image=True))
            elif tag not in _SKIPPED:
                text = _odt_text(child)
                if text:
                    out.append(_odt_run(text, base, in_table))
            if child.tail:
                out.append(_odt_run(child.tail, base, in_table))
        return out


def _paragraph_props(style: ET.Element | None) -> tuple[dict[str, str], list[TabStop]]:
    props = style.find("style:paragraph-properties", _NS) if style is not None else None
    if props is None:
        return {}, []
    fo = {k.split("}")[1]: v for k, v in props.attrib.items()}
    tabs = [TabStop(alignment=_TAB_TYPES.get(t.get(f"{_STYLE}type", "left"), t.get(f"{_STYLE}type", "left")),
                    position=emu(t.get(f"{_STYLE}position")) or 0)
            for t in props.iter(f"{_STYLE}tab-stop")]
    return fo, tabs


def _rows(table: ET.Element) -> list[ET.Element]:
    """A table's rows (also those in header-row and row groups), not those of nested tables."""
    rows = []
    for child in table:
        if child.tag == f"{_TABLE}table-row":
            rows += [child] * int(child.get(f"{_TABLE}number-rows-repeated", "1"))
        elif child.tag in (f"{_TABLE}table-header-rows", f"{_TABLE}table-rows", f"{_TABLE}table-row-group"):
            rows += _rows(child)
    return rows


def _columns(table: ET.Element) -> int:
    count = 0
    for child in table:
        if child.tag == f"{_TABLE}table-column":
            count += int(child.get(f"{_TABLE}number-columns-repeated", "1"))
        elif child.tag in (f"{_TABLE}table-header-columns", f"{_TABLE}table-columns", f"{_TABLE}table-column-group"):
            count += _columns(child)
    return count


def _cell_text(cell: ET.Element) -> str:
    return "\n".join(_odt_text(p) for p in cell.iter() if p.tag in (f"{_TEXT}p", f"{_TEXT}h"))


def _table(table: ET.Element) -> Table:
    """Rows x columns of cell texts; a cell covered by a merged one repeats its text (as
    python-docx's ``table.cell`` does for a ``.docx``)."""
    rows, width = _rows(table), _columns(table)
    spanned: dict[tuple[int, int], str] = {}
    grid: Table = []
    for r, row in enumerate(rows):
        texts: list[str] = []
        for cell in row:
            if cell.tag not in (f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell"):
                continue
            for _ in range(int(cell.get(f"{_TABLE}number-columns-repeated", "1"))):
                c = len(texts)
                if cell.tag == f"{_TABLE}covered-table-cell":
                    texts.append(spanned.get((r, c), ""))
                    continue
                text = _cell_text(cell)
                texts.append(text)
                for dr in range(int(cell.get(f"{_TABLE}number-rows-spanned", "1"))):
                    for dc in range(int(cell.get(f"{_TABLE}number-columns-spanned", "1"))):
                        spanned[(r + dr, c + dc)] = text
        width = width or len(texts)
        grid.append((texts + [""] * width)[:width])
    return grid


def _top_tables(element: ET.Element) -> list[ET.Element]:
    found = []
    for child in element:
        if child.tag == f"{_TABLE}table":
            found.append(child)
        else:
            found += _top_tables(child)
    return found


def _text_width(styles_root: ET.Element) -> int | None:
    """The first master page's width less its left and right margins, in EMU."""
    master = styles_root.find(".//style:master-page", _NS)
    layouts = {p.get(f"{_STYLE}name"): p for p in styles_root.iter(f"{_STYLE}page-layout")}
    layout = layouts.get(master.get(f"{_STYLE}page-layout-name")) if master is not None else None
    props = layout.find("style:page-layout-properties", _NS) if layout is not None else None
    if props is None:
        return None
    fo = "{%s}" % _NS["fo"]
    sizes = [emu(props.get(f"{fo}{k}")) for k in ("page-width", "margin-left", "margin-right")]
    if sizes[0] is None:
        return None
    return sizes[0] - (sizes[1] or 0) - (sizes[2] or 0)


def _images(content: ET.Element, archive: zipfile.ZipFile) -> list[bytes]:
    names = set(archive.namelist())
    hrefs = [i.get(f"{{{_NS['xlink']}}}href", "") for i in content.iter(f"{_DRAW}image")]
    return [archive.read(h) for h in hrefs if h in names]


def read_odt(path: Path) -> Document:
    """Read an ``.odt`` (ElementTree raises on damaged XML)."""
    with zipfile.ZipFile(path) as archive:
        content = ET.fromstring(archive.read("content.xml"))
        styles_root = ET.fromstring(archive.read("styles.xml")) if "styles.xml" in archive.namelist() else ET.Element("x")
        images = _images(content, archive)
    styles = {**_styles(styles_root), **_styles(content)}
    runs_of = _Runs(styles)
    body = content.find("office:body/office:text", _NS)
    paragraphs: list[Paragraph] = []
    table_runs: list[Run] = []
    breaks = 0
    elements = list(body.iter()) if body is not None else []
    in_tables = {id(e) for cell in elements if cell.tag == f"{_TABLE}table-cell" for e in cell.iter()}
    for element in elements:
        if element.tag not in (f"{_TEXT}p", f"{_TEXT}h"):
            continue
        if id(element) in in_tables:
            table_runs.extend(runs_of(element, True))
            continue
        fo, tabs = _paragraph_props(styles.get(element.get(f"{_TEXT}style-name", "")))
        breaks += "page" in (fo.get("break-before"), fo.get("break-after"))
        paragraphs.append(Paragraph(text=_odt_text(element), runs=runs_of(element, False),
                                    alignment=_ODT_ALIGN.get(fo.get("text-align", "")), line_spacing=fo.get("line-height"),
                                    space_before=fo.get("margin-top"), space_after=fo.get("margin-bottom"),
                                    left_indent=fo.get("margin-left"), first_line_indent=fo.get("text-indent"), tab_stops=tabs))
    footers = [(_odt_text(f), f.find(".//text:page-number", _NS) is not None) for f in styles_root.iter(f"{_STYLE}footer")]
    equations = sum(1 for _ in content.iter(f"{_DRAW}object"))
    return Document(paragraphs=paragraphs, table_runs=table_runs, footers=footers, page_breaks=breaks, equations=equations,
                    tables=[_table(t) for t in (_top_tables(body) if body is not None else [])], images=images,
                    text_width=_text_width(styles_root))


__all__ = ["read_odt"]
