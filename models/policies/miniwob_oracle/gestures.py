"""Widgets worked by dragging, hovering or the keyboard: a slider, a resizable text area,
a date picker, menus (one with a hover sub-menu, an SVG pie), text selection and the clipboard.

Animated widgets (a closing calendar, a sub-menu that opens after a hover delay, a pie
spreading out) get a short wait before the next look at the page.
"""

from __future__ import annotations

import re

from gui_agent.actions import Action, Click, Drag, Hotkey, Move, Wait
from gui_agent.models.errors import OracleError
from gui_agent.models.policies.miniwob_oracle.page import Element, PageView, Plan, parse

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


def _move_slider(page: PageView, track: Element, handle: Element, value: int, wanted: int, low: int, span: int) -> Plan:
    """One move of a jQuery UI slider from ``value`` towards ``wanted`` on the range low..low+span.

    A drag lands near the number; the handle then has the keyboard focus, and the arrow
    keys step it exactly.
    """
    vertical = "ui-slider-vertical" in track["classes"].split()
    if handle["focused"]:
        up, down = ("up", "down") if vertical else ("right", "left")
        key = up if wanted > value else down
        keys: list[Action] = [Hotkey((key,)) for _ in range(abs(wanted - value))]
        return Plan(f"step the slider from {value} to {wanted} with the arrow keys", keys)
    fraction = (wanted - low) / span
    x, y, width, height = track["bbox"]
    x1, y1 = page.point(handle)
    if vertical:
        x2, y2 = x1, round(y + (1 - fraction) * height)
    else:
        x2, y2 = round(x + fraction * width), y1
    return Plan(f"drag the slider handle towards {wanted} (range {low} to {low + span})", [Drag(x1, y1, x2, y2)])


def use_slider(instruction: str, page: PageView) -> Plan:
    """'Select -99 with the slider and hit Submit.' A jQuery UI slider, horizontal or vertical.

    The page shows the value but not the range: the handle's place along the track and the
    value tell which of the page's ranges it is.
    """
    wanted = int(parse(r"^Select (-?\d+) with the slider", instruction).group(1))
    track = page.by_id("slider")
    handle = page.one("span", cls="ui-slider-handle", within=track)
    value = int(page.by_id("val")["text"])
    if value == wanted:
        return Plan(f"the slider shows {wanted}; submit", [page.click(page.by_id("subbtn"))])
    vertical = "ui-slider-vertical" in track["classes"].split()
    low, span = _slider_scale(value, _handle_fraction(track, handle, vertical), wanted)
    return _move_slider(page, track, handle, value, wanted, low, span)


#: use-slider-2's three sliders run from 0 to 20.
_COMBINATION_SLIDER = (0, 20)


def use_slider_2(instruction: str, page: PageView) -> Plan:
    """'Set the sliders to the combination [4,17,9] and submit.' Three sliders, set in turn."""
    wanted = [int(n) for n in parse(r"combination \[(-?\d+(?:,-?\d+)*)\]", instruction).group(1).split(",")]
    for number, value_wanted in enumerate(wanted, start=1):
        track = page.by_id(f"slider-{number}")
        value = int(page.by_id(f"val-{number}")["text"])
        if value != value_wanted:
            handle = page.one("span", cls="ui-slider-handle", within=track)
            plan = _move_slider(page, track, handle, value, value_wanted, *_COMBINATION_SLIDER)
            return Plan(f"slider {number}: {plan.thought}", plan.actions)
    return Plan(f"the sliders show {wanted}; submit", [page.click(page.by_id("subbtn"))])


#: form-sequence's slider runs from -10 to 10.
_FORM_SLIDER = (-10, 20)


def form_sequence(instruction: str, page: PageView) -> Plan:
    """'Select 4 with the slider, click the 2nd checkbox, then hit Submit.' Three checkboxes;
    exactly the named one must end up checked."""
    match = parse(r"^Select (-?\d+) with the slider, click the (\d)(?:st|nd|rd|th) checkbox", instruction)
    wanted, chosen = int(match.group(1)), int(match.group(2))
    track = page.by_id("slider")
    handle = page.one("span", cls="ui-slider-handle", within=track)
    value = int(page.by_id("val")["text"])
    if value != wanted:
        return _move_slider(page, track, handle, value, wanted, *_FORM_SLIDER)
    clicks = [page.click(box) for number in (1, 2, 3) if bool((box := page.by_id(f"checkbox-{number}"))["checked"]) != (number == chosen)]
    return Plan(f"the slider shows {wanted}; check box {chosen} alone and submit", [*clicks, page.click(page.by_id("subbtn"))])


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


