"""The pieces of a desktop oracle script: real input, and waiting for what the screen shows.

A script is a fixed list of items: canonical actions (clicks, keys, typing) and
:class:`WaitForTitle` barriers. A barrier does not touch the desktop; it makes the policy
answer ``wait`` until the focused window's title matches (a dialog opened, a file was
saved under a new name), because keys sent before a dialog has the focus would go to the
window behind it. Nothing in a script reads or writes files: the work is done through
the apps' own user interface, as a person would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gui_agent.actions import Action, Hotkey, Type


@dataclass(frozen=True)
class WaitForTitle:
    """Wait (at most ``timeout_s``) until the focused window's title matches ``pattern``."""

    pattern: str
    timeout_s: float = 15.0

    def matches(self, title: str | None) -> bool:
        return title is not None and re.search(self.pattern, title) is not None


#: One item of a script.
Item = Action | WaitForTitle


def keys(*names: str) -> Hotkey:
    """``keys("ctrl", "s")``: press keys together."""
    return Hotkey(tuple(names))


def type_text(text: str) -> Type:
    return Type(text)
