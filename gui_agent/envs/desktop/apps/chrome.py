"""Chromium as a desktop app: Debian's ``/usr/bin/chromium`` with a fresh profile where
OSWorld's checks look, and its DevTools port on loopback.

OSWorld's Chrome tasks read the browser's state from its profile files
(``~/.config/google-chrome/Default/Preferences``, ``Bookmarks``, ``History``,
``Cookies``, ``~/.config/google-chrome/Local State``) and from its DevTools port (open
tabs, the active tab). So each episode's Chromium runs with
``--user-data-dir=$HOME/.config/google-chrome``: the profile ``Default`` sits exactly
where OSWorld's getters (and its configs' own commands) expect it, and it starts empty
in every episode's fresh home. The DevTools port is the one the session reserves for the
episode (``--remote-debugging-port``), bound to 127.0.0.1.

Why each flag:

* ``--no-sandbox``: the environment runs as root, where Chromium's sandbox cannot start;
  ``--test-type`` keeps the "unsupported command-line flag" bar that this would show
  off the page (ChromeDriver and Playwright pass it for the same reason);
* ``--disable-gpu``: Xvfb has no GPU;
* ``--no-first-run``, ``--no-default-browser-check``, ``--disable-search-engine-choice-screen``,
  ``--hide-crash-restore-bubble`` and the profile's ``exit_type: Normal``: no welcome
  page, default-browser bar, search-engine chooser or "restore pages?" bubble (a
  profile whose Chromium was stopped by a signal would show one next start);
* ``--disable-sync``, ``--disable-background-networking``, ``--disable-component-update``:
  no sign-in and no traffic of its own (there is no internet here);
* ``--password-store=basic``: no keyring (there is no D-Bus session);
* ``--start-maximized``: the window fills the screen as in OSWorld's VM, so a script's
  clicks land where its screenshots were taken.

Extensions stay enabled: OSWorld tasks load unpacked extensions.
"""

from __future__ import annotations

import json
from pathlib import Path

from gui_agent.envs.desktop.apps.spec import AppContext, AppSpec

#: The user data folder (``--user-data-dir``), relative to the episode's home.
USER_DATA = Path(".config/google-chrome")
#: The profile folder, relative to the user data folder.
PROFILE = "Default"

FLAGS: tuple[str, ...] = (
    "--no-sandbox",
    "--test-type",
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-search-engine-choice-screen",
    "--hide-crash-restore-bubble",
    "--disable-sync",
    "--disable-background-networking",
    "--disable-component-update",
    "--password-store=basic",
    "--start-maximized",
)

#: Preferences of a fresh profile: what a person's profile has after Chromium's first
#: start, without the pages and bubbles of that start. Nothing here is a setting tasks
#: check (no ``session``, no content settings, fonts or search engine).
FIRST_RUN_PREFERENCES: dict[str, object] = {
    "browser": {"has_seen_welcome_page": True, "check_default_browser": False},
    "profile": {"exit_type": "Normal", "exited_cleanly": True},
    "sync_promo": {"show_on_first_run_allowed": False},
}


def user_data_dir(home: Path) -> Path:
    """The episode's Chromium user data folder (``Local State`` is in it)."""
    return home / USER_DATA


def profile_dir(home: Path) -> Path:
    """The episode's Chromium profile (``Preferences``, ``Bookmarks``, ``History`` ...)."""
    return user_data_dir(home) / PROFILE


def prepare_profile(ctx: AppContext) -> None:
    """A fresh profile with :data:`FIRST_RUN_PREFERENCES` (a task's own files, placed later, win)."""
    profile = profile_dir(ctx.home)
    profile.mkdir(parents=True, exist_ok=True)
    preferences = profile / "Preferences"
    if not preferences.exists():
        preferences.write_text(json.dumps(FIRST_RUN_PREFERENCES), encoding="utf-8")


def quiet_restart(home: Path, argv: list[str]) -> list[str]:
    """Before each launch: mark the profile as closed normally.

    A Chromium stopped by a signal (an episode's end, ``pkill`` in a task) leaves
    ``exit_type: Crashed``, and the next start would offer to restore its pages instead
    of starting as the task says.
    """
    preferences = profile_dir(home) / "Preferences"
    try:
        data = json.loads(preferences.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return argv
    profile = data.get("profile") if isinstance(data, dict) else None
    if isinstance(profile, dict) and profile.get("exit_type") not in (None, "Normal"):
        profile["exit_type"] = "Normal"
        profile["exited_cleanly"] = True
        preferences.write_text(json.dumps(data), encoding="utf-8")
    return argv


CHROME = AppSpec(
    name="chrome",
    title="Chromium",
    command=(
        "chromium", *FLAGS,
        f"--user-data-dir={{home}}/{USER_DATA}",
        "--remote-debugging-port={port}",
        "--remote-debugging-address=127.0.0.1",
    ),
    window_title=r"Chromium$",
    file_window_title=lambda name: r"Chromium$",  # a page opened from a file is titled by its <title>
    install_hint="install Debian's chromium with `apt-get install --no-install-recommends chromium` (scripts/setup.sh does)",
    prepare=prepare_profile,
    adapt_command=quiet_restart,
    chatter=(
        r"dbus", r"Fontconfig", r"DevTools listening", r"Gtk-WARNING", r"libva", r"viz_main_impl",
        r"gpu_init", r"ERROR:.*(bus\.cc|object_proxy|sandbox|gcm|registration_request|ssl_client_socket)",
        r"WARNING: All log messages before absl::InitializeLog",
    ),
    control_port=True,
)
