"""Evaluating desktop checks: files, spreadsheets (openpyxl) and received e-mail.

:mod:`gui_agent.task.evaluator` walks the check tree and hands every desktop leaf to
:func:`evaluate_desktop_check`, which fills the same report (``observed``, ``passed``,
``reason``). The environment is asked only what :class:`DesktopProbe` lists: where a
task path is on disk, where a file shipped with the task is, and what mail the loopback
SMTP server received.

A file that is missing or a sheet that does not exist makes a check *fail* with the
reason; a file that cannot be read at all (not a spreadsheet, truncated) raises, which
the walker records as "could not be evaluated" (also a failure, never a pass under
``not``).
"""

from __future__ import annotations

import math
import re
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from gui_agent.task.cell_refs import column_name, split_cell
from gui_agent.task.check_reports import MAX_DIFFERENCES, MAX_OBSERVED_CHARS
from gui_agent.task.desktop_checks import (
    DESKTOP_CHECK_TYPES,
    CellFormulaArgs,
    CellRangeArgs,
    CellStyleArgs,
    CellValueArgs,
    EmailReceivedArgs,
    FileContainsArgs,
    FileEqualArgs,
    FileExistsArgs,
    InfeasibleReportedArgs,
    SheetDataEqualArgs,
    SheetLayoutArgs,
    SheetNamesArgs,
)

__all__ = ["DesktopProbe", "evaluate_desktop_check", "is_desktop_check"]



@runtime_checkable
class DesktopProbe(Protocol):
    """What desktop checks need from an environment (:class:`~gui_agent.envs.desktop.env.DesktopEnv`).

    * ``resolve_path(path)``: the absolute path of a task path (relative to the episode's
      home folder).
    * ``task_file(path)``: the absolute path of a file shipped in the task's folder;
      raises if it is missing.
    * ``received_mail()``: what the loopback SMTP server received, oldest first (objects
      with ``rcpt_tos`` and ``message``, an :class:`email.message.EmailMessage`).
    * ``reported_done()``: how the agent ended the episode, ``{"success": bool, "answer":
      str | None}``, or None when it did not say done (``infeasible_reported``).
    """

    def resolve_path(self, path: str) -> Path: ...

    def task_file(self, path: str) -> Path: ...

    def received_mail(self) -> list[Any]: ...

    def reported_done(self) -> dict[str, Any] | None: ...


def is_desktop_check(check: Any) -> bool:
    return isinstance(check, DESKTOP_CHECK_TYPES)


def evaluate_desktop_check(check: Any, probe: Any, report: dict[str, Any]) -> None:
    """Evaluate one desktop leaf check into ``report`` (see :mod:`gui_agent.task.evaluator`)."""
    args = check.args
    handler = _handlers()[type(args)]
    handler(args, probe, report)


def _handlers() -> dict[type, Any]:
    """Argument model -> the function evaluating it, for every desktop check."""
    from gui_agent.task import data_evaluator, document_evaluator, presentation_evaluator, sheet_evaluator

    return {
        **_HANDLERS, **sheet_evaluator.HANDLERS, **document_evaluator.HANDLERS, **presentation_evaluator.HANDLERS,
        **data_evaluator.HANDLERS,
    }


def _cut(text: str) -> str:
    return text if len(text) <= MAX_OBSERVED_CHARS else text[:MAX_OBSERVED_CHARS] + "..."


# ---------------------------------------------------------------------- files


def _file_exists(args: FileExistsArgs, probe: Any, report: dict[str, Any]) -> None:
    path = probe.resolve_path(args.path)
    exists = path.exists()
    report["observed"] = {"exists": exists}
    report.update(passed=exists, reason=f"{args.path} {'exists' if exists else 'does not exist'}")


def _file_contains(args: FileContainsArgs, probe: Any, report: dict[str, Any]) -> None:
    path = probe.resolve_path(args.path)
    if not path.is_file():
        report.update(observed={"exists": False}, reason=f"{args.path} does not exist")
        return
    text = path.read_text(encoding="utf-8", errors="replace")
    report["observed"] = {"exists": True, "length": len(text), "text": _cut(text)}
    if args.text is not None:
        ok, wanted = args.text in text, f"contain {args.text!r}"
    else:
        ok, wanted = re.search(args.matches or "", text) is not None, f"match {args.matches!r}"
    report.update(passed=ok, reason=f"{args.path} ({len(text)} characters) {'does' if ok else 'does not'} {wanted}")


