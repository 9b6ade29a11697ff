"""Desktop task files (schema, located errors) and the office evaluators, without a display.

Every evaluator of the Calc suite is shown a deliberately wrong result (the input file
with a plausible mistake, written with openpyxl) and must reject it, saying why. The
e-mail check reads a real SMTP server on loopback, fed with smtplib.
"""

from __future__ import annotations

import shutil
import smtplib
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from gui_agent.checks.evaluation import evaluate
from gui_agent.envs.desktop.apps.catalogue import APPS, DesktopApp
from gui_agent.envs.desktop.mail_server import SmtpServer
from gui_agent.envs.desktop.settings import DesktopEnvironment
from gui_agent.errors import TaskFileError
from gui_agent.task import load_task, load_task_text
from gui_agent.models.policies.desktop_oracle import SCRIPTS
from tests.paths import REPO

ROOT = REPO
CALC = ROOT / "datasets" / "tasks" / "desktop" / "calc"
CALC_TASKS = sorted(CALC.glob("*.yaml"))


class FolderProbe:
    """The desktop probe protocol over plain folders: ``home`` for task paths, the task's
    folder for shipped files, a real SMTP server for mail."""

    def __init__(self, home: Path, task_dir: Path, smtp: SmtpServer | None = None) -> None:
        self.home, self.task_dir, self.smtp = home, task_dir, smtp

    def resolve_path(self, path: str) -> Path:
        return self.home / path.removeprefix("~/")

    def task_file(self, path: str) -> Path:
        return self.task_dir / path

    def received_mail(self) -> list[Any]:
        return self.smtp.received() if self.smtp is not None else []


# --------------------------------------------------------------------------- schema


def test_app_names_match_the_environment_launchers() -> None:
    from typing import get_args

    assert set(get_args(DesktopApp)) == set(APPS)


def test_calc_suite_loads_and_every_task_has_an_oracle_script() -> None:
    assert len(CALC_TASKS) >= 10
    ids = set()
    for path in CALC_TASKS:
        task = load_task(path)
        assert isinstance(task.environment, DesktopEnvironment) and task.environment.apps == ["calc"]
        assert task.evaluator is not None and task.task_dir == CALC
        assert task.id in SCRIPTS, task.id
        ids.add(task.id)
        for step in task.setup:
            source = getattr(step.args, "from_", None)
            if source:
                assert (CALC / source).is_file(), f"{path.name}: {source} missing"
    assert len(ids) == len(CALC_TASKS)


def test_mail_suite_loads_and_every_task_has_an_oracle_script() -> None:
    mail_dir = ROOT / "datasets" / "tasks" / "desktop" / "mail"
    paths = sorted(mail_dir.glob("*.yaml"))
    assert len(paths) >= 5
    for path in paths:
        task = load_task(path)
        assert task.environment.apps == ["thunderbird"] and task.environment.mail is not None
        assert task.id in SCRIPTS and task.evaluator is not None
        for step in task.setup:
            for attachment in getattr(step.args, "attachments", []):
                assert (mail_dir / attachment.from_).is_file()


HEAD = "id: t\ninstruction: Do it.\nenvironment: {kind: desktop, apps: [calc]}\n"  # lines 1-3
MAIL_HEAD = "id: t\ninstruction: Do it.\nenvironment: {kind: desktop, mail: {}}\n"


