"""Tasks solved by moving things: dragging a box or a list item, scrolling a text area (and reading its end)."""

from __future__ import annotations

import math
import re

from gui_agent.actions import Drag, Scroll, Wait
from gui_agent.models.policies.miniwob_oracle.apps import WHEEL_SETTLE_S
from gui_agent.models.errors import OracleError
from gui_agent.models.policies.miniwob_oracle.page import Element, PageView, Plan, parse
from gui_agent.models.policies.miniwob_oracle.text import enter_and_submit

#: drag-box wins when the small box's offset inside the large one is strictly between 0
#: and this many pixels on both axes (the sides differ by 50 - 20 px).
_DRAG_BOX_SLACK = 30


def drag_box(instruction: str, page: PageView) -> Plan:
    """'Drag the smaller box so that it is completely inside the larger box.'"""
    small, large = page.by_id("draggableSmall"), page.by_id("draggableLarge")
    dx = small["bbox"][0] - large["bbox"][0]
    dy = small["bbox"][1] - large["bbox"][1]
    if 0 < dx < _DRAG_BOX_SLACK and 0 < dy < _DRAG_BOX_SLACK:
        return Plan("the small box is inside; submit", [page.click(page.by_id("subbtn"))])
    x1, y1 = page.point(small)
    # Aim the small box's corner at the middle of the allowed range inside the large box.
    shift = _DRAG_BOX_SLACK // 2
    x2 = x1 + round(large["bbox"][0] + shift - small["bbox"][0])
    y2 = y1 + round(large["bbox"][1] + shift - small["bbox"][1])
    width, height = page.viewport
    if not (0 <= x2 < width and 0 <= y2 < height):
        raise OracleError(f"drop point ({x2}, {y2}) is off screen")
    return Plan("drag the small box into the large one", [Drag(x1, y1, x2, y2)])


def scroll_text_2(instruction: str, page: PageView) -> Plan:
    """'Scroll the textarea to the bottom of the text hit submit.' (or top; 10 px slack)"""
    where = parse(r"Scroll the textarea to the (top|bottom)", instruction).group(1)
    area = page.by_id("text-area")
    scroll = area.get("scroll")  # None: the text fits, nothing to scroll
    remaining = 0
    if scroll is not None:
        scroll_top, scroll_height, client_height = scroll[1], scroll[3], scroll[5]
        remaining = scroll_top if where == "top" else scroll_height - client_height - scroll_top
    if remaining < 5:
        return Plan(f"the text is at the {where}; submit", [page.click(page.by_id("subbtn"))])
    notches = math.ceil(remaining / 100) * (-1 if where == "top" else 1)
    x, y = page.point(area)
    return Plan(f"scroll the text to the {where}", [Scroll(x, y, dy=notches)])


def scroll_text(instruction: str, page: PageView) -> Plan:
    """'Find the last word in the text area, enter it into the text field and hit Submit.'
    The text is scrolled to its end first, so the word typed is the one on the screen."""
    area = page.by_id("text-area")
    scroll = area.get("scroll")
    remaining = scroll[3] - scroll[5] - scroll[1] if scroll is not None else 0
    if remaining >= 5:
        return Plan("scroll the text to its end", [Scroll(*page.point(area), dy=math.ceil(remaining / 100)), Wait(WHEEL_SETTLE_S)])
    words = (area["value"] or "").split()
    if not words:
        raise OracleError("the text area is empty")
    word = re.sub(r"[^a-zA-Z0-9]", "", words[-1])
    return enter_and_submit(page, page.by_id("answer-input"), word, page.by_id("subbtn"))


_ORDINAL = r"(\d+)(?:st|nd|rd|th)"


def _sortable_items(page: PageView) -> tuple[list[Element], list[str]]:
    """The items of the jQuery UI sortable list #sortable, and their labels (each in a div)."""
    items = page.find("li", within=page.by_id("sortable"))
    labels = [page.one("div", where=lambda e, li=li: e["parent"] == li["ref"], visible=None)["text"] for li in items]
    return items, labels


def _drag_item(page: PageView, items: list[Element], source: int, target: int) -> Drag:
    """Drag item ``source`` to position ``target`` of a sortable list.

    An item is dropped when its centre passes the centre of the item at the target
    position, so aim a few pixels past that centre.
    """
    x1, y1 = page.point(items[source])
    _, ty, _, th = items[target]["bbox"]
    past = 4 if target > source else -4
    return Drag(x1, y1, x1, int(ty + th / 2) + past)


def drag_items(instruction: str, page: PageView) -> Plan:
    """'Drag Flora to the 3rd position.' / 'up by one position.' / 'to the top.' (5 items)"""
    match = parse(r"^Drag (.+?) (to the top|to the bottom|up by one position|down by one position|to the " + _ORDINAL + r" position)\.$", instruction)
    name, how = match.group(1), match.group(2)
    items, names = _sortable_items(page)
    source = names.index(name)
    target = {
        "to the top": 0,
        "to the bottom": len(items) - 1,
        "up by one position": source - 1,
        "down by one position": source + 1,
    }.get(how, int(match.group(3) or 0) - 1)
    if not 0 <= target < len(items) or target == source:
        raise OracleError(f"cannot move item {source + 1} {how!r} in a list of {len(items)}")
    return Plan(f"drag {name} to position {target + 1}", [_drag_item(page, items, source, target)])


def drag_sort_numbers(instruction: str, page: PageView) -> Plan:
    """'Sort the numbers in increasing order, starting with the lowest number at the top of
    the list.' A selection sort, one drag a look: the lowest number not yet in place goes
    to the first wrong position; a sorted list is submitted."""
    items, labels = _sortable_items(page)
    numbers = [int(label) for label in labels]
    wanted = sorted(numbers)
    for position, number in enumerate(wanted):
        if numbers[position] != number:
            source = numbers.index(number, position)
            return Plan(f"drag {number} to position {position + 1}", [_drag_item(page, items, source, position)])
    return Plan("the numbers are sorted; submit", [page.click(page.by_id("subbtn"))])


SOLVERS = {
    "drag-box": drag_box,
    "drag-items": drag_items,
    "drag-sort-numbers": drag_sort_numbers,
    "scroll-text-2": scroll_text_2,
    "scroll-text": scroll_text,
}
