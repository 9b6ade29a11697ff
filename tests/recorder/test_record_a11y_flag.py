"""``gui-agent record --a11y-bus ADDRESS`` gives the recording session the display's
accessibility bus (targets and password masking by role come from it)."""

from __future__ import annotations

from gui_agent.cli import build_parser
from gui_agent.cli.record import _config


def test_the_bus_address_reaches_the_session() -> None:
    args = build_parser().parse_args(["record", "--task", "x", "--a11y-bus", "unix:path=/tmp/a11y-bus"])
    assert _config(args, "x").a11y_address == "unix:path=/tmp/a11y-bus"
    args = build_parser().parse_args(["record", "--task", "x"])
    assert _config(args, "x").a11y_address is None
