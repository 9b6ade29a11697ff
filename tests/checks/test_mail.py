"""Mail checks of the mail client's files (Thunderbird's prefs.js, message filters,
accounts, mail folders), each on a file that passes and one that fails."""

from __future__ import annotations

import json
import mailbox
from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.checks.check_helpers import FolderProbe, check, passes

PROFILE = ".thunderbird/t5q2a5hp.default-release"


@pytest.fixture
def probe(tmp_path: Path) -> FolderProbe:
    (tmp_path / "home").mkdir()
    return FolderProbe(home=tmp_path / "home", task_dir=tmp_path / "task")


def prefs(**values: object) -> str:
    return "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in values.items())


def test_thunderbird_prefs_expect_and_unexpect(probe: FolderProbe) -> None:
    probe.write(f"good/{PROFILE}/prefs.js", prefs(**{"mail.server.default.applyIncomingFilters": True,
                                                       "extensions.activeThemeID": "thunderbird-compact-dark@mozilla.org"}))
    probe.write(f"bad/{PROFILE}/prefs.js", prefs(**{"mail.server.default.applyIncomingFilters": True,
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
    probe.write("good/msgFilterRules.dat", FILTERS.format(enabled="yes"))
    probe.write("bad/msgFilterRules.dat", FILTERS.format(enabled="no"))
    spec = {"expect": [{"enabled": "yes", "action": "Forward", "actionValue": "anonym-x2024@gmail.com", "condition": ["ALL"]}]}
    assert passes({"thunderbird_filters": {"path": "good/msgFilterRules.dat", **spec}}, probe)
    assert not passes({"thunderbird_filters": {"path": "bad/msgFilterRules.dat", **spec}}, probe)
    conditions = {"expect": [{"name": "Reports", "condition": ["AND (subject,contains,report)"]}]}
    assert passes({"thunderbird_filters": {"path": "bad/msgFilterRules.dat", **conditions}}, probe)


def test_thunderbird_accounts(probe: FolderProbe) -> None:
    account = {"mail.server.server2.type": "imap", "mail.server.server2.hostname": "outlook.office365.com",
               "mail.server.server2.userName": "anonym-x2024@outlook.com",
               "mail.server.server1.type": "none", "mail.server.server1.hostname": "Local Folders"}
    probe.write(f"kept/{PROFILE}/prefs.js", prefs(**account))
    probe.write(f"removed/{PROFILE}/prefs.js", prefs(**{k: v for k, v in account.items() if "server1" in k}))
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
