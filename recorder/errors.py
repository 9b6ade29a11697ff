"""The recorder's exceptions, in one place.

Both derive from ``RuntimeError`` (not :class:`gui_agent.errors.GuiAgentError`): what the
recorder cannot do is said to the person at the screen, by ``gui-agent record`` (exit 3)
and the annotation station, which catch these by name.
"""

from __future__ import annotations


class RecorderError(RuntimeError):
    """The recorder cannot start or continue; the message says why and what to do."""


class ScreenError(RuntimeError):
    """The screen cannot be captured, or its layout changed."""
