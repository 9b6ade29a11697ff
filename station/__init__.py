"""The annotation station: annotators record task-file tasks on a virtual desktop from a browser.

``gui-agent annotate SUITE... --out DATASET`` (:mod:`gui_agent.cli.annotate`) serves
:func:`station.app.create_app`. The parts:

* :mod:`station.accounts` -- who may sign in (per-annotator tokens, a reviewer role);
* :mod:`station.queue` -- the suite's tasks x repeats, assigned to annotators, kept in
  ``DATASET/station.json`` (written atomically) so a restart resumes;
* :mod:`station.live` -- one taken task: its desktop built from the task file, ``x11vnc``
  on that display (loopback only), the recorder, and the task's evaluator at Finish;
* :mod:`station.app` -- the Starlette app: sign-in, pages, the JSON API and the VNC
  websocket relayed to ``x11vnc`` under the same sign-in;
* :mod:`station.review` -- the review page of an item's episode (``static/``: the other pages).

It imports ``gui_agent`` and ``recorder``; Starlette and uvicorn are the ``station`` extra.
"""
