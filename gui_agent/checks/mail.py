"""Checks of mail: what the environment's loopback SMTP server received, and the mail
client's own state (Thunderbird's preferences, message filters, accounts and folders).

They cover OSWorld's ``check_thunderbird_prefs``, ``check_thunderbird_filter`` and
``check_thunderbird_folder`` (and the stored accounts ``check_csv`` lists), on the files
Thunderbird writes, and the mail
an agent sends (``email_received``, which needs the environment's ``mail`` server).
"""

from __future__ import annotations

import json
import mailbox
import re
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path
from typing import Any, ClassVar

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.checks.expectations import expect_records, expect_something
from gui_agent.checks.family import CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import MAX_DIFFERENCES, Report, cut, missing, verdict, written_file
from gui_agent.checks.value_rules import ValueRule, matches
from gui_agent.envs.desktop.apps.thunderbird import default_profile
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import NonBlank, SingleKey, StrictModel

# ---------------------------------------------------------------------- what a task file writes


class EmailReceivedArgs(StrictModel):
    """The environment's loopback SMTP server received a message matching every given
    condition: a recipient ``to``, a subject containing ``subject_contains``, a text body
    containing ``body_contains``, an attachment called ``attachment`` and, when
    ``attachment_contains`` is given, that attachment containing that text; ``in_reply_to``:
    the message answers the one with this Message-ID (its In-Reply-To or References
    header names it). ``count``: how many such messages there must be at least.
    """

    to: NonBlank | None = None
    subject_contains: NonBlank | None = None
    body_contains: NonBlank | None = None
    attachment: NonBlank | None = None
    attachment_contains: NonBlank | None = None
    in_reply_to: NonBlank | None = None
    count: int = Field(default=1, strict=True, ge=1)

    @model_validator(mode="after")
    def _something(self) -> EmailReceivedArgs:
        if self.attachment_contains is not None and self.attachment is None:
            raise PydanticCustomError(
                "attachment", "attachment_contains needs 'attachment' (the file name)", {"key": "attachment_contains"}
            )
        return self


class ThunderbirdPrefsArgs(StrictModel):
    """Preferences in a Thunderbird ``prefs.js`` (``user_pref("key", value);`` lines):
    every ``expect`` key is set and satisfies its rule; no ``unexpect`` key satisfies its."""

    path: HomePath
    expect: dict[NonBlank, ValueRule] = Field(default_factory=dict)
    unexpect: dict[NonBlank, ValueRule] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _something(self) -> ThunderbirdPrefsArgs:
        expect_something(self)
        return self


class ThunderbirdFiltersArgs(StrictModel):
    """Message filters in a ``msgFilterRules.dat``: each ``expect`` entry is matched by some
    filter, no filter matches an ``unexpect`` entry. An entry gives fields a filter must
    have: ``name``, ``enabled`` (``yes``/``no``), ``type``, ``action``, ``actionValue``
    (text) and ``condition`` (the list of its conditions, e.g. ``["ALL"]`` or
    ``['AND (subject,contains,report)']``)."""

    path: HomePath
    expect: list[dict[NonBlank, str | list[str]]] = Field(default_factory=list)
    unexpect: list[dict[NonBlank, str | list[str]]] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> ThunderbirdFiltersArgs:
        expect_something(self)
        return self


class ThunderbirdAccountsArgs(StrictModel):
    """Mail accounts of the Thunderbird profile at ``profile`` (its ``prefs.js``; a
    ``.thunderbird`` folder means the default profile its ``profiles.ini`` names): each
    ``expect`` entry matches an account, none matches an ``unexpect`` entry. Entries give
    ``url`` (``imap://host``, ``pop3://host``, ``smtp://host``) and/or ``user``."""

    profile: HomePath
    expect: list[dict[NonBlank, str]] = Field(default_factory=list)
    unexpect: list[dict[NonBlank, str]] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> ThunderbirdAccountsArgs:
        expect_something(self)
        return self


class MailFolderArgs(StrictModel):
    """A Thunderbird mail folder (an mbox file, e.g. ``.../Mail/Local Folders/Archive``)
    exists and holds at least ``min_messages`` messages, with a message whose subject
    contains each of ``subjects`` (deleted ones do not count)."""

    path: HomePath
    min_messages: int = Field(default=0, strict=True, ge=0)
    subjects: list[NonBlank] = Field(default_factory=list)


class MailFolderEqualArgs(StrictModel):
    """The mail folder (an mbox file) or saved message (``.eml``) at ``path`` holds the
    messages ``expected`` (one shipped in the task's folder) holds, in any order (OSWorld's
    ``check_thunderbird_folder``). Each message is compared whole, headers and body, less
    the mbox separator line (it carries the time the message was written to the folder):
    ``ignore_status`` leaves out Thunderbird's ``X-Mozilla-Status`` headers (read, flagged
    ... flags), ``ignore_keys`` its ``X-Mozilla-Keys`` (tags); ``remove_deleted`` leaves
    out messages marked deleted but not yet compacted away, ``remove_duplicate`` counts
    repeated messages once."""

    path: HomePath
    expected: TaskPath
    ignore_status: bool = False
    ignore_keys: bool = False
    remove_deleted: bool = True
    remove_duplicate: bool = True


