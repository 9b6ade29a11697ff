"""Delivering a task's messages to the user's inbox (the ``deliver_mail`` setup step).

With Thunderbird in the task, the inbox is its profile's Local Folders Inbox (an mbox
file, see :mod:`gui_agent.envs.desktop.apps.thunderbird`); Thunderbird reads it when it starts, so the
step must come before ``launch: {app: thunderbird}``. Without a mail client the messages
go to ``private/mail/inbox.mbox`` of the session.
"""

from __future__ import annotations

import mailbox
import mimetypes
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from pathlib import Path
from typing import Any

from gui_agent.envs.desktop.apps.thunderbird import inbox_path
from gui_agent.errors import DesktopStepError

#: Date of delivered messages that give none (fixed: runs must look the same).
DEFAULT_DATE = "Mon, 01 Jan 2024 09:00:00 +0000"


def build_message(args: Any, attachments: list[tuple[str, bytes]], *, user: dict[str, str]) -> EmailMessage:
    """The message a ``deliver_mail`` step describes."""
    message = EmailMessage()
    message["From"] = args.from_
    message["To"] = args.to or formataddr((user["name"], user["address"]))
    message["Subject"] = args.subject
    message["Date"] = args.date or DEFAULT_DATE
    message["Message-ID"] = args.message_id or make_msgid(domain="example.test")
    message.set_content(args.body or "")
    for name, data in attachments:
        kind, _ = mimetypes.guess_type(name)
        maintype, subtype = (kind or "application/octet-stream").split("/", 1)
        if maintype == "text":
            message.add_attachment(data.decode("utf-8", "replace"), subtype=subtype, filename=name)
        else:
            message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return message


def inbox_for(session: Any) -> Path:
    """Where this session's inbox mbox is."""
    if "thunderbird" in session.app_specs:
        return inbox_path(session.home)
    return session.private / "mail" / "inbox.mbox"


def deliver(session: Any, args: Any, attachments: list[tuple[str, bytes]]) -> None:
    """Append the message to the session's inbox.

    Raises:
        DesktopStepError: the mail client already runs (it would not see the message).
    """
    if any(app.label == "Thunderbird" and app.process.is_alive() for app in session.launched):
        raise DesktopStepError("deliver_mail must come before Thunderbird is launched (it reads its inbox at start)")
    target = inbox_for(session)
    target.parent.mkdir(parents=True, exist_ok=True)
    message = build_message(args, attachments, user=session.mail_settings)
    box = mailbox.mbox(str(target), create=True)
    try:
        box.lock()
        box.add(mailbox.mboxMessage(message))
        box.flush()
    finally:
        box.unlock()
        box.close()


__all__ = ["DEFAULT_DATE", "build_message", "deliver", "inbox_for"]
