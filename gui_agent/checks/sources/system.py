"""Sources read from the desktop session itself: a command's output, a file's text, a
folder's entries, the clipboard, the focused terminal's screen, the screen and window sizes.

They are what OSWorld's system getters (``vm_command_line``, ``vm_terminal_output``,
``list_directory``, ``vm_screen_size``...) read in its VM; each reader asks the probe (a
command on the session's display, a path in its home folder), never the machine outside.
"""

from __future__ import annotations

import copy
import os
import shutil
import sqlite3
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar

from pydantic import Field, PositiveFloat

from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.sources.base import SourceType
from gui_agent.schema import NonBlank, SingleKey, StrictModel

#: The file (in the session's ``XDG_RUNTIME_DIR``) the desktop's terminal prints its screen
#: to: :data:`gui_agent.envs.desktop.apps.terminal.SCREEN_FILE`, which a test keeps equal
#: (``checks`` and ``envs`` do not import each other).
TERMINAL_SCREEN_FILE = "terminal-screen.txt"


class CommandOutputArgs(StrictModel):
    """What ``command`` prints on the desktop (its standard output, or its error output
    with ``stream: stderr``), stripped of surrounding blanks unless ``strip: false``.

    A shell line is ``[bash, -c, LINE]``; it runs in the home folder."""

    command: list[NonBlank] = Field(min_length=1)
    stream: str = Field(default="stdout", pattern="^(stdout|stderr)$")
    strip: bool = True
    timeout_s: PositiveFloat = 30.0


class FileTextArgs(StrictModel):
    """The text of the home-relative file ``path``.

    ``dated``: a :func:`~datetime.datetime.strftime` format; today's date in it goes into the
    file's name before its first dot when the file is read (OSWorld's ``time_suffix``:
    ``report.csv`` read on 2024-05-01 with ``%Y_%m_%d`` is ``report2024_05_01.csv``)."""

    path: NonBlank
    dated: NonBlank | None = None


class TaskFileTextArgs(StrictModel):
    """The text of a file shipped in the task's folder (a gold file, a declared input)."""

    path: NonBlank


class FolderEntriesArgs(StrictModel):
    """The names in the home-relative folder ``path`` (hidden ones too), sorted."""

    path: NonBlank


class ClipboardArgs(StrictModel):
    """The text on the session's clipboard (``selection: primary``: the mouse selection)."""

    selection: str = Field(default="clipboard", pattern="^(clipboard|primary)$")


class NoArgs(StrictModel):
    """Nothing to say: the source reads one thing of the session."""


class WindowSizeArgs(StrictModel):
    """The first window (in the window manager's list) whose ``WM_CLASS`` instance or class
    is ``wm_class`` (any case)."""

    wm_class: NonBlank


class ConstantArgs(StrictModel):
    """A value written in the task itself (OSWorld's ``rule`` getter: the rules as they are)."""

    value: Any


class RelativeTimeRuleArgs(StrictModel):
    """OSWorld's ``rule_relativeTime`` rules: ``relativeTime`` (``from``, optional ``to``)
    names days relative to the day the check runs ("tomorrow", "next Monday"); the
    ``expected`` texts' placeholders (``{DoW}``, ``{Month}``, ``{DayD}``...) take those days."""

    rules: dict[str, Any]


class XlsxLastRowArgs(StrictModel):
    """The last row of the workbook's first sheet (the first row being its header), each
    cell as pandas writes it as text (``5``, ``5.5``, ``nan``)."""

    path: NonBlank


class SqliteValueArgs(StrictModel):
    """The first column of the first row ``sql`` returns on a copy of the SQLite file (None
    without rows)."""

    path: NonBlank
    sql: NonBlank


class DocxTextArgs(StrictModel):
    """The text of a Word document's paragraphs, one per line."""

    path: NonBlank


class PdfTextArgs(StrictModel):
    """The text of a PDF's pages, as PDFium extracts it (OSWorld reads it with pdfplumber,
    whose spacing can differ)."""

    path: NonBlank


class CommandOutputSource(SingleKey):
    name: ClassVar[str] = "command_output"
    command_output: CommandOutputArgs


class FileTextSource(SingleKey):
    name: ClassVar[str] = "file_text"
    file_text: FileTextArgs


class TaskFileTextSource(SingleKey):
    name: ClassVar[str] = "task_file_text"
    task_file_text: TaskFileTextArgs


