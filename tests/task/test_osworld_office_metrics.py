"""OSWorld's Impress and Calc evaluators, converted and judged: for each function (and each
option or rule that judges differently) a config is imported, the task it becomes is
valid, and its evaluator passes a file that does what the function asks and fails one
that does not. The files are made here with python-pptx and openpyxl; the LibreOffice
settings the functions read are written by a real LibreOffice in the slow test."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from lxml import etree
from openpyxl.chart import BarChart, LineChart, Reference
from openpyxl.styles import Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation
from PIL import Image
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.util import Emu

from gui_agent.checks.evaluation import evaluate
from gui_agent.task.osworld_import import Conversion, convert_osworld
from tests.checks.check_helpers import FolderProbe

Edit = Callable[[Any], None]
SETTINGS = ".config/libreoffice/4/user/registrymodifications.xcu"


def converted(func: str, result: Any, expected: Any = None, options: Any = None, app: str = "libreoffice_impress",
              steps: list[dict[str, Any]] | None = None) -> Conversion:
    evaluator = {"func": func, "result": result, **({"expected": expected} if expected else {}), **({"options": options} if options else {})}
    conversion = convert_osworld({"id": f"t-{func}", "instruction": "x", "related_apps": [app], "config": steps or [],
                                  "evaluator": evaluator})
    assert conversion.complete, conversion.unsupported
    return conversion


def verdicts(conversion: Conversion, tmp_path: Path, inputs: dict[str, Callable[[Path], Any]],
             result: str, variants: list[Callable[[Path], Any]]) -> list[bool]:
    """The converted evaluator's verdict on each variant of the result file (each in a fresh home)."""
    task_dir = tmp_path / "task"
    for declared in conversion.inputs:
        target = task_dir / declared.path
        target.parent.mkdir(parents=True, exist_ok=True)
        inputs[Path(declared.path).name](target)
    out = []
    for number, write in enumerate(variants):
        home = tmp_path / f"home{number}"
        target = home / result
        target.parent.mkdir(parents=True, exist_ok=True)
        write(target)
        out.append(evaluate(conversion.task.evaluator, FolderProbe(home, task_dir)).success)
    return out


# ---------------------------------------------------------------------- presentations


def deck(*edits: Edit, titles: tuple[str, ...] = ("Intro", "Product Comparison", "Numbers")) -> Callable[[Path], None]:
    """A writer of title-only slides named ``titles``, after ``edits``."""
    def write(path: Path) -> None:
        made = Presentation()
        for title in titles:
            made.slides.add_slide(made.slide_layouts[5]).shapes.title.text = title
        for edit in edits:
            edit(made)
        made.save(str(path))
    return write


def png(color: str = "red") -> io.BytesIO:
    data = io.BytesIO()
    Image.new("RGB", (40, 30), color).save(data, format="PNG")
    data.seek(0)
    return data


def picture(slide: int, left: int, top: int, width: int = 1000000, height: int = 750000, color: str = "red") -> Edit:
    return lambda made: made.slides[slide].shapes.add_picture(png(color), Emu(left), Emu(top), Emu(width), Emu(height))


def table(slide: int, top: int) -> Edit:
    return lambda made: made.slides[slide].shapes.add_table(2, 2, Emu(500000), Emu(top), Emu(4000000), Emu(800000))


def title(slide: int, **place: int) -> Edit:
    def edit(made: Any) -> None:
        for attr, value in place.items():
            setattr(made.slides[slide].shapes.title, attr, Emu(value))
    return edit


def bold(slide: int) -> Edit:
    return lambda made: setattr(made.slides[slide].shapes.title.text_frame.paragraphs[0].runs[0].font, "bold", True)


def box(slide: int, text: str, height: int = 500000) -> Edit:
    return lambda made: setattr(made.slides[slide].shapes.add_textbox(Emu(100000), Emu(5000000), Emu(3000000), Emu(height)).text_frame,
                                "text", text)


