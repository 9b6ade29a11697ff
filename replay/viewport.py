"""Where a browser recording's page was on the recorded screen.

The browser recorder (``gui-agent record --browser``) grabs the whole screen, so its
click points and keyframes are screen pixels of a headed Chromium window (toolbar
included), while a replay runs in :class:`~gui_agent.envs.browser.env.BrowserEnv`, whose
screenshots and action points are page pixels. Each step's ``target`` carries the element's
box both ways (``bbox``: viewport CSS pixels, ``bbox_screen``: screen pixels), so their
difference is the screen position of the page's (0, 0). With it the replayer moves the
recorded points into page pixels and cuts the page out of the recorded keyframes, so
similarity, patch re-anchoring and the human simulator's offsets all work in the replay's
own pixels.
"""

from __future__ import annotations

from collections import Counter

from gui_agent.episode import Episode
from gui_agent.episode.labels import PAGE_ORIGIN


def recorded_page_origin(episode: Episode) -> tuple[int, int] | None:
    """The screen position of the page's (0, 0) in a browser recording: the episode's
    ``labels.page_origin`` when its recorder measured it (the annotation station does),
    else the offset most targets agree on; None when neither is there (runner episodes:
    already page pixels)."""
    if episode.meta.env.kind != "browser":
        return None
    measured = PAGE_ORIGIN.get(episode.meta.labels)
    if measured is not None and len(measured) == 2:
        return None if tuple(measured) == (0, 0) else (measured[0], measured[1])
    offsets: Counter[tuple[int, int]] = Counter()
    for step in episode.steps:
        target = step.target or {}
        box, screen_box = target.get("bbox"), target.get("bbox_screen")
        if isinstance(box, list) and isinstance(screen_box, list) and len(box) == len(screen_box) == 4:
            offsets[(round(screen_box[0] - box[0]), round(screen_box[1] - box[1]))] += 1
    if not offsets:
        return None
    origin = offsets.most_common(1)[0][0]
    return None if origin == (0, 0) else origin
