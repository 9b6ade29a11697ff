"""The station's one door: sign-in and cross-site checks for every request (:class:`Guard`).

Security rules, all enforced here in one place, in front of every route the app has:

* every route needs a signed-in account (the ``station_token`` cookie set by the sign-in
  form, or ``Authorization: Bearer TOKEN``); tokens are compared in constant time;
* a state-changing request (any method but GET/HEAD) and the websocket are refused when
  ``Origin`` is another site or ``Sec-Fetch-Site`` says cross-site; signed in by cookie,
  it must also carry ``X-Station-CSRF`` (a value only the page can read from ``/api/me``);
* only the sign-in page and the stylesheet it uses are open (:data:`OPEN_PATHS`).

The endpoints add the rest (:mod:`gui_agent.station.routes`): an annotator sees and changes only
their own items, a reviewer sees everyone's; ids in URLs are looked up in the queue, never
joined to a path; frame numbers are integers looked up in the episode's steps.
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any

from starlette.responses import JSONResponse, RedirectResponse

from gui_agent.station.accounts import Account, Accounts

COOKIE = "station_token"
CSRF_HEADER = "x-station-csrf"
#: The paths served without a sign-in.
OPEN_PATHS = ("/signin", "/static/style.css")
SAFE_METHODS = ("GET", "HEAD")


class Guard:
    """ASGI middleware: sign-in and cross-site checks for every HTTP request and websocket.

    The signed-in :class:`~gui_agent.station.accounts.Account` is passed on as ``request.state.account``.
    """

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
        elif path in OPEN_PATHS:
            if method not in SAFE_METHODS and cross_site:
                return await _deny(scope, receive, send, 403, "cross-site request refused")
        elif account is None:
            if method in SAFE_METHODS and not path.startswith("/api/") and "text/html" in headers.get("accept", ""):
                return await RedirectResponse("/signin", status_code=303)(scope, receive, send)
            return await _deny(scope, receive, send, 401, "sign in first")
        elif method not in SAFE_METHODS:
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