DECK = {"type": "vm_file", "path": "/home/user/Desktop/a.pptx"}
GOLD = {"type": "cloud_file", "path": "https://example.test/gold", "dest": "a_Gold.pptx"}


def pptx_verdicts(tmp_path: Path, options: dict[str, Any] | None, gold: Callable[[Path], Any], *variants: Callable[[Path], Any]) -> list[bool]:
    conversion = converted("compare_pptx_files", DECK, GOLD, options)
    return verdicts(conversion, tmp_path, {"a_Gold.pptx": gold}, "Desktop/a.pptx", list(variants))


def test_compare_pptx_files_by_default(tmp_path: Path) -> None:
    assert pptx_verdicts(tmp_path, None, deck(bold(0)), deck(bold(0)), deck(), deck(bold(0), titles=("Intro", "Other", "Numbers"))) == [
        True, False, False]


@pytest.mark.parametrize(("option", "gold", "good", "bad"), [
    # The title reading "Product Comparison" moved down to 3600000 EMU or lower.
    ("examine_title_bottom_position", deck(title(1, top=300000)), deck(title(1, top=4000000)), deck(title(1, top=2000000))),
    # The table on the third slide moved down; everything else stayed.
    ("examine_table_bottom_position", deck(table(2, 1000000)), deck(table(2, 4500000)), deck(table(2, 4500000), title(0, left=10))),
    # The picture on the second slide moved right, to 4320000 EMU or further.
    ("examine_right_position", deck(picture(1, 500000, 2000000)), deck(picture(1, 6000000, 2000000)), deck(picture(1, 3000000, 2000000))),
    # The picture on the second slide is above the reference's, at 1980000 EMU or higher.
    ("examine_top_position", deck(picture(1, 500000, 3000000)), deck(picture(1, 500000, 200000)), deck(picture(1, 500000, 2500000))),
    # Only the box reading "Elaborate on what you want to discuss." may change its size.
    ("examine_shape_for_shift_size", deck(box(0, "Elaborate on what you want to discuss.")),
     deck(box(0, "Elaborate on what you want to discuss.", height=900000)), deck(box(0, "Elaborate on what you want to discuss."), title(1, height=99000))),
    # Pictures have the reference's size, wherever they are.
    ("examine_image_size", deck(picture(1, 500000, 500000, 360000, 360000)), deck(picture(1, 900000, 800000, 360000, 360000)),
     deck(picture(1, 500000, 500000, 720000, 360000))),
    # Pictures have the reference's height.
    ("examine_modify_height", deck(picture(2, 500000, 500000, 1000000, 2000000)), deck(picture(2, 700000, 500000, 1500000, 2000000)),
     deck(picture(2, 500000, 500000, 1000000, 1000000))),
])
def test_compare_pptx_files_position_options(tmp_path: Path, option: str, gold: Any, good: Any, bad: Any) -> None:
    assert pptx_verdicts(tmp_path, {"examine_shape": False, option: True}, gold, good, bad) == [True, False]


def test_compare_pptx_files_aspects_left_off(tmp_path: Path) -> None:
    assert pptx_verdicts(tmp_path, {"examine_font_bold": False}, deck(bold(0)), deck(), deck(title(0, left=5))) == [True, False]


def xcu(*settings: tuple[str, str, str]) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        items = "".join(f'<item oor:path="{item}"><prop oor:name="{prop}" oor:op="fuse"><value>{value}</value></prop></item>'
                        for item, prop, value in settings)
        path.write_text('<?xml version="1.0" encoding="UTF-8"?><oor:items xmlns:oor="http://openoffice.org/2001/registry">'
                        f"{items}</oor:items>")
    return write


PROFILE = {"type": "vm_file", "path": f"/home/user/{SETTINGS}"}