@pytest.mark.parametrize(
    ("text", "line", "needles"),
    [
        (HEAD + "setup:\n  - place_file: {path: /etc/passwd, text: x}\n", 5,
         ["setup[0].place_file.path", "absolute paths are not allowed"]),
        (HEAD + "setup:\n  - open_file: {path: ../up.xlsx, app: calc}\n", 5, ["'..' is not allowed"]),
        (HEAD + "setup:\n  - place_file: {path: a.xlsx, url: 'https://example.org/a.xlsx'}\n", 5,
         ["place_file.url", "only loopback URLs", "source_url"]),
        (HEAD + "setup:\n  - place_file: {path: a.xlsx, text: x, from: a.xlsx}\n", 5,
         ["exactly one of: from, url, text; got from, text"]),
        (HEAD + "setup:\n  - launch: {app: calc, command: [soffice]}\n", 5, ["exactly one of: app, command"]),
        (HEAD + "setup:\n  - launch: {command: [xmessage, hi]}\n", 5, ["give 'window'", "wait: false"]),
        (HEAD + "setup:\n  - goto: {url: 'https://example.org/'}\n", 4,
         ["setup[0] is a 'goto' step", "a desktop environment cannot run", "place_file"]),
        (HEAD + "evaluator:\n  url_matches: {pattern: x}\n", 4, ["cannot evaluate the check 'url_matches'"]),
        ("id: t\ninstruction: x\nenvironment: {kind: desktop, apps: [exel]}\n", 3,
         ["environment.apps[0]", "expected one of: calc, writer, impress, thunderbird"]),
        ("id: t\ninstruction: x\nenvironment: {kind: desktop, apps: [thunderbird]}\n", 3,
         ["needs 'mail'"]),
        ("id: t\ninstruction: x\nenvironment: {kind: desktop, screen: {width: 10}}\n", 3,
         ["environment.screen.width", "at least 320"]),
        (HEAD + "evaluator:\n  cell_value: {path: a.xlsx, cell: B0, equals: 1}\n", 5,
         ["evaluator.cell_value.cell", "cell reference like 'B7'"]),
        (HEAD + "evaluator:\n  cell_range: {path: a.xlsx, range: A1:B2, equals: [[1, 2]]}\n", 5,
         ["range A1:B2 has 2 row(s) of 2 cell(s)"]),
        (HEAD + "evaluator:\n  cell_style: {path: a.xlsx, cell: A1}\n", 5, ["at least one of: bold, italic, number_format"]),
        (HEAD + "evaluator:\n  email_received: {attachment_contains: x}\n", 5, ["needs 'attachment'"]),
        (HEAD + "evaluator:\n  email_received: {to: a@example.test}\n", 3,
         ["'email_received' needs the environment's mail server", "mail: {address: ...}"]),
        (HEAD + "evaluator:\n  sheet_names: {path: a.xlsx}\n", 5, ["exactly one of: equals, contains, same_as; got none"]),
    ],
)
def test_malformed_desktop_tasks_name_file_line_and_problem(text: str, line: int, needles: list[str]) -> None:
    with pytest.raises(TaskFileError) as caught:
        load_task_text(text, "bad.yaml")
    message = str(caught.value)
    assert message.startswith(f"bad.yaml:{line}:"), message
    for needle in needles:
        assert needle in message, message


# --------------------------------------------------------------------------- evaluators


def _edit(path: Path, change: Callable[[Any], None]) -> None:
    workbook = openpyxl.load_workbook(path)
    change(workbook)
    workbook.save(path)


def _cells(sheet: str, values: dict[str, Any]) -> Callable[[Any], None]:
    def change(workbook: Any) -> None:
        for ref, value in values.items():
            workbook[sheet][ref] = value
    return change


def _bold(sheet: str, refs: list[str]) -> Callable[[Any], None]:
    def change(workbook: Any) -> None:
        from openpyxl.styles import Font

        for ref in refs:
            workbook[sheet][ref].font = Font(bold=True)
    return change


def _format(sheet: str, refs: list[str], code: str) -> Callable[[Any], None]:
    def change(workbook: Any) -> None:
        for ref in refs:
            workbook[sheet][ref].number_format = code
    return change


def _sheet_attr(sheet: str, **attrs: Any) -> Callable[[Any], None]:
    def change(workbook: Any) -> None:
        for key, value in attrs.items():
            if key == "autofilter":
                workbook[sheet].auto_filter.ref = value
            else:
                setattr(workbook[sheet], key, value)
    return change


