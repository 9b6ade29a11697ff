"""What the files family raises when a file it must read is not what it should be.

A judge that raises makes the check fail as "could not be evaluated" (see
:mod:`gui_agent.checks.family`); these say why in the reader's words.
"""

from __future__ import annotations


class UnreadableFile(ValueError):
    """A file is not of the kind the check reads (a PDF that is not one, a broken archive)."""


class MissingReader(RuntimeError):
    """The library that reads this kind of file is not installed (an install problem, not the agent's)."""


__all__ = ["MissingReader", "UnreadableFile"]