@pytest.mark.parametrize(("func", "expected", "good", "bad"), [
    ("check_auto_saving_time", {"type": "rule", "rules": {"minutes": 3}},
     xcu(("/org.openoffice.Office.Common/Save/Document", "AutoSaveTimeIntervall", "3")),
     xcu(("/org.openoffice.Office.Common/Save/Document", "AutoSaveTimeIntervall", "10"))),
    ("check_presenter_console_disable", None, xcu(("/org.openoffice.Office.Impress/Misc/Start", "EnablePresenterScreen", "false")),
     xcu(("/org.openoffice.Office.Impress/Misc/Start", "EnablePresenterScreen", "true"))),
    ("check_libre_locale", {"type": "rule", "rules": {"locale_set": ["de-*", "fr-FR"]}},
     xcu(("/org.openoffice.Setup/L10N", "ooSetupSystemLocale", "de-AT")), xcu(("/org.openoffice.Setup/L10N", "ooLocale", "en-US"))),
    ("check_left_panel", None, xcu(("/org.openoffice.Office.Views/Windows/org.openoffice.Office.Views:WindowType['27414']/UserData",
                                    "Data", "V2,V,0,AL:(4,16,0/0/154/325,154;325)")),
     xcu(("/org.openoffice.Office.Views/Windows/org.openoffice.Office.Views:WindowType['27414']/UserData",
          "Data", "V2,H,0,AL:(4,16,0/0/154/325,154;325)"))),
])
def test_libreoffice_settings(tmp_path: Path, func: str, expected: Any, good: Any, bad: Any) -> None:
    result = {"type": "accessibility_tree"} if func == "check_left_panel" else PROFILE
    assert verdicts(converted(func, result, expected), tmp_path, {}, SETTINGS, [good, bad]) == [True, False]


def transition(slide: int) -> Edit:
    def edit(made: Any) -> None:
        namespace = "http://schemas.openxmlformats.org/presentationml/2006/main"
        etree.SubElement(etree.SubElement(made.slides[slide]._element, f"{{{namespace}}}transition"), f"{{{namespace}}}dissolve")
    return edit


def backgrounds(color: str) -> Edit:
    def edit(made: Any) -> None:
        for slide in made.slides:
            slide.background.fill.solid()
            slide.background.fill.fore_color.rgb = RGBColor.from_string(color)
    return edit


def portrait(made: Any) -> None:
    made.slide_width, made.slide_height = made.slide_height, made.slide_width


def master_number(color: str) -> Edit:
    def edit(made: Any) -> None:
        for placeholder in made.slide_masters[0].placeholders:
            if placeholder.placeholder_format.type == 13:  # the slide number, as LibreOffice saves it
                paragraph = placeholder.text_frame.paragraphs[0]._p
                for child in [c for c in paragraph if not c.tag.endswith("}pPr")]:
                    paragraph.remove(child)
                paragraph.append(etree.fromstring(
                    '<a:fld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" id="{1}" type="slidenum"><a:rPr>'
                    f'<a:solidFill><a:srgbClr val="{color}"/></a:solidFill></a:rPr><a:t>&lt;number&gt;</a:t></a:fld>'))
    return edit


def strike(slide: int, value: str) -> Edit:
    return lambda made: made.slides[slide].shapes.title.text_frame.paragraphs[0].runs[0].font._element.set("strike", value)


def numbers(made: Any) -> None:
    for index, slide in enumerate(made.slides):
        slide.shapes.add_textbox(Emu(0), Emu(0), Emu(300000), Emu(300000)).text_frame.text = str(index + 1)


def rule(**rules: Any) -> dict[str, Any]:
    return {"type": "rule", "rules": rules}


