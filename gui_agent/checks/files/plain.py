"""Checks of plain files and data: a file exists, contains a text, equals a shipped one;
its lines, CSV rows, JSON values, an SQLite query's rows.

They cover OSWorld's ``compare_csv``, ``check_list``, ``check_csv``, ``check_json`` and
the sqlite checks, on the files the desktop environment's apps write. Paths are relative
to the episode's home folder; ``expected`` files are shipped in the task's folder.
"""

from __future__ import annotations

import csv
import json
import re
import sqlite3
from typing import Any, ClassVar

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.checks.expectations import expect_records, expect_something
from gui_agent.checks.family import CheckType
from gui_agent.checks.files.compare import line_difference, lines_of
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut, verdict, written_file
from gui_agent.checks.value_rules import ValueRule, matches
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import NonBlank, Regex, SingleKey, StrictModel, exactly_one

# ---------------------------------------------------------------------- what a task file writes


class FileExistsArgs(StrictModel):
    """A file (or folder) exists at the home-relative ``path``."""

    path: HomePath


class FileContainsArgs(StrictModel):
    """The file at ``path``, read as UTF-8 text, contains ``text`` (or matches ``matches``)."""

    path: HomePath
    text: NonBlank | None = None
    matches: Regex | None = None

    @model_validator(mode="after")
    def _one(self) -> FileContainsArgs:
        exactly_one(self, ("text", "matches"))
        return self


class FileEqualArgs(StrictModel):
    """The text of ``path`` equals that of ``expected`` (a file shipped in the task's folder),
    line by line, ignoring line endings, trailing spaces and trailing empty lines (OSWorld's
    ``compare_csv``); ``strip``: leading spaces too (its ``strict: false``); ``ignore_case``:
    letter case too."""

    path: HomePath
    expected: TaskPath
    strip: bool = False
    ignore_case: bool = False


class LinesMatchArgs(StrictModel):
    """The text file's lines: each ``expect`` regex matches some line, no ``unexpect`` regex
    matches any (OSWorld's ``check_list``, e.g. over a saved folder listing)."""

    path: HomePath
    expect: list[Regex] = Field(default_factory=list)
    unexpect: list[Regex] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> LinesMatchArgs:
        expect_something(self)
        return self


class CsvRowsArgs(StrictModel):
    """The CSV file (first line: column names): each ``expect`` record is matched by some
    row (every given column equal), no row matches an ``unexpect`` record."""

    path: HomePath
    expect: list[dict[NonBlank, str]] = Field(default_factory=list)
    unexpect: list[dict[NonBlank, str]] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> CsvRowsArgs:
        expect_something(self)
        return self


class JsonValue(StrictModel):
    """One value in a JSON document: ``key`` is the path to it (keys and list positions)."""

    key: list[str | int] = Field(min_length=1)
    rule: ValueRule


class JsonValuesArgs(StrictModel):
    """Values in a JSON file: each ``expect`` value is there and satisfies its rule; no
    ``unexpect`` value satisfies its (OSWorld's ``check_json``)."""

    path: HomePath
    expect: list[JsonValue] = Field(default_factory=list)
    unexpect: list[JsonValue] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> JsonValuesArgs:
        expect_something(self)
        return self


class SqliteQueryArgs(StrictModel):
    """A read-only SQL ``query`` on the SQLite file returns exactly ``equals`` (rows of
    values, in order) or, with ``contains``, at least those rows."""

    path: HomePath
    query: NonBlank
    equals: list[list[Any]] | None = None
    contains: list[list[Any]] | None = None

    @model_validator(mode="after")
    def _one(self) -> SqliteQueryArgs:
        if (self.equals is None) == (self.contains is None):
            raise PydanticCustomError("one_of", "expected exactly one of: equals, contains", {"key": None})
        return self


class FileExistsCheck(SingleKey):
    name: ClassVar[str] = "file_exists"
    file_exists: FileExistsArgs


class FileContainsCheck(SingleKey):
    name: ClassVar[str] = "file_contains"
    file_contains: FileContainsArgs


class FileEqualCheck(SingleKey):
    name: ClassVar[str] = "file_equal"
    file_equal: FileEqualArgs


class LinesMatchCheck(SingleKey):
    name: ClassVar[str] = "lines_match"
    lines_match: LinesMatchArgs


class CsvRowsCheck(SingleKey):
    name: ClassVar[str] = "csv_rows"
    csv_rows: CsvRowsArgs


class JsonValuesCheck(SingleKey):
    name: ClassVar[str] = "json_values"
    json_values: JsonValuesArgs


class SqliteQueryCheck(SingleKey):
    name: ClassVar[str] = "sqlite_query"
    sqlite_query: SqliteQueryArgs