class EmailReceivedCheck(SingleKey):
    name: ClassVar[str] = "email_received"
    email_received: EmailReceivedArgs


class ThunderbirdPrefsCheck(SingleKey):
    name: ClassVar[str] = "thunderbird_prefs"
    thunderbird_prefs: ThunderbirdPrefsArgs


class ThunderbirdFiltersCheck(SingleKey):
    name: ClassVar[str] = "thunderbird_filters"
    thunderbird_filters: ThunderbirdFiltersArgs


class ThunderbirdAccountsCheck(SingleKey):
    name: ClassVar[str] = "thunderbird_accounts"
    thunderbird_accounts: ThunderbirdAccountsArgs


class MailFolderCheck(SingleKey):
    name: ClassVar[str] = "mail_folder"
    mail_folder: MailFolderArgs


class MailFolderEqualCheck(SingleKey):
    name: ClassVar[str] = "mail_folder_equal"
    mail_folder_equal: MailFolderEqualArgs


# ---------------------------------------------------------------------- mail received


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


def _email_received(args: EmailReceivedArgs, probe: DesktopProbe, report: Report) -> None:
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


# ---------------------------------------------------------------------- the mail client's files


_PREF = re.compile(r'^\s*user_pref\(\s*"((?:[^"\\]|\\.)+)"\s*,\s*(.+?)\s*\)\s*;\s*$')
#: One condition of a Thunderbird filter: ``AND (subject,contains,x)`` or ``ALL``.
_CONDITION = re.compile(r'\b(?:AND|OR) \((?:[^,()]+),(?:[^,()]+),(?:"(?:[^"\\]|\\.)*"|[^)]*)\)|\bALL\b')


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


def _thunderbird_prefs(args: ThunderbirdPrefsArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
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


def _thunderbird_filters(args: ThunderbirdFiltersArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    filters = read_filters(path)
    report["observed"] = {"filters": filters[:20]}
    verdict(report, expect_records(filters, args.expect, args.unexpect, "filter"), ok=f"{len(filters)} filter(s), as expected")


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


def _thunderbird_accounts(args: ThunderbirdAccountsArgs, probe: DesktopProbe, report: Report) -> None:
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
    verdict(report, expect_records(accounts, args.expect, args.unexpect, "account"), ok=f"{len(accounts)} account(s), as expected")


def _mail_folder(args: MailFolderArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
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

#: Thunderbird's flag for a message deleted but still in its folder's file (X-Mozilla-Status).
DELETED_FLAG = 0x0008


def folder_messages(path: Path) -> list[str]:
    """The raw messages of an mbox file (each without its ``From `` separator line), or the
    one message of a file that is not an mbox (an ``.eml``); line endings as ``\n``."""
    text = path.read_bytes().decode("utf-8", errors="replace").replace("\r\n", "\n")
    if not text.startswith("From "):
        return [text.strip()] if text.strip() else []
    return [part.split("\n", 1)[1].strip() if "\n" in part else "" for part in re.split(r"(?m)^(?=From )", text) if part]


def _normal_messages(path: Path, args: MailFolderEqualArgs) -> list[str]:
    kept = []
    for message in folder_messages(path):
        head = message.split("\n\n", 1)[0]
        status = re.search(r"(?mi)^X-Mozilla-Status:\s*([0-9a-f]+)", head)
        if args.remove_deleted and status and int(status.group(1), 16) & DELETED_FLAG:
            continue
        if args.ignore_status:
            message = re.sub(r"(?mi)^X-Mozilla-Status\d?:.*\n", "", message)
        if args.ignore_keys:
            message = re.sub(r"(?mi)^X-Mozilla-Keys:.*\n", "", message)
        kept.append(message.strip())
    return sorted(set(kept)) if args.remove_duplicate else sorted(kept)


def _subject(message: str) -> str:
    found = re.search(r"(?mi)^Subject:[ \t]*(.*)$", message.split("\n\n", 1)[0])
    return found.group(1).strip() if found else "(no subject)"


def _mail_folder_equal(args: MailFolderEqualArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    got, want = _normal_messages(path, args), _normal_messages(probe.task_file(args.expected), args)
    report["observed"] = {"messages": len(got), "subjects": [_subject(m) for m in got[:20]]}
    problems = [f"message {_subject(m)!r} is missing or differs" for m in want if m not in got]
    problems += [f"message {_subject(m)!r} is not in {args.expected}" for m in got if m not in want]
    if not problems and len(got) != len(want):
        problems.append(f"{args.path} holds {len(got)} messages, {args.expected} {len(want)}")
    verdict(report, problems, ok=f"{args.path} holds the {len(got)} message(s) of {args.expected}")


#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(EmailReceivedCheck, _email_received),
    CheckType(ThunderbirdPrefsCheck, _thunderbird_prefs),
    CheckType(ThunderbirdFiltersCheck, _thunderbird_filters),
    CheckType(ThunderbirdAccountsCheck, _thunderbird_accounts),
    CheckType(MailFolderCheck, _mail_folder),
    CheckType(MailFolderEqualCheck, _mail_folder_equal),
)