class FolderEntriesSource(SingleKey):
    name: ClassVar[str] = "folder_entries"
    folder_entries: FolderEntriesArgs


class ClipboardSource(SingleKey):
    name: ClassVar[str] = "clipboard"
    clipboard: ClipboardArgs


class TerminalTextSource(SingleKey):
    name: ClassVar[str] = "terminal_text"
    terminal_text: NoArgs


class ScreenSizeSource(SingleKey):
    name: ClassVar[str] = "screen_size"
    screen_size: NoArgs


class WindowSizeSource(SingleKey):
    name: ClassVar[str] = "window_size"
    window_size: WindowSizeArgs


class ConstantSource(SingleKey):
    name: ClassVar[str] = "constant"
    constant: ConstantArgs


class RelativeTimeRuleSource(SingleKey):
    name: ClassVar[str] = "relative_time_rule"
    relative_time_rule: RelativeTimeRuleArgs


class XlsxLastRowSource(SingleKey):
    name: ClassVar[str] = "xlsx_last_row"
    xlsx_last_row: XlsxLastRowArgs


class SqliteValueSource(SingleKey):
    name: ClassVar[str] = "sqlite_value"
    sqlite_value: SqliteValueArgs


class DocxTextSource(SingleKey):
    name: ClassVar[str] = "docx_text"
    docx_text: DocxTextArgs


class PdfTextSource(SingleKey):
    name: ClassVar[str] = "pdf_text"
    pdf_text: PdfTextArgs


# ---------------------------------------------------------------------- readers


def _command_output(args: CommandOutputArgs, probe: DesktopProbe) -> str:
    done = probe.run_command(args.command, timeout_s=args.timeout_s)
    text = done.stdout if args.stream == "stdout" else done.stderr
    return text.strip() if args.strip else text


def dated_name(path: str, time_format: str, now: datetime) -> str:
    """``path`` with ``now`` (formatted) before its name's first dot, as OSWorld's ``time_suffix``
    does it (``a/report.csv`` -> ``a/report2024_05_01.csv``; no dot: unchanged)."""
    folder, _, name = path.rpartition("/")
    if "." not in name:
        return path
    stem, _, rest = name.partition(".")
    dated = f"{stem}{now.strftime(time_format)}.{rest.split('.')[0]}"
    return f"{folder}/{dated}" if folder else dated


def _file_text(args: FileTextArgs, probe: DesktopProbe) -> str:
    path = dated_name(args.path, args.dated, datetime.now()) if args.dated else args.path
    return probe.resolve_path(path).read_text(errors="replace")


def _task_file_text(args: TaskFileTextArgs, probe: DesktopProbe) -> str:
    return probe.task_file(args.path).read_text(errors="replace")


def _folder_entries(args: FolderEntriesArgs, probe: DesktopProbe) -> list[str]:
    folder = probe.resolve_path(args.path)
    if not folder.is_dir():
        raise FileNotFoundError(f"{args.path} is not a folder in the home folder")
    return sorted(os.listdir(folder))


def _clipboard(args: ClipboardArgs, probe: DesktopProbe) -> str:
    # xclip exits 1 with no output when nothing owns the selection: an empty clipboard.
    return probe.run_command(["xclip", "-selection", args.selection, "-o"], timeout_s=10.0).stdout


#: Finds the focused window's terminal and has it print its screen (``ESC [ i``, "media
#: copy", written to the terminal's own tty, is output, not input: the shell sees nothing),
#: then waits for the terminal's printer command to have written the file. Exit 3: the
#: focused window is not a terminal; 4: the terminal has no shell on a tty; 5: no print.
_PRINT_TERMINAL = r"""
out="${XDG_RUNTIME_DIR:?}/$1"
win=$(xdotool getactivewindow 2>/dev/null) || exit 3
xprop -id "$win" WM_CLASS 2>/dev/null | grep -q '"XTerm"$' || exit 3
pid=$(xdotool getwindowpid "$win" 2>/dev/null) || exit 3
tty=$(ps --ppid "$pid" -o tty= | head -n 1 | tr -d ' ')
case "$tty" in ''|'?') exit 4 ;; esac
rm -f "$out"
printf '\033[i' > "/dev/$tty" || exit 4
i=0
while [ ! -e "$out" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -e "$out" ] || exit 5
cat "$out"
"""


