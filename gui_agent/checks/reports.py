"""How check reports word what they saw: cut long texts, list differences.

Every judge fills a report the same way (``observed``, ``passed``, ``reason``; see
:mod:`gui_agent.checks.evaluation`); these few helpers keep the wording and the size
limits in one place.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: A check's report: ``check``, ``path``, ``passed``, ``reason``, ``expected``, ``observed``...
Report = dict[str, Any]

#: Longest text copied into ``observed`` (the rest is cut with "...").
MAX_OBSERVED_CHARS = 500
#: Differences listed in a reason before "... and N more".
MAX_DIFFERENCES = 10


def cut(text: str) -> str:
    """``text``, cut to :data:`MAX_OBSERVED_CHARS`."""
    return text if len(text) <= MAX_OBSERVED_CHARS else text[:MAX_OBSERVED_CHARS] + "..."


def listing(items: list[str]) -> str:
    """The first :data:`MAX_DIFFERENCES` items joined by "; ", then how many more there are."""
    more = f"; and {len(items) - MAX_DIFFERENCES} more" if len(items) > MAX_DIFFERENCES else ""
    return "; ".join(items[:MAX_DIFFERENCES]) + more


def missing(report: dict[str, Any], path: str, what: str = "") -> None:
    """Fill ``report`` for a file the check needs that is not there (a failure, not an error)."""
    report.update(observed={"exists": False}, reason=f"{path} does not exist{what or ' (was it saved there?)'}")


def written_file(probe: Any, path: str, report: dict[str, Any]) -> Path | None:
    """The file the agent was to write at the home-relative ``path``, or None with the report
    filled (a missing file is a failure, not an error)."""
    found: Path = probe.resolve_path(path)
    if not found.is_file():
        missing(report, path, " (was it written there?)")
        return None
    return found


def verdict(report: dict[str, Any], differences: list[str], *, ok: str, prefix: str = "") -> None:
    """Pass with reason ``ok`` when there are no differences, else fail listing them."""
    report.setdefault("observed", {})
    if isinstance(report["observed"], dict):
        report["observed"]["differences"] = differences[:MAX_DIFFERENCES]
    if differences:
        report.update(passed=False, reason=f"{prefix}{len(differences)} difference(s): {listing(differences)}")
    else:
        report.update(passed=True, reason=ok)