@pytest.mark.parametrize(("func", "expected", "good", "bad"), [
    ("check_transition", rule(slide_idx=1, transition_type="dissolve"), deck(transition(1)), deck(transition(0))),
    ("evaluate_presentation_fill_to_rgb_distance", rule(rgb=[0, 0, 255]), deck(backgrounds("0000F0")), deck(backgrounds("FF0000"))),
    ("check_slide_orientation_Portrait", None, deck(portrait), deck()),
    ("check_slide_numbers_color", None, deck(master_number("FF0000"), numbers), deck(master_number("FF0000"))),
    ("check_page_number_colors", rule(color="blue"), deck(master_number("1E3FC9")), deck(master_number("8B8B8B"))),
    ("check_strikethrough", rule(slide_index_s=[1, 2], shape_index_s=[0], paragraph_index_s=[0]),
     deck(strike(1, "sngStrike"), strike(2, "dblStrike")), deck(strike(1, "sngStrike"), strike(2, "noStrike"))),
])
def test_one_presentation_functions(tmp_path: Path, func: str, expected: Any, good: Any, bad: Any) -> None:
    assert verdicts(converted(func, DECK, expected), tmp_path, {}, "Desktop/a.pptx", [good, bad]) == [True, False]


def test_check_image_stretch_and_center(tmp_path: Path) -> None:
    width, height = Presentation().slide_width, Presentation().slide_height
    conversion = converted("check_image_stretch_and_center", DECK, {**GOLD, "dest": "a_Original.pptx"})
    original = deck(picture(0, 100000, 100000, 2000000, 1500000))
    stretched = deck(picture(0, 200000, 0, width - 400000, height))  # within half an inch of the slide each way
    assert verdicts(conversion, tmp_path, {"a_Original.pptx": original}, "Desktop/a.pptx", [stretched, original]) == [True, False]


def test_compare_audios_of_a_slide_against_the_file_given(tmp_path: Path) -> None:
    song = b"ID3 not really a song"
    audio = {"type": "audio_in_slide", "ppt_file_path": "/home/user/Desktop/a.pptx", "slide_index": 0, "dest": "s.mp3"}
    download = {"type": "download", "parameters": {"files": [{"url": "https://example.test/s", "path": "/home/user/Desktop/song.mp3"}]}}
    conversion = converted("compare_audios", audio, {"type": "vm_file", "path": "/home/user/Desktop/song.mp3", "dest": "s.mp3"},
                           steps=[download])

    def with_audio(data: bytes) -> Edit:
        def edit(made: Any) -> None:  # embedded as LibreOffice embeds audio: a media part the slide relates to as audio
            from pptx.opc.package import Part
            from pptx.opc.packuri import PackURI

            slide = made.slides[0].part
            part = Part(PackURI("/ppt/media/media1.mp3"), "audio/mpeg", slide.package, data)
            slide.relate_to(part, "http://schemas.openxmlformats.org/officeDocument/2006/relationships/audio")
        return edit
    verdict = verdicts(conversion, tmp_path, {"song.mp3": lambda p: p.write_bytes(song)}, "Desktop/a.pptx",
                       [deck(with_audio(song)), deck(with_audio(b"other"))])
    assert verdict == [True, False]


# ---------------------------------------------------------------------- workbooks

ROWS = [("Region", "Sales", "Cost"), ("North", 10, 4), ("South", 20, 5), ("East", 30, 6)]
BOOK = {"type": "vm_file", "path": "/home/user/a.xlsx"}
XGOLD = {"type": "cloud_file", "path": "https://example.test/gold", "dest": "a_gold.xlsx"}


def book(*edits: Edit) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        wb = openpyxl.Workbook()
        ws = wb.active
        ws.title = "Sheet1"
        for row in ROWS:
            ws.append(row)
        for edit in edits:
            edit(ws)
        wb.save(path)
    return write


def cell(ref: str, value: Any) -> Edit:
    return lambda ws: setattr(ws[ref], "value", value)


def chart(kind: type) -> Edit:
    def edit(ws: Any) -> None:
        made = kind()
        made.add_data(Reference(ws, min_col=2, min_row=1, max_row=4), titles_from_data=True)
        made.set_categories(Reference(ws, min_col=1, min_row=2, max_row=4))
        ws.add_chart(made, "E2")
    return edit


