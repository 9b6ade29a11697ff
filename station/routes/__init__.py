"""The station's endpoints, one module per job; each module lists its own ``ROUTES``.

* :mod:`~gui_agent.station.routes.signin` -- the sign-in page and form, sign-out, ``/api/me``;
* :mod:`~gui_agent.station.routes.items` -- the list page, an item's task page, their JSON;
* :mod:`~gui_agent.station.routes.live` -- take, start, pause, finish, give up, discard;
* :mod:`~gui_agent.station.routes.vnc` -- the live desktop's VNC websocket;
* :mod:`~gui_agent.station.routes.review` -- the review page, its keyframes, accept or reject;
* :mod:`~gui_agent.station.routes.edits` -- edits of an episode from its review page.

:mod:`~gui_agent.station.routes.context` is what they all read from a request. Every route here is
behind the :class:`~gui_agent.station.guard.Guard` (:func:`gui_agent.station.app.create_app` wraps the whole app).
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from gui_agent.station.routes import edits, items, live, review, signin, vnc

#: Every endpoint of the station (the static files are mounted beside them by the app).
ROUTES: list[BaseRoute] = [*signin.ROUTES, *items.ROUTES, *live.ROUTES, *vnc.ROUTES, *review.ROUTES, *edits.ROUTES]
