"""The ``value`` check's judgements and the system sources, on real folders, files and commands
(and, for the terminal, the clipboard and the screen, a real desktop)."""

from __future__ import annotations

import random
import sqlite3
import subprocess
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import docx
import openpyxl
import pytest

from gui_agent.actions import Type
from gui_agent.checks.sources.system import TERMINAL_SCREEN_FILE, dated_name, day_text, resolve_relative_time
from gui_agent.checks.text_similarity import indel_ratio, lcs_length
from gui_agent.envs.desktop.apps.terminal import SCREEN_FILE
from gui_agent.envs.desktop.env import DesktopEnv
from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep
from gui_agent.errors import TaskFileError
from gui_agent.task import load_task_text
from tests.checks.check_helpers import FolderProbe, check, passes


class HomeProbe(FolderProbe):
    """A folder probe whose commands see the folder as ``$HOME``, as desktop sessions do."""

    def run_command(self, argv: Sequence[str], *, timeout_s: float = 30.0) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(argv), cwd=self.home, capture_output=True, text=True, timeout=timeout_s, check=False,
                              stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin", "HOME": str(self.home)})


@pytest.fixture
def probe(tmp_path: Path) -> HomeProbe:
    (tmp_path / "home").mkdir()
    (tmp_path / "task").mkdir()
    return HomeProbe(tmp_path / "home", tmp_path / "task")


def value(of: dict[str, Any], **judgement: Any) -> dict[str, Any]:
    return {"value": {"of": of, **judgement}}


def shell(line: str) -> dict[str, Any]:
    return {"command_output": {"command": ["bash", "-c", line], "strip": False}}


# ---------------------------------------------------------------------- schema


def test_a_value_check_has_exactly_one_judgement() -> None:
    def load(spec: dict[str, Any]) -> None:
        load_task_text(f"id: t\ninstruction: t\nenvironment: {{kind: desktop}}\nevaluator: {spec}\n")

    with pytest.raises(TaskFileError, match="exactly one judgement"):
        load({"value": {"of": {"constant": {"value": 1}}}})
    with pytest.raises(TaskFileError, match="got equals, include"):
        load({"value": {"of": {"constant": {"value": 1}}, "equals": 1, "include": [1]}})
    load({"value": {"of": {"constant": {"value": None}}, "equals": None}})  # equals: null expects None
    load({"value": {"of": {"constant": {"value": "a"}}, "exclude": ["b"]}})  # exclude alone is a judgement
    with pytest.raises(TaskFileError, match="relative_time"):
        load({"value": {"of": {"constant": {"value": "{}"}}, "json_object": {"expected": {}, "relative_time": {"from": "someday"}}}})


# ---------------------------------------------------------------------- the judgements


def test_equals_is_exact_match_of_a_shell_lines_output(probe: HomeProbe) -> None:
    (probe.home / "Desktop" / "todo_list_Jan_2").mkdir(parents=True)
    line = "[ -d ~/Desktop/todo_list_Jan_2 ] && echo 'Directory exists.' || echo 'Directory does not exist.'"
    assert passes(value(shell(line), equals="Directory exists.\n"), probe)
    assert not passes(value(shell(line), equals="Directory exists."), probe)  # OSWorld's output keeps its newline
    (probe.home / "Desktop" / "todo_list_Jan_2").rename(probe.home / "Desktop" / "todo_list_Jan_1")
    report = check(value(shell(line), equals="Directory exists.\n"), probe)
    assert not report["passed"] and report["observed"]["value"] == "Directory does not exist.\n"


def test_include_and_exclude_look_in_texts_and_lists(probe: HomeProbe) -> None:
    probe.write("eval.sh", "echo 'Success: file1 exists in dir1.'\necho 'Error: none'\n")
    of = shell("bash eval.sh")
    assert passes(value(of, include=["Success: file1 exists in dir1.\n"], exclude=[]), probe)
    assert not passes(value(of, include=["Success"], exclude=["Error:"]), probe)
    assert passes(value({"constant": {"value": ["a.crx", "b"]}}, include=["a.crx"]), probe)
    assert not passes(value({"constant": {"value": ["a.crx", "b"]}}, include=["a"]), probe)  # an item, not a substring
    assert not passes(value({"constant": {"value": None}}, exclude=["x"]), probe)  # no value: nothing passes
    assert not passes(value({"constant": {"value": 5}}, include=["5"]), probe)


