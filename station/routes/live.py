"""The actions on one's own taken item: take (open its desktop), start, pause, finish,
give up, discard.

Only the item's annotator acts on it (anyone else gets a 404). Each action runs in a
worker thread as the only action on the item under way (:meth:`Station.exclusively`)
and answers the item as it now is, with what the action returned.
"""

from __future__ import annotations

from typing import Any, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gui_agent.station.errors import BadBody, ItemBusy, LiveError
from gui_agent.station.queue import Item
from gui_agent.station.routes.context import account_of, error, json_body, station_of
from gui_agent.station.state import Station

#: An action: the station, the item and the request's JSON object -> what the answer adds.
Action = Callable[[Station, Item, dict[str, Any]], dict[str, Any]]


async def _act(request: Request, action: Action) -> Response:
    station = station_of(request)
    item = station.owned(account_of(request), request.path_params["item_id"])
    if item is None:
        return error(404, "no such item of yours")
    body: Any = {}
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            body = await json_body(request)
        except BadBody as exc:
            return error(400, str(exc))
        if not isinstance(body, dict):
            return error(400, "the body must be a JSON object")
    try:
        result = await station.exclusively(item, action, station, item, body)
    except ItemBusy:
        return error(409, ItemBusy.message)
    except LiveError as exc:
        return error(409, str(exc))
    except Exception as exc:  # noqa: BLE001 - the page shows why, the station keeps running
        return error(500, f"{type(exc).__name__}: {exc}")
    return JSONResponse({"item": station.describe(station.queue.get(item.item_id)), **result})


def _notes(body: dict[str, Any]) -> str | None:
    notes = body.get("notes")
    return str(notes)[:4000] if notes else None


def _take(station: Station, item: Item, body: dict[str, Any]) -> dict[str, Any]:
    live = station.take(item)
    return {"instruction": live.instruction, "display": live.display}


def _start(station: Station, item: Item, body: dict[str, Any]) -> dict[str, Any]:
    return {"episode": station.start(item).name}


def _pause(station: Station, item: Item, body: dict[str, Any]) -> dict[str, Any]:
    return {"paused": station.live_desktop(item).toggle_pause()}


def _finish(station: Station, item: Item, body: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(body.get("success"), bool):
        raise LiveError("say whether the task succeeded: {\"success\": true|false}")
    return {"outcome": station.finish(item, success=body["success"], notes=_notes(body))}


def _give_up(station: Station, item: Item, body: dict[str, Any]) -> dict[str, Any]:
    return {"outcome": station.give_up(item, notes=_notes(body))}


def _discard(station: Station, item: Item, body: dict[str, Any]) -> dict[str, Any]:
    station.discard(item)
    return {}


async def take(request: Request) -> Response:
    return await _act(request, _take)


async def start(request: Request) -> Response:
    return await _act(request, _start)


async def pause(request: Request) -> Response:
    return await _act(request, _pause)


async def finish(request: Request) -> Response:
    return await _act(request, _finish)


async def give_up(request: Request) -> Response:
    return await _act(request, _give_up)


async def discard(request: Request) -> Response:
    return await _act(request, _discard)


ROUTES = [
    Route("/api/items/{item_id}/take", take, methods=["POST"]),
    Route("/api/items/{item_id}/start", start, methods=["POST"]),
    Route("/api/items/{item_id}/pause", pause, methods=["POST"]),
    Route("/api/items/{item_id}/finish", finish, methods=["POST"]),
    Route("/api/items/{item_id}/give-up", give_up, methods=["POST"]),
    Route("/api/items/{item_id}/discard", discard, methods=["POST"]),
]
