"""Editing an item's episode from its review page (:func:`gui_agent.station.edits.edit_episode`).

A reviewer edits any item's episode, an annotator their own until a reviewer has decided
on it; another annotator's item is a 404, as everywhere.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gui_agent.station.edits import edit_episode
from gui_agent.station.errors import BadBody, ItemBusy, ReviewLocked
from gui_agent.station.routes.context import account_of, error, json_body, station_of

#: A few fields and at most one text (the episode module caps texts).
MAX_BODY_BYTES = 64 * 1024


async def edit(request: Request) -> Response:
    from gui_agent.episode.edit import EditError
    from gui_agent.errors import EpisodeFormatError

    station, account = station_of(request), account_of(request)
    item = station.visible(account, request.path_params["item_id"])
    folder = station.episode_dir(item) if item is not None else None
    if item is None or folder is None:
        return error(404, "no such episode")
    try:
        body = await json_body(request, max_bytes=MAX_BODY_BYTES)
        result = await station.exclusively(item, edit_episode, station.queue, item, folder, body, by=account.name,
                                           reviewer=account.reviewer)
    except (BadBody, EditError) as exc:
        return error(400, str(exc))
    except ItemBusy:
        return error(409, ItemBusy.message)
    except (ReviewLocked, EpisodeFormatError) as exc:  # decided on, or damaged: no edit can be made
        return error(409, str(exc))
    except Exception as exc:  # noqa: BLE001 - the page shows why, the station keeps running
        return error(500, f"{type(exc).__name__}: {exc}")
    return JSONResponse({"item": station.describe(station.queue.get(item.item_id)), **result})


ROUTES = [Route("/api/items/{item_id}/edit", edit, methods=["POST"])]
