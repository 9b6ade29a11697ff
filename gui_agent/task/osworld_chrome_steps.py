"""OSWorld's Chrome setup steps (``chrome_open_tabs``, ``chrome_close_tabs``,
``update_browse_history``) as our steps (filled in by the OSWorld chrome work)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: OSWorld step type -> its conversion (params, where, context) -> our steps.
STEPS: dict[str, Callable[[dict[str, Any], str, Any], list[dict[str, Any]]]] = {}