def test_literal_compares_texts_and_lists_as_text(probe: HomeProbe) -> None:
    assert passes(value({"constant": {"value": 10}}, literal={"ref": "10"}), probe)
    assert not passes(value({"constant": {"value": "Yann"}}, literal={"ref": "yann"}), probe)
    assert passes(value({"constant": {"value": "Yann"}}, literal={"ref": "yann", "ignore_case": True}), probe)
    row = {"constant": {"value": ["Yann LeCun", "1000"]}}
    assert passes(value(row, literal={"ref": ["yann lecun", 1000], "as_list": True, "ignore_case": True}), probe)
    assert not passes(value(row, literal={"ref": ["Yann LeCun"], "as_list": True}), probe)
    assert not passes(value({"constant": {"value": "ab"}}, literal={"ref": ["a", "b"], "as_list": True}), probe)


def _lcs_table(a: str, b: str) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        previous, row = row, [0]
        for j, y in enumerate(b):
            row.append(previous[j] + 1 if x == y else max(previous[j + 1], row[j]))
    return row[-1]


def test_similarity_is_rapidfuzz_ratio() -> None:
    chance = random.Random(7)
    for _ in range(300):
        a = "".join(chance.choice("abcé d") for _ in range(chance.randint(0, 40)))
        b = "".join(chance.choice("abcé d") for _ in range(chance.randint(0, 40)))
        assert lcs_length(a, b) == _lcs_table(a, b), (a, b)
    assert indel_ratio("kitten", "sitting") == pytest.approx(8 / 13)  # LCS "ittn": 2 * 4 / (6 + 7)
    assert indel_ratio("", "") == 1.0 and indel_ratio("a", "") == 0.0
    long = "x" * 3000 + "y"
    assert indel_ratio(long, long[:-1]) == pytest.approx(6000 / 6001)


def test_fuzzy_needs_its_ratio(probe: HomeProbe) -> None:
    of = {"constant": {"value": "kitten"}}
    assert passes(value(of, fuzzy={"ref": "sitting", "min_ratio": 0.6}), probe)
    report = check(value(of, fuzzy={"ref": "sitting", "min_ratio": 1.0}), probe)
    assert not report["passed"] and "similarity 0.615" in report["reason"]


def test_json_object_reads_text_and_compares_keys(probe: HomeProbe) -> None:
    text = {"constant": {"value": " {'start': 'SEA', 'end': 'NYC', 'tags': ['a', 'b']} \n"}}
    assert passes(value(text, json_object={"expected": {"start": "SEA", "end": "NYC"}}), probe)
    assert not passes(value(text, json_object={"expected": {"start": "SEA", "end": "LAX"}}), probe)
    assert not passes(value(text, json_object={"expected": {"missing": None, "start": "x"}}), probe)
    contained = {"expected": {"start": "SE", "tags": ["z", "b"]}, "expect_in_result": True}
    assert passes(value(text, json_object=contained), probe)
    assert not passes(value(text, json_object={"expected": {"tags": ["z"]}, "expect_in_result": True}), probe)
    assert not passes(value(text, json_object={"expected": {"end": 3}, "expect_in_result": True}), probe)  # neither text nor list
    assert not passes(value({"constant": {"value": "not json"}}, json_object={"expected": {}}), probe)
    month = datetime.now().strftime("%b %Y")
    dated = {"expected": {"time": "{Month} {Year}"}, "relative_time": {"from": "this month"}}
    assert passes(value({"constant": {"value": {"time": month}}}, json_object=dated), probe)
    assert not passes(value({"constant": {"value": {"time": "{Month} {Year}"}}}, json_object=dated), probe)


def test_relative_days_are_dated_as_osworld_dates_them() -> None:
    wednesday = datetime(2024, 5, 15, 10, 0)
    rules = {"relativeTime": {"from": "next Monday", "to": "next Friday"},
             "expected": {"from": "{DoW}, {Month} {DayD}, {Year}", "to": "{Day0D}/{Month0D} {MonthFull} {month}"}}
    resolved = resolve_relative_time(rules, wednesday)
    assert resolved["expected"] == {"from": "Mon, May 20, 2024", "to": "24/05 May may"}
    assert rules["expected"]["from"] == "{DoW}, {Month} {DayD}, {Year}"  # the rules are left as they were
    december = datetime(2024, 12, 20)
    assert resolve_relative_time({"relativeTime": {"from": "5th next month"}, "expected": {"time": "{DayD} {Month} {Year}"}},
                                 december)["expected"]["time"] == "5 Jan 2025"
    assert day_text("{DoW} {DoW}", wednesday) == "Wed {DoW}"  # each placeholder once, as OSWorld fills them
    friday = datetime(2024, 5, 17)  # from Friday, "next Friday" is the one a week on
    assert resolve_relative_time({"relativeTime": {"from": "tomorrow", "to": "next Friday"}, "expected": {"from": "{DayD}", "to": "{DayD}"}},
                                 friday)["expected"] == {"from": "18", "to": "24"}
    with pytest.raises(ValueError, match="names a day"):
        resolve_relative_time({"relativeTime": {"from": "this Saturday"}, "expected": {"time": "x"}}, friday)


