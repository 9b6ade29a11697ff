"""Writer checks (text, paragraph formats, highlights, run formats, alignment, page breaks,
footer page numbers, equations), each on a document that passes and one that fails:
``.docx`` written with python-docx, ``.odt`` written as its XML."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
import pytest
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_COLOR_INDEX
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import RGBColor

from tests.checks.check_helpers import FolderProbe, check, passes


def document(path: Path, paragraphs: list[str], *edits: Callable[[Any], None]) -> Path:
    made = docx.Document()
    for text in paragraphs:
        made.add_paragraph(text)
    for edit in edits:
        edit(made)
    path.parent.mkdir(parents=True, exist_ok=True)
    made.save(str(path))
    return path


def odt(path: Path, spans: list[tuple[str, str | None]]) -> Path:
    """A one-paragraph .odt whose spans have a background colour (or none)."""
    styles = "".join(
        f'<style:style style:name="T{i}" style:family="text"><style:text-properties fo:background-color="{color}"/></style:style>'
        for i, (_, color) in enumerate(spans) if color
    )
    body = "".join(f'<text:span text:style-name="T{i}">{text}</text:span>' if color else text for i, (text, color) in enumerate(spans))
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"')
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ns}><office:automatic-styles>{styles}'
               f'</office:automatic-styles><office:body><office:text><text:p>{body}</text:p></office:text></office:body></office:document-content>')
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        archive.writestr("content.xml", content)
    return path


@pytest.fixture
def probe(tmp_path: Path) -> FolderProbe:
    return FolderProbe(home=tmp_path / "home", task_dir=tmp_path / "task")


def run_edit(index: int, **font: Any) -> Callable[[Any], None]:
    """Split paragraph ``index`` into runs per word and set ``font`` on the last word's run."""
    def edit(made: Any) -> None:
        paragraph = made.paragraphs[index]
        words = paragraph.text.split(" ")
        paragraph.text = ""
        for i, word in enumerate(words):
            run = paragraph.add_run(word + (" " if i < len(words) - 1 else ""))
            if i == len(words) - 1:
                for key, value in font.items():
                    if key == "color":
                        run.font.color.rgb = RGBColor.from_string(value)
                    elif key == "highlight":
                        run.font.highlight_color = value
                    else:
                        setattr(run.font, key, value)
    return edit


def test_document_text_equal_options(probe: FolderProbe) -> None:
    document(probe.task_dir / "gold.docx", ["Hello  world", "", "Second line"])
    document(probe.home / "good.docx", ["Hello world", "Second   line"])
    document(probe.home / "bad.docx", ["Hello world", "Second lime"])
    spec = {"path": "good.docx", "expected": "gold.docx"}
    assert passes({"document_text_equal": spec}, probe)
    report = check({"document_text_equal": {**spec, "path": "bad.docx"}}, probe)
    assert not report["passed"] and "differs" in report["reason"]
    assert not passes({"document_text_equal": {**spec, "ignore_blanks": False}}, probe)
    assert passes({"document_text_equal": {**spec, "path": "bad.docx", "min_similarity": 0.9}}, probe)
    document(probe.home / "shuffled.docx", ["Second line", "Hello  world", "Second line"])
    assert passes({"document_text_equal": {"path": "shuffled.docx", "expected": "gold.docx", "distinct": True}}, probe)
    assert not passes({"document_text_equal": {"path": "shuffled.docx", "expected": "gold.docx"}}, probe)


def test_paragraph_format_equal_line_spacing(probe: FolderProbe) -> None:
    double = lambda made: setattr(made.paragraphs[0].paragraph_format, "line_spacing", 2.0)  # noqa: E731
    document(probe.task_dir / "gold.docx", ["One", "Two"], double)
    document(probe.home / "good.docx", ["One", "Two"], double)
    document(probe.home / "bad.docx", ["One", "Two"])
    assert passes({"paragraph_format_equal": {"path": "good.docx", "expected": "gold.docx", "props": ["line_spacing"]}}, probe)
    report = check({"paragraph_format_equal": {"path": "bad.docx", "expected": "gold.docx", "props": ["line_spacing"]}}, probe)
    assert not report["passed"] and "line_spacing is None, expected 2.0" in report["reason"]


def test_run_format_subscript_some(probe: FolderProbe) -> None:
    document(probe.home / "good.docx", ["H 2 O"], run_edit(0, subscript=True))
    document(probe.home / "bad.docx", ["H 2 O"])
    assert passes({"run_format": {"path": "good.docx", "subscript": True}}, probe)
    assert not passes({"run_format": {"path": "bad.docx", "subscript": True}}, probe)


def test_run_format_every_font_name(probe: FolderProbe) -> None:
    def all_times(made: Any) -> None:
        for paragraph in made.paragraphs:
            for run in paragraph.runs:
                run.font.name = "Times New Roman"
    document(probe.home / "good.docx", ["Dublin zoo", "Animals"], all_times)
    document(probe.home / "bad.docx", ["Dublin zoo", "Animals"], all_times, run_edit(1, name="Arial"))
    spec = {"mode": "every", "font_name": "Times New Roman"}
    assert passes({"run_format": {"path": "good.docx", **spec}}, probe)
    report = check({"run_format": {"path": "bad.docx", **spec}}, probe)
    assert not report["passed"] and "'Animals'" in report["reason"]


