"""Signing in and out, and who is signed in (``/api/me``, with the page's CSRF value)."""

from __future__ import annotations

import urllib.parse

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from gui_agent.station.guard import COOKIE
from gui_agent.station.pages import render_page
from gui_agent.station.routes.context import account_of, station_of

#: A sign-in form is one field: a larger body is not one.
MAX_FORM_BYTES = 4096


async def signin_page(request: Request) -> Response:
    return render_page(request, "signin.html", {"error": None})


async def signin(request: Request) -> Response:
    """The sign-in form's POST: a valid token sets the ``station_token`` cookie (HttpOnly, SameSite=strict)."""
    # A urlencoded form of one field, parsed here (no multipart library needed).
    body = await request.body()
    form = urllib.parse.parse_qs(body.decode("utf-8", "replace")) if len(body) <= MAX_FORM_BYTES else {}
    account = station_of(request).accounts.verify((form.get("token") or [""])[0])
    if account is None:
        return render_page(request, "signin.html", {"error": "That token is not valid."}, status_code=401)
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(COOKIE, account.token, httponly=True, samesite="strict", path="/")
    return response


async def signout(request: Request) -> Response:
    response = JSONResponse({"signed_out": True})
    response.delete_cookie(COOKIE, path="/")
    return response


async def me(request: Request) -> Response:
    account = account_of(request)
    return JSONResponse({"name": account.name, "role": account.role,
                         "csrf": station_of(request).accounts.csrf_token(account)})


ROUTES = [
    Route("/signin", signin_page, methods=["GET"]),
    Route("/signin", signin, methods=["POST"]),
    Route("/signout", signout, methods=["POST"]),
    Route("/api/me", me, methods=["GET"]),
]
