"""Checks of the image family (filled in by the OSWorld image work)."""

from __future__ import annotations

from gui_agent.checks.family import CheckType

CHECKS: tuple[CheckType, ...] = ()
