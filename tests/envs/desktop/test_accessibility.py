"""The accessibility bus, the D-Bus client, and the tree's XML, table and selections.

Fast: a real bus daemon and AT-SPI registry (no app), hand-made trees for the table and
the selectors, and OSWorld's own configs for the conversion. The real apps are in
test_accessibility_apps.py.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from gui_agent.checks.osworld.accessibility import check_accessibility_tree
from gui_agent.checks.osworld.metric import Metric
from gui_agent.checks.sources.accessibility import NAMESPACES as CHECK_NAMESPACES
from gui_agent.checks.sources.accessibility import AccessibilityTreeArgs, select
from gui_agent.checks.value_rules import ValueRule, matches
from gui_agent.envs.desktop.accessibility import atspi
from gui_agent.envs.desktop.accessibility.bus import AccessibilityBus
from gui_agent.envs.desktop.accessibility.connection import BusConnection, Call
from gui_agent.envs.desktop.accessibility.linearize import HEADER, linearize, rows
from gui_agent.envs.desktop.accessibility.locate import element_at
from gui_agent.envs.desktop.accessibility.osworld_xml import NAMESPACES, to_xml
from gui_agent.envs.desktop.accessibility.reader import Desktop, Element
from gui_agent.envs.desktop.accessibility.wire import decode_message, encode_call, message_size
from gui_agent.errors import EnvHungError
from tests.envs.desktop.desktop_helpers import wait_gone

DBUS = "org.freedesktop.DBus"


def _states(*names: str) -> tuple[int, int]:
    words = [0, 0]
    for name in names:
        bit = atspi.STATE_NAMES.index(name)
        words[bit // 32] |= 1 << bit % 32
    return words[0], words[1]


ON_SCREEN = ("showing", "visible", "enabled")


def _desktop() -> Desktop:
    """A small tree: a frame with a named button, a hidden item, a text field and an unnamed panel."""
    button = Element(app=":1.5", path="/b", depth=3, role="push button", name="Save", states=_states(*ON_SCREEN),
                     interfaces=(atspi.COMPONENT, atspi.ACTION), extents=(10, 20, 30, 40),
                     actions=[("click", "Clicks the button", "<Control>s")])
    hidden = Element(app=":1.5", path="/h", depth=3, role="menu item", name="Quit", states=_states("enabled"),
                     extents=(0, 0, 5, 5))
    field = Element(app=":1.5", path="/t", depth=3, role="entry", name="", states=_states(*ON_SCREEN, "editable"),
                    interfaces=(atspi.TEXT,), extents=(50, 60, 200, 20), text='say "hi"\ufffc',
                    attributes={"class": "address-input", "id": "to"}, value={"CurrentValue": 3.0})
    panel = Element(app=":1.5", path="/p", depth=3, role="panel", states=_states(*ON_SCREEN), extents=(0, 0, 400, 300))
    frame = Element(app=":1.5", path="/f", depth=2, role="frame", name="Mail", states=_states(*ON_SCREEN, "active"),
                    extents=(0, 0, 400, 300), children=[panel, button, hidden, field])
    return Desktop(apps=[Element(app=":1.5", path="/r", depth=1, role="application", name="Thunderbird", children=[frame])])


# ---------------------------------------------------------------------- XML, table, point
def test_xml_has_osworld_tags_namespaces_states_boxes_text_values_and_actions() -> None:
    xml = to_xml(_desktop())
    assert xml.startswith("<desktop-frame")
    assert NAMESPACES == CHECK_NAMESPACES  # the checks bind the prefixes to the same URLs
    assert select(xml, xpath="//push-button[@st:showing='true']/@name") == ["Save"]
    assert select(xml, xpath="//push-button/@cp:screencoord") == ["(10, 20)"]
    assert select(xml, xpath="//push-button/@act:click_kb") == ["<Control>s"]
    assert select(xml, xpath="//entry/@val:value") == ["3.0"]
    assert select(xml, selectors=["entry[attr|id=to]"]) == ['say "hi"']  # U+FFFC dropped
    assert select(xml, xpath="//menu-item/@cp:screencoord") == []  # not showing: no box, as OSWorld


def test_linearized_table_keeps_visible_usable_named_elements_as_osworld() -> None:
    table = linearize(to_xml(_desktop())).splitlines()
    assert table[0] == HEADER
    assert table[1:] == [
        "push-button\tSave\t\"\"\t\t\t(10, 20)\t(30, 40)",
        'entry\t\t"say ""hi"""\taddress-input\t\t(50, 60)\t(200, 20)',
    ]  # the panel (not a kept tag), the hidden item and the frame are left out


