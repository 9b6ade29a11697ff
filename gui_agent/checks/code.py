"""Checks of code and editor state: VS Code's settings and key bindings, a text file
against an expected one, a program's result file, an HTML page's background, a zip
archive against an expected one, and a test suite run against the user's Python files.

They judge as OSWorld's ``metrics/vscode.py`` does (each check's docstring names its
function and how it reads the files). Paths are relative to the episode's home folder;
``expected`` files are shipped in the task's folder. VS Code keeps the user's settings
in ``~/.config/Code/User/settings.json`` and key bindings in
``~/.config/Code/User/keybindings.json`` (the desktop app's layout, which the vscode app
keeps).
"""

from __future__ import annotations

import difflib
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

from pydantic import Field, PositiveFloat

from gui_agent.checks.family import CheckType
from gui_agent.checks.files.compare import compare_text, read_text
from gui_agent.checks.files.pdf import pdf_text
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut, listing, written_file
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import NonBlank, SingleKey, StrictModel

# ---------------------------------------------------------------------- what a task file writes


class TextFileEqualArgs(StrictModel):
    """The whole text of ``path`` equals that of ``expected`` (OSWorld's ``compare_text_file``):
    ``ignore_blanks`` makes every run of spaces, tabs and line breaks one space and strips the
    ends; ``ignore_case`` compares lower-cased."""

    path: HomePath
    expected: TaskPath
    ignore_blanks: bool = False
    ignore_case: bool = False


class JsonSettingsArgs(StrictModel):
    """The JSON object in ``path`` (VS Code's settings.json, a .code-workspace file) has every
    key of ``expected`` with an equal value; other keys may be there too
    (OSWorld's ``check_json_settings``)."""

    path: HomePath
    expected: dict[NonBlank, Any] = Field(min_length=1)


class KeybindingArgs(StrictModel):
    """The list of key bindings in ``path`` (VS Code's keybindings.json, whose first line may
    be its comment) has an entry equal to ``binding`` (OSWorld's ``check_json_keybindings``)."""

    path: HomePath
    binding: dict[NonBlank, Any] = Field(min_length=1)


class ResultFileEqualArgs(StrictModel):
    """The result a program wrote to ``path`` matches ``expected``'s (OSWorld's
    ``compare_result_files``), both stripped: when the expected text is a number, the result
    passes if it contains that text or is a number within 1e-4 of it; otherwise the texts
    must be equal."""

    path: HomePath
    expected: TaskPath


class HtmlBackgroundImageArgs(StrictModel):
    """A ``<style>`` of the HTML page at ``path`` sets ``background-image: url('IMAGE')``,
    written exactly so (OSWorld's ``check_html_background_image``)."""

    path: HomePath
    image: NonBlank


class ZipEqualArgs(StrictModel):
    """The zip archive at ``path`` holds the entries ``expected`` (a zip shipped in the
    task's folder) holds, byte for byte, except PDFs: their texts need a similarity of at
    least ``pdf_similarity`` (OSWorld's ``compare_zip_files``)."""

    path: HomePath
    expected: TaskPath
    pdf_similarity: float = Field(default=0.95, gt=0, le=1)


class SuiteFile(StrictModel):
    """One of the user's files and the name the test suite knows it by."""

    path: HomePath
    name: NonBlank = Field(pattern=r"^[^/\\]+$")


class PythonTestSuiteArgs(StrictModel):
    """``function`` of the test module ``suite`` (shipped in the task's folder) returns a
    true value when run beside the user's ``files`` (OSWorld's
    ``check_python_file_by_test_suite``). It runs in a separate Python, in a folder holding
    the files under their names and the suite (as OSWorld's cache folder does), with that
    folder as its working directory and first on its import path; ``timeout_s`` bounds it."""

    files: list[SuiteFile] = Field(min_length=1)
    suite: TaskPath
    function: NonBlank = "test"
    timeout_s: PositiveFloat = 120.0


class TextFileEqualCheck(SingleKey):
    name: ClassVar[str] = "text_file_equal"
    text_file_equal: TextFileEqualArgs


class JsonSettingsCheck(SingleKey):
    name: ClassVar[str] = "json_settings"
    json_settings: JsonSettingsArgs


class KeybindingCheck(SingleKey):
    name: ClassVar[str] = "vscode_keybinding"
    vscode_keybinding: KeybindingArgs


class ResultFileEqualCheck(SingleKey):
    name: ClassVar[str] = "result_file_equal"
    result_file_equal: ResultFileEqualArgs