def validation(cells: str) -> Edit:
    def edit(ws: Any) -> None:
        dv = DataValidation(type="list", formula1='"Pass,Fail,Held"')
        dv.add(cells)
        ws.add_data_validation(dv)
    return edit


def sparkline(data: str) -> Callable[[Callable[[Path], None]], Callable[[Path], None]]:
    """A writer whose workbook also has a sparkline in D2 drawing ``data`` (openpyxl writes none)."""
    def wrap(write: Callable[[Path], None]) -> Callable[[Path], None]:
        def done(path: Path) -> None:
            from tests.checks.test_spreadsheet import add_sparkline

            write(path)
            add_sparkline(path, "D2", data)
        return done
    return wrap


def table_verdicts(tmp_path: Path, rules: list[dict[str, Any]], gold: Callable[[Path], None], *variants: Callable[[Path], None]) -> list[bool]:
    conversion = converted("compare_table", BOOK, XGOLD, {"rules": rules}, app="libreoffice_calc")
    return verdicts(conversion, tmp_path, {"a_gold.xlsx": gold}, "a.xlsx", list(variants))


PAIR = {"sheet_idx0": 0, "sheet_idx1": "EI0"}


@pytest.mark.parametrize(("rules", "gold", "good", "bad"), [
    ([{"type": "sheet_name"}], book(), book(), book(lambda ws: setattr(ws, "title", "Data"))),
    ([{"type": "sheet_data", **PAIR}], book(cell("B2", 1.23456)), book(cell("B2", 1.23461)), book(cell("B2", 1.2341))),
    ([{"type": "sheet_fuzzy", "sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1",
       "rules": [{"range": ["A2"], "type": "fuzzy_match", "threshold": 85, "ignore_case": True, "normalization": [["Rd", "Road"]]},
                 {"range": ["A3:A4"], "type": "includes", "trim_leadings": "+ "}]}],
     book(cell("A2", "12 Main Road"), cell("A3", "South")), book(cell("A2", "12 main Rd"), cell("A3", "+ South side")),
     book(cell("A2", "7 Other Street"))),
    ([{"type": "sparkline", **PAIR}], sparkline("Sheet1!B2:C2")(book()), sparkline("Sheet1!B2:C2")(book()), sparkline("Sheet1!B2:B4")(book())),
    ([{"type": "chart", **PAIR, "chart_props": ["type"]}], book(chart(BarChart)), book(chart(BarChart)), book(chart(LineChart))),
    ([{"type": "style", **PAIR, "props": ["font_bold", "bgcolor"]}],
     book(lambda ws: setattr(ws["B2"], "fill", PatternFill("solid", fgColor="FFFF0000", bgColor="FFFF0000"))),
     book(lambda ws: setattr(ws["B2"], "fill", PatternFill("solid", fgColor="FFFF0000", bgColor="FFFF0000"))),
     book(lambda ws: setattr(ws["B2"], "font", Font(bold=True)))),
    ([{"type": "freeze", **PAIR}], book(lambda ws: setattr(ws, "freeze_panes", "B2")), book(lambda ws: setattr(ws, "freeze_panes", "B2")),
     book()),
    ([{"type": "zoom", "sheet_idx": 0, "method": "lt", "ref": 260}], book(), book(),
     book(lambda ws: setattr(ws.sheet_view, "zoomScale", 300))),
    ([{"type": "data_validation", "sheet_idx": 0, "dv_props": [
        {"ranges": {"method": "spreadsheet_range", "ref": ["D2:D29", "D2:D1048576"]}, "type": {"method": "eq", "ref": "list"},
         "formula1": {"method": "str_set_eq", "ref": ["Pass", "Fail", "Held"]}}]}], book(), book(validation("D2:D200")),
     book(validation("D2:D10"))),
    ([{"type": "row_props", **PAIR, "props": ["hidden"]}], book(lambda ws: setattr(ws.row_dimensions[3], "hidden", True)),
     book(lambda ws: setattr(ws.row_dimensions[3], "hidden", True)), book()),
    ([{"type": "col_props", **PAIR, "props": ["width"]}], book(lambda ws: setattr(ws.column_dimensions["A"], "width", 30)),
     book(lambda ws: setattr(ws.column_dimensions["A"], "width", 30)), book(lambda ws: setattr(ws.column_dimensions["A"], "width", 9))),
    ([{"type": "filter", **PAIR}], book(lambda ws: setattr(ws.auto_filter, "ref", "A1:C4")),
     book(lambda ws: setattr(ws.auto_filter, "ref", "A1:C4")), book()),
    ([{"type": "check_cell", "sheet_idx": 0, "coordinate": "B5", "props": {
        "value": {"method": "approx:0.1", "ref": 60}, "font_bold": {"method": "eq", "ref": True}}}], book(),
     book(cell("B5", 60.05), lambda ws: setattr(ws["B5"], "font", Font(bold=True))), book(cell("B5", 60.05))),
])
def test_compare_table_rules(tmp_path: Path, rules: list[dict[str, Any]], gold: Any, good: Any, bad: Any) -> None:
    assert table_verdicts(tmp_path, rules, gold, good, bad) == [True, False]