def test_set_equals_on_a_real_folder(probe: HomeProbe) -> None:
    folder = probe.home / "Desktop" / "cpjpg"
    folder.mkdir(parents=True)
    for name in ("a.jpg", "b.jpg"):
        (folder / name).write_bytes(b"\xff\xd8")
    of = {"folder_entries": {"path": "Desktop/cpjpg"}}
    assert passes(value(of, set_equals=["b.jpg", "a.jpg"]), probe)
    assert not passes(value(of, set_equals=["a.jpg", "b.jpg", "a.jpg"]), probe)  # as many items, too
    (folder / "c.png").write_bytes(b"\x89PNG")
    assert not passes(value(of, set_equals=["a.jpg", "b.jpg"]), probe)
    favourites = {"constant": {"value": "['thunderbird.desktop', 'google-chrome.desktop']\n"}}
    assert passes(value(favourites, set_equals=["google-chrome.desktop", "thunderbird.desktop"]), probe)
    report = check(value({"folder_entries": {"path": "Desktop/none"}}, set_equals=[]), probe)
    assert not report["passed"] and "error" in report  # a missing folder cannot be listed


def test_same_as_compares_with_another_source(probe: HomeProbe) -> None:
    (probe.task_dir / "gold.txt").write_text("a\nb\n")
    (probe.task_dir / "gold.json").write_text('{"a": 1, "b": [2], "c": 3}')
    probe.write("made.txt", "a\nb")
    gold = {"task_file_text": {"path": "gold.txt"}}
    made = {"file_text": {"path": "made.txt"}}
    assert passes(value(made, same_as={"of": gold, "how": "lines"}), probe)
    assert not passes(value(made, same_as={"of": gold, "how": "text"}), probe)  # the last newline differs
    assert passes(value(made, same_as={"of": {"constant": {"value": "a\nb"}}, "how": "text"}), probe)
    assert not passes(value({"constant": {"value": ""}}, same_as={"of": {"constant": {"value": ""}}, "how": "text"}), probe)
    probe.write("colab.py", "def f( x ):\n    return x\n")
    code = {"file_text": {"path": "colab.py"}}
    assert passes(value(code, same_as={"of": {"constant": {"value": "def f(x):\n  return x"}}, "how": "no_whitespace"}), probe)
    assert not passes(value(code, same_as={"of": {"constant": {"value": "def g(x): return x"}}, "how": "no_whitespace"}), probe)
    probe.write("result.json", '{"a": 1, "b": [2]}')
    result = {"file_text": {"path": "result.json"}}
    assert passes(value(result, same_as={"of": {"task_file_text": {"path": "gold.json"}}, "how": "json_within"}), probe)
    probe.write("result.json", '{"a": 1, "b": [3]}')
    assert not passes(value(result, same_as={"of": {"task_file_text": {"path": "gold.json"}}, "how": "json_within"}), probe)


def write_pdf(path: Path, lines: list[str]) -> None:
    """A one-page PDF showing ``lines`` in Helvetica (objects and cross-reference table by hand)."""
    text = "".join(f"BT /F1 12 Tf 72 {720 - 20 * i} Td ({line}) Tj ET\n" for i, line in enumerate(lines)).encode()
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
               b"<< /Length %d >>\nstream\n%sendstream" % (len(text), text),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))


def test_values_of_a_gold_json_in_a_pdfs_text(probe: HomeProbe) -> None:
    write_pdf(probe.home / "cv.pdf", ["Name: Ada Lovelace", "Email: ada@example.org"])
    (probe.task_dir / "gold.json").write_text('{"name": "Ada Lovelace", "email": "ada@example.org"}')
    of, gold = {"pdf_text": {"path": "cv.pdf"}}, {"task_file_text": {"path": "gold.json"}}
    assert passes(value(of, same_as={"of": gold, "how": "values_in"}), probe)
    (probe.task_dir / "gold.json").write_text('{"name": "Ada Lovelace", "phone": "555"}')
    report = check(value(of, same_as={"of": gold, "how": "values_in"}), probe)
    assert not report["passed"] and "phone" in report["reason"]


