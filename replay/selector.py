"""Re-finding a browser recording's click target by its recorded CSS selector.

The browser recorder stores, per step, the target element's ``selector`` and its
``bbox`` (CSS pixels of the viewport, ``[left, top, width, height]``). On the live page
the selector must name exactly one visible element, otherwise it is no evidence and the
replayer falls back to the image patch. The new point keeps the click's relative position
inside the element when the recording says where in the element it was, else the
element's centre. Browser observations are CSS pixels (device scale factor 1), so CSS
pixels are action pixels.
"""

from __future__ import annotations

from typing import Any

from gui_agent.envs.base import Env
from replay.policy import SelectorLocator

_FIND_JS = """
(selector) => {
  let found;
  try { found = Array.from(document.querySelectorAll(selector)); } catch (e) { return null; }
  const visible = found.filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; });
  if (visible.length !== 1) return null;
  const r = visible[0].getBoundingClientRect();
  return [r.left, r.top, r.width, r.height];
}
"""


def _relative_point(target: dict[str, Any], click: tuple[int, int] | None) -> tuple[float, float]:
    box = target.get("bbox_screen") or target.get("bbox")  # the click is in screen pixels when both exist
    if click is None or not box or len(box) != 4 or box[2] <= 0 or box[3] <= 0:
        return 0.5, 0.5
    fx, fy = (click[0] - box[0]) / box[2], (click[1] - box[1]) / box[3]
    if 0.0 <= fx <= 1.0 and 0.0 <= fy <= 1.0:
        return fx, fy
    return 0.5, 0.5


def selector_locator(env: Env) -> SelectorLocator | None:
    """A locator for ``env`` when it is a browser (None otherwise)."""
    call = getattr(env, "call_in_browser", None)
    if call is None:
        return None

    def locate(target: dict[str, Any], click: tuple[int, int] | None = None) -> tuple[int, int] | None:
        selector = target.get("selector")
        if not isinstance(selector, str) or not selector:
            return None
        box = call(lambda page: page.evaluate(_FIND_JS, selector), what="find the recorded selector")
        if not box:
            return None
        fx, fy = _relative_point(target, click)
        x, y = int(box[0] + fx * box[2]), int(box[1] + fy * box[3])
        return x, y

    return locate