def test_compare_table_pivot_tables(tmp_path: Path) -> None:
    from tests.checks.test_spreadsheet import pivot

    def on_data(edit: Callable[[Any], None]) -> Edit:
        def apply(ws: Any) -> None:
            ws.title = "Data"
            edit(ws.parent)
        return apply
    rules = [{"type": "pivot_table", "sheet_idx0": "RNPivot", "sheet_idx1": "ENPivot", "pivot_props": ["row_fields", "data_fields"]}]
    assert table_verdicts(tmp_path, rules, book(on_data(pivot(0, 1))), book(on_data(pivot(0, 1))), book(on_data(pivot(0, 2)))) == [True, False]


def test_compare_conference_city_in_order(tmp_path: Path) -> None:
    cities = ["Scottsdale", ["Montreal", "Montréal"], *[f"City {i}" for i in range(19)]]
    conversion = converted("compare_conference_city_in_order", BOOK, rule(expected=cities), app="libreoffice_calc")

    def listed(*names: str) -> Callable[[Path], None]:
        return book(*(cell(f"C{row}", name) for row, name in enumerate(names, start=2)))
    good = listed("Scottsdale, AZ", "Montréal", *[f"City {i}" for i in range(19)])
    bad = listed("Scottsdale, AZ", "Toronto", *[f"City {i}" for i in range(19)])
    assert verdicts(conversion, tmp_path, {}, "a.xlsx", [good, bad]) == [True, False]


@pytest.mark.slow
def test_sheet_print_compares_what_libreoffice_prints(tmp_path: Path) -> None:
    expected = {"type": "cloud_file", "path": ["https://example.test/g", "https://example.test/c"], "dest": ["a_gold.xlsx", "a_gold-Sheet1.csv"]}
    conversion = converted("compare_table", BOOK, expected, {"rules": [{"type": "sheet_print", "sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1"}]},
                           app="libreoffice_calc")
    printed = "Region,Sales,Cost\nNorth,10.00,4\nSouth,20,5\nEast,30,6\n"
    inputs = {"a_gold.xlsx": book(), "a_gold-Sheet1.csv": lambda p: p.write_text(printed)}
    two_decimals = book(lambda ws: setattr(ws["B2"], "number_format", "0.00"))
    assert verdicts(conversion, tmp_path, inputs, "a.xlsx", [two_decimals, book()]) == [True, False]


# ---------------------------------------------------------------------- LibreOffice writing its own settings


