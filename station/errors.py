"""The station's exceptions, in one place; each says how the web app answers it."""

from __future__ import annotations


class StationError(Exception):
    """Base class of every error the station raises on purpose."""


class AccountsError(StationError, ValueError):
    """A tokens file that cannot be used (named line and reason)."""


class LiveError(StationError, RuntimeError):
    """A step of a live task that cannot be done now (say, Finish before Start): answered 409."""


class ViewOnlyError(StationError, ValueError):
    """The watcher's client sent something the filter cannot pass safely (the view is closed)."""


class ItemBusy(StationError):
    """Another action on the same item is under way (answered 409)."""

    message = "this item is busy; try again"


class ReviewLocked(StationError):
    """An annotator's edit of an episode a reviewer has decided on (answered 409)."""


class BadBody(StationError):
    """A request body that cannot be read as the endpoint's JSON object (answered 400)."""