def _terminal_text(args: NoArgs, probe: DesktopProbe) -> str | None:
    """The focused terminal's screen as text, right blanks stripped (OSWorld reads the
    focused GNOME Terminal's text the same way); None when no terminal has the focus."""
    done = probe.run_command(["sh", "-c", _PRINT_TERMINAL, "print-terminal", TERMINAL_SCREEN_FILE], timeout_s=15.0)
    if done.returncode in (3, 4):
        return None
    if done.returncode != 0:
        raise RuntimeError(f"the focused terminal did not print its screen (exit {done.returncode}): {done.stderr.strip()}"
                           " - was it started as the desktop's terminal app?")
    return done.stdout.rstrip()


def _screen_size(args: NoArgs, probe: DesktopProbe) -> dict[str, int]:
    width, height = probe.run_command(["xdotool", "getdisplaygeometry"], timeout_s=10.0).stdout.split()
    return {"width": int(width), "height": int(height)}


#: Lists ``_NET_CLIENT_LIST`` and prints the size of the first window of the class ``$1``.
_WINDOW_SIZE = r"""
want=$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]')
for win in $(xprop -root _NET_CLIENT_LIST | sed 's/.*# //; s/,/ /g'); do
  classes=$(xprop -id "$win" WM_CLASS 2>/dev/null | sed -n 's/^WM_CLASS([^)]*) = //p' | tr '[:upper:]' '[:lower:]')
  if printf '%s' "$classes" | tr -d '"' | tr ',' '\n' | sed 's/^ *//' | grep -qxF "$want"; then
    xwininfo -id "$win" | sed -n 's/^ *Width: //p; s/^ *Height: //p'
    exit 0
  fi
done
exit 3
"""


def _window_size(args: WindowSizeArgs, probe: DesktopProbe) -> dict[str, int] | None:
    done = probe.run_command(["sh", "-c", _WINDOW_SIZE, "window-size", args.wm_class], timeout_s=10.0)
    if done.returncode != 0:
        return None
    width, height = done.stdout.split()
    return {"width": int(width), "height": int(height)}


def _xlsx_last_row(args: XlsxLastRowArgs, probe: DesktopProbe) -> list[str]:
    import pandas as pd  # the cells' text is pandas' (OSWorld reads the row with it)

    frame = pd.read_excel(probe.resolve_path(args.path))
    return [str(v) for v in frame.iloc[-1].astype(str).tolist()]


def _sqlite_value(args: SqliteValueArgs, probe: DesktopProbe) -> Any:
    """On a copy, like OSWorld (it fetches the file from the VM): an app holding the
    database open (Thunderbird) neither blocks the read nor sees it."""
    source = probe.resolve_path(args.path)
    if not source.is_file():
        raise FileNotFoundError(f"{args.path} does not exist")
    with tempfile.TemporaryDirectory() as folder:
        copied = Path(folder) / source.name
        shutil.copyfile(source, copied)
        connection = sqlite3.connect(copied)
        try:
            row = connection.execute(args.sql).fetchone()
        finally:
            connection.close()
    return None if row is None else row[0]


def _docx_text(args: DocxTextArgs, probe: DesktopProbe) -> str:
    from docx import Document

    return "\n".join(p.text for p in Document(str(probe.resolve_path(args.path))).paragraphs)


def _pdf_text(args: PdfTextArgs, probe: DesktopProbe) -> str:
    from gui_agent.checks.files.pdf import pdf_text

    return pdf_text(probe.resolve_path(args.path))


# ---------------------------------------------------------------------- relative days

_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def _next_month_day(now: datetime, day: int) -> datetime:
    return datetime(now.year + (now.month == 12), now.month % 12 + 1, day)


def _first_monday_four_months_later(now: datetime) -> datetime:
    # As OSWorld counts it: the year turns from September on; (month + 4) % 12 (December is 0
    # there, which datetime refuses: such a day has no date, here as there).
    first = datetime(now.year + (now.month >= 9), (now.month + 4) % 12, 1)
    return first + timedelta(days=(7 - first.weekday()) % 7)


def _next_friday(now: datetime, start: str) -> datetime:
    weekday = now.weekday()
    if weekday < 4:
        return now + timedelta(days=4 - weekday + (7 if start == "next Monday" else 0))
    return now + timedelta(days=6 - weekday + 5)


