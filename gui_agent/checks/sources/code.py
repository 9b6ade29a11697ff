"""Sources read from code state (filled in by the OSWorld code work)."""

from __future__ import annotations

from gui_agent.checks.sources.base import SourceType

SOURCES: tuple[SourceType, ...] = ()