#: task name -> (file the evaluator reads, a plausible mistake, words the verdict must contain)
WRONG: dict[str, tuple[str, Callable[[Any], None] | None, list[str]]] = {
    "enter-data": ("inventory.xlsx", _cells("Inventory", {"A2": "Pens", "B2": "12", "A3": "Paper", "B3": 500,
                                                          "A4": "Stapler", "B4": 3}), ["B2 is '12'", "expected 12"]),
    "sum-column": ("sales.xlsx", _cells("Sales", {"B6": "=SUM(B2:B4)"}), ["SUM(B2:B4)", "does not match"]),
    "product-formula": ("orders.xlsx", _cells("Orders", {"D2": 300, "D3": 300, "D4": 100, "D5": 180}), ["holds no formula"]),
    "average-max": ("scores.xlsx", _cells("Scores", {"B8": "=AVERAGE(B2:B5)", "B9": "=MAX(B2:B6)"}), ["AVERAGE(B2:B5)"]),
    "sort-descending": ("ranking.xlsx", _cells("Ranking", {"A2": "Ben", "B2": 67, "A6": "Chen", "B6": 91}),
                        ["A2 is 'Ben', expected 'Chen'"]),
    "autofilter": ("shipments.xlsx", _sheet_attr("Orders", autofilter="A1:B9"), ["auto-filter covers 'A1:B9'"]),
    "insert-sheet": ("projects.xlsx", lambda wb: wb.create_sheet("Summary", 0), ["['Summary', 'Data']"]),
    "rename-sheet": ("budget.xlsx", lambda wb: setattr(wb["Sheet1"], "title", "budget"), ["['budget']"]),
    "bold-header": ("staff.xlsx", _bold("Staff", ["A1", "B1", "C1"]), ["D1 bold is False, expected True"]),
    "number-format": ("prices.xlsx", _format("Prices", ["B2", "B3", "B4", "B5", "B6"], "0.00"),
                      ["number_format is '0.00', expected '#,##0.00'"]),
    "freeze-first-row": ("log.xlsx", _sheet_attr("Log", freeze_panes="B1"), ["frozen panes start at 'B1'"]),
    "delete-row": ("products.xlsx", _cells("Products", {"A4": None, "B4": None}), ["A4 is None, expected 'Monitor'"]),
    "save-as-xlsx": ("report.xls", None, ["report.xlsx does not exist"]),
}


def test_every_calc_task_has_a_wrong_solution_case() -> None:
    assert set(WRONG) == {p.stem for p in CALC_TASKS}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_each_calc_evaluator_rejects_a_wrong_solution(name: str, tmp_path: Path) -> None:
    task = load_task(CALC / f"{name}.yaml")
    file_name, mistake, needles = WRONG[name]
    shipped = next(step.args.from_ for step in task.setup if getattr(step.args, "from_", None))
    target = tmp_path / file_name
    shutil.copyfile(CALC / shipped, target)
    if mistake is not None:
        _edit(target, mistake)
    result = evaluate(task.evaluator, FolderProbe(tmp_path, CALC))
    assert not result.success and result.reward == 0.0
    reason = str(result.detail)
    for needle in needles:
        assert needle in reason, reason


def test_spreadsheet_checks_pass_on_the_right_content(tmp_path: Path) -> None:
    """The same checks accept correct content: the verdicts above are not vacuous."""
    shutil.copyfile(CALC / "files" / "sales.xlsx", tmp_path / "sales.xlsx")
    _edit(tmp_path / "sales.xlsx", _cells("Sales", {"B6": "=SUM(B2:B5)"}))
    _edit(tmp_path / "sales.xlsx", _bold("Sales", ["A1"]))
    _edit(tmp_path / "sales.xlsx", _sheet_attr("Sales", freeze_panes="A2", autofilter="A1:C5"))
    evaluator = load_task_text(HEAD + """evaluator:
  all_of:
    - cell_formula: {path: sales.xlsx, sheet: Sales, cell: B6, equals: '= sum(b2:b5)'}
    - cell_value: {path: sales.xlsx, sheet: Sales, cell: A2, equals: North}
    - cell_value: {path: sales.xlsx, sheet: Sales, cell: B2, equals: 120.0000001}
    - cell_value: {path: sales.xlsx, sheet: Sales, cell: D9, equals: null}
    - cell_range: {path: sales.xlsx, range: A1:B2, equals: [[Region, Q1], [North, 120]]}
    - sheet_names: {path: sales.xlsx, contains: [Sales]}
    - cell_style: {path: sales.xlsx, sheet: Sales, cell: A1, bold: true}
    - sheet_layout: {path: sales.xlsx, sheet: Sales, freeze_panes: A2, autofilter: A1:C5}
    - sheet_data_equal: {path: sales.xlsx, expected: files/sales.xlsx, sheets: [0]}
    - file_exists: {path: ~/sales.xlsx}
""").evaluator
    result = evaluate(evaluator, FolderProbe(tmp_path, CALC))
    assert result.success, [c for c in result.detail["children"] if not c["passed"]]
    _edit(tmp_path / "sales.xlsx", _cells("Sales", {"C3": 111}))
    changed = evaluate(evaluator.all_of[8], FolderProbe(tmp_path, CALC))
    assert not changed.success and "Sales!C3 is 111, expected 110" in changed.detail["reason"]


