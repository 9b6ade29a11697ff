"""A password typed into real Thunderbird's account set-up is in no file of the recording.

Thunderbird on a profile with no account opens its Account Hub ("Add your email address")
over the main window, whose title, ``Home - Mozilla Thunderbird``, says nothing of
passwords: the recorder's title mask alone would record the password in clear. The
Gecko password field (role ``password text`` on the accessibility bus) is what masks it.

The profile is the test's own: ``profiles.ini`` names it default, so the launcher starts
Thunderbird on it (the unpacked-profile path of :mod:`gui_agent.envs.desktop.apps.thunderbird`,
which adds the quiet preferences) instead of the episode's profile with its Local Folders
account. The address is at ``riseup.net`` because Thunderbird ships that provider's
settings in its install folder (``isp/riseup.net.xml``): the lookup after the address
succeeds from disk, with no network, and leads to the password page. Nothing is sent:
the test stops before the password page's Continue.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from lxml import etree

from gui_agent.envs.desktop.env import DesktopEnv
from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep, PlaceFileArgs, PlaceFileStep
from gui_agent.episode import read_episode
from gui_agent.recorder.privacy import DEFAULT_MASK_PATTERN
from tests.recorder.a11y_desktop import Recorder, close_env, episode_files, open_env, settled_center, xdotool

pytestmark = pytest.mark.slow

PROFILE = "noaccount.default"
ADDRESS = "alice.w@riseup.net"
PASSWORD = "s3cretPW"

#: A profile with no account; the one preference lets the Account Hub open at start (the
#: launcher's quiet preferences suppress it, and keep a key a profile sets itself).
SETUP = [
    PlaceFileStep(place_file=PlaceFileArgs(
        path=".thunderbird/profiles.ini",
        text=f"[Profile0]\nName=noaccount\nIsRelative=1\nPath={PROFILE}\nDefault=1\n\n[General]\nStartWithLastProfile=1\nVersion=2\n")),
    PlaceFileStep(place_file=PlaceFileArgs(
        path=f".thunderbird/{PROFILE}/user.js", text='user_pref("mail.provider.suppress_dialog_on_startup", false);\n')),
    LaunchStep(launch=LaunchArgs(app="thunderbird")),
]


def _click(env: DesktopEnv, point: tuple[int, int]) -> None:
    xdotool(env, "mousemove", str(point[0]), str(point[1]), "click", "1")


def _texts(xml: str, tag: str, name: str) -> list[str]:
    return [n.text or "" for n in etree.fromstring(xml.encode()).iter(tag) if n.get("name") == name]


def test_password_typed_in_thunderbirds_account_setup_is_in_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = open_env(("thunderbird",), SETUP, mail={"address": "me@example.test", "name": "Me"})
    try:
        full_name = settled_center(env, "entry", "Full name*")
        _click(env, full_name)  # Thunderbird fills the login's name in, or none: the test's own
        xdotool(env, "key", "ctrl+a")
        xdotool(env, "type", "--delay", "30", "Alice W")
        email = settled_center(env, "entry", "Email address*")
        rec = Recorder(env, tmp_path / "rec", monkeypatch)
        _click(env, email)
        time.sleep(0.8)
        xdotool(env, "type", "--delay", "60", ADDRESS)
        time.sleep(1.5)
        typed_address = env.accessibility_tree()  # the app really got the address
        _click(env, settled_center(env, "push-button", "Continue"))
        settled_center(env, "heading", "Connect your email settings")  # found from disk: riseup.net's settings
        _click(env, settled_center(env, "push-button", "Continue"))
        secret = settled_center(env, "password-text", "Password*")
        title = env.observe().window_title
        _click(env, secret)
        time.sleep(0.15)  # typing starts as soon as a quick person would
        xdotool(env, "type", "--delay", "60", PASSWORD)
        time.sleep(1.5)
        typed_password = env.accessibility_tree()
        path = rec.stop()
    finally:
        close_env(env)
    assert title and title.endswith("Mozilla Thunderbird")
    assert not re.search(DEFAULT_MASK_PATTERN, title, re.IGNORECASE)  # the title mask alone would not mask
    assert _texts(typed_address, "entry", "Email address*") == [ADDRESS]
    assert [len(t) for t in _texts(typed_password, "password-text", "Password*")] == [len(PASSWORD)]  # all 8 reached it
    files = episode_files(path)
    assert any(ADDRESS.encode() in data for _, data in files)  # the address is recorded
    assert not [f for f, data in files if PASSWORD.encode() in data or PASSWORD[:6].encode() in data]
    episode = read_episode(path)
    typing = [s.action["text"] for s in episode.steps if s.action["kind"] == "type"]
    assert typing == [ADDRESS, "*" * len(PASSWORD)]
    clicks = [s for s in episode.steps if s.action["kind"] == "click"]
    assert [(s.action["x"], s.action["y"]) for s in clicks][-1] == secret
    target = clicks[-1].target
    assert target is not None and target["role"] == "password text" and target["name"] == "Password*"
    assert target["app"] == "Thunderbird"
    assert target["window"] == title  # the hub's unnamed dialog is part of the main window
