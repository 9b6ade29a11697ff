"""The edits a review page makes to an item's episode, kept consistent with the review.

Edits (:func:`edit_episode`) are :mod:`gui_agent.episode.edit`'s: this module only checks
the request and keeps the review consistent. Once a reviewer has decided, only a reviewer
edits the episode. An acceptance is about the episode the reviewer saw, so an edit
withdraws it (the item is "not reviewed" again, in the queue and in the episode's
``labels.review``) and the episode must be accepted again before it is exported; a
rejection stands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gui_agent.episode.edit import EditError
from gui_agent.episode.labels import REVIEW
from gui_agent.station.errors import ReviewLocked
from gui_agent.station.queue import Item, TaskQueue

#: Edits that are not logged operations: they move back through the log.
HISTORY_OPS = ("undo", "reset")


def edit_episode(queue: TaskQueue, item: Item, folder: Path, body: Any, *, by: str, reviewer: bool) -> dict[str, Any]:
    """Apply one edit request (``{"op": "delete", "steps": [3]}``, ``{"op": "reset"}``, ...) to the item's episode.

    The request is checked against the episode before anything changes. The edit and the
    episode's copy of the review are one write; the queue follows. So a failed edit changes
    nothing, and a crash between the two writes leaves an episode that is either the one
    accepted or one no longer marked accepted, never an edited episode marked accepted.

    Raises:
        EditError: a malformed request or one that does not fit the episode (a 400).
        ReviewLocked: ``by`` is not a reviewer and a reviewer has decided on the episode.
    """
    from gui_agent.episode import edit as episode_edit

    op, edit = _checked(folder, body)
    current = item.review or {}
    if current.get("decision") in ("accepted", "rejected") and not reviewer:
        raise ReviewLocked(f"a reviewer has {current['decision']} this episode: only a reviewer edits it now")
    withdrawn = _withdrawal(queue, current, by=by) if current.get("decision") == "accepted" else None
    # The queue's verdict is the one that stands: an undone or restored episode.json would
    # otherwise bring back the verdict of its own time.
    review = withdrawn if withdrawn is not None else item.review
    labels = REVIEW.item(review) if review is not None else None
    if edit is None:
        episode = episode_edit.undo(folder, labels=labels) if op == "undo" else episode_edit.reset(folder, labels=labels)
    else:
        episode = episode_edit.apply_edit(folder, edit, by=by, labels=labels)
    if withdrawn is not None:
        queue.set_review(item.item_id, withdrawn)
    return {"steps": len(episode.steps), "edits": len(episode_edit.read_edits(folder)),
            "review_withdrawn": withdrawn is not None}


def _checked(folder: Path, body: Any) -> tuple[Any, Any]:
    """The request's op and its checked edit (None for an undo or a reset).

    Raises:
        EditError: the request is malformed or does not fit the episode.
    """
    from gui_agent.episode import edit as episode_edit

    if not isinstance(body, dict):
        raise EditError("the body must be a JSON object with an 'op'")
    op = body.get("op")
    if op not in HISTORY_OPS:
        return op, episode_edit.check_edit(folder, body)
    if set(body) != {"op"}:
        raise EditError(f"{op} takes no other fields")
    if not episode_edit.is_edited(folder):
        raise EditError("the episode has no edits; it is already the original")
    return op, None


def _withdrawal(queue: TaskQueue, accepted: dict[str, Any], *, by: str) -> dict[str, Any]:
    """The review record that withdraws ``accepted`` because ``by`` edited the episode."""
    note = f"accepted by {accepted.get('by')}, withdrawn: {by} edited the episode"
    return queue.review_record({"decision": None, "by": by, "notes": note, "withdrawn": dict(accepted)})
