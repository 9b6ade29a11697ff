"""Evaluating the checks of :mod:`gui_agent.task.data_checks`: Thunderbird's own files
(``prefs.js``, ``msgFilterRules.dat``, mbox folders) and plain data files."""

from __future__ import annotations

import csv
import json
import mailbox
import re
import sqlite3
from pathlib import Path
from typing import Any

from gui_agent.task import data_checks as kinds
from gui_agent.task.check_reports import cut, missing, verdict
from gui_agent.task.value_rules import matches

_PREF = re.compile(r'^\s*user_pref\(\s*"((?:[^"\\]|\\.)+)"\s*,\s*(.+?)\s*\)\s*;\s*$')
#: One condition of a Thunderbird filter: ``AND (subject,contains,x)`` or ``ALL``.
_CONDITION = re.compile(r'\b(?:AND|OR) \((?:[^,()]+),(?:[^,()]+),(?:"(?:[^"\\]|\\.)*"|[^)]*)\)|\bALL\b')


def _file(probe: Any, path: str, report: dict[str, Any]) -> Path | None:
    found = probe.resolve_path(path)
    if not found.is_file():
        missing(report, path, " (was it written there?)")
        return None
    return found


def read_prefs(path: Path) -> dict[str, Any]:
    """A ``prefs.js`` / ``user.js`` as key -> value (JSON-decoded; undecodable values as text)."""
    prefs: dict[str, Any] = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        found = _PREF.match(line)
        if found is None:
            continue
        key, raw = json.loads(f'"{found.group(1)}"'), found.group(2)
        try:
            prefs[key] = json.loads(raw)
        except json.JSONDecodeError:
            prefs[key] = raw
    return prefs


def _thunderbird_prefs(args: kinds.ThunderbirdPrefsArgs, probe: Any, report: dict[str, Any]) -> None:
    path = _file(probe, args.path, report)
    if path is None:
        return
    prefs = read_prefs(path)
    problems = []
    for key, rule in args.expect.items():
        if key not in prefs:
            problems.append(f"{key} is not set (expected {rule.describe()})")
        elif not matches(prefs[key], rule):
            problems.append(f"{key} is {cut(repr(prefs[key]))}, expected {rule.describe()}")
    problems += [f"{key} is {cut(repr(prefs[key]))}, which must not be {rule.describe()}"
                 for key, rule in args.unexpect.items() if key in prefs and matches(prefs[key], rule)]
    report["observed"] = {k: prefs.get(k) for k in [*args.expect, *args.unexpect]}
    verdict(report, problems, ok=f"{len(args.expect)} preference(s) as expected, {len(args.unexpect)} not as forbidden")


def _unquote(value: str) -> str:
    return value.replace('\\"', '"').replace("\\\\", "\\")


def read_filters(path: Path) -> list[dict[str, Any]]:
    """The filters of a ``msgFilterRules.dat``: name, enabled, type, action, actionValue, condition (a list)."""
    filters: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        key, _, raw = line.partition("=")
        value = _unquote(raw.strip().removeprefix('"').removesuffix('"'))
        if key == "name":
            filters.append({"name": value})
        elif filters and key in ("enabled", "type", "action", "actionValue"):
            filters[-1].setdefault(key, value)
        elif filters and key == "condition":
            filters[-1]["condition"] = _CONDITION.findall(value)
    return filters


def _record_matches(wanted: dict[str, Any], record: dict[str, Any]) -> bool:
    return all(k in record and record[k] == v for k, v in wanted.items())


def _expect_records(records: list[dict[str, Any]], expect: list[dict[str, Any]], unexpect: list[dict[str, Any]], what: str) -> list[str]:
    problems = [f"no {what} matches {e}" for e in expect if not any(_record_matches(e, r) for r in records)]
    problems += [f"a {what} matches {u}, which must not be there" for u in unexpect if any(_record_matches(u, r) for r in records)]
    return problems


def _thunderbird_filters(args: kinds.ThunderbirdFiltersArgs, probe: Any, report: dict[str, Any]) -> None:
    path = _file(probe, args.path, report)
    if path is None:
        return
    filters = read_filters(path)
    report["observed"] = {"filters": filters[:20]}
    verdict(report, _expect_records(filters, args.expect, args.unexpect, "filter"), ok=f"{len(filters)} filter(s), as expected")


def read_accounts(prefs: dict[str, Any]) -> list[dict[str, str]]:
    """The incoming and outgoing servers a profile's prefs configure: ``{"url", "user"}`` each."""
    accounts = []
    servers = {m.group(1) for k in prefs if (m := re.match(r"mail\.server\.([^.]+)\.hostname$", k))}
    for server in sorted(servers):
        kind = str(prefs.get(f"mail.server.{server}.type", ""))
        if kind in ("", "none"):
            continue  # Local Folders
        accounts.append({"url": f"{kind}://{prefs[f'mail.server.{server}.hostname']}",
                         "user": str(prefs.get(f"mail.server.{server}.userName", ""))})
    smtps = {m.group(1) for k in prefs if (m := re.match(r"mail\.smtpserver\.([^.]+)\.hostname$", k))}
    for smtp in sorted(smtps):
        accounts.append({"url": f"smtp://{prefs[f'mail.smtpserver.{smtp}.hostname']}",
                         "user": str(prefs.get(f"mail.smtpserver.{smtp}.username", ""))})
    return accounts