def click_menu(instruction: str, page: PageView) -> Plan:
    """'Select Jeanne>Kasey>Deloris' A jQuery UI menu of up to three levels; a sub-menu opens
    once the pointer rests on its item. Open each level in turn, then click the last item."""
    path = parse(r"^Select (.+)$", instruction).group(1).split(">")
    level = page.by_id("menu")
    for depth, name in enumerate(path):
        items = page.find("li", visible=None, where=lambda e, ul=level: e["parent"] == ul["ref"])
        labels = [page.one("div", visible=None, where=lambda e, li=li: e["parent"] == li["ref"]) for li in items]
        found = [(li, label) for li, label in zip(items, labels) if label["text"] == name]
        if not found:
            raise OracleError(f"no menu item {name!r} at level {depth + 1}")
        item, label = found[0]
        if depth == len(path) - 1:
            return Plan(f"click {name!r}", [page.click(label)])
        submenu = page.one("ul", visible=None, where=lambda e, li=item: e["parent"] == li["ref"])
        if not page.on_screen(submenu):
            return Plan(f"rest the pointer on {name!r} to open its sub-menu", [Move(*page.point(label)), Wait(_SUBMENU_DELAY_S)])
        level = submenu
    raise OracleError(f"empty menu path in {instruction!r}")


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


#: The first row of Quill's colour palette, in order: a colour's swatch is at its index here.
_QUILL_FIRST_ROW = ("black", "red", "orange", "yellow", "green", "blue", "purple")
#: text-editor's style names -> Quill's toolbar button class.
_QUILL_BUTTONS = {"bold": "ql-bold", "italics": "ql-italic", "underlined": "ql-underline"}


#: Where Ctrl+Right stops in Chromium: at the end of each run of word characters and of
#: each run of punctuation ("in. Vulputate." stops after "in", ".", "Vulputate", ".").
_WORD_STOPS = re.compile(r"\w+|[^\w\s]+")
#: Seconds for Quill to take in a selection made with the keyboard (see :func:`_select_text`).
_QUILL_SELECTION_S = 0.2


def _select_text(page: PageView, editor: Element, text: str, index: int | None) -> list[Action]:
    """Focus the editor and select all of it, or its space-separated word number ``index`` (0-based).

    The selection cannot be read from the page, so it is made with keys from a known
    place: the start of the text, Ctrl+Right to the stop before the word, then
    Ctrl+Shift+Right over the word's own stops. A later word is selected with the space
    before it, which the page ignores. Quill learns of a new selection from the browser's
    ``selectionchange`` event, a moment later; a toolbar click before that styles the old
    selection, so a short wait ends the list.
    """
    focus: list[Action] = [page.click(editor)]
    if index is None:
        return [*focus, Hotkey(("ctrl", "a")), Wait(_QUILL_SELECTION_S)]
    word = list(re.finditer(r"\S+", text))[index]
    before = sum(1 for stop in _WORD_STOPS.finditer(text) if stop.end() <= word.start())
    inside = len(_WORD_STOPS.findall(word.group()))
    return [*focus, Hotkey(("ctrl", "home")), *[Hotkey(("ctrl", "right")) for _ in range(before)],
            *[Hotkey(("ctrl", "shift", "right")) for _ in range(inside)], Wait(_QUILL_SELECTION_S)]


def text_editor(instruction: str, page: PageView) -> Plan:
    """'Using the text editor, give the text lorem the style bold and press Submit.' (or
    'give everything the style italics', 'give the text lorem the color red', 'make
    everything the color blue'). A Quill editor: select, then a toolbar button, or the
    colour picker and one of its swatches."""
    match = parse(r"(?:give the text (\S+) the (style|color) (\w+)|give everything the (style) (\w+)|make everything the (color) (\w+))", instruction)
    word, kind, name = (match.group(1), match.group(2), match.group(3)) if match.group(1) else (None, match.group(4) or match.group(6), match.group(5) or match.group(7))
    editor = page.one("div", cls="ql-editor")
    editor_text = " ".join(p["text"] for p in page.find("p", within=editor))
    words = editor_text.split()
    index = None
    if word is not None:
        if word not in words:
            raise OracleError(f"{word!r} is not in the editor's text {editor_text!r}")
        index = words.index(word)
    what = f'"{word}"' if word else "everything"
    submit = page.click(page.by_id("subbtn"))
    if kind == "style":
        if name not in _QUILL_BUTTONS:
            raise OracleError(f"no toolbar button for the style {name!r}")
        button = page.one("button", cls=_QUILL_BUTTONS[name])
        return Plan(f"select {what}, press {name}, submit", [*_select_text(page, editor, editor_text, index), page.click(button), submit])
    if name not in _QUILL_FIRST_ROW:
        raise OracleError(f"no swatch for the colour {name!r}")
    picker = page.one("span", cls="ql-color")
    if "ql-expanded" not in picker["classes"].split():
        label = page.one("span", cls="ql-picker-label", within=picker)
        return Plan(f"select {what} and open the colour picker", [*_select_text(page, editor, editor_text, index), page.click(label)])
    swatches = page.find("span", cls="ql-picker-item", within=picker)
    return Plan(f"pick {name}, submit", [page.click(swatches[_QUILL_FIRST_ROW.index(name)]), submit])


SOLVERS = {
    "text-editor": text_editor,
    "use-slider": use_slider,
    "use-slider-2": use_slider_2,
    "form-sequence": form_sequence,
    "resize-textarea": resize_textarea,
    "choose-date-easy": choose_date_easy,
    "click-menu-2": click_menu_2,
    "click-menu": click_menu,
    "click-pie": click_pie,
    "highlight-text": highlight_text,
    "copy-paste": copy_paste,
}