def test_lines_matching_and_fuzzy_words(probe: HomeProbe) -> None:
    probe.write("report.txt", "CPU %user\n10:00:01 all 1.0\n23:59:59 all 2.0\n24:00:00 bad\n")
    of = {"file_text": {"path": "report.txt"}}
    assert passes(value(of, lines_matching={"pattern": r"([01]\d|2[0-3]):[0-5]\d:[0-5]\d", "count": 2}), probe)
    assert not passes(value(of, lines_matching={"pattern": r"([01]\d|2[0-3]):[0-5]\d:[0-5]\d", "count": 3}), probe)
    document = docx.Document()
    for text in ("Alpha road 1", ""):
        document.add_paragraph(text)
    document.save(str(probe.home / "places.docx"))
    words = {"docx_text": {"path": "places.docx"}}
    assert passes(value(words, fuzzy_words={"answers": ["Alpha", "road", "1"], "count": 3, "min_score": 1.0}), probe)
    assert not passes(value(words, fuzzy_words={"answers": ["Alpha", "road", "2"], "count": 3, "min_score": 1.0}), probe)
    assert not passes(value(words, fuzzy_words={"answers": ["Alpha"], "count": 2, "min_score": 0.0}), probe)


def test_recent_time_reads_the_second_rows_clock(probe: HomeProbe) -> None:
    now = datetime.now()
    probe.write("speed.csv", f"Date,Time,Down\nx,2024-01-01 {now:%H:%M},100\n")
    of = {"file_text": {"path": "speed.csv"}}
    assert passes(value(of, recent_time={"within_minutes": 60}), probe)
    probe.write("speed.csv", f"Date,Time,Down\nx,2024-01-01 {now - timedelta(hours=3):%H:%M},100\n")
    assert not passes(value(of, recent_time={"within_minutes": 60}), probe)


def test_dated_files_sqlite_and_workbook_sources(probe: HomeProbe) -> None:
    assert dated_name("Test/Speed/Results Export-.csv", "%Y_%m_%d", datetime(2024, 5, 1)) == "Test/Speed/Results Export-2024_05_01.csv"
    assert dated_name("notes", "%Y", datetime(2024, 5, 1)) == "notes"
    probe.write(f"report{datetime.now():%Y_%m_%d}.csv", "today")
    assert passes(value({"file_text": {"path": "report.csv", "dated": "%Y_%m_%d"}}, equals="today"), probe)
    connection = sqlite3.connect(probe.home / "mail.sqlite")
    connection.executescript("create table m(folder int, flagged int); insert into m values (13, 1), (2, 0);")
    connection.commit()
    connection.close()
    flagged = {"sqlite_value": {"path": "mail.sqlite", "sql": "select sum(1) > 0 from m where folder = 13 and flagged = 1"}}
    assert passes(value(flagged, rule={"method": "ge", "ref": 1}), probe)
    none = {"sqlite_value": {"path": "mail.sqlite", "sql": "select flagged from m where folder = 99"}}
    assert not passes(value(none, rule={"method": "ge", "ref": 1}), probe)
    book = openpyxl.Workbook()
    for row in (("Name", "Citations", "Score"), ("Ada", 10, 2.5), ("Yann", 1000, None)):
        book.active.append(row)
    book.save(probe.home / "researchers.xlsx")
    last = {"xlsx_last_row": {"path": "researchers.xlsx"}}
    assert passes(value(last, equals=["Yann", "1000", "nan"]), probe)


# ---------------------------------------------------------------------- on a real desktop


def test_the_terminal_prints_where_the_source_reads() -> None:
    assert TERMINAL_SCREEN_FILE == SCREEN_FILE


@pytest.mark.slow
def test_terminal_clipboard_and_sizes_on_a_real_desktop() -> None:
    with DesktopEnv(screen=(1280, 800), apps=("terminal",)) as env:
        env.reset(options={"setup": [LaunchStep(launch=LaunchArgs(app="terminal"))]})
        env.step(Type("echo one two; stty size\n"))
        screen = check(value({"terminal_text": {}}, include=["\none two\n"]), env)
        assert screen["passed"], screen
        assert screen["observed"]["value"].endswith("#") or screen["observed"]["value"].endswith("$")  # right blanks stripped
        env.step(Type("printf 'copied text' | xclip -selection clipboard\n"))
        for spec in (value({"clipboard": {}}, include=["copied text"]),
                     value({"screen_size": {}}, equals={"width": 1280, "height": 800}),
                     value({"window_size": {"wm_class": "xterm"}}, rule={"method": "ne", "ref": None})):
            report = check(spec, env)
            assert report["passed"], report
        assert not check(value({"window_size": {"wm_class": "vlc"}}, equals={"width": 1280, "height": 800}), env)["passed"]
        env.run_steps([load_task_text(
            "id: t\ninstruction: t\nenvironment: {kind: desktop}\nsetup: [{close_window: {wm_class: '^XTerm$'}}]\n").setup[0]])
        gone = check(value({"terminal_text": {}}, include=["one two"]), env)
        assert not gone["passed"] and gone["observed"]["value"] is None  # no terminal has the focus
        assert "stty size" in (env.home / ".bash_history").read_text()  # the hung-up shell saved its history
