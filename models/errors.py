"""The exceptions of ``models/``, in one place (the project's own are in :mod:`gui_agent.errors`).

What the core has to tell apart (a checkpoint that cannot be loaded, a model service that
stayed down, a policy that cannot act on a task) is declared in :mod:`gui_agent.errors`,
since the CLI and the runner catch it without importing ``models``. Here are the kinds
that only ``models/`` raises and reads.
"""

from __future__ import annotations

from gui_agent.errors import GuiAgentError, PolicyTaskError


class UnsupportedTaskError(PolicyTaskError):
    """A scripted oracle (the MiniWoB++ one, the desktop one) has no solver or script for the task."""


class OracleError(GuiAgentError):
    """The page is not what the MiniWoB++ oracle's solver expects (element missing, instruction not parsed)."""


# ---------------------------------------------------------------------- signals within models/http
# Raised by models/http/calls.py and caught by the HTTP policies (or turned into a
# PolicyServiceError there). They derive from Exception, not GuiAgentError, on purpose: a
# handler of GuiAgentError between the raise and its catch must not swallow them.


class ContextTooLong(Exception):
    """The service says the prompt does not fit its context; the caller shortens it.

    ``failed_requests`` counts the requests of the call that failed, the last one
    included, so the step still records every retry.
    """

    def __init__(self, message: str, failed_requests: int = 1) -> None:
        super().__init__(message)
        self.failed_requests = failed_requests


class DeadlinePassed(Exception):
    """A request took longer than its timeout in all (it may still have been receiving bytes)."""


class UnexpectedAnswer(Exception):
    """A successful answer whose body is not what the API documents: a proxy's or a web UI's
    page, or JSON without the documented fields. The service is at fault, not the model:
    it is retried like a dropped connection."""