class HtmlBackgroundImageCheck(SingleKey):
    name: ClassVar[str] = "html_background_image"
    html_background_image: HtmlBackgroundImageArgs


class ZipEqualCheck(SingleKey):
    name: ClassVar[str] = "zip_equal"
    zip_equal: ZipEqualArgs


class PythonTestSuiteCheck(SingleKey):
    name: ClassVar[str] = "python_test_suite"
    python_test_suite: PythonTestSuiteArgs


# ---------------------------------------------------------------------- judging


def _text_file_equal(args: TextFileEqualArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    difference = compare_text(path, probe.task_file(args.expected), ignore_blanks=args.ignore_blanks, ignore_case=args.ignore_case)
    report["observed"] = {"exists": True, "text": cut(read_text(path))}
    report.update(passed=difference is None, reason=difference or f"{args.path} has the text of {args.expected}")


def _json_document(path: Path, report: Report, name: str) -> Any:
    """The JSON in ``path``, or None with the report filled when it is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        report.update(observed={"exists": True, "text": cut(path.read_text(errors="replace"))},
                      reason=f"{name} is not JSON ({exc})")
        return None


def _json_settings(args: JsonSettingsArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    data = _json_document(path, report, args.path)
    if data is None:
        return
    if not isinstance(data, dict):
        report.update(observed={"value": cut(json.dumps(data))}, reason=f"{args.path} holds a {type(data).__name__}, not an object")
        return
    report["observed"] = {"settings": {k: data[k] for k in list(data)[:30]}}
    wrong = [f"{key} is {cut(json.dumps(data[key]))}, expected {cut(json.dumps(value))}" if key in data else f"{key} is not set"
             for key, value in args.expected.items() if key not in data or data[key] != value]
    report.update(passed=not wrong, reason=listing(wrong) if wrong else f"{args.path} sets {', '.join(args.expected)} as expected")


def _keybindings(path: Path) -> list[Any] | None:
    """The key bindings list: the file as JSON, else the file less its first line (VS Code's
    comment) as JSON; None when neither is a list."""
    text = path.read_text(encoding="utf-8", errors="replace")
    for candidate in (text, text.split("\n", 1)[1] if "\n" in text else ""):
        try:
            data = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(data, list):
            return data
    return None


def _vscode_keybinding(args: KeybindingArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    bindings = _keybindings(path)
    if bindings is None:
        report.update(observed={"exists": True, "text": cut(path.read_text(errors="replace"))},
                      reason=f"{args.path} holds no JSON list of key bindings")
        return
    found = args.binding in bindings
    report["observed"] = {"bindings": bindings[:20], "count": len(bindings)}
    report.update(passed=found, reason=f"{args.path} has {len(bindings)} binding(s), "
                  f"{'one of them' if found else 'none'} equal to {cut(json.dumps(args.binding))}")


def result_matches(got: str, want: str) -> bool:
    """``compare_result_files``' rule on two stripped texts (see :class:`ResultFileEqualArgs`)."""
    try:
        wanted = float(want)
        if want in got:
            return True
        return abs(float(got) - wanted) < 1e-4
    except ValueError:
        return got == want


def _result_file_equal(args: ResultFileEqualArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    got = path.read_text(errors="replace").strip()
    want = probe.task_file(args.expected).read_text(errors="replace").strip()
    ok = result_matches(got, want)
    report["observed"] = {"text": cut(got)}
    report.update(passed=ok, reason=f"{args.path} holds {cut(got)!r}, which {'matches' if ok else 'does not match'} {cut(want)!r}")


class _StyleText(HTMLParser):
    """The text of each ``<style>`` element of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.styles: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "style":
            self._depth += 1
            self.styles.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "style" and self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._depth:
            self.styles[-1] += data


def _html_background_image(args: HtmlBackgroundImageArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    parser = _StyleText()
    parser.feed(path.read_text(errors="replace"))
    parser.close()
    wanted = f"background-image: url('{args.image}')"
    found = any(wanted in style for style in parser.styles)
    report["observed"] = {"styles": [cut(s) for s in parser.styles[:5]]}
    report.update(passed=found, reason=f"{len(parser.styles)} <style> element(s) in {args.path}; "
                  f"{'one sets' if found else 'none sets'} {wanted}")


def _pdf_similarity(got: bytes, want: bytes) -> float:
    """How alike the texts of two PDFs are (difflib's ratio, as OSWorld measures them)."""
    with tempfile.TemporaryDirectory(prefix="gui-agent-zip-") as folder:
        texts = []
        for name, data in (("got.pdf", got), ("want.pdf", want)):
            (Path(folder) / name).write_bytes(data)
            texts.append(pdf_text(Path(folder) / name))
    return difflib.SequenceMatcher(None, texts[0], texts[1]).ratio()


def _zip_differences(got: zipfile.ZipFile, want: zipfile.ZipFile, pdf_similarity: float) -> list[str]:
    names, wanted = set(got.namelist()), set(want.namelist())
    if names != wanted:
        return [f"entry {n} is missing" for n in sorted(wanted - names)] + [f"entry {n} is not expected" for n in sorted(names - wanted)]
    problems = []
    for name in sorted(names):
        a, b = got.read(name), want.read(name)
        if name.lower().endswith(".pdf"):
            ratio = _pdf_similarity(a, b)
            if ratio < pdf_similarity:
                problems.append(f"{name}: its text is {ratio:.3f} alike, below {pdf_similarity}")
        elif a != b:
            problems.append(f"{name} differs ({len(a)} bytes, expected {len(b)})")
    return problems


def _zip_equal(args: ZipEqualArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    if not zipfile.is_zipfile(path):
        report.update(observed={"exists": True}, reason=f"{args.path} is not a zip archive")
        return
    with zipfile.ZipFile(path) as got, zipfile.ZipFile(probe.task_file(args.expected)) as want:
        report["observed"] = {"entries": sorted(got.namelist())[:50]}
        problems = _zip_differences(got, want, args.pdf_similarity)
    report.update(passed=not problems, reason=listing(problems) if problems else f"{args.path} holds what {args.expected} does")


#: Runs in the test suite's folder: loads the suite, calls its function, says what came back.
SUITE_RUNNER = """
import importlib.util, os, sys
folder, suite, function = sys.argv[1:4]
os.chdir(folder)
sys.path.insert(0, folder)
spec = importlib.util.spec_from_file_location("test_suite_module", os.path.join(folder, suite))
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module
try:
    spec.loader.exec_module(module)
    test = getattr(module, function)
except BaseException as exc:
    print(f"the test suite did not load: {exc!r}")
    sys.exit(2)
try:
    result = test()
except BaseException as exc:
    print(f"{function}() raised {exc!r}")
    sys.exit(1)
print(f"{function}() returned {result!r}")
if result:
    print("verdict: pass")
sys.exit(0 if result else 1)
"""


def _python_test_suite(args: PythonTestSuiteArgs, probe: DesktopProbe, report: Report) -> None:
    missing = [f.path for f in args.files if not probe.resolve_path(f.path).is_file()]
    if missing:
        report.update(observed={"missing": missing}, reason=f"{', '.join(missing)} do(es) not exist")
        return
    suite = probe.task_file(args.suite)
    with tempfile.TemporaryDirectory(prefix="gui-agent-suite-") as folder:
        for item in args.files:
            shutil.copyfile(probe.resolve_path(item.path), Path(folder) / item.name)
        shutil.copyfile(suite, Path(folder) / suite.name)
        try:
            done = probe.run_command([sys.executable, "-c", SUITE_RUNNER, folder, suite.name, args.function], timeout_s=args.timeout_s)
        except subprocess.TimeoutExpired:
            report.update(observed={"timed_out": True}, reason=f"the test suite ran past {args.timeout_s:g} s")
            return
    lines = done.stdout.strip().splitlines()
    # Passing needs the runner's own last word: a user's file that ends the process early
    # (os._exit(0) while it is imported) does not pass.
    passed = done.returncode == 0 and lines[-1:] == ["verdict: pass"]
    said = next((line for line in reversed(lines) if line != "verdict: pass"), "")
    report["observed"] = {"returncode": done.returncode, "stdout": cut(done.stdout), "stderr": cut(done.stderr[-2000:])}
    if not passed and (done.returncode == 0 or not said):
        said = f"the test suite exited with {done.returncode} before saying what {args.function}() returned"
    report.update(passed=passed, reason=said)


#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(TextFileEqualCheck, _text_file_equal),
    CheckType(JsonSettingsCheck, _json_settings),
    CheckType(KeybindingCheck, _vscode_keybinding),
    CheckType(ResultFileEqualCheck, _result_file_equal),
    CheckType(HtmlBackgroundImageCheck, _html_background_image),
    CheckType(ZipEqualCheck, _zip_equal),
    CheckType(PythonTestSuiteCheck, _python_test_suite),
)
