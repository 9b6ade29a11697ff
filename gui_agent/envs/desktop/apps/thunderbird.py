"""Thunderbird, preconfigured for the desktop environment's loopback mail server.

Each episode gets a fresh profile in ``$HOME/.thunderbird/gui-agent.default`` (Thunderbird
is started with ``--profile`` on it) with one account:

* the *Local Folders* account carries the user's identity (``environment.mail``: address
  and name) and sends through the environment's SMTP server on ``127.0.0.1:<port>``, no
  authentication, no TLS (it is loopback and the server relays nothing). Thunderbird's
  own test suites set accounts up the same way (a local account with an identity);
* incoming mail is the Local Folders *Inbox* (an mbox file): ``deliver_mail`` setup steps
  append messages to it before Thunderbird starts, and Thunderbird indexes it when the
  folder is opened. So no IMAP/POP server, and no password prompt, is needed.

A task may bring a profile of its own instead (OSWorld's tasks unpack one into
``~/.thunderbird`` with its ``profiles.ini``): when ``profiles.ini`` names another default
profile at launch time, Thunderbird starts with that one, given the same quiet
preferences in its ``user.js`` (:func:`use_unpacked_profile`).

Why Thunderbird: it is what OSWorld's mail tasks use (their configs import), a real,
widely used client, and fully configurable from ``user.js``. The preferences below make
the first start quiet and deterministic (no account wizard, start page, "know your
rights" bar, update or telemetry traffic, default-client question, send confirmation,
attachment reminder, spelling underlines).
"""

from __future__ import annotations

import configparser
import json
from pathlib import Path
from typing import Any

from gui_agent.envs.desktop.apps.spec import AppContext, AppSpec

#: The profile folder, relative to the episode's home.
PROFILE = Path(".thunderbird/gui-agent.default")
#: The Inbox mbox of the Local Folders account, relative to the profile.
INBOX = Path("Mail/Local Folders/Inbox")

QUIET_PREFS: dict[str, Any] = {
    "mail.shell.checkDefaultClient": False,
    "mail.rights.version": 1,
    "mailnews.start_page.enabled": False,
    "mail.provider.suppress_dialog_on_startup": True,
    "mail.spotlight.firstRunDone": True,
    "mail.warn_on_send_accel_key": False,  # Ctrl+Enter sends without "are you sure?"
    "mail.compose.attachment_reminder": False,
    "mail.spellcheck.inline": False,
    "mail.biff.show_alert": False,
    "mail.biff.play_sound": False,
    "app.donation.eoy.version.viewed": 999,
    "app.update.auto": False,
    "app.update.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.enabled": False,
    "browser.shell.checkDefaultBrowser": False,
    "extensions.update.enabled": False,
    "mailnews.auto_config.fetchFromISP.enabled": False,
    "network.captive-portal-service.enabled": False,
    "toolkit.startup.max_resumed_crashes": -1,
}


def profile_dir(home: Path) -> Path:
    return home / PROFILE


def inbox_path(home: Path) -> Path:
    return profile_dir(home) / INBOX


def account_prefs(*, address: str, name: str, smtp_port: int) -> dict[str, Any]:
    """The account, identity and SMTP server preferences."""
    return {
        "mail.accountmanager.accounts": "account1",
        "mail.accountmanager.defaultaccount": "account1",
        "mail.accountmanager.localfoldersserver": "server1",
        "mail.account.account1.server": "server1",
        "mail.account.account1.identities": "id1",
        "mail.server.server1.type": "none",
        "mail.server.server1.hostname": "Local Folders",
        "mail.server.server1.name": "Local Folders",
        "mail.server.server1.userName": "nobody",
        "mail.server.server1.directory-rel": "[ProfD]Mail/Local Folders",
        "mail.identity.id1.fullName": name,
        "mail.identity.id1.useremail": address,
        "mail.identity.id1.smtpServer": "smtp1",
        "mail.identity.id1.valid": True,
        "mail.identity.id1.compose_html": False,  # plain text: what is typed is what is sent
        "mail.identity.id1.reply_on_top": 1,
        "mail.smtpservers": "smtp1",
        "mail.smtp.defaultserver": "smtp1",
        "mail.smtpserver.smtp1.hostname": "127.0.0.1",
        "mail.smtpserver.smtp1.port": smtp_port,
        "mail.smtpserver.smtp1.authMethod": 1,  # no authentication
        "mail.smtpserver.smtp1.try_ssl": 0,
        "mail.smtpserver.smtp1.username": "",
        "mail.smtpserver.smtp1.description": "gui-agent loopback",
    }


def prepare_profile(ctx: AppContext) -> None:
    """Write the profile (``user.js`` and an empty Inbox) for this episode's mail settings."""
    mail = ctx.settings.get("mail")
    if mail is None:
        raise ValueError("Thunderbird needs the environment's mail settings (environment.mail)")
    profile = profile_dir(ctx.home)
    (profile / INBOX).parent.mkdir(parents=True, exist_ok=True)
    (profile / INBOX).touch()
    prefs = {**QUIET_PREFS, **account_prefs(address=mail["address"], name=mail["name"], smtp_port=mail["smtp_port"])}
    (profile / "user.js").write_text(
        "".join(f"user_pref({json.dumps(key)}, {json.dumps(value)});\n" for key, value in prefs.items()), encoding="utf-8"
    )


def default_profile(home: Path) -> Path | None:
    """The default profile ``~/.thunderbird/profiles.ini`` names (an install's default first), or None."""
    ini = home / ".thunderbird" / "profiles.ini"
    if not ini.is_file():
        return None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(ini, encoding="utf-8")
    except configparser.Error:
        return None
    sections = [parser[name] for name in parser.sections()]
    installs = [s.get("Default") for s in sections if s.name.startswith("Install") and s.get("Default")]
    profiles = {s.get("Path"): s for s in sections if s.name.startswith("Profile") and s.get("Path")}
    chosen = installs[0] if installs else next((p for p, s in profiles.items() if s.get("Default") == "1"), None)
    if chosen is None and len(profiles) == 1:
        chosen = next(iter(profiles))
    if chosen is None:
        return None
    section = profiles.get(chosen)
    relative = section.get("IsRelative", "1") == "1" if section is not None else not chosen.startswith("/")
    return (home / ".thunderbird" / chosen) if relative else Path(chosen)


def use_unpacked_profile(home: Path, argv: list[str]) -> list[str]:
    """Start with the profile the home's ``profiles.ini`` makes default, if it is not ours.

    Its ``user.js`` gets the quiet preferences it lacks (first-start dialogs, updates,
    telemetry off), as our own profile has; the account settings stay the task's.
    """
    profile = default_profile(home)
    ours = profile_dir(home)
    if profile is None or not profile.is_dir() or profile.resolve() == ours.resolve():
        return argv
    user_js = profile / "user.js"
    existing = user_js.read_text(encoding="utf-8", errors="replace") if user_js.is_file() else ""
    extra = "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in QUIET_PREFS.items() if json.dumps(k) not in existing)
    user_js.write_text(existing + extra, encoding="utf-8")
    position = argv.index("--profile") + 1
    return [*argv[:position], str(profile), *argv[position + 1:]]


THUNDERBIRD = AppSpec(
    name="thunderbird",
    title="Thunderbird",
    command=("thunderbird", "--no-remote", "--profile", f"{{home}}/{PROFILE}"),
    window_title=r"Mozilla Thunderbird",
    install_hint="install it with `apt-get install --no-install-recommends thunderbird`",
    prepare=prepare_profile,
    adapt_command=use_unpacked_profile,
)