def test_unreadable_file_fails_as_could_not_be_evaluated(tmp_path: Path) -> None:
    (tmp_path / "broken.xlsx").write_text("not a zip")
    evaluator = load_task_text(HEAD + "evaluator:\n  not:\n    cell_value: {path: broken.xlsx, cell: A1, equals: 1}\n").evaluator
    result = evaluate(evaluator, FolderProbe(tmp_path, CALC))
    assert not result.success and "error" in result.detail  # never a pass under `not`


def test_file_checks(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("Meeting at 10:30 in room 4\n")
    evaluator = load_task_text(HEAD + """evaluator:
  all_of:
    - file_contains: {path: notes.txt, text: room 4}
    - file_contains: {path: notes.txt, matches: '\\d\\d:\\d\\d'}
    - not: {file_exists: {path: other.txt}}
    - not: {file_contains: {path: notes.txt, text: room 5}}
""").evaluator
    result = evaluate(evaluator, FolderProbe(tmp_path, CALC))
    assert result.success, result.detail


# --------------------------------------------------------------------------- e-mail


@pytest.fixture
def smtp(tmp_path: Path):
    server = SmtpServer(store_dir=tmp_path / "mail")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _send(port: int, *, to: str, subject: str, body: str, attachment: tuple[str, bytes] | None = None,
          in_reply_to: str | None = None) -> None:
    message = EmailMessage()
    message["From"] = "Alex Doe <me@example.test>"
    message["To"] = to
    message["Subject"] = subject
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        message["References"] = in_reply_to
    message.set_content(body)
    if attachment:
        message.add_attachment(attachment[1], maintype="application", subtype="octet-stream", filename=attachment[0])
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        client.send_message(message)


def test_email_received_checks_recipient_subject_body_attachment_and_reply(smtp: SmtpServer, tmp_path: Path) -> None:
    _send(smtp.port, to="Bo <bo@example.test>", subject="Re: Q3 figures", body="Thanks, numbers look good.",
          attachment=("q3.csv", b"month,revenue\nJul,41000\n"), in_reply_to="<q3@example.test>")
    assert (tmp_path / "mail" / "0001.eml").is_file()
    probe = FolderProbe(tmp_path, CALC, smtp)

    def verdict(args: str) -> Any:
        return evaluate(load_task_text(MAIL_HEAD + f"evaluator:\n  email_received: {args}\n").evaluator, probe)

    right = verdict("{to: bo@example.test, subject_contains: q3 figures, body_contains: look good, "
                    "attachment: q3.csv, attachment_contains: 'Jul,41000', in_reply_to: '<q3@example.test>'}")
    assert right.success, right.detail
    for wrong, needle in [
        ("{to: cy@example.test}", "not sent to cy@example.test"),
        ("{subject_contains: budget}", "lacks 'budget'"),
        ("{body_contains: rejected}", "body lacks 'rejected'"),
        ("{attachment: q4.csv}", "no attachment 'q4.csv' (attachments: ['q3.csv'])"),
        ("{attachment: q3.csv, attachment_contains: Aug}", "lacks 'Aug'"),
        ("{in_reply_to: '<other@example.test>'}", "not a reply to"),
        ("{to: bo@example.test, count: 2}", "1 of 1 received message(s) match, need 2"),
    ]:
        result = verdict(wrong)
        assert not result.success and needle in result.detail["reason"], (wrong, result.detail["reason"])


def test_email_received_fails_when_nothing_was_sent(smtp: SmtpServer, tmp_path: Path) -> None:
    result = evaluate(load_task_text(MAIL_HEAD + "evaluator:\n  email_received: {to: bo@example.test}\n").evaluator,
                      FolderProbe(tmp_path, CALC, smtp))
    assert not result.success and result.detail["reason"] == "the mail server received no message"
