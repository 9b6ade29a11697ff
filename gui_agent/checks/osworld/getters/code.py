"""OSWorld's code getters as our sources (filled in by the OSWorld code work)."""

from __future__ import annotations

from gui_agent.checks.osworld.getters.base import Getter

#: OSWorld getter type -> its conversion to a source.
GETTERS: dict[str, Getter] = {}
#: OSWorld getter type -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {}