class _Impress:
    """A real LibreOffice Impress on a real Xvfb, in a home of its own, driven with xdotool."""

    def __init__(self, home: Path) -> None:
        from gui_agent.envs.desktop.xvfb import XvfbDisplay

        self.home = home
        quiet = [("/org.openoffice.Office.Common/Misc", "ShowTipOfTheDay", "false"), ("/org.openoffice.Office.Common/Misc", "FirstRun", "false"),
                 ("/org.openoffice.Office.Impress/Misc/NewDoc", "AutoPilot", "false")]  # no dialog over the window at start
        (home / SETTINGS).parent.mkdir(parents=True, exist_ok=True)
        xcu(*quiet)(home / SETTINGS)
        self.xvfb = XvfbDisplay(width=1280, height=800)
        self.env = {**os.environ, "DISPLAY": self.xvfb.start(), "HOME": str(home), "TMPDIR": str(home),
                    "SAL_USE_VCLPLUGIN": "gen"}  # plain X11, as the desktop env starts it
        self.proc = subprocess.Popen(
            ["soffice", "--impress", "--norestore", "--nologo", "--nolockcheck",
             f"-env:UserInstallation={(home / '.config/libreoffice/4').as_uri()}"],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def xdotool(self, *args: str) -> str:
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=120, check=True).stdout

    def wait_window(self) -> None:
        self.xdotool("search", "--sync", "--onlyvisible", "--name", "Impress")
        time.sleep(6.0)  # its panes laid out

    def click(self, x: int, y: int, pause: float = 1.0) -> None:
        self.xdotool("mousemove", str(x), str(y), "click", "1")
        time.sleep(pause)

    def stop(self) -> None:
        from gui_agent.envs.desktop.apps.libreoffice import libreoffice_ipc_socket

        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(10)
        libreoffice_ipc_socket(self.home / ".config/libreoffice/4").unlink(missing_ok=True)
        self.xvfb.stop()


def _settles(check: Callable[[], bool], timeout_s: float = 15.0) -> bool:
    """LibreOffice writes its settings file a moment after a change: wait until ``check`` holds."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.5)
    return check()


@pytest.mark.slow
def test_libreoffice_writes_the_settings_the_converted_checks_read(tmp_path: Path) -> None:
    """The slide pane closed and opened again, the presenter console and the auto-save
    interval set in Tools > Options: each converted check fails before and passes after."""
    home = tmp_path / "home"
    home.mkdir()
    probe = FolderProbe(home, tmp_path / "task")
    pane = converted("check_left_panel", {"type": "accessibility_tree"})
    console = converted("check_presenter_console_disable", PROFILE)
    autosave = converted("check_auto_saving_time", PROFILE, rule(minutes=3))
    judged = lambda conversion: evaluate(conversion.task.evaluator, probe).success  # noqa: E731
    impress = _Impress(home)
    try:
        impress.wait_window()
        assert judged(pane)  # never closed: visible
        impress.click(147, 83)  # the slide pane's close button
        assert _settles(lambda: not judged(pane))
        impress.xdotool("key", "F10")  # View > Slide Pane, as OSWorld's own set-up closes it
        for key in ["Right"] * 2 + ["Down"] * 11 + ["Return"]:
            impress.xdotool("key", key)
            time.sleep(0.15)
        assert _settles(lambda: judged(pane))
        assert not judged(console) and not judged(autosave)
        impress.xdotool("key", "alt+F12")
        time.sleep(3.0)
        impress.click(240, 435)  # LibreOffice Impress
        impress.click(300, 451)  # > General
        impress.click(856, 236)  # Enable Presenter Console: off
        impress.click(240, 403)  # Load/Save
        impress.click(290, 419)  # > General
        impress.click(502, 284, 0.5)  # Save AutoRecovery information every ...
        impress.xdotool("mousemove", "760", "284", "click", "--repeat", "3", "1")
        impress.xdotool("key", "ctrl+a")
        impress.xdotool("type", "3")
        impress.xdotool("key", "Tab")
        impress.click(1003, 593)  # OK
        assert _settles(lambda: judged(console) and judged(autosave)), (home / SETTINGS).read_text()[-2000:]
    finally:
        impress.stop()
