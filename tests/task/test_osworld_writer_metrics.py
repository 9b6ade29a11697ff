"""Every evaluator function of OSWorld's ``metrics/docs.py``, converted from a config like
OSWorld's: the converted task validates, and its checks pass on a right document the test
writes with python-docx and fail on a wrong one (scored functions: the reward is OSWorld's
score). Documents, pictures and the LibreOffice profile are real files in a home folder."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
import pytest
import yaml
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_COLOR_INDEX, WD_TAB_ALIGNMENT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Emu, Pt, RGBColor
from PIL import Image, ImageDraw, ImageFont

from gui_agent.checks.evaluation import EvalResult, evaluate
from gui_agent.task import load_task_text
from gui_agent.task.osworld_import import convert_osworld
from gui_agent.task.spec import Task
from tests.checks.check_helpers import FolderProbe

RESULT = "/home/user/Desktop/report.docx"
GOLD = "report_Gold.docx"
Edit = Callable[[Any], None]


@pytest.fixture
def probe(tmp_path: Path) -> FolderProbe:
    return FolderProbe(home=tmp_path / "home", task_dir=tmp_path / "task")


def osworld_config(func: str, expected: Any = "gold", options: dict[str, Any] | None = None, result: Any = RESULT) -> dict[str, Any]:
    """An OSWorld Writer config: the document downloaded and opened, ``func`` judging it."""
    evaluator: dict[str, Any] = {"func": func}
    if result is not None:
        evaluator["result"] = {"type": "vm_file", "path": result, "dest": Path(str(result)).name} if isinstance(result, str) else result
    if expected == "gold":
        evaluator["expected"] = {"type": "cloud_file", "path": "https://example.test/gold?id=1", "dest": GOLD}
    elif expected is not None:
        evaluator["expected"] = expected
    if options is not None:
        evaluator["options"] = options
    return {
        "id": f"test-{func}", "snapshot": "libreoffice_writer", "instruction": f"Task judged by {func}.",
        "config": [{"type": "download", "parameters": {"files": [{"url": "https://example.test/doc?id=0", "path": RESULT}]}},
                   {"type": "open", "parameters": {"path": RESULT}}],
        "related_apps": ["libreoffice_writer"], "evaluator": evaluator,
    }


def converted(func: str, **kwargs: Any) -> Task:
    """The converted task, complete, and valid again when read back from its YAML."""
    conversion = convert_osworld(osworld_config(func, **kwargs))
    assert conversion.complete, conversion.unsupported
    data = conversion.task.model_dump(mode="json", by_alias=True, exclude_none=True)
    return load_task_text(yaml.safe_dump(data))


def judged(task: Task, probe: FolderProbe) -> EvalResult:
    result = evaluate(task.evaluator, probe)  # type: ignore[arg-type]
    assert "could not be evaluated" not in str(result.detail), result.detail
    return result


def make(path: Path, paragraphs: list[str], *edits: Edit) -> Path:
    made = docx.Document()
    for text in paragraphs:
        made.add_paragraph(text)
    for edit in edits:
        edit(made)
    path.parent.mkdir(parents=True, exist_ok=True)
    made.save(str(path))
    return path


def gold(probe: FolderProbe, paragraphs: list[str], *edits: Edit) -> Path:
    return make(probe.task_dir / "inputs" / GOLD, paragraphs, *edits)


def saved(probe: FolderProbe, paragraphs: list[str], *edits: Edit) -> Path:
    return make(probe.home / "Desktop" / "report.docx", paragraphs, *edits)


def verdicts(task: Task, probe: FolderProbe, right: Callable[[], Any], wrong: Callable[[], Any]) -> tuple[bool, bool]:
    """(passes on the right document, passes on the wrong one)."""
    right()
    good = judged(task, probe).success
    wrong()
    return good, judged(task, probe).success


def runs(index: int, **font: Any) -> Edit:
    """Paragraph ``index`` as one run per word, ``font`` set on every run."""
    def edit(made: Any) -> None:
        paragraph = made.paragraphs[index]
        words = paragraph.text.split(" ")
        for run in paragraph.runs:
            run._r.getparent().remove(run._r)
        for i, word in enumerate(words):
            run = paragraph.add_run(word + (" " if i < len(words) - 1 else ""))
            for key, value in font.items():
                setattr(run.font, key, value)
    return edit


# ---------------------------------------------------------------------- text


def test_compare_docx_files_defaults_and_options(probe: FolderProbe) -> None:
    gold(probe, ["Hello  World", "", "Second line"])
    task = converted("compare_docx_files")
    assert verdicts(task, probe, lambda: saved(probe, ["Hello World", "Second   line"]),
                    lambda: saved(probe, ["Hello World", "Second lime"])) == (True, False)
    strict = converted("compare_docx_files", options={"ignore_blanks": False})
    assert verdicts(strict, probe, lambda: saved(probe, ["Hello  World", "", "Second line"]),
                    lambda: saved(probe, ["Hello World", "Second line"])) == (True, False)
    loose = converted("compare_docx_files", options={"ignore_case": True, "ignore_order": True, "ignore_blanks": True})
    assert verdicts(loose, probe, lambda: saved(probe, ["second LINE", "", "hello  world"]),
                    lambda: saved(probe, ["second LINE", "hello  planet"])) == (True, False)
    no_blank_lines = converted("compare_docx_files", options={"ignore_blanks": False, "delete_empty_lines": True})
    assert verdicts(no_blank_lines, probe, lambda: saved(probe, ["Hello  World", "Second line", "  "]),
                    lambda: saved(probe, ["Hello World", "Second line"])) == (True, False)


def test_compare_docx_files_content_only_scores_the_similarity(probe: FolderProbe) -> None:
    gold(probe, ["The quick brown fox", "jumps over the lazy dog"])
    task = converted("compare_docx_files", options={"content_only": True})
    assert task.evaluator.name == "document_text_similarity"  # type: ignore[union-attr]
    saved(probe, ["The quick  brown fox jumps", "over the lazy dog"])
    same = judged(task, probe)
    assert same.success and same.reward == 1.0
    saved(probe, ["The quick brown cat", "jumps over the lazy dog"])
    near = judged(task, probe)
    assert not near.success and 0.9 < near.reward < 1.0
    fuzzy = converted("compare_docx_files", options={"fuzzy_match": True, "ignore_blanks": False})
    saved(probe, ["The quick brown fox", "jumps over the lazy dog", "and more"])
    assert judged(fuzzy, probe).reward == 0.0  # a paragraph more: OSWorld scores 0


def test_compare_docx_files_and_ignore_new_lines(probe: FolderProbe) -> None:
    gold(probe, ["Question one", "", "Answer one", ""])
    task = converted("compare_docx_files_and_ignore_new_lines", options={"ignore_blanks": False})
    assert verdicts(task, probe, lambda: saved(probe, ["Question one", "Answer one"]),
                    lambda: saved(probe, ["Question one", " ", "Answer one"])) == (True, False)


def test_compare_init_lines_ignores_paragraphs_past_the_shorter_document(probe: FolderProbe) -> None:
    gold(probe, ["Line one", "Line two"])
    task = converted("compare_init_lines")
    assert verdicts(task, probe, lambda: saved(probe, ["Line one", "Line two", "Added"]),
                    lambda: saved(probe, ["Line one", "Line 2", "Added"])) == (True, False)


def test_compare_docx_lines(probe: FolderProbe) -> None:
    gold(probe, ["b", "a", ""])
    task = converted("compare_docx_lines")
    assert verdicts(task, probe, lambda: saved(probe, ["a", " b ", "a"]), lambda: saved(probe, ["a"])) == (True, False)


def test_compare_references_scores_from_the_base(probe: FolderProbe) -> None:
    refs = ["Smith, J. (2020). A study of things. Journal 1.", "Doe, A. (2019). Another study. Journal 2."]
    gold(probe, ["Essay text", "References", *refs])
    task = converted("compare_references", options={"content_only": True, "reference_base_result": 0.5})
    saved(probe, ["Other essay text", "References", "", *refs])
    equal = judged(task, probe)
    assert equal.success and equal.reward == 1.0
    saved(probe, ["Essay text", "References", refs[0], "Doe, A. (2019). Another study. Journal 3."])
    close = judged(task, probe)
    assert not close.success and 0.9 < close.reward < 1.0
    saved(probe, ["Essay text", "References", refs[0]])
    assert judged(task, probe).reward == 0.0
    saved(probe, ["Essay text", *refs])
    assert judged(task, probe).reward == 0.0


# ---------------------------------------------------------------------- formats


def test_compare_line_spacing(probe: FolderProbe) -> None:
    double = lambda made: setattr(made.paragraphs[1].paragraph_format, "line_spacing", 2.0)  # noqa: E731
    gold(probe, ["Title", "Body"], double)
    task = converted("compare_line_spacing")
    assert verdicts(task, probe, lambda: saved(probe, ["Title", "Body"], double), lambda: saved(probe, ["Title", "Body"])) == (True, False)


def test_evaluate_spacing_reads_the_first_three_paragraphs(probe: FolderProbe) -> None:
    def spacing(*values: float) -> Edit:
        def edit(made: Any) -> None:
            for paragraph, value in zip(made.paragraphs, values):
                paragraph.paragraph_format.line_spacing = value
        return edit
    task = converted("evaluate_spacing", expected=None)
    assert verdicts(task, probe, lambda: saved(probe, ["Intro", "Body", "End"], spacing(1.0, 2.0, 1.5)),
                    lambda: saved(probe, ["Intro", "Body", "End"], spacing(1.0, 1.5, 1.5))) == (True, False)


def test_compare_font_names(probe: FolderProbe) -> None:
    task = converted("compare_font_names", expected={"type": "rule", "rules": {"font_name": "Times New Roman"}})
    assert verdicts(task, probe, lambda: saved(probe, ["Dublin zoo"], runs(0, name="Times New Roman")),
                    lambda: saved(probe, ["Dublin zoo"], runs(0, name="Arial"))) == (True, False)


def test_compare_subscript_contains(probe: FolderProbe) -> None:
    gold(probe, ["H 2 O"], runs(0, subscript=True))
    task = converted("compare_subscript_contains")
    assert verdicts(task, probe, lambda: saved(probe, ["H 2 O"], runs(0, subscript=True)), lambda: saved(probe, ["H 2 O"])) == (True, False)


def test_check_italic_font_size_14(probe: FolderProbe) -> None:
    def italic(size: float) -> Edit:
        def edit(made: Any) -> None:
            run = made.paragraphs[0].add_run(" stressed")
            run.italic, run.font.size = True, Pt(size)
        return edit
    gold(probe, ["Plain"], italic(14))
    task = converted("check_italic_font_size_14")
    assert verdicts(task, probe, lambda: saved(probe, ["Plain"], italic(14)), lambda: saved(probe, ["Plain"], italic(12))) == (True, False)


def test_evaluate_strike_through_last_paragraph(probe: FolderProbe) -> None:
    gold(probe, ["Keep this", "Strike this out"])
    task = converted("evaluate_strike_through_last_paragraph")
    assert verdicts(task, probe, lambda: saved(probe, ["Keep this", "Strike this out"], runs(1, strike=True)),
                    lambda: saved(probe, ["Keep this", "Strike this out"], runs(0, strike=True))) == (True, False)


def test_evaluate_conversion_finds_text_left_in_capitals(probe: FolderProbe) -> None:
    def table(text: str) -> Edit:
        return lambda made: made.add_table(rows=1, cols=1).cell(0, 0).paragraphs[0].add_run(text)
    task = converted("evaluate_conversion", expected=None)
    assert verdicts(task, probe, lambda: saved(probe, ["all lower case now"], table("cell text")),
                    lambda: saved(probe, ["all lower case now"], table("CELL TEXT"))) == (True, False)


def test_evaluate_colored_words_in_tables(probe: FolderProbe) -> None:
    def table(colors: tuple[str, str]) -> Edit:
        def edit(made: Any) -> None:
            cells = made.add_table(rows=1, cols=2).rows[0].cells
            for cell, word, color in zip(cells, ("apple", "ball"), colors):
                cell.paragraphs[0].add_run(word).font.color.rgb = RGBColor.from_string(color)
        return edit
    gold(probe, [], table(("FF0000", "0000FF")))
    task = converted("evaluate_colored_words_in_tables")
    assert verdicts(task, probe, lambda: saved(probe, [], table(("F80000", "0000FF"))),
                    lambda: saved(probe, [], table(("0000FF", "0000FF")))) == (True, False)


def test_is_first_line_centered(probe: FolderProbe) -> None:
    centre = lambda made: setattr(made.paragraphs[0], "alignment", WD_ALIGN_PARAGRAPH.CENTER)  # noqa: E731
    task = converted("is_first_line_centered", expected=None)
    assert verdicts(task, probe, lambda: saved(probe, ["Title", "Body"], centre), lambda: saved(probe, ["Title", "Body"])) == (True, False)


def test_compare_highlighted_text(probe: FolderProbe) -> None:
    gold(probe, ["a key note"], runs(0, highlight_color=WD_COLOR_INDEX.YELLOW))
    task = converted("compare_highlighted_text")
    assert verdicts(task, probe, lambda: saved(probe, ["a key note"], runs(0, highlight_color=WD_COLOR_INDEX.YELLOW)),
                    lambda: saved(probe, ["a key note"])) == (True, False)


def test_check_tabstops_scores_positions_and_counts_words(probe: FolderProbe) -> None:
    def tabbed(position: int, alignment: Any = WD_TAB_ALIGNMENT.RIGHT) -> Edit:
        def edit(made: Any) -> None:
            for paragraph in made.paragraphs:
                paragraph.paragraph_format.tab_stops.add_tab_stop(Emu(position), alignment)
        return edit
    lines = ["One two three\tthe rest of it", "Four five six\tmore words here"]
    width = int(Emu(Pt(6 * 72)))  # python-docx's default page: 8.5in less 1.25in margins each side
    gold(probe, lines, tabbed(width))
    task = converted("check_tabstops", options={"word_number_split_by_tabstop": 3, "index": 0})
    saved(probe, lines, tabbed(width))
    assert judged(task, probe).success and judged(task, probe).reward == 1.0
    saved(probe, lines, tabbed(width - width // 10))
    shifted = judged(task, probe)
    assert not shifted.success and shifted.reward == pytest.approx(0.9, abs=1e-3)
    saved(probe, lines, tabbed(width, WD_TAB_ALIGNMENT.CENTER))
    assert judged(task, probe).reward == 0.0
    saved(probe, ["One two\tthree the rest of it", lines[1]], tabbed(width))
    assert judged(task, probe).reward == 0.0


def test_evaluate_alignment_keeps_three_words_apart(probe: FolderProbe) -> None:
    task = converted("evaluate_alignment", expected=None)
    assert verdicts(task, probe, lambda: saved(probe, ["The quick brown\t\tfox jumps over. A b c\td e."]),
                    lambda: saved(probe, ["The quick\tbrown fox jumps over."])) == (True, False)


# ---------------------------------------------------------------------- structure


def _table(rows: list[list[str]]) -> Edit:
    def edit(made: Any) -> None:
        table = made.add_table(rows=len(rows), cols=len(rows[0]))
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                table.cell(i, j).text = text
    return edit


def test_compare_docx_tables(probe: FolderProbe) -> None:
    gold(probe, ["Prices"], _table([["Item", "Price"], ["Tea", "2.50"]]))
    task = converted("compare_docx_tables")
    assert verdicts(task, probe, lambda: saved(probe, ["Other text"], _table([["Item ", "Price"], ["Tea", " 2.50"]])),
                    lambda: saved(probe, ["Prices"], _table([["Item", "Price"], ["Tea", "2.60"]]))) == (True, False)
    saved(probe, ["Prices"], _table([["Item", "Price", "Tax"], ["Tea", "2.50", "0"]]))
    assert not judged(task, probe).success


def _png(color: str, text: str = "", size: tuple[int, int] = (40, 30)) -> bytes:
    image = Image.new("RGB", size, color)
    if text:
        ImageDraw.Draw(image).text((20, 20), text, fill="black", font=ImageFont.load_default(size=48))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _picture(paragraph: int, color: str) -> Edit:
    return lambda made: made.paragraphs[paragraph].add_run().add_picture(io.BytesIO(_png(color)))


def test_compare_docx_images(probe: FolderProbe) -> None:
    gold(probe, ["Logo:"], _picture(0, "red"))
    task = converted("compare_docx_images")
    assert verdicts(task, probe, lambda: saved(probe, ["Logo here:", ""], _picture(1, "red")),
                    lambda: saved(probe, ["Logo:"], _picture(0, "blue"))) == (True, False)


def test_compare_contains_image(probe: FolderProbe) -> None:
    gold(probe, ["Intro", "Figure:"], _picture(1, "red"))
    task = converted("compare_contains_image")
    assert verdicts(task, probe, lambda: saved(probe, ["Intro", "Figure:"], _picture(1, "blue")),
                    lambda: saved(probe, ["Intro", ""], _picture(1, "red"))) == (True, False)
    # Only the runs both have are compared (a picture after the last common run goes unseen, as in OSWorld).
    saved(probe, ["Intro", "Figure:"], _picture(0, "red"))
    assert judged(task, probe).success


def test_compare_image_text_reads_the_picture_with_tesseract(probe: FolderProbe) -> None:
    task = converted("compare_image_text", expected={"type": "rule", "rules": {"type": "text", "text": " Desktop"}},
                     result="/home/user/Desktop/ls.png")
    shot = probe.home / "Desktop" / "ls.png"
    shot.parent.mkdir(parents=True)
    right = lambda: shot.write_bytes(_png("white", "Documents Desktop Music", (900, 100)))  # noqa: E731
    wrong = lambda: shot.write_bytes(_png("white", "Documents Pictures Music", (900, 100)))  # noqa: E731
    assert verdicts(task, probe, right, wrong) == (True, False)


def test_check_no_duplicates_compares_train_ids(probe: FolderProbe) -> None:
    records = ["08:00:00, T1, S1, 1", "08:05:00, T2, S1, 2", "08:10:00, T3, S2, 1"]
    gold(probe, ["Trains", *records])
    task = converted("check_no_duplicates")
    assert verdicts(task, probe, lambda: saved(probe, [*records, "09:00:00, T1, S3, 3"]),
                    lambda: saved(probe, records[:2])) == (True, False)
    gold(probe, [*records, "09:00:00, T1, S3, 3"])  # the processed (expected) file may name a train once
    saved(probe, records)
    assert not judged(task, probe).success


def test_check_file_exists_joins_folder_and_name(probe: FolderProbe) -> None:
    task = converted("check_file_exists", result={"type": "rule", "rules": "/home/user/Desktop"},
                     expected={"type": "rule", "rules": "export.docx"})
    target = probe.home / "Desktop" / "export.docx"
    assert verdicts(task, probe, lambda: make(target, ["x"]), lambda: target.unlink()) == (True, False)


def test_find_default_font_reads_the_episode_profile(probe: FolderProbe) -> None:
    task = converted("find_default_font", expected={"type": "rule", "rules": {"font_name": "Times New Roman"}},
                     result="/home/user/.config/libreoffice/4/user/registrymodifications.xcu")
    def profile(font: str) -> None:
        probe.write(".config/libreoffice/4/user/registrymodifications.xcu",
                    '<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry">\n'
                    '<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>\n'
                    f'<item oor:path="/org.openoffice.Office.Writer/DefaultFont"><prop oor:name="Standard" oor:op="fuse"><value>{font}</value></prop></item>\n'
                    "</oor:items>\n")
    assert verdicts(task, probe, lambda: profile("Times New Roman"), lambda: profile("Liberation Serif")) == (True, False)


def test_contains_page_break_footers_and_equations(probe: FolderProbe) -> None:
    breaks = converted("contains_page_break", expected=None)
    assert verdicts(breaks, probe, lambda: saved(probe, ["One"], lambda made: made.add_page_break()),
                    lambda: saved(probe, ["One"])) == (True, False)

    def page_field(made: Any) -> None:
        field = OxmlElement("w:fldSimple")
        field.set(qn("w:instr"), "PAGE")
        made.sections[0].footer.paragraphs[0]._p.append(field)
    footers = converted("has_page_numbers_in_footers", expected=None)
    assert verdicts(footers, probe, lambda: saved(probe, ["Body"], page_field), lambda: saved(probe, ["Body"])) == (True, False)
    equation = lambda made: made.paragraphs[0].runs[0]._r.append(OxmlElement("w:object"))  # noqa: E731
    gold(probe, ["x"], equation)
    equations = converted("compare_insert_equation")
    assert verdicts(equations, probe, lambda: saved(probe, ["x"], equation), lambda: saved(probe, ["x"])) == (True, False)


def test_get_unique_train_ids_has_no_equivalent() -> None:
    conversion = convert_osworld(osworld_config("get_unique_train_ids", expected=None))
    assert not conversion.complete and "no equivalent" in conversion.unsupported[0]
