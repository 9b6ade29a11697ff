"""Which element of the tree is at a point of the screen.

The deepest element that is showing and visible and whose box holds the point: what a
click there lands on, as far as the tree can tell (a recorded step's target, a mark).
"""

from __future__ import annotations

from lxml import etree

from gui_agent.envs.desktop.accessibility.osworld_xml import NAMESPACES

_ST, _CP = NAMESPACES["st"], NAMESPACES["cp"]


def _box(node: etree._Element) -> tuple[int, int, int, int] | None:
    coord, size = node.get(f"{{{_CP}}}screencoord"), node.get(f"{{{_CP}}}size")
    if coord is None or size is None:
        return None
    try:
        (x, y), (w, h) = (tuple(int(v) for v in text.strip("()").split(",")) for text in (coord, size))
    except ValueError:
        return None
    return x, y, w, h


def element_at(tree: etree._Element | str, x: int, y: int) -> etree._Element | None:
    """The deepest showing, visible element whose box holds ``(x, y)``, or None."""
    root = etree.fromstring(tree.encode("utf-8")) if isinstance(tree, str) else tree
    found = None
    best_depth = -1
    for node in root.iter():
        if node.get(f"{{{_ST}}}showing") != "true" or node.get(f"{{{_ST}}}visible") != "true":
            continue
        box = _box(node)
        if box is None or box[2] <= 0 or box[3] <= 0:
            continue
        bx, by, bw, bh = box
        if bx <= x < bx + bw and by <= y < by + bh:
            depth = sum(1 for _ in node.iterancestors())
            if depth >= best_depth:
                found, best_depth = node, depth
    return found


__all__ = ["element_at"]
