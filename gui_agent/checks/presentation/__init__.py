"""The presentation family: checks of presentations the agent saved (Impress, ``.pptx``
read with python-pptx) and of LibreOffice's own settings.

* ``models``: what a task file may write;
* ``judging``: the checks judged.
"""

from __future__ import annotations

from gui_agent.checks.presentation.judging import HANDLERS
from gui_agent.checks.presentation.models import PRESENTATION_CHECK_TYPES

__all__ = ["HANDLERS", "PRESENTATION_CHECK_TYPES"]
