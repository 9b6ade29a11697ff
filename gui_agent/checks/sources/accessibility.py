"""The source that reads the desktop's accessibility tree (OSWorld's ``accessibility_tree``
getter, with the selection its ``check_accessibility_tree`` metric makes).

``accessibility_tree: {xpath: ...}`` or ``{selectors: [...]}`` reads the apps' element tree
through the probe (``accessibility_tree(scope=...)``: OSWorld's XML form, every element
read), selects with the XPath or with the CSS selectors (joined with ``", "``), and gives
the list of what was selected: an element's text (None when it has none), or a string an
XPath returned (``//push-button/@name``). An empty list: nothing matched.

The prefixes ``st``, ``attr``, ``cp``, ``doc``, ``docattr``, ``txt``, ``val`` and ``act``
are the tree's namespaces (:data:`NAMESPACES`, OSWorld's server's own), so OSWorld's
selectors (``tool-bar[attr|id=MsgHeadersToolbar] label[name=To]``) mean here what they
say there. (OSWorld's metric binds the prefixes to other URLs than its server writes,
which matches no prefixed attribute at all; here they match what they name.)

The environment must run with ``accessibility: true`` (the bus and the apps' bridges).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from lxml import etree
from lxml.cssselect import CSSSelector
from pydantic import Field, model_validator

from gui_agent.checks.sources.base import SourceType
from gui_agent.schema import NonBlank, SingleKey, StrictModel, exactly_one

_BASE = "https://accessibility.ubuntu.example.org/ns"
#: The tree's namespaces by prefix (the environment's XML binds the same ones).
NAMESPACES: dict[str, str] = {
    "st": f"{_BASE}/state", "attr": f"{_BASE}/attributes", "cp": f"{_BASE}/component", "doc": f"{_BASE}/document",
    "docattr": f"{_BASE}/document/attributes", "txt": f"{_BASE}/text", "val": f"{_BASE}/value", "act": f"{_BASE}/action",
}


class AccessibilityTreeArgs(StrictModel):
    """What to select in the tree: an ``xpath`` or CSS ``selectors``, in the whole screen's
    tree or the focused window's (``scope``)."""

    xpath: NonBlank | None = None
    selectors: list[NonBlank] | None = Field(default=None, min_length=1)
    scope: Literal["screen", "focused_window"] = "screen"

    @model_validator(mode="after")
    def _one_selection(self) -> AccessibilityTreeArgs:
        exactly_one(self, ("xpath", "selectors"))
        return self


class AccessibilityTreeSource(SingleKey):
    name: ClassVar[str] = "accessibility_tree"
    accessibility_tree: AccessibilityTreeArgs


def select(xml: str, *, xpath: str | None = None, selectors: list[str] | None = None) -> list[Any]:
    """What ``xpath`` or ``selectors`` select in the tree ``xml``: texts of elements (None
    for none), or the strings an XPath gives.

    Raises:
        ValueError: the XPath or a selector is not valid.
    """
    root = etree.fromstring(xml.encode("utf-8"))
    try:
        if xpath is not None:
            found = root.xpath(xpath, namespaces=NAMESPACES)
        else:
            found = CSSSelector(", ".join(selectors or []), namespaces=NAMESPACES)(root)
    except (etree.XPathError, SyntaxError) as exc:
        raise ValueError(f"invalid {'XPath' if xpath is not None else 'selector'}: {exc}") from None
    if not isinstance(found, list):  # an XPath that computes a number, a string or a truth value
        return [found]
    return [item.text if isinstance(item, etree._Element) else str(item) for item in found]


def _accessibility_tree(args: AccessibilityTreeArgs, probe: Any) -> list[Any]:
    return select(probe.accessibility_tree(scope=args.scope), xpath=args.xpath, selectors=args.selectors)


SOURCES: tuple[SourceType, ...] = (SourceType(AccessibilityTreeSource, _accessibility_tree),)

__all__ = ["NAMESPACES", "SOURCES", "AccessibilityTreeArgs", "AccessibilityTreeSource", "select"]
