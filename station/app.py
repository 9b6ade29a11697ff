"""The station's web app (Starlette): sign-in, pages, the JSON API, the VNC websocket.

Security rules, all enforced here in one place (:class:`Guard`):

* every route needs a signed-in account (the ``station_token`` cookie set by the sign-in
  form, or ``Authorization: Bearer TOKEN``); tokens are compared in constant time;
* a state-changing request (any method but GET/HEAD) and the websocket are refused when
  ``Origin`` is another site or ``Sec-Fetch-Site`` says cross-site; signed in by cookie,
  it must also carry ``X-Station-CSRF`` (a value only the page can read from ``/api/me``);
* an annotator sees and changes only their own items; a reviewer sees everyone's;
* ids in URLs are looked up in the queue, never joined to a path; frame numbers are
  integers looked up in the episode's steps.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.parse
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from station.accounts import Account, Accounts
from station.live import LiveDesktop, LiveError
from station.queue import CLOSED, Item, TaskQueue
from station.view_only import ViewOnlyError, ViewOnlyFilter

COOKIE = "station_token"
CSRF_HEADER = "x-station-csrf"
STATIC_DIR = Path(__file__).parent / "static"
#: Where Debian's ``novnc`` package puts its files.
NOVNC_DIR = Path("/usr/share/novnc")
_OPEN_PATHS = ("/signin", "/static/style.css")
_SAFE_METHODS = ("GET", "HEAD")


class Guard:
    """ASGI middleware: sign-in and cross-site checks for every HTTP request and websocket."""

    def __init__(self, app: Any, accounts: Accounts):
        self.app = app
        self.accounts = accounts

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        account, by_cookie = self._account(headers)
        path = scope.get("path", "")
        method = scope.get("method", "GET")
        cross_site = self._cross_site(headers, scope)
        if scope["type"] == "websocket":
            if account is None or cross_site:
                await send({"type": "websocket.close", "code": 4401 if account is None else 4403})
                return
        elif path in _OPEN_PATHS:
            if method not in _SAFE_METHODS and cross_site:
                return await _deny(scope, receive, send, 403, "cross-site request refused")
        elif account is None:
            if method in _SAFE_METHODS and not path.startswith("/api/") and "text/html" in headers.get("accept", ""):
                return await RedirectResponse("/signin", status_code=303)(scope, receive, send)
            return await _deny(scope, receive, send, 401, "sign in first")
        elif method not in _SAFE_METHODS:
            if cross_site:
                return await _deny(scope, receive, send, 403, "cross-site request refused")
            if by_cookie and not self.accounts.check_csrf(account, headers.get(CSRF_HEADER)):
                return await _deny(scope, receive, send, 403, f"missing or wrong {CSRF_HEADER} header")
        scope.setdefault("state", {})["account"] = account
        await self.app(scope, receive, send)

    def _account(self, headers: dict[str, str]) -> tuple[Account | None, bool]:
        auth = headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return self.accounts.verify(auth[7:].strip()), False
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:  # noqa: BLE001 - a malformed cookie is no sign-in
            return None, True
        morsel = cookie.get(COOKIE)
        return (self.accounts.verify(morsel.value) if morsel is not None else None), True

    @staticmethod
    def _cross_site(headers: dict[str, str], scope: dict) -> bool:
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return True
        origin = headers.get("origin")
        if origin is None:
            return False  # not a browser's cross-site request (browsers send Origin on those)
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        return origin != f"{scheme}://{headers.get('host', '')}"


async def _deny(scope: dict, receive: Any, send: Any, status: int, message: str) -> None:
    await JSONResponse({"error": message}, status_code=status)(scope, receive, send)


class ItemBusy(Exception):
    """Another action on the same item is under way (answered 409)."""

    message = "this item is busy; try again"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class Station:
    """The app's state: accounts, queue, the live desktops of taken items."""

    def __init__(self, accounts: Accounts, queue: TaskQueue, tasks: dict[str, Any], *, idle_pause_s: float | None = None):
        self.accounts = accounts
        self.queue = queue
        self.tasks = tasks  # task file (str) -> loaded Task
        self.idle_pause_s = idle_pause_s  # a recording pauses after this long without input
        self.live: dict[str, LiveDesktop] = {}
        self.busy: set[str] = set()  # items with an action in progress

    # ------------------------------------------------------------------ lookups
    @staticmethod
    def account(request: Request | WebSocket) -> Account:
        return request.scope["state"]["account"]

    def visible(self, account: Account, item_id: Any) -> Item | None:
        item = self.queue.get(item_id)
        if item is None or not (account.reviewer or item.annotator == account.name):
            return None  # another annotator's item is as unknown as a made-up id
        return item

    def owned(self, account: Account, item_id: Any) -> Item | None:
        item = self.queue.get(item_id)
        return item if item is not None and item.annotator == account.name else None

    def episode_dir(self, item: Item) -> Path | None:
        """The finished episode's folder, resolved inside DATASET (:meth:`TaskQueue.episode_folder`)."""
        return self.queue.episode_folder(item.episode)

    def describe(self, item: Item) -> dict[str, Any]:
        live = self.live.get(item.item_id)
        return {**item.public(), "live": live.state if live is not None else None,
                "instruction": live.instruction if live is not None and live.instruction else item.instruction,
                "paused": live.paused if live is not None else False,
                "pause_reason": live.pause_reason if live is not None else None,
                "paused_for_viewers": live is not None and live.paused_for_viewers,
                "episode_available": self.episode_dir(item) is not None}

    # ------------------------------------------------------------------ actions (worker threads)
    def take(self, item: Item) -> LiveDesktop:
        if item.status in CLOSED:
            raise LiveError(f"{item.item_id} is already {item.status}")
        existing = self.live.get(item.item_id)
        if existing is not None and existing.state in ("ready", "recording"):
            return existing
        live = LiveDesktop(item_id=item.item_id, task=self.tasks[item.task_file], task_file=Path(item.task_file),
                           seed=item.seed, annotator=item.annotator, repeat=item.repeat, dataset=self.queue.dataset,
                           idle_pause_s=self.idle_pause_s)
        live.open()
        self.queue.take(item.item_id)
        self.live[item.item_id] = live
        return live

    def start(self, item: Item) -> Path:
        live = self._live(item)
        path = live.start_recording()
        self.queue.add_attempt(item.item_id, path.name)
        return path

    def finish(self, item: Item, *, success: bool, notes: str | None) -> dict[str, Any]:
        live = self._live(item)
        try:
            outcome = live.finish(success=success, notes=notes)
            if outcome["termination"] == "env_error":
                # The desktop broke (say, the app was killed): not the annotator's doing. The
                # attempt keeps its episode with the reason, and the task is offered again.
                self.queue.close_attempt(item.item_id, "env_failed", status="pending", outcome=outcome)
            else:
                self.queue.close_attempt(item.item_id, "finished", status="done", outcome=outcome)
        finally:
            self._close(item)
        return outcome

    def give_up(self, item: Item, *, notes: str | None) -> dict[str, Any]:
        live = self._live(item)
        try:
            outcome = live.give_up(notes=notes)
            self.queue.close_attempt(item.item_id, "gave_up", status="given_up", outcome=outcome)
        finally:
            self._close(item)
        return outcome

    def discard(self, item: Item) -> None:
        live = self._live(item)
        try:
            live.discard()
            self.queue.close_attempt(item.item_id, "discarded", status="pending")
        finally:
            self._close(item)

    def _live(self, item: Item) -> LiveDesktop:
        live = self.live.get(item.item_id)
        if live is None or live.state == "closed":
            raise LiveError(f"{item.item_id} has no desktop: take it first")
        return live

    def _close(self, item: Item) -> None:
        live = self.live.pop(item.item_id, None)
        if live is not None:
            live.close()
        self.queue.release(item.item_id)

    def close(self) -> None:
        """Stop every live desktop (at shutdown); taken items stay taken in the file and
        go back to pending at the next start."""
        for item_id in list(self.live):
            live = self.live.pop(item_id)
            live.close()