#: Relative day names -> the day they name (given the day the check runs and, for a ``to``
#: day, the ``from`` name), as OSWorld's ``get_rule_relativeTime`` counts them.
_DAYS = {
    "tomorrow": lambda now, start: now + timedelta(days=1),
    "5th next month": lambda now, start: _next_month_day(now, 5),
    "10th next month": lambda now, start: _next_month_day(now, 10),
    "11th next month": lambda now, start: _next_month_day(now, 11),
    "this month": lambda now, start: now,
    "next Monday": lambda now, start: now + timedelta(days=7 - now.weekday()),
    "first monday four months later": lambda now, start: _first_monday_four_months_later(now),
    "this Saturday": lambda now, start: now + timedelta(days=5 - now.weekday()),
    "this Sunday": lambda now, start: now + timedelta(days=6 - now.weekday()),
    "next Friday": _next_friday,
}
#: The names OSWorld computes in each place (any other name has no date there: its getter fails).
_ALONE = frozenset({"tomorrow", "5th next month", "10th next month", "this month", "next Monday",
                    "first monday four months later"})
_FROM = frozenset({"tomorrow", "this Saturday", "10th next month", "next Monday"})
_TO = frozenset({"tomorrow", "this Sunday", "11th next month", "next Friday"})


def day_text(template: str, day: datetime) -> str:
    """``template`` with the day's placeholders filled, each once (OSWorld's ``apply_rules_to_timeFormat``)."""
    for key, value in (("{DoW}", _WEEKDAYS[day.weekday()]), ("{Month}", _MONTHS[day.month - 1][:3]),
                       ("{DayD}", str(day.day)), ("{Year}", str(day.year)), ("{Month0D}", f"{day.month:02d}"),
                       ("{month}", _MONTHS[day.month - 1].lower()), ("{MonthFull}", _MONTHS[day.month - 1]),
                       ("{Day0D}", f"{day.day:02d}")):
        template = template.replace(key, value, 1)
    return template


def relative_days_known(relative: Any) -> bool:
    """Whether every day ``relativeTime`` names is one this module knows."""
    if not isinstance(relative, dict) or not isinstance(relative.get("from"), str):
        return False
    if "to" not in relative:
        return relative["from"] in _ALONE
    return relative["from"] in _FROM and isinstance(relative["to"], str) and relative["to"] in _TO


def resolve_relative_time(rules: dict[str, Any], now: datetime) -> dict[str, Any]:
    """A copy of OSWorld's ``rule_relativeTime`` rules with ``expected``'s dates for ``now``:
    ``expected.time`` for ``relativeTime.from`` alone, else ``expected.from`` and ``expected.to``.

    Raises:
        ValueError: a relative day this module does not know, or an ``expected`` without its text.
    """
    relative = rules.get("relativeTime")
    if not relative_days_known(relative):
        raise ValueError(f"relativeTime {relative!r} names a day OSWorld's rules do not define")
    resolved = copy.deepcopy(rules)
    expected = resolved.get("expected")
    if not isinstance(expected, dict):
        raise ValueError("rule_relativeTime needs 'expected' (a mapping)")
    needed = ("time",) if "to" not in relative else ("from", "to")
    if any(key not in expected for key in needed):
        raise ValueError(f"rule_relativeTime needs expected.{' and expected.'.join(needed)}")
    start = _DAYS[relative["from"]](now, "")
    if "to" not in relative:
        expected["time"] = day_text(str(expected["time"]), start)
    else:
        expected["from"] = day_text(str(expected["from"]), start)
        expected["to"] = day_text(str(expected["to"]), _DAYS[relative["to"]](now, relative["from"]))
    return resolved


def _relative_time_rule(args: RelativeTimeRuleArgs, probe: DesktopProbe) -> dict[str, Any]:
    return resolve_relative_time(args.rules, datetime.now())


SOURCES: tuple[SourceType, ...] = (
    SourceType(CommandOutputSource, _command_output),
    SourceType(FileTextSource, _file_text),
    SourceType(TaskFileTextSource, _task_file_text),
    SourceType(FolderEntriesSource, _folder_entries),
    SourceType(ClipboardSource, _clipboard),
    SourceType(TerminalTextSource, _terminal_text),
    SourceType(ScreenSizeSource, _screen_size),
    SourceType(WindowSizeSource, _window_size),
    SourceType(ConstantSource, lambda args, probe: args.value),
    SourceType(RelativeTimeRuleSource, _relative_time_rule),
    SourceType(XlsxLastRowSource, _xlsx_last_row),
    SourceType(SqliteValueSource, _sqlite_value),
    SourceType(DocxTextSource, _docx_text),
    SourceType(PdfTextSource, _pdf_text),
)
