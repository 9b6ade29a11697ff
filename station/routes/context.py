"""What every endpoint reads from its request: the station, the signed-in account, a JSON
body; and the JSON answer of a refusal.

The station is the app's (``request.app.state.station``, set by
:func:`gui_agent.station.app.create_app`) and the account the :class:`~gui_agent.station.guard.Guard`'s
(``request.state.account``), so an endpoint is a plain module-level function.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse

from gui_agent.station.accounts import Account
from gui_agent.station.errors import BadBody
from gui_agent.station.state import Station


def station_of(connection: HTTPConnection) -> Station:
    """The app's :class:`~gui_agent.station.state.Station` (a request's or a websocket's)."""
    return connection.app.state.station


def account_of(connection: HTTPConnection) -> Account:
    """The account the guard signed in for this request or websocket."""
    return connection.scope["state"]["account"]


def error(status: int, message: str) -> JSONResponse:
    """A refusal: ``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status)


async def json_body(request: Request, *, max_bytes: int | None = None) -> Any:
    """The request's JSON body (an empty body is ``{}``).

    Raises:
        BadBody: the body is over ``max_bytes`` or is not JSON.
    """
    raw = await request.body()
    if max_bytes is not None and len(raw) > max_bytes:
        raise BadBody(f"the body is over {max_bytes} bytes")
    try:
        return json.loads(raw or b"{}")
    except ValueError:
        raise BadBody("the body is not JSON") from None