def _lines(path: Path) -> list[str]:
    return [line.rstrip() for line in path.read_text(encoding="utf-8", errors="replace").splitlines()]


def _file_equal(args: FileEqualArgs, probe: Any, report: dict[str, Any]) -> None:
    path = probe.resolve_path(args.path)
    if not path.is_file():
        report.update(observed={"exists": False}, reason=f"{args.path} does not exist")
        return
    got, want = _lines(path), _lines(probe.task_file(args.expected))
    while got and not got[-1]:
        got.pop()
    while want and not want[-1]:
        want.pop()
    differing = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), None)
    report["observed"] = {"exists": True, "lines": len(got)}
    if differing is not None:
        report["reason"] = f"line {differing + 1} of {args.path} is {_cut(got[differing])!r}, expected {_cut(want[differing])!r}"
    elif len(got) != len(want):
        report["reason"] = f"{args.path} has {len(got)} line(s), {args.expected} has {len(want)}"
    else:
        report.update(passed=True, reason=f"{args.path} equals {args.expected} ({len(got)} lines)")


# ---------------------------------------------------------------------- spreadsheets


def _load(probe: Any, path_text: str, report: dict[str, Any], *, formulas: bool = False) -> Any:
    """The workbook, or None (with the report filled) when the file does not exist."""
    import openpyxl

    path = probe.resolve_path(path_text)
    if not path.is_file():
        report.update(observed={"exists": False}, reason=f"{path_text} does not exist (was it saved there?)")
        return None
    return openpyxl.load_workbook(path, data_only=not formulas)


def _sheet(workbook: Any, name: str | None, path_text: str, report: dict[str, Any]) -> Any:
    if name is None:
        return workbook.worksheets[0]
    if name in workbook.sheetnames:
        return workbook[name]
    report.update(observed={"sheets": workbook.sheetnames}, reason=f"{path_text} has no sheet {name!r} (sheets: {workbook.sheetnames})")
    return None


