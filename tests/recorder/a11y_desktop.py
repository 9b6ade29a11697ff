"""A desktop with its accessibility bus, the recorder on it, and a GTK dialog: shared by the
recorder's and the grounding export's tests (real Xvfb, real bus, real X input)."""

from __future__ import annotations

import gzip
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from lxml import etree

from gui_agent.envs.desktop.env import DesktopEnv
from gui_agent.envs.desktop.steps import LaunchStep, PlaceFileStep
from gui_agent.recorder.session import RecordingSession, SessionConfig
from tests.envs.desktop.desktop_helpers import wait_gone

ST = "{https://accessibility.ubuntu.example.org/ns/state}"
CP = "{https://accessibility.ubuntu.example.org/ns/component}"

#: A GTK 3 account set-up dialog whose title says nothing of passwords.
DIALOG = '''
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk
win = Gtk.Window(title="Mail account")
win.set_default_size(420, 200)
win.move(100, 100)
grid = Gtk.Grid(row_spacing=12, column_spacing=12, margin=20)
user = Gtk.Entry(); user.get_accessible().set_name("User name")
secret = Gtk.Entry(visibility=False); secret.get_accessible().set_name("Password")
grid.attach(Gtk.Label(label="User"), 0, 0, 1, 1); grid.attach(user, 1, 0, 1, 1)
grid.attach(Gtk.Label(label="Secret"), 0, 1, 1, 1); grid.attach(secret, 1, 1, 1, 1)
grid.attach(Gtk.Button(label="Continue"), 1, 2, 1, 1)
win.add(grid)
win.connect("destroy", Gtk.main_quit)
win.show_all()
Gtk.main()
'''


def center_of(xml: str, tag: str, name: str) -> tuple[int, int]:
    for node in etree.fromstring(xml.encode()).iter(tag):
        if node.get("name") == name and node.get(CP + "size"):
            (x, y), (w, h) = (tuple(int(v) for v in node.get(CP + k).strip("()").split(",")) for k in ("screencoord", "size"))
            return x + w // 2, y + h // 2
    raise AssertionError(f"no {tag} {name!r} in the tree")


def settled_center(env: DesktopEnv, tag: str, name: str, *, timeout_s: float = 30.0) -> tuple[int, int]:
    """The centre of ``tag`` ``name`` once it is in the tree and two reads in a row agree on it
    (a page that has just opened may still move: Thunderbird's account hub re-centres itself)."""
    deadline = time.monotonic() + timeout_s
    last = None
    while True:
        try:
            now = center_of(env.accessibility_tree(), tag, name)
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            now = None
        if now is not None and now == last:
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"{tag} {name!r} kept moving ({last} then {now})")
        last = now
        time.sleep(0.5)


def episode_files(folder: Path) -> list[tuple[Path, bytes]]:
    """Every file of an episode with its bytes, ``.gz`` files unpacked (a secret must be in none)."""
    found = []
    for file in folder.rglob("*"):
        if file.is_file():
            data = file.read_bytes()
            found.append((file, gzip.decompress(data) if file.suffix == ".gz" else data))
    return found


class Recorder:
    """The recorder in this process on ``env``'s display, with its accessibility bus."""

    def __init__(self, env: DesktopEnv, out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("DISPLAY", env.display or "")  # the session sets it; restored after the test
        address = env._session.a11y_bus.address  # type: ignore[union-attr]
        self.session = RecordingSession(SessionConfig(task="fill the form", out_dir=out, display=env.display,
                                                      a11y_address=address, tick_s=0.05))
        self.path = self.session.start()
        self.thread = threading.Thread(target=self.session.run, daemon=True)
        self.thread.start()
        time.sleep(1.0)  # the first tree read

    def stop(self) -> Path:
        time.sleep(1.5)  # the last typing run ends (type_idle_s)
        self.session.request_stop("test")
        self.thread.join(10)
        self.session.stop_capture()
        return self.session.finish(success=True)


def open_env(apps: tuple[str, ...], setup: Sequence[LaunchStep | PlaceFileStep], *, mail: dict[str, str] | None = None) -> DesktopEnv:
    env = DesktopEnv(screen=(1280, 800), apps=apps, mail=mail, observe_a11y_tree=True, step_timeout_s=30)
    env.reset(options={"setup": setup})
    return env


def close_env(env: DesktopEnv) -> None:
    pids = env.pids()
    env.close()
    assert wait_gone(pids) == []


def xdotool(env: DesktopEnv, *args: str) -> None:
    """Play the human on ``env``'s display."""
    subprocess.run(["xdotool", *args], env={"DISPLAY": env.display or "", "PATH": "/usr/bin:/bin"}, check=True, timeout=30)
