"""Thunderbird and data-file checks (prefs.js, filters, accounts, mail folders, line lists,
CSV, JSON, SQLite, PDF pages), each on a file that passes and one that fails."""

from __future__ import annotations

import json
import mailbox
import sqlite3
from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.task.check_helpers import FolderProbe, check, passes

PROFILE = ".thunderbird/t5q2a5hp.default-release"


@pytest.fixture
def probe(tmp_path: Path) -> FolderProbe:
    (tmp_path / "home").mkdir()
    return FolderProbe(home=tmp_path / "home", task_dir=tmp_path / "task")


def write(probe: FolderProbe, path: str, text: str) -> None:
    target = probe.home / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)


def prefs(**values: object) -> str:
    return "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in values.items())


def test_thunderbird_prefs_expect_and_unexpect(probe: FolderProbe) -> None:
    write(probe, f"good/{PROFILE}/prefs.js", prefs(**{"mail.server.default.applyIncomingFilters": True,
                                                       "extensions.activeThemeID": "thunderbird-compact-dark@mozilla.org"}))
    write(probe, f"bad/{PROFILE}/prefs.js", prefs(**{"mail.server.default.applyIncomingFilters": True,
                                                      "mail.server.default.autosync_offline_stores": False}))
    spec = {"expect": {"mail.server.default.applyIncomingFilters": {"method": "eq", "ref": True}},
            "unexpect": {"mail.server.default.autosync_offline_stores": {"method": "eq", "ref": False}}}
    assert passes({"thunderbird_prefs": {"path": f"good/{PROFILE}/prefs.js", **spec}}, probe, apps="calc")
    report = check({"thunderbird_prefs": {"path": f"bad/{PROFILE}/prefs.js", **spec}}, probe)
    assert not report["passed"] and "autosync_offline_stores is False, which must not be" in report["reason"]
    dark = {"expect": {"extensions.activeThemeID": {"method": "re", "ref": "dark"}}}
    assert passes({"thunderbird_prefs": {"path": f"good/{PROFILE}/prefs.js", **dark}}, probe)
    assert not passes({"thunderbird_prefs": {"path": f"bad/{PROFILE}/prefs.js", **dark}}, probe)


FILTERS = '''version="9"
logging="no"
name="Forward all"
enabled="{enabled}"
type="17"
action="Forward"
actionValue="anonym-x2024@gmail.com"
condition="ALL"
name="Reports"
enabled="yes"
type="17"
action="Move to folder"
actionValue="mailbox://nobody@Local%20Folders/Reports"
condition="AND (subject,contains,report)"
'''


def test_thunderbird_filters(probe: FolderProbe) -> None:
    write(probe, "good/msgFilterRules.dat", FILTERS.format(enabled="yes"))
    write(probe, "bad/msgFilterRules.dat", FILTERS.format(enabled="no"))
    spec = {"expect": [{"enabled": "yes", "action": "Forward", "actionValue": "anonym-x2024@gmail.com", "condition": ["ALL"]}]}
    assert passes({"thunderbird_filters": {"path": "good/msgFilterRules.dat", **spec}}, probe)
    assert not passes({"thunderbird_filters": {"path": "bad/msgFilterRules.dat", **spec}}, probe)
    conditions = {"expect": [{"name": "Reports", "condition": ["AND (subject,contains,report)"]}]}
    assert passes({"thunderbird_filters": {"path": "bad/msgFilterRules.dat", **conditions}}, probe)


def test_thunderbird_accounts(probe: FolderProbe) -> None:
    account = {"mail.server.server2.type": "imap", "mail.server.server2.hostname": "outlook.office365.com",
               "mail.server.server2.userName": "anonym-x2024@outlook.com",
               "mail.server.server1.type": "none", "mail.server.server1.hostname": "Local Folders"}
    write(probe, f"kept/{PROFILE}/prefs.js", prefs(**account))
    write(probe, f"removed/{PROFILE}/prefs.js", prefs(**{k: v for k, v in account.items() if "server1" in k}))
    spec = {"unexpect": [{"url": "imap://outlook.office365.com", "user": "anonym-x2024@outlook.com"}]}
    assert passes({"thunderbird_accounts": {"profile": f"removed/{PROFILE}", **spec}}, probe)
    report = check({"thunderbird_accounts": {"profile": f"kept/{PROFILE}", **spec}}, probe)
    assert not report["passed"] and "must not be there" in report["reason"]