# ---------------------------------------------------------------------- judging


def _file_exists(args: FileExistsArgs, probe: DesktopProbe, report: Report) -> None:
    path = probe.resolve_path(args.path)
    exists = path.exists()
    report["observed"] = {"exists": exists}
    report.update(passed=exists, reason=f"{args.path} {'exists' if exists else 'does not exist'}")


def _file_contains(args: FileContainsArgs, probe: DesktopProbe, report: Report) -> None:
    path = probe.resolve_path(args.path)
    if not path.is_file():
        report.update(observed={"exists": False}, reason=f"{args.path} does not exist")
        return
    text = path.read_text(encoding="utf-8", errors="replace")
    report["observed"] = {"exists": True, "length": len(text), "text": cut(text)}
    if args.text is not None:
        ok, wanted = args.text in text, f"contain {args.text!r}"
    else:
        ok, wanted = re.search(args.matches or "", text) is not None, f"match {args.matches!r}"
    report.update(passed=ok, reason=f"{args.path} ({len(text)} characters) {'does' if ok else 'does not'} {wanted}")


def _file_equal(args: FileEqualArgs, probe: DesktopProbe, report: Report) -> None:
    path = probe.resolve_path(args.path)
    if not path.is_file():
        report.update(observed={"exists": False}, reason=f"{args.path} does not exist")
        return
    got = lines_of(path, strip=args.strip, ignore_case=args.ignore_case)
    want = lines_of(probe.task_file(args.expected), strip=args.strip, ignore_case=args.ignore_case)
    report["observed"] = {"exists": True, "lines": len(got)}
    difference = line_difference(got, want, args.path, args.expected)
    report.update(passed=difference is None, reason=difference or f"{args.path} equals {args.expected} ({len(got)} lines)")


def _lines_match(args: LinesMatchArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    problems = [f"no line matches {p!r}" for p in args.expect if not any(re.search(p, line) for line in lines)]
    problems += [f"line {cut(next(line for line in lines if re.search(p, line)))!r} matches {p!r}, which must not be there"
                 for p in args.unexpect if any(re.search(p, line) for line in lines)]
    report["observed"] = {"lines": len(lines), "first": [cut(line) for line in lines[:10]]}
    verdict(report, problems, ok=f"{len(lines)} line(s) as expected")


def _csv_rows(args: CsvRowsArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    with path.open(encoding="utf-8-sig", errors="replace", newline="") as handle:
        rows = list(csv.DictReader(handle))
    report["observed"] = {"rows": len(rows), "first": rows[:5]}
    verdict(report, expect_records(rows, args.expect, args.unexpect, "row"), ok=f"{len(rows)} row(s) as expected")


_MISSING = object()


def _json_at(data: Any, key: list[str | int]) -> Any:
    for part in key:
        if isinstance(data, dict) and str(part) in data:
            data = data[str(part)]
        elif isinstance(data, list) and isinstance(part, int) and -len(data) <= part < len(data):
            data = data[part]
        else:
            return _MISSING
    return data


def _json_values(args: JsonValuesArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    data = json.loads(path.read_text(encoding="utf-8"))
    problems = []
    for item in args.expect:
        value = _json_at(data, item.key)
        if value is _MISSING:
            problems.append(f"{item.key} is not there")
        elif not matches(value, item.rule):
            problems.append(f"{item.key} is {cut(repr(value))}, expected {item.rule.describe()}")
    for item in args.unexpect:
        value = _json_at(data, item.key)
        if value is not _MISSING and matches(value, item.rule):
            problems.append(f"{item.key} is {cut(repr(value))}, which must not be {item.rule.describe()}")
    verdict(report, problems, ok=f"{len(args.expect)} value(s) as expected")


def _sqlite_query(args: SqliteQueryArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = [list(r) for r in connection.execute(args.query).fetchall()]
    finally:
        connection.close()
    report["observed"] = {"rows": rows[:20], "count": len(rows)}
    if args.equals is not None:
        ok, wanted = rows == args.equals, f"exactly {cut(repr(args.equals))}"
    else:
        ok, wanted = all(r in rows for r in args.contains or []), f"rows including {cut(repr(args.contains))}"
    report.update(passed=ok, reason=f"the query returned {len(rows)} row(s) {cut(repr(rows))}, expected {wanted}")



#: These checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(FileExistsCheck, _file_exists),
    CheckType(FileContainsCheck, _file_contains),
    CheckType(FileEqualCheck, _file_equal),
    CheckType(LinesMatchCheck, _lines_match),
    CheckType(CsvRowsCheck, _csv_rows),
    CheckType(JsonValuesCheck, _json_values),
    CheckType(SqliteQueryCheck, _sqlite_query),
)
