"""The tree as the table OSWorld's agents read: one row per visible, usable element.

OSWorld's baseline agents do not read the XML; they read it filtered and flattened
(``mm_agents/agent.py``'s ``linearize_accessibility_tree`` over ``filter_nodes``): a
tab-separated table with a header line,

    tag  name  text  class  description  position (top-left x&y)  size (w&h)

An element is a row when all of these hold (OSWorld's ``judge_node`` for Ubuntu):

* its tag is a kind people act on or read: a ``document*``; a tag ending in ``item``,
  ``button``, ``heading``, ``label``, ``scrollbar``, ``searchbox``, ``textbox``, ``link``,
  ``tabelement``, ``textfield``, ``textarea`` or ``menu``; or one of :data:`KEPT_TAGS`;
* it is showing and visible, and enabled, editable, expandable or checkable;
* it has a name or a text (or, for set-of-marks, is an image);
* it has a box on the screen: a position at or right/below (0, 0) and a positive size.

The text column is the text, in double quotes (doubled inside) when it has one, ``""``
when empty. The class and description columns are the ``attr:class`` and
``attr:description`` object attributes (OSWorld's own code looks them up in its Windows
namespace, so on Ubuntu it leaves them empty; here they carry what the app says).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from lxml import etree

from gui_agent.envs.desktop.accessibility.osworld_xml import NAMESPACES
from gui_agent.envs.marks import table_text

HEADER = "tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)"
KEPT_ENDINGS = ("item", "button", "heading", "label", "scrollbar", "searchbox", "textbox", "link", "tabelement",
                "textfield", "textarea", "menu")
KEPT_TAGS = frozenset({
    "alert", "canvas", "check-box", "combo-box", "entry", "icon", "image", "paragraph", "scroll-bar", "section",
    "slider", "static", "table-cell", "terminal", "text", "netuiribbontab", "start", "trayclockwclass",
    "traydummysearchcontrol", "uiimage", "uiproperty", "uiribboncommandbar",
})
_USABLE_STATES = ("enabled", "editable", "expandable", "checkable")


@dataclass(frozen=True)
class Row:
    """One element of the table, with its box as numbers."""

    tag: str
    name: str
    text: str
    klass: str
    description: str
    x: int
    y: int
    width: int
    height: int

    @property
    def center(self) -> tuple[int, int]:
        return self.x + self.width // 2, self.y + self.height // 2

    def line(self) -> str:
        """The row as OSWorld writes it."""
        return "\t".join((self.tag, self.name, table_text(self.text), self.klass, self.description, str((self.x, self.y)),
                          str((self.width, self.height))))


def _state(node: etree._Element, name: str) -> bool:
    return node.get(f"{{{NAMESPACES['st']}}}{name}", "false") == "true"


def _pair(node: etree._Element, name: str) -> tuple[int, int]:
    raw = node.get(f"{{{NAMESPACES['cp']}}}{name}", "(-1, -1)")
    try:
        a, b = ast.literal_eval(raw)
        return int(a), int(b)
    except (ValueError, SyntaxError, TypeError):
        return -1, -1


def _kept_tag(tag: str) -> bool:
    return tag.startswith("document") or tag.endswith(KEPT_ENDINGS) or tag in KEPT_TAGS


def keeps(node: etree._Element, *, images: bool = False) -> bool:
    """True if ``node`` is a row of the table (``images``: count unnamed images, for set-of-marks)."""
    if not isinstance(node.tag, str) or not _kept_tag(node.tag):
        return False
    if not (_state(node, "showing") and _state(node, "visible")):
        return False
    if not any(_state(node, s) for s in _USABLE_STATES):
        return False
    if not (node.get("name", "") or node.text or images and node.get("image", "false") == "true"):
        return False
    (x, y), (w, h) = _pair(node, "screencoord"), _pair(node, "size")
    return x >= 0 and y >= 0 and w > 0 and h > 0


def rows(tree: etree._Element | str, *, images: bool = False) -> list[Row]:
    """The table's rows, in document order, from the XML (text or element)."""
    root = etree.fromstring(tree.encode("utf-8")) if isinstance(tree, str) else tree
    found = []
    for node in root.iter():
        if keeps(node, images=images):
            (x, y), (w, h) = _pair(node, "screencoord"), _pair(node, "size")
            found.append(Row(tag=node.tag, name=node.get("name", ""), text=node.text or "",
                             klass=node.get(f"{{{NAMESPACES['attr']}}}class", ""),
                             description=node.get(f"{{{NAMESPACES['attr']}}}description", ""),
                             x=x, y=y, width=w, height=h))
    return found


def linearize(tree: etree._Element | str) -> str:
    """The table as text: the header line, then a line per row."""
    return "\n".join([HEADER, *(row.line() for row in rows(tree))])


__all__ = ["HEADER", "KEPT_ENDINGS", "KEPT_TAGS", "Row", "keeps", "linearize", "rows"]
