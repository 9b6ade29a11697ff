"""Content behind widgets: jQuery UI tabs, dialogs and accordions (collapsible sections)."""

from __future__ import annotations

from gui_agent.actions import Scroll, Wait
from gui_agent.models.errors import OracleError
from gui_agent.models.policies.miniwob_oracle.page import Element, PageView, Plan, parse

#: Seconds to let an accordion finish sliding open before the next look.
ACCORDION_SETTLE_S = 0.6


def _reveal(page: PageView, el: Element, what: str) -> Plan | None:
    """Scroll the page when ``el`` is laid out below (or above) the viewport, else None."""
    if page.on_screen(el):
        return None
    y = el["bbox"][1]
    notches = 1 if y > 0 else -1
    x0, y0 = page.viewport[0] // 2, page.viewport[1] // 2
    return Plan(f"scroll to bring {what} into view", [Scroll(x0, y0, dy=notches)])


def click_tab(instruction: str, page: PageView) -> Plan:
    """'Click on Tab #2.' Clicking the asked tab wins, even when it is already open."""
    number = parse(r"Click on Tab #(\d+)\.", instruction).group(1)
    return Plan(f"click tab #{number}", [page.click(page.one("a", text=f"Tab #{number}"))])


def click_tab_2(instruction: str, page: PageView) -> Plan:
    """'Switch between the tabs to find and click on the link "lorem".'"""
    word = parse(r'click on the link "(.*)"\.', instruction).group(1)
    links = page.find("span", cls="alink", text=word, visible=None)
    if not links:
        raise OracleError(f"no link {word!r} in any tab")
    shown = [link for link in links if link["visible"]]
    if shown:
        return _reveal(page, shown[0], f'the link "{word}"') or Plan(f'click the link "{word}"', [page.click(shown[0])])
    panel = next(a for a in page.ancestors(links[0]) if a["id"].startswith("tabs-"))
    tab = page.one("a", where=lambda a: a["href"] == f"#{panel['id']}")
    return Plan(f'open {tab["text"]}, where the link "{word}" is', [page.click(tab)])


def click_dialog(instruction: str, page: PageView) -> Plan:
    """'Close the dialog box by clicking the "x".'"""
    return Plan('click the dialog\'s "x"', [page.click(page.one("button", cls="ui-dialog-titlebar-close"))])


def click_dialog_2(instruction: str, page: PageView) -> Plan:
    """'Click the button in the dialog box labeled "OK".' Labels: Cancel, OK, x (the close button)."""
    label = parse(r'labeled "(.*)"\.', instruction).group(1)
    if label == "x":
        button = page.one("button", cls="ui-dialog-titlebar-close")
    else:
        button = page.one("button", text=label, within=page.one(cls="ui-dialog-buttonpane"))
    return Plan(f'click "{label}" in the dialog', [page.click(button)])


def _accordion(page: PageView) -> list[tuple[Element, Element]]:
    """(header, panel) pairs of the accordion in #area, in order."""
    area = page.by_id("area")
    headers = page.find(cls="ui-accordion-header", within=area, where=lambda e: e["tag"] == "h3")
    panels = page.find(cls="ui-accordion-content", within=area, visible=None)
    if len(headers) != len(panels) or not headers:
        raise OracleError(f"accordion has {len(headers)} headers and {len(panels)} panels")
    return list(zip(headers, panels))


def click_collapsible(instruction: str, page: PageView) -> Plan:
    """'Expand the section below and click submit.'"""
    header, panel = _accordion(page)[0]
    if not panel["visible"]:
        return Plan(f"expand {header['text']}", [page.click(header), Wait(ACCORDION_SETTLE_S)])
    submit = page.by_id("subbtn")
    return _reveal(page, submit, "Submit") or Plan("the section is open; submit", [page.click(submit)])


def click_collapsible_2(instruction: str, page: PageView) -> Plan:
    """'Expand the sections below, to find and click on the link "lorem".'"""
    word = parse(r'click on the link "(.*)"\.', instruction).group(1)
    links = page.find("span", cls="alink", text=word, visible=None)
    if not links:
        raise OracleError(f"no link {word!r} in any section")
    shown = [link for link in links if link["visible"]]
    if shown:
        return _reveal(page, shown[0], f'the link "{word}"') or Plan(f'click the link "{word}"', [page.click(shown[0])])
    for header, panel in _accordion(page):
        if page.is_within(links[0], panel):
            reveal = _reveal(page, header, header["text"])
            return reveal or Plan(f"expand {header['text']}", [page.click(header), Wait(ACCORDION_SETTLE_S)])
    raise OracleError(f"the link {word!r} is in no section")


def navigate_tree(instruction: str, page: PageView) -> Plan:
    """'Navigate through the file tree. Find and click on the folder or file named "Rex".'

    Folders start collapsed; open the outermost closed folder on the way to the name by its
    expand arrow (the 'hitarea' box left of the name), then click the name.
    """
    name = parse(r'named "(.*)"\.', instruction).group(1)
    tree = page.by_id("tree")
    spans = page.find("span", text=name, within=tree, visible=None)
    if not spans:
        raise OracleError(f"no file or folder named {name!r} in the tree")
    shown = [s for s in spans if s["visible"]]
    if shown:
        return _reveal(page, shown[0], name) or Plan(f"click {name}", [page.click(shown[0])])
    # The outermost collapsed folder that contains the name (its own <li> is visible).
    folders = [a for a in page.ancestors(spans[0]) if a["tag"] == "li" and a["visible"]]
    closed = [li for li in folders if "expandable" in li["classes"].split()]
    if not closed:
        raise OracleError(f"{name!r} is hidden but no folder above it is closed")
    folder = closed[-1]
    hitarea = page.one("div", cls="hitarea", where=lambda e: e["parent"] == folder["ref"])
    label = page.one("span", where=lambda e: e["parent"] == folder["ref"], visible=None)["text"]
    return _reveal(page, hitarea, label) or Plan(f"open the folder {label}", [page.click(hitarea)])


SOLVERS = {
    "click-tab": click_tab,
    "click-tab-2": click_tab_2,
    "click-dialog": click_dialog,
    "click-dialog-2": click_dialog_2,
    "click-collapsible": click_collapsible,
    "click-collapsible-2": click_collapsible_2,
    "navigate-tree": navigate_tree,
}
