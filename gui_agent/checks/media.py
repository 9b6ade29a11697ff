"""Checks of the media family (filled in by the OSWorld media work)."""

from __future__ import annotations

from gui_agent.checks.family import CheckType

CHECKS: tuple[CheckType, ...] = ()
