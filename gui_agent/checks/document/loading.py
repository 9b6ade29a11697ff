"""Opening the documents a document check compares: the one the agent saved (a missing
file is a failure the report says, not an error) and the task's reference file."""

from __future__ import annotations

from typing import Any

from gui_agent.checks.document.parts import Document
from gui_agent.checks.document.reader import read_document
from gui_agent.checks.reports import missing


def saved_document(probe: Any, path: str, report: dict[str, Any]) -> Document | None:
    """The document at the home-relative ``path``, or None with the report filled."""
    found = probe.resolve_path(path)
    if not found.is_file():
        missing(report, path)
        return None
    return read_document(found)


def reference_document(probe: Any, path: str) -> Document:
    """The task's own file at ``path`` (raises when it is not there: the task is broken)."""
    return read_document(probe.task_file(path))


__all__ = ["reference_document", "saved_document"]
