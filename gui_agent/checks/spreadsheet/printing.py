"""Printed values: a sheet exported to CSV by LibreOffice (cells as shown, formatted), the
way OSWorld's ``sheet_print`` rule compares them."""

from __future__ import annotations

import shutil
from pathlib import Path

from gui_agent.checks.family import CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut, verdict
from gui_agent.checks.spreadsheet.models import SheetPrintEqualArgs, SheetPrintEqualCheck
from gui_agent.checks.spreadsheet.workbooks import load_sheet
from gui_agent.envs.owned_process import OwnedProcess, make_private_dir


#: Seconds the LibreOffice that exports a sheet as CSV may take.
EXPORT_TIMEOUT_S = 90.0
#: LibreOffice's CSV export options: comma, double quotes, UTF-8, cells as shown
#: (formatted), then the sheet number; the same as OSWorld's post-step uses.
_CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,UTF-8,1,,0,false,true,true,false,false,{sheet}"


def export_sheet_csv(workbook_path: Path, sheet_number: int, sheet_name: str) -> str:
    """The sheet as LibreOffice prints it to CSV (cells as shown), exported by a LibreOffice
    of its own (own profile, headless), so a LibreOffice the agent left open is not involved.

    Raises:
        RuntimeError: the export failed or took longer than :data:`EXPORT_TIMEOUT_S`.
    """
    work = make_private_dir("gui-agent-csv-")
    try:
        source = work / ("book" + workbook_path.suffix)
        shutil.copyfile(workbook_path, source)
        proc = OwnedProcess(
            ["soffice", "--headless", "--norestore", "--nologo", f"-env:UserInstallation={(work / 'profile').as_uri()}",
             "--convert-to", _CSV_FILTER.format(sheet=sheet_number), "--outdir", str(work / "out"), str(source)],
            name="LibreOffice (CSV export)", cwd=work, log_path=work / "soffice.log",
            install_hint="install it with `apt-get install --no-install-recommends libreoffice-calc`",
        )
        proc.start()
        try:
            if not proc.wait(EXPORT_TIMEOUT_S):
                raise RuntimeError(f"exporting {workbook_path.name} as CSV took over {EXPORT_TIMEOUT_S:g} s")
        finally:
            proc.stop(grace_s=1.0)
        produced = sorted((work / "out").glob("*.csv")) if (work / "out").is_dir() else []
        wanted = [p for p in produced if p.stem == f"book-{sheet_name}"] or produced
        if not wanted:
            raise RuntimeError(f"LibreOffice wrote no CSV for {workbook_path.name}: {proc.log_tail(400) or 'no output'}")
        return wanted[0].read_text(encoding="utf-8-sig", errors="replace")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def printed_lines(text: str, *, ignore_case: bool) -> list[str]:
    """Lines stripped of surrounding spaces, without trailing empty lines (how sheet prints compare)."""
    lines = [line.strip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return [line.lower() for line in lines] if ignore_case else lines


def _sheet_print_equal(args: SheetPrintEqualArgs, probe: DesktopProbe, report: Report) -> None:
    sheet = load_sheet(probe, args.path, args.sheet, report)
    if sheet is None:
        return
    number = sheet.parent.worksheets.index(sheet) + 1
    printed = export_sheet_csv(probe.resolve_path(args.path), number, sheet.title)
    got = printed_lines(printed, ignore_case=args.ignore_case)
    want = printed_lines(probe.task_file(args.expected).read_text(encoding="utf-8-sig", errors="replace"),
                         ignore_case=args.ignore_case)
    report["observed"] = {"sheet": sheet.title, "lines": len(got), "printed": cut("\n".join(got))}
    differences = [f"line {i + 1} is {cut(a)!r}, expected {cut(b)!r}" for i, (a, b) in enumerate(zip(got, want)) if a != b]
    if len(got) != len(want):
        differences.append(f"{len(got)} line(s), expected {len(want)}")
    verdict(report, differences, ok=f"{sheet.title} prints as {args.expected} ({len(got)} lines)")


#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(SheetPrintEqualCheck, _sheet_print_equal),
)
