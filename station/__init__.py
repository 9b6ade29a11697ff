"""The annotation station: annotators record task-file tasks on a virtual desktop from a browser.

``gui-agent annotate SUITE... --out DATASET`` (:mod:`gui_agent.cli.annotate`) serves
:func:`gui_agent.station.app.create_app`. The parts, one job each:

* :mod:`gui_agent.station.accounts` -- who may sign in (per-annotator tokens, a reviewer role);
* :mod:`gui_agent.station.queue` -- the suite's tasks x repeats, assigned to annotators, kept in
  ``DATASET/station.json`` (written atomically) so a restart resumes;
* :mod:`gui_agent.station.live` -- one taken task: its desktop built from the task file, ``x11vnc``
  on that display (loopback only), the recorder, and the task's evaluator at Finish
  (:mod:`gui_agent.station.browser_task`: a browser task's headed Chromium);
* :mod:`gui_agent.station.state` -- :class:`~gui_agent.station.state.Station`, the app's state: accounts, queue,
  live desktops, and the one-action-at-a-time rule per item;
* :mod:`gui_agent.station.edits` -- an episode's edits from its review page, kept consistent with the review;
* :mod:`gui_agent.station.review_page` -- what an item's review page shows, read from its episode;
* :mod:`gui_agent.station.view_only` -- the filter that keeps a watching reviewer's input off a desktop;
* :mod:`gui_agent.station.errors` -- the station's exceptions.

The web app is split by what a change touches. :mod:`gui_agent.station.guard` is the one door
(sign-in, CSRF, cross-site checks) in front of the whole app, so a route cannot be added
outside it and a security rule is changed in one place. :mod:`gui_agent.station.routes` holds the
endpoints as module-level functions, one module per part of the work an annotator or
reviewer does (signin, items, live, vnc, review, edits), each listing its ``ROUTES``; they
reach the station through ``request.app.state``, so nothing is held at module level.
:mod:`gui_agent.station.pages` renders the pages from Jinja2 templates (``templates/``, autoescaped);
``static/`` holds their scripts and stylesheet. :mod:`gui_agent.station.app` only puts these together.

It imports ``gui_agent`` and ``recorder``; Starlette, Jinja2 and uvicorn are the ``station`` extra.
"""
