"""Checks of the code family (filled in by the OSWorld code work)."""

from __future__ import annotations

from gui_agent.checks.family import CheckType

CHECKS: tuple[CheckType, ...] = ()
