"""Widgets worked by dragging, hovering or the keyboard: a slider, a resizable text area,
a date picker, menus (one with a hover sub-menu, an SVG pie), text selection and the clipboard.

Animated widgets (a closing calendar, a sub-menu that opens after a hover delay, a pie
spreading out) get a short wait before the next look at the page.
"""

from __future__ import annotations

import re

from gui_agent.actions import Action, Click, Drag, Hotkey, Move, Wait
from models.policies.miniwob_oracle.page import (
    Element,
    OracleError,
    PageView,
    Plan,
    parse,
)

#: use-slider draws the minimum from these and the span (maximum - minimum) from the next.
_SLIDER_MINIMA = (-100, 0, 10, 100)
_SLIDER_SPANS = (5, 10, 50, 100)


def _handle_fraction(track: Element, handle: Element, vertical: bool) -> float:
    """Where the handle's centre sits along the track, 0 at the minimum end, 1 at the maximum."""
    x, y, width, height = track["bbox"]
    hx, hy, hw, hh = handle["bbox"]
    if vertical:
        return 1 - (hy + hh / 2 - y) / height
    return (hx + hw / 2 - x) / width


def _slider_scale(value: int, fraction: float, wanted: int) -> tuple[int, int]:
    """The (minimum, span) the page drew that best puts ``value`` at ``fraction`` of the track."""
    fits = [
        (abs(fraction - (value - low) / span), low, span)
        for low in _SLIDER_MINIMA
        for span in _SLIDER_SPANS
        if low <= value <= low + span and low <= wanted <= low + span
    ]
    if not fits:
        raise OracleError(f"no slider range holds both {value} and {wanted}")
    _, low, span = min(fits)
    return low, span


def use_slider(instruction: str, page: PageView) -> Plan:
    """'Select -99 with the slider and hit Submit.' A jQuery UI slider, horizontal or vertical.

    The page shows the value but not the range: the handle's place along the track and the
    value tell which of the page's ranges it is. Drag the handle to where the number should
    be; the handle then has the keyboard focus, and the arrow keys step it exactly.
    """
    wanted = int(parse(r"^Select (-?\d+) with the slider", instruction).group(1))
    track = page.by_id("slider")
    handle = page.one("span", cls="ui-slider-handle", within=track)
    value = int(page.by_id("val")["text"])
    if value == wanted:
        return Plan(f"the slider shows {wanted}; submit", [page.click(page.by_id("subbtn"))])
    vertical = "ui-slider-vertical" in track["classes"].split()
    if handle["focused"]:
        up, down = ("up", "down") if vertical else ("right", "left")
        key = up if wanted > value else down
        keys: list[Action] = [Hotkey((key,)) for _ in range(abs(wanted - value))]
        return Plan(f"step the slider from {value} to {wanted} with the arrow keys", keys)
    low, span = _slider_scale(value, _handle_fraction(track, handle, vertical), wanted)
    fraction = (wanted - low) / span
    x, y, width, height = track["bbox"]
    x1, y1 = page.point(handle)
    if vertical:
        x2, y2 = x1, round(y + (1 - fraction) * height)
    else:
        x2, y2 = round(x + fraction * width), y1
    return Plan(f"drag the slider handle towards {wanted} (range {low} to {low + span})", [Drag(x1, y1, x2, y2)])


#: resize-textarea draws the text area's sides in steps of this many CSS pixels; its box
#: adds this much padding and border.
_RESIZE_STEP, _RESIZE_FRAME = 5, 6
#: How far to drag a side: not a multiple of the step, so a resized side shows it.
_RESIZE_BY = 13


def resize_textarea(instruction: str, page: PageView) -> Plan:
    """'Resize the textarea so that the height is smaller than its initial size then press Submit.'

    A jQuery UI resizable: drag the east handle (width) or the south handle (height). The
    page draws sides that are whole steps of 5 px, so a side that is not has been resized.
    """
    dimension, direction = parse(r"the (width|height) is (smaller|larger) than", instruction).groups()
    area = page.by_id("tt")
    width, height = area["bbox"][2:]
    side = width if dimension == "width" else height
    if round(side - _RESIZE_FRAME) % _RESIZE_STEP != 0:
        return Plan(f"the {dimension} has changed; submit", [page.click(page.by_id("submit"))])
    wrapper = page.parent(area)
    edge = "e" if dimension == "width" else "s"
    handle = page.one("div", cls=f"ui-resizable-{edge}", within=wrapper)
    x1, y1 = page.point(handle)
    shift = _RESIZE_BY if direction == "larger" else -_RESIZE_BY
    x2, y2 = (x1 + shift, y1) if dimension == "width" else (x1, y1 + shift)
    return Plan(f"drag the {'right' if edge == 'e' else 'bottom'} edge to make the {dimension} {direction}", [Drag(x1, y1, x2, y2)])


#: Seconds to let a jQuery UI calendar fade in or out (the page's fade is "fast", 200 ms).
_CALENDAR_FADE_S = 0.3
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")


