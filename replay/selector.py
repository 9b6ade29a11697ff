"""Re-finding a browser recording's click target by its recorded CSS selector.

The browser recorder stores, per step, the target element's ``selector`` and its
``bbox`` (CSS pixels of the viewport, ``[left, top, width, height]``). On the live page
the selector must name exactly one visible element. Selectors built on ids that a page
numbers as it goes (jQuery UI's ``#ui-id-5`` for a menu item) name another element, or
none, once the page has made more of them; so when the selector finds no element, or
one whose text is not the recorded text (for targets recorded with text), the one
visible element with the recorded tag and exactly the recorded text is taken (method
``text``). Otherwise it is no evidence and the replayer falls back to the image
patch (which a hover highlight in the recorded keyframe can defeat). The new point keeps the click's relative position
inside the element when the recording says where in the element it was, else the
element's centre (:mod:`gui_agent.replay.click_point`). Browser observations are CSS pixels (device scale factor 1), so CSS
pixels are action pixels.
"""

from __future__ import annotations

from typing import Any

from gui_agent.envs.base import Env
from gui_agent.replay.click_point import point_in, relative_point
from gui_agent.replay.policy import SelectorLocator

_FIND_JS = """
([selector, tag, text]) => {
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const box = (el, how) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.width, r.height, how]; };
  const textOf = (el) => (el.innerText || '').trim().slice(0, 200);
  let found = [];
  try { found = Array.from(document.querySelectorAll(selector)).filter(shown); } catch (e) { found = []; }
  // an element that has text must still have the recorded text (a renumbered id names another)
  if (found.length === 1 && (!text || textOf(found[0]) === text)) return box(found[0], 'selector');
  if (found.length > 1 || !tag || !text) return null;
  const same = Array.from(document.getElementsByTagName(tag)).filter((el) => shown(el) && textOf(el) === text);
  return same.length === 1 ? box(same[0], 'text') : null;
}
"""


def selector_locator(env: Env) -> SelectorLocator | None:
    """A locator for ``env`` when it is a browser (None otherwise)."""
    call = getattr(env, "call_in_browser", None)
    if call is None:
        return None

    def locate(target: dict[str, Any], click: tuple[int, int] | None = None) -> tuple[int, int, str] | None:
        selector = target.get("selector")
        if not isinstance(selector, str) or not selector:
            return None
        query = [selector, target.get("tag") or "", target.get("text") or ""]
        box = call(lambda page: page.evaluate(_FIND_JS, query), what="find the recorded selector")
        if not box:
            return None
        x, y = point_in(box[:4], relative_point(target, click))
        return x, y, str(box[4])

    return locate
