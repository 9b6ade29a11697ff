"""The station's endpoints, one module per job; each module lists its own ``ROUTES``.

* :mod:`~station.routes.signin` -- the sign-in page and form, sign-out, ``/api/me``;
* :mod:`~station.routes.items` -- the list page, an item's task page, their JSON;
* :mod:`~station.routes.live` -- take, start, pause, finish, give up, discard;
* :mod:`~station.routes.vnc` -- the live desktop's VNC websocket;
* :mod:`~station.routes.review` -- the review page, its keyframes, accept or reject;
* :mod:`~station.routes.edits` -- edits of an episode from its review page.

:mod:`~station.routes.context` is what they all read from a request. Every route here is
behind the :class:`~station.guard.Guard` (:func:`station.app.create_app` wraps the whole app).
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from station.routes import edits, items, live, review, signin, vnc

#: Every endpoint of the station (the static files are mounted beside them by the app).
ROUTES: list[BaseRoute] = [*signin.ROUTES, *items.ROUTES, *live.ROUTES, *vnc.ROUTES, *review.ROUTES, *edits.ROUTES]