def test_run_format_colours_in_tables_with_tolerance(probe: FolderProbe) -> None:
    def table(colors: list[str]) -> Callable[[Any], None]:
        def edit(made: Any) -> None:
            cells = made.add_table(rows=1, cols=len(colors)).rows[0].cells
            for cell, (word, color) in zip(cells, zip(["apple", "ball"], colors)):
                cell.paragraphs[0].add_run(word).font.color.rgb = RGBColor.from_string(color)
        return edit
    document(probe.home / "good.docx", [], table(["FE0000", "0000FF"]))
    document(probe.home / "bad.docx", [], table(["0000FF", "0000FF"]))
    vowels = {"mode": "every", "in_tables": True, "matching": "^[aeiouAEIOU]", "color": "FF0000", "color_tolerance": 3.5}
    assert passes({"run_format": {"path": "good.docx", **vowels}}, probe)
    assert not passes({"run_format": {"path": "bad.docx", **vowels}}, probe)
    assert not passes({"run_format": {"path": "good.docx", **vowels, "color_tolerance": 0}}, probe)


def test_highlights_docx_and_odt(probe: FolderProbe) -> None:
    document(probe.task_dir / "gold.docx", ["a #note here"], run_edit(0, highlight=WD_COLOR_INDEX.YELLOW))
    document(probe.home / "good.docx", ["a #note here"], run_edit(0, highlight=WD_COLOR_INDEX.YELLOW))
    document(probe.home / "bad.docx", ["a #note here"])
    assert passes({"highlighted_text_equal": {"path": "good.docx", "expected": "gold.docx"}}, probe)
    assert not passes({"highlighted_text_equal": {"path": "bad.docx", "expected": "gold.docx"}}, probe)
    odt(probe.home / "clean.odt", [("Call ", None), ("now", None)])
    odt(probe.home / "marked.odt", [("Call ", None), ("now", "#ffff00")])
    none_yellow = {"mode": "none", "highlight": "FFFF00"}
    assert passes({"run_format": {"path": "clean.odt", **none_yellow}}, probe)
    report = check({"run_format": {"path": "marked.odt", **none_yellow}}, probe)
    assert not report["passed"] and "'now'" in report["reason"]


def test_paragraph_alignment(probe: FolderProbe) -> None:
    centre = lambda made: setattr(made.paragraphs[0], "alignment", WD_ALIGN_PARAGRAPH.CENTER)  # noqa: E731
    document(probe.home / "good.docx", ["Title", "Body"], centre)
    document(probe.home / "bad.docx", ["Title", "Body"])
    assert passes({"paragraph_alignment": {"path": "good.docx", "equals": "center"}}, probe)
    report = check({"paragraph_alignment": {"path": "bad.docx", "equals": "center"}}, probe)
    assert not report["passed"] and "aligned left" in report["reason"]


def test_page_breaks(probe: FolderProbe) -> None:
    document(probe.home / "good.docx", ["One"], lambda made: made.add_page_break())
    document(probe.home / "bad.docx", ["One"])
    assert passes({"page_breaks": {"path": "good.docx"}}, probe)
    assert not passes({"page_breaks": {"path": "bad.docx"}}, probe)
    assert not passes({"page_breaks": {"path": "good.docx", "count": 2}}, probe)


def test_footer_page_numbers(probe: FolderProbe) -> None:
    def page_field(made: Any) -> None:
        paragraph = made.sections[0].footer.paragraphs[0]
        field = OxmlElement("w:fldSimple")
        field.set(qn("w:instr"), "PAGE")
        paragraph._p.append(field)
    document(probe.home / "good.docx", ["Body"], page_field)
    document(probe.home / "bad.docx", ["Body"], lambda made: setattr(made.sections[0].footer.paragraphs[0], "text", "Draft"))
    assert passes({"footer_page_numbers": {"path": "good.docx"}}, probe)
    assert not passes({"footer_page_numbers": {"path": "bad.docx"}}, probe)


def test_document_equations(probe: FolderProbe) -> None:
    def equation(made: Any) -> None:
        made.paragraphs[0].runs[0]._r.append(OxmlElement("w:object"))
    document(probe.home / "good.docx", ["x"], equation)
    document(probe.home / "bad.docx", ["x"])
    assert passes({"document_equations": {"path": "good.docx"}}, probe)
    assert not passes({"document_equations": {"path": "bad.docx"}}, probe)


def test_a_file_that_is_not_a_document_cannot_be_evaluated(probe: FolderProbe) -> None:
    probe.home.mkdir(parents=True)
    (probe.home / "notes.docx").write_text("plain text")
    report = check({"page_breaks": {"path": "notes.docx"}}, probe)
    assert not report["passed"] and "not a .docx or .odt" in report["error"]
