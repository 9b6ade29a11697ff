"""Oracle scripts for the Thunderbird suite (``datasets/tasks/desktop/mail``).

Coordinates are for the suite's 1280x800 screen with every window maximised: the main
window's folder pane (Local Folders, its Inbox), the message list (newest first), and
the compose window's fields. Sending is Ctrl+Enter (the environment turns off the
"are you sure?" question for it).
"""

from __future__ import annotations

from gui_agent.actions import Click
from gui_agent.models.policies.desktop_oracle.script import Item, WaitForTitle, keys, type_text

MAIN = r"Mozilla Thunderbird$"
EXPAND_LOCAL_FOLDERS = Click(60, 132)
INBOX = Click(128, 160)
FIRST_MESSAGE = Click(400, 143)   # newest: Bo's "Q3 figures"
SECOND_MESSAGE = Click(400, 218)  # Cy's "Agenda for Monday"
NEW_MESSAGE = Click(165, 89)
COMPOSE_SUBJECT = Click(700, 178)
COMPOSE_CC_BUTTON = Click(515, 105)
COMPOSE_ATTACH = Click(1216, 62)
FILE_DIALOG_OPEN = Click(1153, 771)  # the GTK file chooser's "Open" button


def open_inbox() -> list[Item]:
    return [WaitForTitle(MAIN), EXPAND_LOCAL_FOLDERS, INBOX, WaitForTitle(r"^Inbox - ")]


def send() -> list[Item]:
    return [keys("ctrl", "enter"), WaitForTitle(MAIN, timeout_s=20.0)]


def compose_send() -> list[Item]:
    return [
        WaitForTitle(MAIN), NEW_MESSAGE, WaitForTitle(r"^Write: "),
        type_text("dana@example.test,"), COMPOSE_SUBJECT, type_text("Lunch on Friday"), keys("tab"),
        type_text("Are you free for lunch on Friday at noon?"), *send(),
    ]


def reply() -> list[Item]:
    return [
        *open_inbox(), FIRST_MESSAGE, keys("ctrl", "r"), WaitForTitle(r"^Write: Re: Q3 figures"),
        type_text("The figures will be ready on Thursday.\n"), *send(),
    ]


def forward_attachment() -> list[Item]:
    return [
        *open_inbox(), SECOND_MESSAGE, keys("ctrl", "l"), WaitForTitle(r"^Write: Fwd: Agenda for Monday"),
        type_text("dana@example.test,"), *send(),
    ]


def compose_cc() -> list[Item]:
    return [
        WaitForTitle(MAIN), NEW_MESSAGE, WaitForTitle(r"^Write: "),
        type_text("eve@example.test,"), COMPOSE_CC_BUTTON, type_text("finn@example.test,"),
        COMPOSE_SUBJECT_WITH_CC, type_text("Office move"), keys("tab"),
        type_text("The office move is planned for March 4."), *send(),
    ]


def send_attachment() -> list[Item]:
    return [
        WaitForTitle(MAIN), NEW_MESSAGE, WaitForTitle(r"^Write: "),
        type_text("bo@example.test,"), COMPOSE_SUBJECT, type_text("Q3 figures attached"),
        COMPOSE_ATTACH, WaitForTitle(r"Attach File"), keys("ctrl", "l"), type_text("~/q3-figures.xlsx"), FILE_DIALOG_OPEN,
        WaitForTitle(r"^Write: Q3 figures attached"), *send(),
    ]


# With the Cc row open the Subject field moves down one row.
COMPOSE_SUBJECT_WITH_CC = Click(700, 213)

SCRIPTS = {
    "desktop.mail.compose-send": compose_send,
    "desktop.mail.reply": reply,
    "desktop.mail.forward-attachment": forward_attachment,
    "desktop.mail.compose-cc": compose_cc,
    "desktop.mail.send-attachment": send_attachment,
}
