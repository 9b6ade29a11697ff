"""Oracle scripts for imported OSWorld vlc tasks (filled in by the OSWorld vlc work)."""

from __future__ import annotations

from collections.abc import Callable

from gui_agent.models.policies.desktop_oracle.script import Item

#: Task id -> the script solving it.
SCRIPTS: dict[str, Callable[[], list[Item]]] = {}
