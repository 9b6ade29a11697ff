"""The document family: checks of text documents the agent saved (Writer's ``.docx`` and
``.odt``), compared with a reference document or against formats.

* ``models``: what a task file may write;
* ``reader``: a ``.docx`` or ``.odt`` as one plain model (paragraphs, runs, footers...);
* ``judging``: the checks judged on that model.
"""

from __future__ import annotations

from gui_agent.checks.document.judging import HANDLERS
from gui_agent.checks.document.models import DOCUMENT_CHECK_TYPES

__all__ = ["DOCUMENT_CHECK_TYPES", "HANDLERS"]
