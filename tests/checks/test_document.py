"""Writer checks (text, paragraph formats, highlights, run formats, alignment, page breaks,
footer page numbers, equations, line spacing, tables, pictures, OCR, sentence layout,
record keys, and the scored checks), each on a document that passes and one that fails:
``.docx`` written with python-docx, ``.odt`` written as its XML."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
import docx.shared
import pytest
import yaml
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_COLOR_INDEX
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import RGBColor

from gui_agent.checks.document.colors import color_distance, delta_e_2000
from gui_agent.checks.text_similarity import indel_ratio, lcs_length
from gui_agent.checks.document.structure import sentence_misfit
from gui_agent.checks.evaluation import evaluate
from gui_agent.task import load_task_text
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


# ---------------------------------------------------------------------- runs: places, selections, capitals, CIEDE2000


def test_run_format_places_and_selections(probe: FolderProbe) -> None:
    def italic_sizes(size: float) -> Callable[[Any], None]:
        def edit(made: Any) -> None:
            run = made.paragraphs[0].add_run(" leaning")
            run.italic, run.font.size = True, docx.shared.Pt(size)
            made.add_table(rows=1, cols=1).cell(0, 0).paragraphs[0].add_run("cell").italic = True
        return edit
    document(probe.home / "good.docx", ["Upright"], italic_sizes(14))
    document(probe.home / "bad.docx", ["Upright"], italic_sizes(12))
    spec = {"mode": "every", "among": {"italic": True}, "font_size": 14}
    assert passes({"run_format": {"path": "good.docx", "body_only": True, **spec}}, probe)
    assert not passes({"run_format": {"path": "good.docx", **spec}}, probe)  # the table's italic run is not 14 pt
    assert not passes({"run_format": {"path": "bad.docx", "body_only": True, **spec}}, probe)
    document(probe.home / "plain.docx", ["Upright"])
    assert not passes({"run_format": {"path": "plain.docx", "body_only": True, **spec}}, probe)  # no italic run at all
    assert passes({"run_format": {"path": "plain.docx", "body_only": True, **spec, "min_runs": 0}}, probe)


def test_run_format_one_paragraph_and_blank_runs(probe: FolderProbe) -> None:
    document(probe.home / "struck.docx", ["Keep", "Gone now"], run_edit(1, strike=True))
    last = {"paragraph": -1, "mode": "every", "strike": True}
    assert not passes({"run_format": {"path": "struck.docx", **last}}, probe)  # "Gone " is not struck
    document(probe.home / "all.docx", ["Keep", "Gone"], run_edit(1, strike=True))
    assert passes({"run_format": {"path": "all.docx", **last}}, probe)
    assert not passes({"run_format": {"path": "all.docx", **last, "paragraph": 0}}, probe)
    document(probe.home / "blank.docx", ["Keep", "Gone"], run_edit(1, strike=True), lambda made: made.paragraphs[1].add_run(" "))
    assert passes({"run_format": {"path": "blank.docx", **last}}, probe)
    assert not passes({"run_format": {"path": "blank.docx", **last, "blank_runs": True}}, probe)
    report = check({"run_format": {"path": "all.docx", **last, "paragraph": 5}}, probe)
    assert not report["passed"] and "none at position 5" in report["reason"]


def test_run_format_uppercase_and_ciede2000(probe: FolderProbe) -> None:
    document(probe.home / "lower.docx", ["all lower", "I think"], run_edit(1, bold=False))  # runs "I " and "think"
    document(probe.home / "caps.docx", ["all lower", "NASA TEXT"])
    assert not passes({"run_format": {"path": "lower.docx", "mode": "none", "uppercase": True}}, probe)  # the run "I " is in capitals
    document(probe.home / "lower2.docx", ["all lower", "i think"])
    assert passes({"run_format": {"path": "lower2.docx", "mode": "none", "uppercase": True}}, probe)
    assert not passes({"run_format": {"path": "caps.docx", "mode": "none", "uppercase": True}}, probe)
    document(probe.home / "red.docx", ["a red word"], run_edit(0, color="F40000"))
    red = {"path": "red.docx", "matching": "word", "color": "FF0000", "color_tolerance": 3.5}
    assert passes({"run_format": {**red, "color_formula": "ciede2000"}}, probe)  # ΔE2000 about 2.3
    assert not passes({"run_format": red}, probe)  # CIE76 about 4.1


@pytest.mark.parametrize(("spec", "message"), [
    ({"strike": True, "in_tables": True, "paragraph": 0}, "give one"),
    ({"strike": True, "among": {}}, "expected at least one of"),
    ({"mode": "every"}, "expected at least one of"),
])
def test_run_format_refuses_contradictions(probe: FolderProbe, spec: dict[str, Any], message: str) -> None:
    with pytest.raises(Exception, match=message):
        check({"run_format": {"path": "x.docx", **spec}}, probe)


def test_colour_differences() -> None:
    assert delta_e_2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e_2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
    assert color_distance("FF0000", "#ff0000", "ciede2000") == 0


# ---------------------------------------------------------------------- text options


def test_document_text_equal_extra_paragraphs_and_whitespace_lines(probe: FolderProbe) -> None:
    document(probe.task_dir / "gold.docx", ["One", "", "Two"])
    document(probe.home / "longer.docx", ["One", "", "Two", "Three"])
    document(probe.home / "spaces.docx", ["One", " ", "Two"])
    prefix = {"expected": "gold.docx", "ignore_blanks": False, "ignore_extra_paragraphs": True}
    assert passes({"document_text_equal": {"path": "longer.docx", **prefix}}, probe)
    assert not passes({"document_text_equal": {"path": "longer.docx", **prefix, "ignore_extra_paragraphs": False}}, probe)
    drop = {"expected": "gold.docx", "ignore_blanks": False, "delete_empty_lines": True}
    assert passes({"document_text_equal": {"path": "spaces.docx", **drop}}, probe)
    assert not passes({"document_text_equal": {"path": "spaces.docx", **drop, "keep_whitespace_lines": True}}, probe)
    with pytest.raises(Exception, match="ignore_blanks: false"):
        check({"document_text_equal": {"path": "longer.docx", "expected": "gold.docx", "ignore_extra_paragraphs": True}}, probe)


def test_paragraph_line_spacing_docx_and_odt(probe: FolderProbe) -> None:
    document(probe.home / "a.docx", ["One", "Two"], lambda made: setattr(made.paragraphs[1].paragraph_format, "line_spacing", 1.5))
    assert passes({"paragraph_line_spacing": {"path": "a.docx", "paragraph": -1, "equals": 1.5}}, probe)
    report = check({"paragraph_line_spacing": {"path": "a.docx", "paragraph": 0, "equals": 1.0}}, probe)
    assert not report["passed"] and "None" in report["reason"]  # inherited spacing is not a set multiple
    odt_raw(probe.home / "a.odt", '<text:p text:style-name="P1">One</text:p>',
            '<style:style style:name="P1" style:family="paragraph"><style:paragraph-properties fo:line-height="150%"/></style:style>')
    assert passes({"paragraph_line_spacing": {"path": "a.odt", "paragraph": 0, "equals": 1.5}}, probe)


# ---------------------------------------------------------------------- structure


def odt_raw(path: Path, body: str, automatic: str = "", files: dict[str, bytes] | None = None, styles: str = "") -> Path:
    """An .odt with ``body`` as its text and ``automatic`` styles (and pictures under ``files``)."""
    ns = " ".join(f'xmlns:{k}="{v}"' for k, v in {
        "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0", "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
        "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0", "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
        "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0", "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
        "xlink": "http://www.w3.org/1999/xlink"}.items())
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ns}><office:automatic-styles>{automatic}'
               f'</office:automatic-styles><office:body><office:text>{body}</office:text></office:body></office:document-content>')
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        archive.writestr("content.xml", content)
        if styles:
            archive.writestr("styles.xml", f'<?xml version="1.0" encoding="UTF-8"?><office:document-styles {ns}>{styles}</office:document-styles>')
        for name, data in (files or {}).items():
            archive.writestr(name, data)
    return path


def table_edit(rows: list[list[str]], merge: tuple[int, int, int, int] | None = None) -> Callable[[Any], None]:
    def edit(made: Any) -> None:
        table = made.add_table(rows=len(rows), cols=len(rows[0]))
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                table.cell(i, j).text = text
        if merge:
            table.cell(merge[0], merge[1]).merge(table.cell(merge[2], merge[3]))
    return edit


def test_document_tables_equal_docx_and_odt(probe: FolderProbe) -> None:
    document(probe.task_dir / "gold.docx", [], table_edit([["A", "B"], ["1", "2"]]))
    document(probe.home / "same.docx", ["text differs"], table_edit([[" A", "B "], ["1", "2"]]))
    document(probe.home / "cell.docx", [], table_edit([["A", "B"], ["1", "3"]]))
    document(probe.home / "two.docx", [], table_edit([["A", "B"], ["1", "2"]]), table_edit([["x"]]))
    spec = {"expected": "gold.docx"}
    assert passes({"document_tables_equal": {"path": "same.docx", **spec}}, probe)
    report = check({"document_tables_equal": {"path": "cell.docx", **spec}}, probe)
    assert not report["passed"] and "cell (2,2) is '3', expected '2'" in report["reason"]
    assert "2 table(s), expected 1" in check({"document_tables_equal": {"path": "two.docx", **spec}}, probe)["reason"]
    cells = "".join(f"<table:table-row>{''.join(f'<table:table-cell><text:p>{t}</text:p></table:table-cell>' for t in row)}</table:table-row>"
                    for row in (["A", "B"], ["1", "2"]))
    odt_raw(probe.task_dir / "gold.odt", f'<table:table><table:table-column table:number-columns-repeated="2"/>{cells}</table:table>')
    odt_raw(probe.home / "same.odt", f'<text:p>x</text:p><table:table><table:table-column table:number-columns-repeated="2"/>{cells}</table:table>')
    assert passes({"document_tables_equal": {"path": "same.odt", "expected": "gold.odt"}}, probe)
    merged = ('<table:table><table:table-column table:number-columns-repeated="2"/><table:table-row>'
              '<table:table-cell table:number-columns-spanned="2"><text:p>AB</text:p></table:table-cell><table:covered-table-cell/>'
              '</table:table-row></table:table>')
    odt_raw(probe.home / "merged.odt", merged)
    document(probe.home / "merged.docx", [], table_edit([["AB", ""]], merge=(0, 0, 0, 1)))
    assert passes({"document_tables_equal": {"path": "merged.odt", "expected": "merged.docx"}}, probe.__class__(probe.home, probe.home))


def png(color: str) -> bytes:
    from io import BytesIO

    from PIL import Image

    out = BytesIO()
    Image.new("RGB", (8, 6), color).save(out, format="PNG")
    return out.getvalue()


def picture_edit(paragraph: int, color: str) -> Callable[[Any], None]:
    from io import BytesIO

    return lambda made: made.paragraphs[paragraph].add_run().add_picture(BytesIO(png(color)))


def test_document_images_and_their_places_docx_and_odt(probe: FolderProbe) -> None:
    document(probe.task_dir / "gold.docx", ["Figure", "Text"], picture_edit(0, "red"))
    document(probe.home / "same.docx", ["Figure", "Text"], picture_edit(0, "red"))
    document(probe.home / "blue.docx", ["Figure", "Text"], picture_edit(0, "blue"))
    document(probe.home / "none.docx", ["Figure", "Text"])
    spec = {"expected": "gold.docx"}
    assert passes({"document_images_equal": {"path": "same.docx", **spec}}, probe)
    assert "other pixels" in check({"document_images_equal": {"path": "blue.docx", **spec}}, probe)["reason"]
    assert "0 picture(s), expected 1" in check({"document_images_equal": {"path": "none.docx", **spec}}, probe)["reason"]
    assert passes({"image_positions_equal": {"path": "blue.docx", **spec}}, probe)
    frame = '<draw:frame><draw:image xlink:href="Pictures/a.png"/></draw:frame>'
    odt_raw(probe.home / "pic.odt", f"<text:p>Figure{frame}</text:p><text:p>Text</text:p>", files={"Pictures/a.png": png("red")})
    odt_raw(probe.home / "nopic.odt", "<text:p>Figure</text:p><text:p>Text</text:p>")
    odt_raw(probe.home / "late.odt", f"<text:p>Figure</text:p><text:p>{frame}</text:p>", files={"Pictures/a.png": png("red")})
    at_home = probe.__class__(probe.home, probe.home)
    assert passes({"document_images_equal": {"path": "pic.odt", "expected": "pic.odt"}}, at_home)
    assert passes({"image_positions_equal": {"path": "pic.odt", "expected": "pic.odt"}}, at_home)
    assert not passes({"image_positions_equal": {"path": "late.odt", "expected": "pic.odt"}}, at_home)
    assert not passes({"document_images_equal": {"path": "nopic.odt", "expected": "pic.odt"}}, at_home)


def test_sentence_words_apart(probe: FolderProbe) -> None:
    document(probe.home / "good.docx", ["Buy these books\tfor the term. One two three\tfour five."])
    document(probe.home / "bad.docx", ["Buy these  books\tfor the term."])
    assert passes({"sentence_words_apart": {"path": "good.docx"}}, probe)
    assert not passes({"sentence_words_apart": {"path": "bad.docx"}}, probe)
    assert sentence_misfit("Only three words", 3)  # OSWorld's find('') == 0 is never after the first part
    assert not sentence_misfit("Two words", 3)


def test_record_keys_equal(probe: FolderProbe) -> None:
    rows = ["08:00, T1, S1, 1", "08:05, T2, S1, 2"]
    document(probe.task_dir / "gold.docx", ["Header line", *rows])
    document(probe.home / "dup.docx", [*rows, "09:00, T2, S4, 1"])
    document(probe.home / "less.docx", rows[:1])
    spec = {"expected": "gold.docx"}
    assert passes({"record_keys_equal": {"path": "dup.docx", **spec, "no_duplicates": "expected"}}, probe)
    report = check({"record_keys_equal": {"path": "dup.docx", **spec}}, probe)
    assert not report["passed"] and "more than once" in report["reason"]
    assert "key 'T2' is missing" in check({"record_keys_equal": {"path": "less.docx", **spec}}, probe)["reason"]
    with pytest.raises(Exception, match="not one of the 4 fields"):
        check({"record_keys_equal": {"path": "less.docx", **spec, "key": 4}}, probe)


def test_ocr_text_contains_reads_a_real_picture(probe: FolderProbe) -> None:
    from PIL import Image, ImageDraw, ImageFont

    picture = Image.new("RGB", (700, 90), "white")
    ImageDraw.Draw(picture).text((15, 15), "user@host:~$ ls Desktop", fill="black", font=ImageFont.load_default(size=44))
    probe.home.mkdir(parents=True)
    picture.save(probe.home / "shot.png")
    assert passes({"ocr_text_contains": {"path": "shot.png", "text": "ls Desktop"}}, probe)
    report = check({"ocr_text_contains": {"path": "shot.png", "text": "Pictures"}}, probe)
    assert not report["passed"] and "Desktop" in report["observed"]["text"]
    assert "does not exist" in check({"ocr_text_contains": {"path": "none.png", "text": "x"}}, probe)["reason"]


# ---------------------------------------------------------------------- scored checks


def test_similarity_is_the_indel_ratio() -> None:
    def lcs(a: str, b: str) -> int:
        row = [0] * (len(b) + 1)
        for x in a:
            new = [0]
            for j, y in enumerate(b):
                new.append(row[j] + 1 if x == y else max(row[j + 1], new[j]))
            row = new
        return row[-1]
    pairs = [("kitten", "sitting"), ("", ""), ("abc", ""), ("the cat sat", "a cat sat down"), ("aaaa", "aa")]
    assert all(lcs_length(a, b) == lcs(a, b) for a, b in pairs)
    assert indel_ratio("this is a test", "this is a test!") == pytest.approx(0.9655, abs=1e-4)  # rapidfuzz: 96.55
    assert indel_ratio("", "") == 1.0


def test_document_text_similarity_scores_and_rewards(probe: FolderProbe) -> None:
    document(probe.task_dir / "gold.docx", ["Alpha beta", "Gamma"])
    document(probe.home / "near.docx", ["Alpha beta", "Gamme"])
    spec = {"path": "near.docx", "expected": "gold.docx"}
    report = check({"document_text_similarity": spec}, probe)
    assert not report["passed"] and report["observed"]["score"] == pytest.approx(1 - 2 / 32, abs=1e-6)
    assert passes({"document_text_similarity": {**spec, "min_score": 0.9}}, probe)
    task = load_task_text(yaml.safe_dump({"id": "t", "instruction": "t", "environment": {"kind": "desktop", "apps": ["writer"]},
                                          "evaluator": {"document_text_similarity": spec}}))
    assert evaluate(task.evaluator, probe).reward == pytest.approx(report["observed"]["score"], abs=1e-6)  # type: ignore[arg-type]
    assert check({"document_text_similarity": {**spec, "path": "gone.docx"}}, probe)["observed"] == {"exists": False}


def test_tab_stops_equal_on_odt(probe: FolderProbe) -> None:
    def tabbed(position: str, kind: str = "right") -> str:
        return (f'<style:style style:name="P1" style:family="paragraph"><style:paragraph-properties><style:tab-stops>'
                f'<style:tab-stop style:position="{position}" style:type="{kind}"/></style:tab-stops></style:paragraph-properties></style:style>')
    page = ('<office:automatic-styles><style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" '
            'fo:margin-left="2cm" fo:margin-right="2cm"/></style:page-layout></office:automatic-styles>'
            '<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"/></office:master-styles>')
    body = '<text:p text:style-name="P1">Three words here<text:tab/>rest</text:p>'
    odt_raw(probe.home / "gold.odt", body, tabbed("17cm"), styles=page)
    odt_raw(probe.home / "near.odt", body, tabbed("15.3cm"), styles=page)
    odt_raw(probe.home / "centre.odt", body, tabbed("17cm", "center"), styles=page)
    at_home = probe.__class__(probe.home, probe.home)
    spec = {"expected": "gold.odt", "words_before_tab": 3}
    assert passes({"tab_stops_equal": {"path": "gold.odt", **spec}}, at_home)
    near = check({"tab_stops_equal": {"path": "near.odt", **spec}}, at_home)
    assert not near["passed"] and near["observed"]["score"] == pytest.approx(0.9)  # 1.7 cm off over 17 cm of text width
    assert check({"tab_stops_equal": {"path": "centre.odt", **spec}}, at_home)["observed"]["score"] == 0.0
    assert check({"tab_stops_equal": {"path": "gold.odt", **spec, "words_before_tab": 2}}, at_home)["observed"]["score"] == 0.0


def test_references_equal_without_headings_scores_one(probe: FolderProbe) -> None:
    document(probe.task_dir / "gold.docx", ["Essay"])
    document(probe.home / "a.docx", ["Essay"])
    document(probe.home / "b.docx", ["Essay", "References", "One ref"])
    assert passes({"references_equal": {"path": "a.docx", "expected": "gold.docx"}}, probe)
    report = check({"references_equal": {"path": "b.docx", "expected": "gold.docx"}}, probe)
    assert not report["passed"] and report["observed"]["score"] == 0.0
