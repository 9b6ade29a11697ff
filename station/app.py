"""The station's web app: the routes of :mod:`gui_agent.station.routes`, the static files, the page
templates and the :class:`~gui_agent.station.state.Station`, wrapped in the :class:`~gui_agent.station.guard.Guard`.

:func:`create_app` builds it; the endpoints reach the station as ``request.app.state.station``
and the templates as ``request.app.state.templates``, so one process could serve two
stations and nothing lives at module level.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from gui_agent.station.guard import Guard
from gui_agent.station.pages import page_templates
from gui_agent.station.routes import ROUTES
from gui_agent.station.state import Station

STATIC_DIR = Path(__file__).parent / "static"
#: Where Debian's ``novnc`` package puts its files.
NOVNC_DIR = Path("/usr/share/novnc")


def create_app(station: Station) -> Guard:
    """The app for ``station``: every route, the static files and noVNC's (when installed), behind the guard."""
    app = Starlette(routes=[*ROUTES, *static_mounts()], lifespan=_lifespan)
    app.state.station = station
    app.state.templates = page_templates()
    return Guard(app, station.accounts)


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    """At shutdown every live desktop is closed (:meth:`Station.close`)."""
    try:
        yield
    finally:
        await run_in_threadpool(app.state.station.close)


def static_mounts() -> list[BaseRoute]:
    """``/static`` (the pages' scripts and stylesheet) and ``/novnc`` (Debian's noVNC, if installed)."""
    mounts: list[BaseRoute] = [Mount("/static", StaticFiles(directory=STATIC_DIR), name="static")]
    if NOVNC_DIR.is_dir():
        mounts.append(Mount("/novnc", StaticFiles(directory=NOVNC_DIR), name="novnc"))
    return mounts