def test_element_at_a_point_is_the_deepest_showing_one() -> None:
    xml = to_xml(_desktop())
    assert element_at(xml, 25, 30).get("name") == "Save"  # type: ignore[union-attr]
    assert element_at(xml, 300, 250).tag == "panel"  # type: ignore[union-attr]
    assert element_at(xml, 2, 2).tag == "panel"  # the hidden item's box does not count
    assert element_at(xml, 500, 500) is None
    assert [r.name for r in rows(xml)] == ["Save", ""]


# ---------------------------------------------------------------------- wire and bus
def test_a_call_encodes_as_dbus_reads_it() -> None:
    data = encode_call(7, destination=":1.9", path="/org/a11y/atspi/accessible/12", interface=atspi.TEXT,
                       member="GetText", signature="ii", args=(0, -1))
    assert message_size(data) == len(data) and data[:4] == b"l\x01\x00\x01"
    reply = decode_message(data)
    assert reply.body == (0, -1) and reply.reply_to == 0


def test_bus_and_registry_start_answer_and_stop_by_pid(tmp_path: Path) -> None:
    bus = AccessibilityBus(tmp_path, env={"PATH": "/usr/bin:/bin"})
    bus.start()
    try:
        pids = bus.pids()
        assert len(pids) >= 2
        with BusConnection(bus.address) as connection:
            deadline = time.monotonic() + 5
            names, owner = connection.call_many([
                Call(DBUS, "/org/freedesktop/DBus", DBUS, "ListNames"),
                Call(DBUS, "/org/freedesktop/DBus", DBUS, "GetNameOwner", "s", (atspi.REGISTRY,)),
            ], deadline=deadline)
            assert atspi.REGISTRY in names.body[0] and owner.body[0].startswith(":")  # type: ignore[union-attr]
            (apps,) = connection.call_many([Call(atspi.REGISTRY, atspi.ROOT_PATH, atspi.ACCESSIBLE, "GetChildren")],
                                           deadline=deadline)
            assert apps is not None and apps.body == ([],)  # no app runs
            (error,) = connection.call_many([Call(DBUS, "/org/freedesktop/DBus", DBUS, "NoSuchMethod")], deadline=deadline)
            assert error is not None and error.is_error
            assert bus.registry is not None and bus.registry.pid is not None
            os.kill(bus.registry.pid, signal.SIGSTOP)  # a registry that stops answering
            started = time.monotonic()
            with pytest.raises(EnvHungError):
                connection.call_many([Call(atspi.REGISTRY, atspi.ROOT_PATH, atspi.ACCESSIBLE, "GetChildren")],
                                     deadline=started + 1.0)
            assert time.monotonic() - started < 2.0
    finally:
        bus.stop()
    assert wait_gone(pids) == []


# ---------------------------------------------------------------------- checks
def _metric(config: str) -> Metric:
    evaluator = json.loads(Path(config).read_text())["evaluator"]
    return Metric(evaluator["func"], evaluator["result"], evaluator["expected"], evaluator.get("options"), "evaluator", None)


SAMPLE = Path(__file__).parents[2] / "fixtures" / "osworld" / "thunderbird-15c3b339-88f7-4a86-ab16-e71c58dcb01e.json"


def test_osworld_sample_converts_rule_by_rule_and_selects_in_our_tree() -> None:
    checks = check_accessibility_tree(_metric(str(SAMPLE)))
    assert len(checks) == 2
    xpath = checks[0]["value"]["of"]["accessibility_tree"]["xpath"]
    assert "anonym-x2024@outlook.com" in xpath and checks[0]["value"]["rule"] == {"method": "ne", "ref": []}
    AccessibilityTreeArgs(xpath=xpath)
    tree = to_xml(_desktop())
    assert select(tree, xpath=checks[1]["value"]["of"]["accessibility_tree"]["xpath"]) == []
    _desktop_with_password = tree.replace('name="Save"', 'name="Password"')
    assert select(_desktop_with_password, xpath=checks[1]["value"]["of"]["accessibility_tree"]["xpath"]) == [None]


def test_rules_judge_as_osworld_scores() -> None:
    xml = to_xml(_desktop())
    present, absent = select(xml, selectors=["frame push-button[name=Save]"]), select(xml, selectors=["link"])
    not_empty = ValueRule(method="ne", ref=[])
    assert matches(present, not_empty) and not matches(absent, not_empty)
    rule = {"func": "check_accessibility_tree", "result": {"type": "accessibility_tree"},
            "expected": {"type": "rule", "rules": [{"xpath": "//entry", "text": 'say "hi"', "exact": False}]}}
    (check,) = check_accessibility_tree(Metric(rule["func"], rule["result"], rule["expected"], None, "evaluator", None))
    assert check["value"]["include"] == ['say "hi"'] and check["value"]["of"] == {"accessibility_tree": {"xpath": "//entry"}}
    with pytest.raises(ValueError, match="invalid XPath"):
        select(xml, xpath="//[")
