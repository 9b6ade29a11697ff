"""Checks of the chrome family (filled in by the OSWorld chrome work)."""

from __future__ import annotations

from gui_agent.checks.family import CheckType

CHECKS: tuple[CheckType, ...] = ()
