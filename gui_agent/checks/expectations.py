"""Checks that list what must be there (``expect``) and what must not (``unexpect``).

Several families judge this way, as OSWorld's ``check_thunderbird_filter``,
``check_csv`` and ``check_list`` do: the files family (CSV rows, lines, JSON values) and
the mail family (preferences, filters, accounts). The schema rule (one of the two is
given) and the matching of records live here, once.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import PydanticCustomError


def expect_something(model: Any) -> None:
    """The schema rule: at least one of ``expect`` and ``unexpect`` is given (non-empty)."""
    if not model.expect and not model.unexpect:
        raise PydanticCustomError("expect", "expected 'expect' and/or 'unexpect' (what must and must not be there)", {"key": None})


def record_matches(wanted: dict[str, Any], record: dict[str, Any]) -> bool:
    """Every field ``wanted`` names is in ``record`` with that value."""
    return all(k in record and record[k] == v for k, v in wanted.items())


def expect_records(records: list[dict[str, Any]], expect: list[dict[str, Any]], unexpect: list[dict[str, Any]], what: str) -> list[str]:
    """The problems: an ``expect`` entry no record matches, an ``unexpect`` entry one does."""
    problems = [f"no {what} matches {e}" for e in expect if not any(record_matches(e, r) for r in records)]
    problems += [f"a {what} matches {u}, which must not be there" for u in unexpect if any(record_matches(u, r) for r in records)]
    return problems