def test_mail_folder(probe: FolderProbe) -> None:
    folder = probe.home / "Mail/Local Folders/Archive"
    folder.parent.mkdir(parents=True)
    box = mailbox.mbox(str(folder))
    for subject, status in (("Quarterly report", "0001"), ("Old news", "0009")):
        message = EmailMessage()
        message["Subject"], message["X-Mozilla-Status"] = subject, status
        message.set_content("x")
        box.add(message)
    box.close()
    assert passes({"mail_folder": {"path": "Mail/Local Folders/Archive", "subjects": ["report"], "min_messages": 1}}, probe)
    assert not passes({"mail_folder": {"path": "Mail/Local Folders/Archive", "subjects": ["Old news"]}}, probe)
    assert not passes({"mail_folder": {"path": "Mail/Local Folders/COMPANY"}}, probe)


def test_lines_match(probe: FolderProbe) -> None:
    write(probe, "good.ls", "Local Folders:\nCOMPANY\nCOMPANY.msf\nInbox\n")
    write(probe, "bad.ls", "Local Folders:\nCOMPANY.msf\nInbox\n")
    spec = {"expect": [r"\bCOMPANY\.msf\b", r"^COMPANY$"], "unexpect": [r"\bTrash\b"]}
    assert passes({"lines_match": {"path": "good.ls", **spec}}, probe)
    report = check({"lines_match": {"path": "bad.ls", **spec}}, probe)
    assert not report["passed"] and "no line matches '^COMPANY$'" in report["reason"]


def test_csv_rows(probe: FolderProbe) -> None:
    write(probe, "good.csv", "url,user,password\nimap://a.example,ann,x\n")
    write(probe, "bad.csv", "url,user,password\nimap://b.example,bob,y\n")
    spec = {"expect": [{"url": "imap://a.example", "user": "ann"}]}
    assert passes({"csv_rows": {"path": "good.csv", **spec}}, probe)
    assert not passes({"csv_rows": {"path": "bad.csv", **spec}}, probe)


def test_json_values(probe: FolderProbe) -> None:
    write(probe, "good.json", json.dumps({"browser": {"zoom": [1, 1.5]}}))
    write(probe, "bad.json", json.dumps({"browser": {}}))
    spec = {"expect": [{"key": ["browser", "zoom", 1], "rule": {"method": "approx", "ref": 1.5, "tolerance": 0.01}}]}
    assert passes({"json_values": {"path": "good.json", **spec}}, probe)
    report = check({"json_values": {"path": "bad.json", **spec}}, probe)
    assert not report["passed"] and "is not there" in report["reason"]


def test_sqlite_query(probe: FolderProbe) -> None:
    for name, rows in (("good.sqlite", [("Inbox", 3)]), ("bad.sqlite", [("Inbox", 1)])):
        connection = sqlite3.connect(probe.home / name)
        connection.execute("create table folders (name text, messages int)")
        connection.executemany("insert into folders values (?, ?)", rows)
        connection.commit()
        connection.close()
    spec = {"query": "select name, messages from folders", "equals": [["Inbox", 3]]}
    assert passes({"sqlite_query": {"path": "good.sqlite", **spec}}, probe)
    assert not passes({"sqlite_query": {"path": "bad.sqlite", **spec}}, probe)
    write_attempt = check({"sqlite_query": {"path": "good.sqlite", "query": "delete from folders", "equals": []}}, probe)
    assert "error" in write_attempt and "readonly" in write_attempt["error"]


def test_pdf_pages(probe: FolderProbe) -> None:
    page = b"<< /Type /Page /Parent 2 0 R >>\n"
    (probe.home / "one.pdf").write_bytes(b"%PDF-1.4\n<< /Type /Pages /Count 1 >>\n" + page)
    (probe.home / "two.pdf").write_bytes(b"%PDF-1.4\n<< /Type /Pages /Count 2 >>\n" + page * 2)
    assert passes({"pdf_pages": {"path": "one.pdf", "pages": {"method": "eq", "ref": 1}}}, probe)
    assert not passes({"pdf_pages": {"path": "two.pdf", "pages": {"method": "eq", "ref": 1}}}, probe)


def test_infeasible_reported(probe: FolderProbe) -> None:
    said = {"success": False, "answer": "Writer has no real-time co-editing."}
    assert passes({"infeasible_reported": None}, FolderProbe(probe.home, done=said))
    for done in (None, {"success": True, "answer": "done"}, {"success": False, "answer": " "}):
        assert not passes({"infeasible_reported": None}, FolderProbe(probe.home, done=done)), done
    assert not passes({"infeasible_reported": {"answer_matches": "cannot"}}, FolderProbe(probe.home, done=said))
