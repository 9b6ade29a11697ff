"""Re-finding a desktop recording's click target by its element in the apps' accessibility tree.

The desktop recorder stores, per step, the element under the action's point as the tree
described it (:func:`gui_agent.recorder.desktop_targets.describe`): role, name, states, its
box on the screen (``bbox_screen``), app and window. When the pixels moved (another
window position or size, a theme, a re-laid-out dialog) the image patch may match nothing
or the wrong place; the element does not care. On the live tree (read within the
environment's deadline: a read that fails is the environment's fault, raised as its
:class:`~gui_agent.errors.EnvError`), among the showing and visible elements:

1. **element**: the elements with the recorded role and the recorded (non-empty) name;
   of several, those in the recorded app, then window; of several still, the one nearest
   the recorded box;
2. **element-position**: failing a name match, the element with the recorded role whose
   centre lies inside the recorded box, the nearest of several: the same control, renamed
   (a button whose label changed). Roles whose name says which of many alike it is (a
   table cell's address, a list or menu item) are not re-found by position when the name
   differs: the element now there is another one.

Containers (a frame, a panel, a document's whole body) are no evidence of where inside them
the click was meant; for them, and for targets without a role (browser recordings,
recordings made without the tree), the locator answers None and the image patch decides.
The new point keeps the click's place inside the element (:mod:`gui_agent.replay.click_point`).
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from gui_agent.envs.base import Env
from gui_agent.envs.desktop.accessibility.osworld_xml import NAMESPACES
from gui_agent.episode import Episode
from gui_agent.recorder.desktop_targets import box_of, describe
from gui_agent.replay.click_point import point_in, relative_point
from gui_agent.replay.policy import SelectorLocator

_ST = NAMESPACES["st"]
#: Roles that hold other elements: where in them a click goes is the image's to say.
CONTAINER_ROLES = frozenset({
    "application", "desktop frame", "frame", "window", "dialog", "filler", "panel", "scroll pane",
    "layered pane", "root pane", "viewport", "canvas", "drawing area", "split pane", "tool bar",
    "menu bar", "status bar", "page tab list", "table", "tree table", "list", "tree", "form", "section",
})
#: Roles whose name tells one of many look-alikes from the others: no re-finding by position.
NAMED_BY_CONTENT = frozenset({
    "table cell", "cell", "list item", "tree item", "menu item", "check menu item", "radio menu item",
    "page tab", "row header", "column header", "table row header", "table column header", "link",
})


def element_target(target: dict[str, Any] | None) -> bool:
    """True if ``target`` is a desktop element the tree can re-find (a role, not a container)."""
    if not target:
        return False
    role = target.get("role")
    return isinstance(role, str) and bool(role) and role not in CONTAINER_ROLES and not role.startswith("document")


def needs_element_tree(episode: Episode) -> bool:
    """True if some recorded step's target can be re-found in the tree: its replay needs the
    desktop started with accessibility on."""
    return any(element_target(step.target) for step in episode.steps)


def _centre(box: list[int] | tuple[int, ...]) -> tuple[float, float]:
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def _distance(box: list[int] | None, recorded: list[int] | None) -> float:
    if box is None or not recorded or len(recorded) != 4:
        return 0.0
    (x, y), (rx, ry) = _centre(box), _centre(recorded)
    return float(((x - rx) ** 2 + (y - ry) ** 2) ** 0.5)


def _candidates(root: etree._Element, role: str) -> list[tuple[dict[str, Any], list[int]]]:
    """The showing, visible elements of ``role`` with a box: (their description, box)."""
    found = []
    for node in root.iter(role.replace(" ", "-")):
        if node.get(f"{{{_ST}}}showing") != "true" or node.get(f"{{{_ST}}}visible") != "true":
            continue
        box = box_of(node)
        if box is not None and box[2] > 0 and box[3] > 0:
            found.append((describe(node), box))
    return found


def _by_name(target: dict[str, Any], candidates: list[tuple[dict[str, Any], list[int]]]) -> list[int] | None:
    """The box of the element with the recorded name (see the module docstring for ties)."""
    named = [(d, box) for d, box in candidates if d["name"] == target["name"]]
    for key in ("app", "window"):
        narrowed = [(d, box) for d, box in named if target.get(key) and d[key] == target[key]]
        if narrowed:
            named = narrowed
    recorded = target.get("bbox_screen")
    if len(named) > 1 and not recorded:
        return None  # nothing tells them apart
    named.sort(key=lambda found: _distance(found[1], recorded))
    return named[0][1] if named else None


def _by_position(target: dict[str, Any], candidates: list[tuple[dict[str, Any], list[int]]]) -> list[int] | None:
    """The box of the element of the recorded role whose centre is inside the recorded box."""
    recorded = target.get("bbox_screen")
    if (target["role"] in NAMED_BY_CONTENT and target["name"]) or not recorded or len(recorded) != 4:
        return None
    left, top, width, height = recorded
    inside = [box for _, box in candidates
              if left <= _centre(box)[0] < left + width and top <= _centre(box)[1] < top + height]
    inside.sort(key=lambda box: _distance(box, recorded))
    return inside[0] if inside else None


def find_element(tree: str | etree._Element, target: dict[str, Any],
                 click: tuple[int, int] | None = None) -> tuple[int, int, str] | None:
    """Where to click ``target`` in ``tree`` (OSWorld's XML form): (x, y, method) or None.

    ``method`` is ``element`` (role and name) or ``element-position`` (role and place);
    ``click`` is the recorded point, kept at its place inside the element.
    """
    if not element_target(target):
        return None
    root = etree.fromstring(tree.encode("utf-8")) if isinstance(tree, str) else tree
    wanted = {"role": target["role"], "name": target.get("name") or "", "app": target.get("app"),
              "window": target.get("window"), "bbox_screen": target.get("bbox_screen")}
    candidates = _candidates(root, wanted["role"])
    box = _by_name(wanted, candidates) if wanted["name"] else None
    method = "element"
    if box is None:
        box, method = _by_position(wanted, candidates), "element-position"
    if box is None:
        return None
    x, y = point_in(box, relative_point(target, click))
    return x, y, method


def element_locator(env: Env) -> SelectorLocator | None:
    """A locator for ``env`` when it is a desktop whose element tree can be read (None otherwise)."""
    read = getattr(env, "accessibility_tree", None)
    if read is None or not getattr(env, "accessibility", False):
        return None

    def locate(target: dict[str, Any], click: tuple[int, int] | None = None) -> tuple[int, int, str] | None:
        if not element_target(target):
            return None
        # only what is on the screen (a click cannot land on the rest), within the env's deadline
        return find_element(read(scope="screen", complete=False), target, click)

    return locate


__all__ = ["CONTAINER_ROLES", "NAMED_BY_CONTENT", "element_locator", "element_target", "find_element", "needs_element_tree"]
