"""Sources read from chrome state (filled in by the OSWorld chrome work)."""

from __future__ import annotations

from gui_agent.checks.sources.base import SourceType

SOURCES: tuple[SourceType, ...] = ()
