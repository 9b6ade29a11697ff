"""The live desktop's VNC stream: the page's websocket relayed to the item's ``x11vnc`` on loopback.

The item's annotator works on the desktop. A reviewer may watch anyone's: her input is
taken out here (:class:`~gui_agent.station.view_only.ViewOnlyFilter`), whatever her page or client
sends, and her view is not one of the annotator's (it neither keeps a recording going nor
resumes one). A view whose x11vnc died starts it again (:meth:`LiveDesktop.vnc_port_for_viewer`).
"""

from __future__ import annotations

import asyncio

from starlette.concurrency import run_in_threadpool
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from gui_agent.station.errors import LiveError, ViewOnlyError
from gui_agent.station.live import LiveDesktop
from gui_agent.station.routes.context import account_of, station_of
from gui_agent.station.view_only import ViewOnlyFilter


def _watched(websocket: WebSocket) -> tuple[LiveDesktop, bool] | None:
    """The live desktop this websocket may view, and whether it may only watch; None if none."""
    station, account = station_of(websocket), account_of(websocket)
    item_id = websocket.path_params["item_id"]
    item = station.owned(account, item_id) or (station.visible(account, item_id) if account.reviewer else None)
    live = station.live.get(item.item_id) if item is not None else None
    if item is None or live is None or live.vnc_port is None or live.state not in ("ready", "recording"):
        return None
    return live, item.annotator != account.name


async def vnc(websocket: WebSocket) -> None:
    watched = _watched(websocket)
    if watched is None:
        await websocket.close(code=4404)
        return
    live, watch_only = watched
    offered = websocket.scope.get("subprotocols") or []
    await websocket.accept(subprotocol="binary" if "binary" in offered else None)
    try:
        port = await run_in_threadpool(live.vnc_port_for_viewer)  # x11vnc again if it died
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except (OSError, LiveError):
        await websocket.close(code=1011)
        return
    if not watch_only:
        live.viewer_joined()
    try:
        await _relay(websocket, reader, writer, ViewOnlyFilter() if watch_only else None)
    finally:
        writer.close()
        if not watch_only:
            live.viewer_left()  # the annotator's last view gone pauses the recording until one is back
        try:
            await websocket.close()
        except Exception:  # noqa: BLE001 - already closed by the browser
            pass


async def _relay(websocket: WebSocket, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 watcher: ViewOnlyFilter | None) -> None:
    """Both directions until either ends."""
    tasks = [asyncio.create_task(_upstream(websocket, writer, watcher)), asyncio.create_task(_downstream(websocket, reader))]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    except WebSocketDisconnect:
        pass
    finally:
        for task in tasks:
            task.cancel()


async def _upstream(websocket: WebSocket, writer: asyncio.StreamWriter, watcher: ViewOnlyFilter | None) -> None:
    """The browser's messages to x11vnc (a watcher's through her filter)."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        data = message.get("bytes") or (message.get("text") or "").encode()
        if watcher is not None:
            try:
                data = watcher.feed(data)
            except ViewOnlyError:
                return  # a message it cannot delimit: the view closes rather than pass input
            if not data:
                continue
        writer.write(data)
        await writer.drain()


async def _downstream(websocket: WebSocket, reader: asyncio.StreamReader) -> None:
    """x11vnc's bytes to the browser."""
    while True:
        data = await reader.read(65536)
        if not data:
            return
        await websocket.send_bytes(data)


ROUTES = [WebSocketRoute("/api/items/{item_id}/vnc", vnc)]
