"""Sources read from media state (filled in by the OSWorld media work)."""

from __future__ import annotations

from gui_agent.checks.sources.base import SourceType

SOURCES: tuple[SourceType, ...] = ()
