"""The tree in OSWorld's XML form (its ``/accessibility`` endpoint on Ubuntu).

OSWorld's agents and checks read the desktop's tree as XML: a ``desktop-frame`` root, an
element per accessible object whose tag is its role (spaces made ``-``: ``push-button``,
``table-cell``), and on it:

* ``name``; each state set as ``st:NAME="true"`` (``st:showing``, ``st:focused``);
* each object attribute as ``attr:KEY`` (Gecko's ``attr:id``, ``attr:class``);
* for visible, showing objects with a box, ``cp:screencoord="(x, y)"`` and ``cp:size="(w, h)"``;
* ``image="true"`` / ``selection="true"`` when it has those interfaces;
* its value as ``val:value``, ``val:min``, ``val:max``, ``val:step``;
* each action as ``act:NAME_desc`` and ``act:NAME_kb`` (spaces in the name made ``-``);
* its text as the element's text, less U+FFFC and U+FFFD (embedded-object placeholders).

The prefixes are bound to OSWorld's namespace URLs (:data:`NAMESPACES`), so its XPath
and CSS selectors (``tool-bar[attr|id=MsgHeadersToolbar]``) work on ours unchanged.
Characters XML cannot hold are dropped, and names XML cannot use are skipped.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lxml import etree

from gui_agent.envs.desktop.accessibility import atspi
from gui_agent.envs.desktop.accessibility.reader import Desktop, Element

_BASE = "https://accessibility.ubuntu.example.org/ns"
#: Prefix -> namespace URL, as OSWorld binds them for Ubuntu.
NAMESPACES: dict[str, str] = {
    "st": f"{_BASE}/state",
    "attr": f"{_BASE}/attributes",
    "cp": f"{_BASE}/component",
    "doc": f"{_BASE}/document",
    "docattr": f"{_BASE}/document/attributes",
    "txt": f"{_BASE}/text",
    "val": f"{_BASE}/value",
    "act": f"{_BASE}/action",
}
ROOT_TAG = "desktop-frame"

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
_VALUE_KEYS = (("value", "CurrentValue"), ("min", "MinimumValue"), ("max", "MaximumValue"), ("step", "MinimumIncrement"))


def _clean(text: str) -> str:
    return _NOT_XML.sub("", text)


@lru_cache(maxsize=1024)
def _state_attributes(states: tuple[int, ...]) -> tuple[tuple[str, str], ...]:
    """``st:NAME="true"`` for each state set (many elements share a state set)."""
    return tuple((f"{{{NAMESPACES['st']}}}{state}", "true") for state in atspi.state_names(states))


@lru_cache(maxsize=4096)
def _qualified(prefix: str, name: str) -> str | None:
    return f"{{{NAMESPACES[prefix]}}}{name}" if _NAME.match(name) else None


def _attributes(element: Element) -> dict[str, str]:
    """The element's XML attributes, in OSWorld's order."""
    found: dict[str, str] = {"name": _clean(element.name)}
    found.update(_state_attributes(element.states))
    for key, value in element.attributes.items():
        name = _qualified("attr", key)
        if name is not None:
            found[name] = _clean(str(value))
    if element.on_screen and element.extents is not None:
        x, y, w, h = element.extents
        found[f"{{{NAMESPACES['cp']}}}screencoord"] = str((x, y))
        found[f"{{{NAMESPACES['cp']}}}size"] = str((w, h))
    if atspi.IMAGE in element.interfaces:
        found["image"] = "true"
    if atspi.SELECTION in element.interfaces:
        found["selection"] = "true"
    for key, prop in _VALUE_KEYS if element.value is not None else ():
        if prop in element.value:  # type: ignore[operator]
            found[f"{{{NAMESPACES['val']}}}{key}"] = str(element.value[prop])  # type: ignore[index]
    for action, description, keys in element.actions:
        stem = action.replace(" ", "-")
        for suffix, text in (("_desc", description), ("_kb", keys)):
            name = _qualified("act", stem + suffix)
            if name is not None:
                found[name] = _clean(text)
    return found


def _build(element: Element, parent: etree._Element) -> None:
    tag = (element.role.strip() or "unknown").replace(" ", "-")
    node = etree.SubElement(parent, tag if _NAME.match(tag) else "unknown", attrib=_attributes(element))
    if element.text:
        text = _clean(element.text.replace("\ufffc", "").replace("\ufffd", ""))
        if text:
            node.text = text
    for child in element.children:
        _build(child, node)


def to_element(desktop: Desktop) -> etree._Element:
    """The tree as an lxml element (``desktop-frame``, the apps below it)."""
    root = etree.Element(ROOT_TAG, nsmap=NAMESPACES)  # type: ignore[arg-type]
    for app in desktop.apps:
        _build(app, root)
    return root


def to_xml(desktop: Desktop) -> str:
    """The tree as OSWorld's XML text."""
    return etree.tostring(to_element(desktop), encoding="unicode")


__all__ = ["NAMESPACES", "ROOT_TAG", "to_element", "to_xml"]
