"""Reviewing an item's finished episode: its page, its keyframes, and a reviewer's decision.

Whoever may see an item may see its review page and frames (its annotator, a reviewer);
only a reviewer accepts or rejects. An episode folder is the queue's, resolved inside
DATASET (:meth:`Station.episode_dir`); a frame is found by its integer index in the
episode's steps, never by a path from the URL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from gui_agent.station.errors import BadBody, ItemBusy
from gui_agent.station.pages import render_page
from gui_agent.station.queue import Item, TaskQueue
from gui_agent.station.review_page import review_context
from gui_agent.station.routes.context import account_of, error, json_body, station_of

_DECISIONS = {"accept": "accepted", "reject": "rejected"}


async def review_page(request: Request) -> Response:
    station, account = station_of(request), account_of(request)
    item = station.visible(account, request.path_params["item_id"])
    if item is None:
        return error(404, "no such item")
    return render_page(request, "review.html", review_context(item, station.episode_dir(item), reviewer=account.reviewer))


async def frame(request: Request) -> Response:
    """Keyframe N of the item's episode (N = the number of steps: the screen after the last step)."""
    from gui_agent.episode import read_episode
    from gui_agent.episode.format import frame_path

    station = station_of(request)
    item = station.visible(account_of(request), request.path_params["item_id"])
    folder = station.episode_dir(item) if item is not None else None
    if folder is None:
        return error(404, "no such episode")
    episode = read_episode(folder)
    index = request.path_params["index"]
    frames = [s.frame_before for s in episode.steps]
    rel = frames[index] if 0 <= index < len(frames) else None
    if rel is None and index == len(frames):
        rel = frame_path(index, episode.meta.frame_format)
    path = (folder / rel).resolve() if rel is not None else None
    if path is None or not path.is_relative_to(folder.resolve()) or not path.is_file():
        return error(404, "no such frame")
    return FileResponse(path)


async def decide(request: Request) -> Response:
    """A reviewer accepts or rejects an item's episode: kept in the queue and as the
    episode's ``labels.review`` (through :func:`gui_agent.recorder.edit.relabel`; steps untouched)."""
    station, account = station_of(request), account_of(request)
    if not account.reviewer:
        return error(403, "only a reviewer accepts or rejects")
    item = station.visible(account, request.path_params["item_id"])
    folder = station.episode_dir(item) if item is not None else None
    if item is None or folder is None:
        return error(404, "no such episode")
    try:
        body = await json_body(request)
    except BadBody as exc:
        return error(400, str(exc))
    decision = _DECISIONS.get(body.get("decision") if isinstance(body, dict) else None)
    if decision is None:
        return error(400, 'say {"decision": "accept"} or {"decision": "reject"}')
    notes = str(body["notes"])[:4000] if body.get("notes") else None
    verdict = {"decision": decision, "by": account.name, "notes": notes}
    try:
        updated = await station.exclusively(item, _record_decision, station.queue, item, folder, verdict)
    except ItemBusy:
        return error(409, ItemBusy.message)
    return JSONResponse({"item": station.describe(updated)})


def _record_decision(queue: TaskQueue, item: Item, folder: Path, verdict: dict[str, Any]) -> Item:
    from gui_agent.episode.labels import REVIEW
    from gui_agent.recorder.edit import relabel

    updated = queue.set_review(item.item_id, verdict)
    relabel(folder, labels=REVIEW.item(updated.review))
    return updated


ROUTES = [
    Route("/review/{item_id}", review_page, methods=["GET"]),
    Route("/api/items/{item_id}/frames/{index:int}", frame, methods=["GET"]),
    Route("/api/items/{item_id}/review", decide, methods=["POST"]),
]
