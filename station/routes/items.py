"""The queue as a signed-in account sees it: the list page, an item's task page, and their JSON.

An annotator sees only their own items, a reviewer everyone's; another annotator's item
is a 404, as unknown as a made-up id.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gui_agent.station.pages import render_page
from gui_agent.station.routes.context import account_of, error, station_of


async def index(request: Request) -> Response:
    return render_page(request, "index.html")


async def task_page(request: Request) -> Response:
    if station_of(request).visible(account_of(request), request.path_params["item_id"]) is None:
        return error(404, "no such item")
    return render_page(request, "task.html")


async def items(request: Request) -> Response:
    station, account = station_of(request), account_of(request)
    shown = station.queue.items(None if account.reviewer else account.name)
    return JSONResponse({"items": [station.describe(i) for i in shown]})


async def item_detail(request: Request) -> Response:
    station = station_of(request)
    item = station.visible(account_of(request), request.path_params["item_id"])
    if item is None:
        return error(404, "no such item")
    return JSONResponse(station.describe(item))


ROUTES = [
    Route("/", index, methods=["GET"]),
    Route("/task/{item_id}", task_page, methods=["GET"]),
    Route("/api/items", items, methods=["GET"]),
    Route("/api/items/{item_id}", item_detail, methods=["GET"]),
]