def create_app(station: Station) -> Starlette:
    """The Starlette app for ``station`` (wrapped in :class:`Guard`)."""

    def page(name: str) -> HTMLResponse:
        return HTMLResponse((STATIC_DIR / name).read_text(encoding="utf-8"), headers=_PAGE_HEADERS)

    async def signin_page(request: Request) -> Response:
        return page("signin.html")

    async def signin(request: Request) -> Response:
        # A urlencoded form of one field, parsed here (no multipart library needed).
        body = await request.body()
        form = urllib.parse.parse_qs(body[:4096].decode("utf-8", "replace")) if len(body) <= 4096 else {}
        account = station.accounts.verify((form.get("token") or [""])[0])
        if account is None:
            return HTMLResponse((STATIC_DIR / "signin.html").read_text(encoding="utf-8").replace(
                "<!--error-->", '<p class="error">That token is not valid.</p>'), status_code=401, headers=_PAGE_HEADERS)
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(COOKIE, account.token, httponly=True, samesite="strict", path="/")
        return response

    async def signout(request: Request) -> Response:
        response = JSONResponse({"signed_out": True})
        response.delete_cookie(COOKIE, path="/")
        return response

    async def index(request: Request) -> Response:
        return page("index.html")

    async def task_page(request: Request) -> Response:
        if station.visible(station.account(request), request.path_params["item_id"]) is None:
            return _error(404, "no such item")
        return page("task.html")

    async def review_page(request: Request) -> Response:
        item = station.visible(station.account(request), request.path_params["item_id"])
        if item is None:
            return _error(404, "no such item")
        from station.review import render_review

        html_text = render_review(item, station.episode_dir(item), reviewer=station.account(request).reviewer)
        return HTMLResponse(html_text, headers=_PAGE_HEADERS)

    async def me(request: Request) -> Response:
        account = station.account(request)
        return JSONResponse({"name": account.name, "role": account.role, "csrf": station.accounts.csrf_token(account)})

    async def items(request: Request) -> Response:
        account = station.account(request)
        shown = station.queue.items(None if account.reviewer else account.name)
        return JSONResponse({"items": [station.describe(i) for i in shown]})

    async def item_detail(request: Request) -> Response:
        item = station.visible(station.account(request), request.path_params["item_id"])
        if item is None:
            return _error(404, "no such item")
        return JSONResponse(station.describe(item))

    async def exclusively(item: Item, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args)`` in a worker thread, as the only action on ``item`` under way (the
        live desktop, the queue entry and the episode's files are changed by one at a time).

        Raises:
            ItemBusy: another action on the item has not ended.
        """
        if item.item_id in station.busy:
            raise ItemBusy
        station.busy.add(item.item_id)
        try:
            return await run_in_threadpool(fn, *args, **kwargs)
        finally:
            station.busy.discard(item.item_id)

    def action(fn: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            item = station.owned(station.account(request), request.path_params["item_id"])
            if item is None:
                return _error(404, "no such item of yours")
            body: dict[str, Any] = {}
            if request.headers.get("content-type", "").startswith("application/json"):
                try:
                    body = json.loads(await request.body() or b"{}")
                except ValueError:
                    return _error(400, "the body is not JSON")
                if not isinstance(body, dict):
                    return _error(400, "the body must be a JSON object")
            try:
                result = await exclusively(item, fn, item, body)
            except ItemBusy:
                return _error(409, ItemBusy.message)
            except LiveError as exc:
                return _error(409, str(exc))
            except Exception as exc:  # noqa: BLE001 - the page shows why, the station keeps running
                return _error(500, f"{type(exc).__name__}: {exc}")
            return JSONResponse({"item": station.describe(station.queue.get(item.item_id)), **result})
        return endpoint

    def _notes(body: dict[str, Any]) -> str | None:
        notes = body.get("notes")
        return str(notes)[:4000] if notes else None

    def do_take(item: Item, body: dict[str, Any]) -> dict[str, Any]:
        live = station.take(item)
        return {"instruction": live.instruction, "display": live.display}

    def do_start(item: Item, body: dict[str, Any]) -> dict[str, Any]:
        return {"episode": station.start(item).name}

    def do_pause(item: Item, body: dict[str, Any]) -> dict[str, Any]:
        return {"paused": station._live(item).toggle_pause()}

    def do_finish(item: Item, body: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(body.get("success"), bool):
            raise LiveError("say whether the task succeeded: {\"success\": true|false}")
        return {"outcome": station.finish(item, success=body["success"], notes=_notes(body))}

    def do_give_up(item: Item, body: dict[str, Any]) -> dict[str, Any]:
        return {"outcome": station.give_up(item, notes=_notes(body))}

    def do_discard(item: Item, body: dict[str, Any]) -> dict[str, Any]:
        station.discard(item)
        return {}

    async def review(request: Request) -> Response:
        """A reviewer accepts or rejects an item's episode: kept in the queue and as the
        episode's ``labels.review`` (through :func:`recorder.edit.relabel`; steps untouched)."""
        account = station.account(request)
        if not account.reviewer:
            return _error(403, "only a reviewer accepts or rejects")
        item = station.visible(account, request.path_params["item_id"])
        folder = station.episode_dir(item) if item is not None else None
        if folder is None:
            return _error(404, "no such episode")
        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            return _error(400, "the body is not JSON")
        decision = {"accept": "accepted", "reject": "rejected"}.get(body.get("decision") if isinstance(body, dict) else None)
        if decision is None:
            return _error(400, 'say {"decision": "accept"} or {"decision": "reject"}')
        notes = str(body["notes"])[:4000] if body.get("notes") else None
        verdict = {"decision": decision, "by": account.name, "notes": notes}

        def apply() -> Item:
            from recorder.edit import relabel

            updated = station.queue.set_review(item.item_id, verdict)
            relabel(folder, labels={"review": updated.review})
            return updated

        try:
            updated = await exclusively(item, apply)
        except ItemBusy:
            return _error(409, ItemBusy.message)
        return JSONResponse({"item": station.describe(updated)})

    async def edit(request: Request) -> Response:
        """Edit an item's episode (:func:`station.review.edit_episode`): a reviewer any item's,
        an annotator their own until a reviewer has decided on it (another annotator's item
        is a 404, as everywhere)."""
        from gui_agent.episode.edit import EditError
        from gui_agent.errors import EpisodeFormatError
        from station.review import ReviewLocked, edit_episode

        account = station.account(request)
        item = station.visible(account, request.path_params["item_id"])
        folder = station.episode_dir(item) if item is not None else None
        if item is None or folder is None:
            return _error(404, "no such episode")
        raw = await request.body()
        max_body = 64 * 1024  # a few fields and at most one text (the episode module caps texts)
        if len(raw) > max_body:
            return _error(400, f"the body is over {max_body} bytes")
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return _error(400, "the body is not JSON")
        try:
            result = await exclusively(item, edit_episode, station.queue, item, folder, body, by=account.name,
                                       reviewer=account.reviewer)
        except ItemBusy:
            return _error(409, ItemBusy.message)
        except EditError as exc:
            return _error(400, str(exc))
        except (ReviewLocked, EpisodeFormatError) as exc:  # decided on, or damaged: no edit can be made
            return _error(409, str(exc))
        except Exception as exc:  # noqa: BLE001 - the page shows why, the station keeps running
            return _error(500, f"{type(exc).__name__}: {exc}")
        return JSONResponse({"item": station.describe(station.queue.get(item.item_id)), **result})

    async def frame(request: Request) -> Response:
        item = station.visible(station.account(request), request.path_params["item_id"])
        folder = station.episode_dir(item) if item is not None else None
        if folder is None:
            return _error(404, "no such episode")
        from gui_agent.episode import read_episode

        episode = read_episode(folder)
        index = request.path_params["index"]
        frames = [s.frame_before for s in episode.steps]
        rel = frames[index] if 0 <= index < len(frames) else None
        if rel is None and index == len(frames):  # the screen after the last step
            from gui_agent.episode.format import frame_path

            rel = frame_path(index, episode.meta.frame_format)
        if rel is None:
            return _error(404, "no such frame")
        path = (folder / rel).resolve()
        if not path.is_relative_to(folder.resolve()) or not path.is_file():
            return _error(404, "no such frame")
        return FileResponse(path)

    async def vnc(websocket: WebSocket) -> None:
        account = station.account(websocket)
        item = station.owned(account, websocket.path_params["item_id"]) or (
            station.visible(account, websocket.path_params["item_id"]) if account.reviewer else None)
        live = station.live.get(item.item_id) if item is not None else None
        if item is None or live is None or live.vnc_port is None or live.state not in ("ready", "recording"):
            await websocket.close(code=4404)
            return
        offered = websocket.scope.get("subprotocols") or []
        await websocket.accept(subprotocol="binary" if "binary" in offered else None)
        try:
            port = await run_in_threadpool(live.vnc_port_for_viewer)  # x11vnc again if it died
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except (OSError, LiveError):
            await websocket.close(code=1011)
            return

        # Only the item's annotator works on the desktop. Anyone else (a reviewer) watches:
        # her input is taken out here, whatever her page or client sends, and her view is
        # not one of the annotator's (it neither keeps a recording going nor resumes one).
        watcher = ViewOnlyFilter() if item.annotator != account.name else None

        async def upstream() -> None:
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

        async def downstream() -> None:
            while True:
                data = await reader.read(65536)
                if not data:
                    return
                await websocket.send_bytes(data)

        tasks = [asyncio.create_task(upstream()), asyncio.create_task(downstream())]
        if watcher is None:
            live.viewer_joined()
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        except WebSocketDisconnect:
            pass
        finally:
            for task in tasks:
                task.cancel()
            writer.close()
            if watcher is None:
                live.viewer_left()  # the annotator's last view gone pauses the recording until one is back
            try:
                await websocket.close()
            except Exception:  # noqa: BLE001 - already closed by the browser
                pass

    routes = [
        Route("/signin", signin_page, methods=["GET"]),
        Route("/signin", signin, methods=["POST"]),
        Route("/signout", signout, methods=["POST"]),
        Route("/", index, methods=["GET"]),
        Route("/task/{item_id}", task_page, methods=["GET"]),
        Route("/review/{item_id}", review_page, methods=["GET"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/items", items, methods=["GET"]),
        Route("/api/items/{item_id}", item_detail, methods=["GET"]),
        Route("/api/items/{item_id}/take", action(do_take), methods=["POST"]),
        Route("/api/items/{item_id}/start", action(do_start), methods=["POST"]),
        Route("/api/items/{item_id}/pause", action(do_pause), methods=["POST"]),
        Route("/api/items/{item_id}/finish", action(do_finish), methods=["POST"]),
        Route("/api/items/{item_id}/give-up", action(do_give_up), methods=["POST"]),
        Route("/api/items/{item_id}/discard", action(do_discard), methods=["POST"]),
        Route("/api/items/{item_id}/review", review, methods=["POST"]),
        Route("/api/items/{item_id}/edit", edit, methods=["POST"]),
        Route("/api/items/{item_id}/frames/{index:int}", frame, methods=["GET"]),
        WebSocketRoute("/api/items/{item_id}/vnc", vnc),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    if NOVNC_DIR.is_dir():
        routes.append(Mount("/novnc", StaticFiles(directory=NOVNC_DIR), name="novnc"))
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        try:
            yield
        finally:
            await run_in_threadpool(station.close)

    app = Starlette(routes=routes, lifespan=lifespan)
    return Guard(app, station.accounts)  # type: ignore[return-value]


_PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # "no-referrer" makes Chromium send "Origin: null" with forms
    "Cache-Control": "no-store",
}
