"""The accessibility tree of real apps on a real bus: Calc, Thunderbird, Chromium.

Each test checks the tree against the app itself: a click at the point the tree gives an
element lands on that element as the app tells (the focused cell, a pressed button, a
page's script), not by trusting the tree.
"""

from __future__ import annotations

import os
import signal

import pytest
from lxml import etree

from gui_agent.actions import Click, Hotkey, Type, Wait
from gui_agent.checks.sources.accessibility import select
from gui_agent.envs.desktop.accessibility.linearize import linearize, rows
from gui_agent.envs.desktop.accessibility.locate import element_at
from gui_agent.envs.desktop.env import DesktopEnv
from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep
from gui_agent.errors import EnvHungError
from tests.envs.desktop.desktop_helpers import wait_gone

pytestmark = pytest.mark.slow

ST = "{https://accessibility.ubuntu.example.org/ns/state}"


def _focused_cells(xml: str) -> list[str]:
    return [e.get("name") for e in etree.fromstring(xml.encode()).iter("table-cell") if e.get(ST + "focused") == "true"]


def _center(xml: str, tag: str, name: str) -> tuple[int, int]:
    (row,) = [r for r in rows(xml) if r.tag == tag and r.name == name]
    return row.center


@pytest.fixture
def calc():  # type: ignore[no-untyped-def]
    env = DesktopEnv(screen=(1280, 800), apps=("calc",), observe_a11y_tree=True, step_timeout_s=20)
    try:
        env.reset(options={"setup": [LaunchStep(launch=LaunchArgs(app="calc"))]})
        yield env
    finally:
        pids = env.pids()
        env.close()
        assert wait_gone(pids) == []  # apps, bus daemon and registry stopped by PID


def test_calc_names_the_cell_and_the_toolbar_button_under_a_click(calc: DesktopEnv) -> None:
    obs, *_ = calc.step(Wait(1.0))
    assert obs.a11y_tree is not None and "a11y_s" in obs.timings
    x, y = _center(obs.a11y_tree, "table-cell", "C5")
    obs, *_ = calc.step(Click(x, y))
    assert _focused_cells(obs.a11y_tree or "") == ["C5"]  # Calc moved its cursor to the cell the tree put there
    assert element_at(obs.a11y_tree or "", x, y).get("name") == "C5"  # type: ignore[union-attr]

    bx, by = _center(obs.a11y_tree or "", "toggle-button", "Bold")
    button = element_at(obs.a11y_tree or "", bx, by)
    assert button is not None and (button.tag, button.get("name")) == ("toggle-button", "Bold")
    assert button.get(ST + "checked") != "true"
    obs, *_ = calc.step(Click(bx, by))
    after = element_at(obs.a11y_tree or "", bx, by)
    assert after is not None and after.get("name") == "Bold" and after.get(ST + "checked") == "true"
    table = linearize(obs.a11y_tree or "")
    assert "table-cell\tC5\t" in table and "toggle-button\tBold\t" in table


def test_a_stopped_app_makes_the_read_an_environment_fault(calc: DesktopEnv) -> None:
    soffice = [pid for pid in calc.pids() if "soffice.bin" in open(f"/proc/{pid}/cmdline").read()]  # noqa: SIM115
    assert soffice
    os.kill(soffice[0], signal.SIGSTOP)  # Calc stops answering (frozen, like a hung app)
    with pytest.raises(EnvHungError, match="accessibility tree"):
        calc.accessibility_tree(timeout_s=2.0)
    # The desktop was stopped as after any hang (the fixture checks every process is gone);
    # had the read not failed, close() would resume Calc (SIGCONT) before stopping it.


def test_a_desktop_without_the_tree_starts_no_bus() -> None:
    env = DesktopEnv(screen=(640, 480), step_timeout_s=20)
    try:
        obs, _ = env.reset()
        assert obs.a11y_tree is None
        commands = [open(f"/proc/{pid}/cmdline").read() for pid in env.pids()]  # noqa: SIM115
        assert not any("dbus-daemon" in c or "registryd" in c for c in commands)
        with pytest.raises(RuntimeError, match="without accessibility"):
            env.accessibility_tree()
    finally:
        env.close()


def test_thunderbird_names_the_compose_windows_to_field() -> None:
    env = DesktopEnv(screen=(1280, 800), apps=("thunderbird",), mail={"address": "me@example.test", "name": "Me"},
                     accessibility=True, step_timeout_s=20)
    try:
        env.reset(options={"setup": [LaunchStep(launch=LaunchArgs(app="thunderbird"))]})
        env.step(Hotkey(keys=("ctrl", "n")))
        env.step(Wait(3.0))
        env.step(Type(text="fox@someuniversity.edu,"))
        obs, *_ = env.step(Wait(1.0))
        assert obs.window_title and obs.window_title.startswith("Write")
        tree = env.accessibility_tree(scope="focused_window")
        # OSWorld's own selector (multi_apps f5c13cdd) for an address in the To field.
        pill = ('tool-bar[attr|id=MsgHeadersToolbar] label[name=To]~[attr|class="address-pill"]'
                '>label[attr|class="pill-label"][name*="fox@someuniversity.edu"]')
        assert select(tree, selectors=[pill]) == ["fox@someuniversity.edu"]
        to_field = [r for r in rows(tree) if r.tag == "entry" and r.name.startswith("To")]
        assert len(to_field) == 1
        landed = element_at(tree, *to_field[0].center)
        assert landed is not None and landed.tag == "entry" and landed.get("name", "").startswith("To")
    finally:
        env.close()


PAGE = ("data:text/html,<title>Buttons</title><button onclick=\"document.title='Pressed'\" "
        "style='margin:200px'>Press me</button>")


def test_chromium_names_a_page_button() -> None:
    command = ["chromium", "--no-sandbox", "--test-type", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
               "--force-renderer-accessibility", "--user-data-dir=chrome-profile", "--password-store=basic", PAGE]
    env = DesktopEnv(screen=(1280, 800), observe_a11y_tree=True, step_timeout_s=20)
    try:
        obs, _ = env.reset(options={"setup": [LaunchStep(launch=LaunchArgs(command=command, window="Buttons"))]})
        obs, *_ = env.step(Wait(1.0))
        x, y = _center(obs.a11y_tree or "", "push-button", "Press me")
        assert y > 200  # inside the page, below the browser's own toolbar
        obs, *_ = env.step(Click(x, y))
        obs, *_ = env.step(Wait(0.5))
        assert obs.window_title and obs.window_title.startswith("Pressed")  # the page's own script says so
    finally:
        env.close()
