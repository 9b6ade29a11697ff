"""Every desktop suite's scripts, by task id."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from gui_agent.models.policies.desktop_oracle import (
    calc, mail, office, osworld, osworld_chrome, osworld_gimp, osworld_multi_apps, osworld_os, osworld_vlc, osworld_vscode,
)
from gui_agent.models.policies.desktop_oracle.script import Item

SCRIPTS: Mapping[str, Callable[[], list[Item]]] = MappingProxyType({
    **calc.SCRIPTS, **mail.SCRIPTS, **office.SCRIPTS, **osworld.SCRIPTS,
    **osworld_chrome.SCRIPTS, **osworld_gimp.SCRIPTS, **osworld_vlc.SCRIPTS, **osworld_vscode.SCRIPTS,
    **osworld_os.SCRIPTS, **osworld_multi_apps.SCRIPTS,
})
