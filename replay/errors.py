"""What goes wrong in replay on purpose: bad input (no task file, an unusable episode).

A replay that *diverges* or refuses to act is not an error: it is a result
(:class:`gui_agent.replay.replayer.ReplayResult`) with the reason.
"""

from __future__ import annotations

from gui_agent.errors import GuiAgentError


class ReplayError(GuiAgentError):
    """An episode cannot be replayed as asked: the message says what is missing and how to fix it."""