def choose_date_easy(instruction: str, page: PageView) -> Plan:
    """'Select 12/02/2016 as the date and hit submit.' A jQuery UI date picker (December 2016 only).

    Click the field to open the calendar, click the day, submit.
    """
    text = parse(r"Select (\d\d/\d\d/\d{4}) as the date", instruction).group(1)
    month, day, year = int(text[:2]), int(text[3:5]), text[6:]
    field = page.by_id("datepicker")
    calendar = page.find(id="ui-datepicker-div")
    if field["value"] == text:
        if calendar:  # still fading out, over the Submit button
            return Plan("wait for the calendar to close", [Wait(_CALENDAR_FADE_S)])
        return Plan(f"{field['value']} is chosen; submit", [page.click(page.by_id("subbtn"))])
    if not calendar:
        # Let it fade in before the next look: the frame recorded before the day's click
        # would otherwise be mid-fade, and a replay could not find the day in it.
        return Plan("open the calendar", [page.click(field), Wait(_CALENDAR_FADE_S)])
    shown = (page.one(cls="ui-datepicker-month", within=calendar[0])["text"], page.one(cls="ui-datepicker-year", within=calendar[0])["text"])
    if shown != (_MONTHS[month - 1], year):
        raise OracleError(f"the calendar shows {' '.join(shown)}, not {_MONTHS[month - 1]} {year}")
    cell = page.one("a", cls="ui-state-default", text=str(day), within=calendar[0])
    return Plan(f"click {_MONTHS[month - 1]} {day}", [page.click(cell)])


#: Seconds for a jQuery UI sub-menu to open under a hovering pointer (the menu waits 300 ms).
_SUBMENU_DELAY_S = 0.6


def click_menu_2(instruction: str, page: PageView) -> Plan:
    """'Click the "Menu" button, and then find and click on the item labeled "Stop".' or
    '... click on the item with the <icon> icon.' (the icon is a span in the query).

    Open the menu; an item in the Playback sub-menu shows once the pointer rests on Playback.
    """
    menu = page.by_id("menu", visible=None)
    items = page.find("div", cls="ui-menu-item-wrapper", within=menu, visible=None)
    labeled = re.search(r'the item labeled "(.*)"\.', instruction)
    if labeled is not None:
        target = next((i for i in items if i["text"] == labeled.group(1)), None)
        wanted = f'"{labeled.group(1)}"'
    else:
        icon = page.one("span", cls="ui-icon", within=page.by_id("query"))
        kind = next(c for c in icon["classes"].split() if c.startswith("ui-icon-"))
        target = next((i for i in items if page.find("span", cls=kind, within=i, visible=None)), None)
        wanted = f"the {kind.removeprefix('ui-icon-')} icon"
    if target is None:
        raise OracleError(f"no menu item for {wanted}")
    if not menu["visible"]:
        # The menu opens under the pointer, and the item there takes the hover (and may
        # open its sub-menu) a moment later: wait, so the next look sees the settled menu.
        return Plan("open the menu", [page.click(page.by_id("open-menu")), Wait(_SUBMENU_DELAY_S)])
    if page.on_screen(target):
        return Plan(f"click the item {target['text']!r}", [page.click(target)])
    submenu = next(a for a in page.ancestors(target) if a["tag"] == "ul")
    parent = page.one("div", cls="ui-menu-item-wrapper", within=menu, where=lambda e: e["parent"] == submenu["parent"])
    return Plan(f"rest the pointer on {parent['text']!r} to open its sub-menu", [Move(*page.point(parent)), Wait(_SUBMENU_DELAY_S)])


#: Seconds for the pie menu to spread out after its centre is clicked.
_PIE_SPREAD_S = 1.0


def click_pie(instruction: str, page: PageView) -> Plan:
    """'Expand the pie menu below and click on the item labeled "e".' A wheelnav SVG pie.

    The centre button ('+') spreads the slices out; then click the wanted slice's title.
    """
    label = parse(r'click on the item labeled "(.*)"\.', instruction).group(1)
    spreader = page.one("tspan", within=page.one("text", id="wheelnav-divWheel-spreadertitle"))
    if spreader["text"] == "+":
        centre = page.one("path", id="wheelnav-divWheel-spreader")
        return Plan("spread the pie menu out", [page.click(centre), Wait(_PIE_SPREAD_S)])
    titles = [t for t in page.find("tspan", text=label) if page.parent(t)["id"].startswith("wheelnav-divWheel-title-")]
    if len(titles) != 1:
        raise OracleError(f"{len(titles)} pie items are labelled {label!r}")
    return Plan(f"click the slice {label!r}", [page.click(titles[0])])


def highlight_text(instruction: str, page: PageView) -> Plan:
    """'Highlight the text in the paragraph below and click submit.' The whole paragraph.

    A triple click selects the paragraph; the selection cannot be read from the page, so
    submit in the same breath.
    """
    paragraph = page.by_id("randomText")
    return Plan("select the paragraph with a triple click, then submit", [Click(*page.point(paragraph), count=3), page.click(page.by_id("subbtn"))])


def copy_paste(instruction: str, page: PageView) -> Plan:
    """'Copy the text in the textarea below, paste it into the textbox and press Submit.'

    Select all in the text area, copy, paste into the (emptied) text box, then submit.
    """
    source, box = page.by_id("to-copy"), page.by_id("answer-input")
    if box["value"] == source["value"]:
        return Plan("the text is pasted; submit", [page.click(page.by_id("subbtn"))])
    actions: list[Action] = [page.click(source), Hotkey(("ctrl", "a")), Hotkey(("ctrl", "c")), page.click(box)]
    if box["value"]:
        actions.append(Hotkey(("ctrl", "a")))
    actions.append(Hotkey(("ctrl", "v")))
    return Plan("copy the text area's text and paste it into the text box", actions)


SOLVERS = {
    "use-slider": use_slider,
    "resize-textarea": resize_textarea,
    "choose-date-easy": choose_date_easy,
    "click-menu-2": click_menu_2,
    "click-pie": click_pie,
    "highlight-text": highlight_text,
    "copy-paste": copy_paste,
}