def _shown(value: Any) -> Any:
    """A cell value as JSON can hold it (dates as ISO text)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def same_value(observed: Any, expected: Any, tolerance: float) -> bool:
    """Cell comparison: numbers within ``tolerance``, text stripped, None = empty cell."""
    if expected is None:
        return observed is None or (isinstance(observed, str) and observed.strip() == "")
    if isinstance(expected, bool) or isinstance(observed, bool):
        return isinstance(observed, bool) and isinstance(expected, bool) and observed == expected
    if isinstance(expected, (int, float)):
        if not isinstance(observed, (int, float)):
            return False
        return math.isclose(float(observed), float(expected), rel_tol=0.0, abs_tol=tolerance)
    return isinstance(observed, str) and observed.strip() == str(expected).strip()


def _kind(value: Any) -> str:
    if value is None:
        return "empty"
    return {bool: "true/false", int: "number", float: "number", str: "text"}.get(type(value), type(value).__name__)


def _cell_value(args: CellValueArgs, probe: Any, report: dict[str, Any]) -> None:
    workbook = _load(probe, args.path, report)
    sheet = _sheet(workbook, args.sheet, args.path, report) if workbook is not None else None
    if sheet is None:
        return
    value = sheet[args.cell].value
    report["observed"] = {"sheet": sheet.title, "value": _shown(value), "type": _kind(value)}
    ok = same_value(value, args.equals, args.tolerance)
    where = f"{sheet.title}!{args.cell}"
    if ok:
        report.update(passed=True, reason=f"{where} is {_shown(value)!r}")
    else:
        report["reason"] = f"{where} is {_shown(value)!r} ({_kind(value)}), expected {args.equals!r} ({_kind(args.equals)})"


def normalize_formula(formula: str) -> str:
    """``"= sum(b2:b6)"`` -> ``"SUM(B2:B6)"``: no leading ``=``, no spaces, upper case, ``;`` as ``,``."""
    text = formula.strip()
    text = text.removeprefix("=")
    return re.sub(r"\s+", "", text).upper().replace(";", ",")


def _formula_text(value: Any) -> str | None:
    if isinstance(value, str) and value.startswith("="):
        return value
    text = getattr(value, "text", None)  # openpyxl ArrayFormula / DataTableFormula
    return text if isinstance(text, str) else None


def _cell_formula(args: CellFormulaArgs, probe: Any, report: dict[str, Any]) -> None:
    workbook = _load(probe, args.path, report, formulas=True)
    sheet = _sheet(workbook, args.sheet, args.path, report) if workbook is not None else None
    if sheet is None:
        return
    raw = sheet[args.cell].value
    formula = _formula_text(raw)
    where = f"{sheet.title}!{args.cell}"
    report["observed"] = {"sheet": sheet.title, "formula": formula, "value": _shown(raw) if formula is None else None}
    if formula is None:
        report["reason"] = f"{where} holds no formula (its content is {_shown(raw)!r})"
        return
    got = normalize_formula(formula)
    if args.equals is not None:
        wanted = normalize_formula(args.equals)
        ok, how = got == wanted, f"equal {wanted!r}"
    else:
        ok, how = re.search(args.matches or "", got) is not None, f"match {args.matches!r}"
    report.update(passed=ok, reason=f"the formula in {where} is {got!r}, which {'does' if ok else 'does not'} {how}")


def _cells(sheet: Any, cell_range: str) -> list[list[Any]]:
    rows = sheet[cell_range]
    return [[c.value for c in row] for row in rows]


def _cell_range(args: CellRangeArgs, probe: Any, report: dict[str, Any]) -> None:
    workbook = _load(probe, args.path, report)
    sheet = _sheet(workbook, args.sheet, args.path, report) if workbook is not None else None
    if sheet is None:
        return
    values = _cells(sheet, args.range)
    report["observed"] = {"sheet": sheet.title, "values": [[_shown(v) for v in row] for row in values]}
    first_col, first_row = split_cell(args.range.split(":")[0])
    wrong = [
        f"{column_name(first_col + j)}{first_row + i} is {_shown(got)!r}, expected {want!r}"
        for i, (got_row, want_row) in enumerate(zip(values, args.equals))
        for j, (got, want) in enumerate(zip(got_row, want_row))
        if not same_value(got, want, args.tolerance)
    ]
    if wrong:
        more = f"; and {len(wrong) - MAX_DIFFERENCES} more" if len(wrong) > MAX_DIFFERENCES else ""
        report["reason"] = f"{len(wrong)} cell(s) of {sheet.title}!{args.range} differ: " + "; ".join(wrong[:MAX_DIFFERENCES]) + more
    else:
        report.update(passed=True, reason=f"all cells of {sheet.title}!{args.range} are as expected")


def _sheet_names(args: SheetNamesArgs, probe: Any, report: dict[str, Any]) -> None:
    workbook = _load(probe, args.path, report)
    if workbook is None:
        return
    names = list(workbook.sheetnames)
    report["observed"] = {"sheets": names}
    if args.equals is not None:
        ok, how = names == args.equals, f"equal {args.equals}"
    elif args.same_as is not None:
        import openpyxl

        wanted = list(openpyxl.load_workbook(probe.task_file(args.same_as), read_only=True).sheetnames)
        ok, how = names == wanted, f"equal those of {args.same_as} {wanted}"
    else:
        missing = [n for n in args.contains or [] if n not in names]
        ok, how = not missing, f"include {args.contains}" + (f" (missing: {missing})" if missing else "")
    report.update(passed=ok, reason=f"the sheets are {names}, which {'does' if ok else 'does not'} {how}")


def _cell_style(args: CellStyleArgs, probe: Any, report: dict[str, Any]) -> None:
    workbook = _load(probe, args.path, report)
    sheet = _sheet(workbook, args.sheet, args.path, report) if workbook is not None else None
    if sheet is None:
        return
    target = args.range or f"{args.cell}:{args.cell}"
    observed: dict[str, Any] = {}
    wrong: list[str] = []
    for row in sheet[target]:
        for cell in row:
            style = {"bold": bool(cell.font.b), "italic": bool(cell.font.i), "number_format": cell.number_format}
            observed[cell.coordinate] = style
            for key in ("bold", "italic", "number_format"):
                wanted = getattr(args, key)
                if wanted is not None and style[key] != wanted:
                    wrong.append(f"{cell.coordinate} {key} is {style[key]!r}, expected {wanted!r}")
    report["observed"] = {"sheet": sheet.title, "cells": observed}
    if wrong:
        report["reason"] = f"{len(wrong)} style difference(s): " + "; ".join(wrong[:MAX_DIFFERENCES])
    else:
        report.update(passed=True, reason=f"every cell of {sheet.title}!{target} has the expected style")


def _sheet_layout(args: SheetLayoutArgs, probe: Any, report: dict[str, Any]) -> None:
    workbook = _load(probe, args.path, report)
    sheet = _sheet(workbook, args.sheet, args.path, report) if workbook is not None else None
    if sheet is None:
        return
    freeze = sheet.freeze_panes or "none"
    autofilter = sheet.auto_filter.ref or "none"
    report["observed"] = {"sheet": sheet.title, "freeze_panes": freeze, "autofilter": autofilter}
    wrong = []
    if args.freeze_panes is not None and freeze != args.freeze_panes:
        wrong.append(f"frozen panes start at {freeze!r}, expected {args.freeze_panes!r}")
    if args.autofilter is not None and autofilter != args.autofilter:
        wrong.append(f"the auto-filter covers {autofilter!r}, expected {args.autofilter!r}")
    if wrong:
        report["reason"] = f"{sheet.title}: " + "; ".join(wrong)
    else:
        report.update(passed=True, reason=f"{sheet.title}: frozen panes {freeze!r}, auto-filter {autofilter!r}")


def _sheet_data_equal(args: SheetDataEqualArgs, probe: Any, report: dict[str, Any]) -> None:
    from gui_agent.task.sheet_evaluator import load_reference, open_sheet

    workbook = _load(probe, args.path, report)
    if workbook is None:
        return
    reference = load_reference(probe, args.expected) if args.expected is not None else workbook
    other = args.expected or args.path
    ours = list(args.sheets) if args.sheets is not None else list(range(len(reference.worksheets)))
    theirs = list(args.expected_sheets) if args.expected_sheets is not None else ours
    differences: list[str] = []
    for mine, wanted in zip(ours, theirs):
        want = open_sheet(reference, wanted, other, {})
        if want is None:
            raise ValueError(f"{other} has no sheet {wanted!r} (sheets: {reference.sheetnames})")
        sheet_report: dict[str, Any] = {}
        got = open_sheet(workbook, mine, args.path, sheet_report)
        if got is None:
            differences.append(sheet_report["reason"])
            continue
        rows = max(got.max_row, want.max_row)
        cols = max(got.max_column, want.max_column)
        for r in range(1, rows + 1):
            for c in range(1, cols + 1):
                a, b = got.cell(r, c).value, want.cell(r, c).value
                if not same_value(a, b, args.tolerance) and not (a in (None, "") and b in (None, "")):
                    differences.append(f"{got.title}!{column_name(c)}{r} is {_shown(a)!r}, expected {_shown(b)!r}")
    report["observed"] = {"differences": differences[:MAX_DIFFERENCES], "count": len(differences)}
    if differences:
        more = f"; and {len(differences) - MAX_DIFFERENCES} more" if len(differences) > MAX_DIFFERENCES else ""
        report["reason"] = f"{len(differences)} difference(s) from {other}: " + "; ".join(differences[:MAX_DIFFERENCES]) + more
    else:
        report.update(passed=True, reason=f"the data of sheet(s) {ours} equal {other} {theirs}")


def _infeasible_reported(args: InfeasibleReportedArgs, probe: Any, report: dict[str, Any]) -> None:
    done = probe.reported_done()
    report["observed"] = {"done": done}
    if done is None:
        report["reason"] = "the agent did not end the episode with done(success=False, answer=...)"
    elif done.get("success", True):
        report["reason"] = "the agent said the task was done (success=True); it cannot be done and must say so"
    elif not (done.get("answer") or "").strip():
        report["reason"] = "the agent said done(success=False) without an answer saying why the task cannot be done"
    elif args.answer_matches is not None and re.search(args.answer_matches, done["answer"], re.IGNORECASE) is None:
        report["reason"] = f"the answer {_cut(done['answer'])!r} does not match {args.answer_matches!r}"
    else:
        report.update(passed=True, reason=f"the agent reported the task infeasible: {_cut(done['answer'])!r}")


# ---------------------------------------------------------------------- e-mail


def _recipients(received: Any) -> set[str]:
    message: EmailMessage = received.message
    headers = [str(v) for key in ("To", "Cc") for v in (message.get_all(key) or [])]
    found = {addr.lower() for _, addr in getaddresses(headers) if addr}
    return found | {addr.lower() for addr in received.rcpt_tos}


def _body_text(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    text = part.get_content()
    if part.get_content_type() == "text/html":
        text = re.sub(r"<[^>]+>", " ", text)
    return str(text)


def _attachments(message: EmailMessage) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for part in message.walk():
        name = part.get_filename()
        if name and not part.is_multipart():
            payload = part.get_payload(decode=True)
            found[name] = payload if isinstance(payload, bytes) else b""
    return found


def _mismatches(args: EmailReceivedArgs, received: Any) -> list[str]:
    message: EmailMessage = received.message
    problems: list[str] = []
    if args.to is not None and args.to.lower() not in _recipients(received):
        problems.append(f"not sent to {args.to}")
    subject = str(message.get("Subject", ""))
    if args.subject_contains is not None and args.subject_contains.casefold() not in subject.casefold():
        problems.append(f"subject {subject!r} lacks {args.subject_contains!r}")
    if args.body_contains is not None and args.body_contains.casefold() not in _body_text(message).casefold():
        problems.append(f"body lacks {args.body_contains!r}")
    if args.in_reply_to is not None:
        refs = f"{message.get('In-Reply-To', '')} {message.get('References', '')}"
        if args.in_reply_to.strip("<>") not in refs:
            problems.append(f"not a reply to {args.in_reply_to}")
    if args.attachment is not None:
        files = _attachments(message)
        if args.attachment not in files:
            problems.append(f"no attachment {args.attachment!r} (attachments: {sorted(files) or 'none'})")
        elif args.attachment_contains is not None and args.attachment_contains.encode() not in files[args.attachment]:
            problems.append(f"attachment {args.attachment!r} lacks {args.attachment_contains!r}")
    return problems


def _email_received(args: EmailReceivedArgs, probe: Any, report: dict[str, Any]) -> None:
    received = probe.received_mail()
    matching = []
    seen = []
    for item in received:
        problems = _mismatches(args, item)
        seen.append({
            "subject": str(item.message.get("Subject", "")),
            "to": sorted(_recipients(item)),
            "attachments": sorted(_attachments(item.message)),
            "problems": problems,
        })
        if not problems:
            matching.append(item)
    report["observed"] = {"received": len(received), "matching": len(matching), "messages": seen[-MAX_DIFFERENCES:]}
    if len(matching) >= args.count:
        report.update(passed=True, reason=f"{len(matching)} of {len(received)} received message(s) match")
    elif not received:
        report["reason"] = "the mail server received no message"
    else:
        closest = min(seen, key=lambda s: len(s["problems"]))
        report["reason"] = (
            f"{len(matching)} of {len(received)} received message(s) match, need {args.count}; "
            f"closest ({closest['subject']!r}): {'; '.join(closest['problems']) or 'matches'}"
        )


_HANDLERS: dict[type, Any] = {
    FileExistsArgs: _file_exists,
    FileContainsArgs: _file_contains,
    FileEqualArgs: _file_equal,
    CellValueArgs: _cell_value,
    CellFormulaArgs: _cell_formula,
    CellRangeArgs: _cell_range,
    SheetNamesArgs: _sheet_names,
    CellStyleArgs: _cell_style,
    SheetLayoutArgs: _sheet_layout,
    SheetDataEqualArgs: _sheet_data_equal,
    EmailReceivedArgs: _email_received,
    InfeasibleReportedArgs: _infeasible_reported,
}
