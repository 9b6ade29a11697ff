"""File checks of plain data (line lists, CSV, JSON, SQLite, PDF pages), each on a file
that passes and one that fails."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.checks.check_helpers import FolderProbe, check, passes


@pytest.fixture
def probe(tmp_path: Path) -> FolderProbe:
    (tmp_path / "home").mkdir()
    return FolderProbe(home=tmp_path / "home", task_dir=tmp_path / "task")


def test_lines_match(probe: FolderProbe) -> None:
    probe.write("good.ls", "Local Folders:\nCOMPANY\nCOMPANY.msf\nInbox\n")
    probe.write("bad.ls", "Local Folders:\nCOMPANY.msf\nInbox\n")
    spec = {"expect": [r"\bCOMPANY\.msf\b", r"^COMPANY$"], "unexpect": [r"\bTrash\b"]}
    assert passes({"lines_match": {"path": "good.ls", **spec}}, probe)
    report = check({"lines_match": {"path": "bad.ls", **spec}}, probe)
    assert not report["passed"] and "no line matches '^COMPANY$'" in report["reason"]


def test_csv_rows(probe: FolderProbe) -> None:
    probe.write("good.csv", "url,user,password\nimap://a.example,ann,x\n")
    probe.write("bad.csv", "url,user,password\nimap://b.example,bob,y\n")
    spec = {"expect": [{"url": "imap://a.example", "user": "ann"}]}
    assert passes({"csv_rows": {"path": "good.csv", **spec}}, probe)
    assert not passes({"csv_rows": {"path": "bad.csv", **spec}}, probe)


def test_json_values(probe: FolderProbe) -> None:
    probe.write("good.json", json.dumps({"browser": {"zoom": [1, 1.5]}}))
    probe.write("bad.json", json.dumps({"browser": {}}))
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
    from PIL import Image

    pages = [Image.new("RGB", (200, 100), color) for color in ("white", "gray")]
    pages[0].save(probe.home / "one.pdf")
    pages[0].save(probe.home / "two.pdf", save_all=True, append_images=pages[1:])
    assert passes({"pdf_pages": {"path": "one.pdf", "pages": {"method": "eq", "ref": 1}}}, probe)
    assert not passes({"pdf_pages": {"path": "two.pdf", "pages": {"method": "eq", "ref": 1}}}, probe)
