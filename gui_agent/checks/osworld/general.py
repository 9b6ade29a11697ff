"""OSWorld's general evaluator functions as our checks (filled in by the OSWorld general work)."""

from __future__ import annotations

from collections.abc import Callable

from gui_agent.checks.osworld.metric import Check, Metric

#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {}
#: OSWorld metric name -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {}