def _thunderbird_accounts(args: kinds.ThunderbirdAccountsArgs, probe: Any, report: dict[str, Any]) -> None:
    from gui_agent.envs.desktop.apps.thunderbird import default_profile

    folder = probe.resolve_path(args.profile)
    if (folder / "profiles.ini").is_file():  # the profiles folder: its default profile
        chosen = default_profile(folder.parent) if folder.name == ".thunderbird" else None
        folder = chosen if chosen is not None else folder
    prefs_path = folder / "prefs.js"
    if not prefs_path.is_file():
        missing(report, f"{args.profile}/prefs.js", " (is it a Thunderbird profile?)")
        return
    accounts = read_accounts(read_prefs(prefs_path))
    report["observed"] = {"accounts": accounts}
    verdict(report, _expect_records(accounts, args.expect, args.unexpect, "account"), ok=f"{len(accounts)} account(s), as expected")


def _mail_folder(args: kinds.MailFolderArgs, probe: Any, report: dict[str, Any]) -> None:
    path = _file(probe, args.path, report)
    if path is None:
        return
    box = mailbox.mbox(str(path), create=False)
    try:
        subjects = []
        for message in box:
            status = str(message.get("X-Mozilla-Status", "0")).strip()
            if status and int(status, 16) & 0x0008:
                continue  # deleted, not yet compacted away
            subjects.append(str(message.get("Subject", "")))
    finally:
        box.close()
    problems = [f"{len(subjects)} message(s), expected at least {args.min_messages}"] if len(subjects) < args.min_messages else []
    problems += [f"no message's subject contains {s!r}" for s in args.subjects if not any(s in got for got in subjects)]
    report["observed"] = {"messages": len(subjects), "subjects": subjects[:20]}
    verdict(report, problems, ok=f"{args.path} holds {len(subjects)} message(s), as expected")


def _lines_match(args: kinds.LinesMatchArgs, probe: Any, report: dict[str, Any]) -> None:
    path = _file(probe, args.path, report)
    if path is None:
        return
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    problems = [f"no line matches {p!r}" for p in args.expect if not any(re.search(p, line) for line in lines)]
    problems += [f"line {cut(next(line for line in lines if re.search(p, line)))!r} matches {p!r}, which must not be there"
                 for p in args.unexpect if any(re.search(p, line) for line in lines)]
    report["observed"] = {"lines": len(lines), "first": [cut(line) for line in lines[:10]]}
    verdict(report, problems, ok=f"{len(lines)} line(s) as expected")


def _csv_rows(args: kinds.CsvRowsArgs, probe: Any, report: dict[str, Any]) -> None:
    path = _file(probe, args.path, report)
    if path is None:
        return
    with path.open(encoding="utf-8-sig", errors="replace", newline="") as handle:
        rows = list(csv.DictReader(handle))
    report["observed"] = {"rows": len(rows), "first": rows[:5]}
    verdict(report, _expect_records(rows, args.expect, args.unexpect, "row"), ok=f"{len(rows)} row(s) as expected")


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


def _json_values(args: kinds.JsonValuesArgs, probe: Any, report: dict[str, Any]) -> None:
    path = _file(probe, args.path, report)
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


def _sqlite_query(args: kinds.SqliteQueryArgs, probe: Any, report: dict[str, Any]) -> None:
    path = _file(probe, args.path, report)
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


def pdf_page_count(path: Path) -> int:
    """Pages of a PDF: its ``/Type /Page`` objects (not ``/Pages``), as LibreOffice writes them uncompressed."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", path.read_bytes()))


def _pdf_pages(args: kinds.PdfPagesArgs, probe: Any, report: dict[str, Any]) -> None:
    path = _file(probe, args.path, report)
    if path is None:
        return
    if not path.read_bytes().startswith(b"%PDF"):
        raise ValueError(f"{args.path} is not a PDF file")
    pages = pdf_page_count(path)
    report.update(observed={"pages": pages}, passed=matches(pages, args.pages),
                  reason=f"{args.path} has {pages} page(s), expected {args.pages.describe()}")


HANDLERS: dict[type, Any] = {
    kinds.ThunderbirdPrefsArgs: _thunderbird_prefs,
    kinds.ThunderbirdFiltersArgs: _thunderbird_filters,
    kinds.ThunderbirdAccountsArgs: _thunderbird_accounts,
    kinds.MailFolderArgs: _mail_folder,
    kinds.LinesMatchArgs: _lines_match,
    kinds.CsvRowsArgs: _csv_rows,
    kinds.JsonValuesArgs: _json_values,
    kinds.SqliteQueryArgs: _sqlite_query,
    kinds.PdfPagesArgs: _pdf_pages,
}

__all__ = ["HANDLERS", "pdf_page_count", "read_accounts", "read_filters", "read_prefs"]
