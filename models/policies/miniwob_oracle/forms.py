"""Form controls: checkboxes, a drop-down <select>, a multi-select scroll list.

A <select> is worked with real input only: click it (its pop-up opens), type the option's
text (the browser's type-ahead jumps to it) and press Enter; where type-ahead could land on
another option, arrow keys instead. A multi-select list: click one wanted option, then
ctrl+arrow moves the keyboard focus without changing the selection and ctrl+space adds
the focused option (Chromium's list-box keys).
"""

from __future__ import annotations

import math

from gui_agent.actions import Action, Hotkey, Scroll, Type, Wait
from gui_agent.models.errors import OracleError
from gui_agent.models.policies.miniwob_oracle.page import Element, PageView, Plan, parse
from gui_agent.models.policies.miniwob_oracle.text import fill


def click_checkboxes(instruction: str, page: PageView) -> Plan:
    """'Select ab1, Xy and click Submit.' or 'Select nothing and click Submit.'"""
    listed = parse(r"^Select (.*) and click Submit\.$", instruction).group(1)
    wanted = set() if listed == "nothing" else set(listed.split(", "))
    actions: list[Action] = []
    for label in page.find("label", within=page.by_id("area")):
        box = page.one("input", within=label)
        if box["checked"] != (label["text"] in wanted):
            actions.append(page.click(box))
    missing = wanted - {label["text"] for label in page.find("label", within=page.by_id("area"))}
    if missing:
        raise OracleError(f"no checkbox labelled {sorted(missing)}")
    thought = f"tick {', '.join(sorted(wanted)) or 'nothing'}, then submit"
    return Plan(thought, [*actions, page.click(page.by_id("subbtn"))])


def _options(page: PageView, select: Element) -> list[Element]:
    return page.find("option", within=select, visible=None)


def choose_list(instruction: str, page: PageView) -> Plan:
    """'Select Kenya from the list and click Submit.' A drop-down <select>."""
    name = parse(r"^Select (.*) from the list and click Submit\.$", instruction).group(1)
    select = page.by_id("options")
    texts = [o["text"] for o in _options(page, select)]
    if name not in texts:
        raise OracleError(f"{name!r} is not among the options {texts}")
    submit = page.one("button", text="Submit", within=page.by_id("area"))
    if select["value"] == name:
        return Plan(f"{name} is chosen; submit", [page.click(submit)])
    ambiguous = any(t != name and t.lower().startswith(name.lower()) for t in texts)
    if not select["focused"] and not ambiguous:
        return Plan(f"open the list and type {name}", [page.click(select), Type(name), Hotkey(("enter",))])
    # Type-ahead could stop at another option: count arrow presses instead.
    current = next((i for i, o in enumerate(_options(page, select)) if o["selected"]), 0)
    delta = texts.index(name) - current
    key = "down" if delta > 0 else "up"
    actions: list[Action] = [] if select["focused"] else [page.click(select)]
    actions += [Hotkey((key,)) for _ in range(abs(delta))]
    if not select["focused"]:
        actions.append(Hotkey(("enter",)))
    return Plan(f"move to {name} with the arrow keys", actions)


def _split_names(listed: str, texts: list[str]) -> list[str]:
    """'A, B' names one or two options; option texts never contain ', ' here but be exact."""
    if listed in texts:
        return [listed]
    parts = listed.split(", ")
    for cut in range(1, len(parts)):
        first, second = ", ".join(parts[:cut]), ", ".join(parts[cut:])
        if first in texts and second in texts:
            return [first, second]
    raise OracleError(f"cannot match {listed!r} to the options {texts}")


#: Pixels of an option that must show for a click on it to be safe.
_MIN_VISIBLE = 5


def _notches_to_show(select: Element, option: Element) -> int:
    """Wheel clicks (100 px each) that bring ``option`` into the list box's view, or 0."""
    scroll = select.get("scroll")
    if scroll is None:
        return 0
    scroll_top, scroll_height, client_height = scroll[1], scroll[3], scroll[5]
    client_top = select["bbox"][1] + (select["bbox"][3] - client_height) / 2
    y, height = option["bbox"][1], option["bbox"][3]
    direction = -1 if y < client_top else 1
    for notches in range(1, 1 + math.ceil(scroll_height / 100)):
        new_top = min(max(scroll_top + direction * notches * 100, 0), scroll_height - client_height)
        new_y = y - (new_top - scroll_top)
        if min(new_y + height, client_top + client_height) - max(new_y, client_top) >= _MIN_VISIBLE:
            return direction * notches
        if new_top in (0, scroll_height - client_height):
            return 0
    return 0


def click_scroll_list(instruction: str, page: PageView) -> Plan:
    """'Select Kenya, Peru from the scroll list and click Submit.' A multi-select list box."""
    listed = parse(r"^Select (.*) from the scroll list and click Submit\.$", instruction).group(1)
    select = page.by_id("options")
    options = _options(page, select)
    texts = [o["text"] for o in options]
    wanted = _split_names(listed, texts)
    submit = page.one("button", text="Submit", within=page.by_id("area"))
    if {o["text"] for o in options if o["selected"]} == set(wanted):
        return Plan("the options are selected; submit", [page.click(submit)])

    shown = [o for o in options if o["text"] in wanted and page.on_screen(o, min_size=_MIN_VISIBLE)]
    if shown:
        anchor = shown[0]
    else:
        target = options[texts.index(wanted[0])]
        notches = _notches_to_show(select, target)
        if notches:
            x0, y0 = page.point(select)
            return Plan(f"scroll the list towards {wanted[0]}", [Scroll(x0, y0, dy=notches)])
        # No wheel position shows it (it straddles the edge at either end of the list): a
        # visible option is the anchor, toggled off again with the keyboard below.
        anchor = next(o for o in options if page.on_screen(o, min_size=_MIN_VISIBLE))

    actions: list[Action] = [page.click(anchor)]
    position = options.index(anchor)
    if anchor["text"] not in wanted:
        actions.append(Hotkey(("ctrl", "space")))
    for name in wanted:
        index = texts.index(name)
        if options[index] is anchor:
            continue
        key = "down" if index > position else "up"
        actions += [Hotkey(("ctrl", key)) for _ in range(abs(index - position))]
        actions.append(Hotkey(("ctrl", "space")))
        position = index
    actions.append(page.click(submit))
    return Plan(f"select {' and '.join(wanted)}, then submit", actions)


#: Seconds for the autocomplete menu to appear after typing (jQuery UI waits 300 ms).
AUTOCOMPLETE_SETTLE_S = 0.6


def use_autocomplete(instruction: str, page: PageView) -> Plan:
    """'Enter an item that starts with "Ba" and ends with "ain".' (the end is optional)

    Type the start, pick a suggestion that fits from the menu, close it, submit.
    """
    match = parse(r'starts with "(.*?)"(?: and ends with "(.*?)")?\.', instruction)
    start, end = match.group(1), match.group(2) or ""
    field = page.by_id("tags")
    fits = [w for w in page.find("div", cls="ui-menu-item-wrapper") if w["text"].startswith(start) and w["text"].endswith(end)]
    value = field["value"] or ""
    if fits and (not value.startswith(start) or not value.endswith(end) or value == start):
        choice = fits[0]
        if page.on_screen(choice):
            return Plan(f"pick {choice['text']} from the suggestions", [page.click(choice)])
        return Plan(f"type {choice['text']}", [*fill(page, field, choice["text"]), Wait(AUTOCOMPLETE_SETTLE_S)])
    if value.startswith(start) and value.endswith(end) and value:
        if page.find(cls="ui-menu-item"):
            return Plan("close the suggestions", [Hotkey(("escape",))])
        return Plan(f"{value} fits; submit", [page.click(page.by_id("subbtn"))])
    actions = fill(page, field, start) or [page.click(field), Hotkey(("ctrl", "a")), Type(start)]
    return Plan(f"type {start} and wait for suggestions", [*actions, Wait(AUTOCOMPLETE_SETTLE_S)])


def use_spinner(instruction: str, page: PageView) -> Plan:
    """'Select -3 with the spinner and hit Submit.' Keys are blocked: click the arrows."""
    target = int(parse(r"Select (-?\d+) with the spinner", instruction).group(1))
    current = int(page.by_id("spinner")["value"] or 0)
    if current == target:
        return Plan(f"the spinner shows {target}; submit", [page.click(page.by_id("subbtn"))])
    arrow = page.one("a", cls="ui-spinner-up" if target > current else "ui-spinner-down")
    return Plan(f"click the arrow {abs(target - current)} times", [page.click(arrow) for _ in range(abs(target - current))])


def _field_role(page: PageView, field: Element) -> str | None:
    """Which search field an input is, from the label text next to it (any of five layouts)."""
    parent = page.parent(field)
    near = page.children(parent) if parent else []
    grand = page.parent(parent) if parent else None
    if grand is not None:
        near += page.children(grand)
    for el in near:
        words = el["text"].lower()
        for key, role in (("genre", "genre"), ("director", "director"), ("year", "year"), ("date", "year")):
            if key in words:
                return role
    return None


def multi_layouts(instruction: str, page: PageView) -> Plan:
    """'Search for comedy movies directed by Smith from year 1999.' in one of five layouts."""
    match = parse(r"^Search for (.+) movies directed by (.+) from year (\d+)\.$", instruction)
    wanted = {"genre": match.group(1), "director": match.group(2), "year": match.group(3)}
    area = page.by_id("area")
    actions: list[Action] = []
    roles = set()
    for field in page.find("input", within=area):
        role = _field_role(page, field)
        if role is None or role in roles:
            raise OracleError(f"cannot tell which field the input at {field['bbox']} is (got {role!r})")
        roles.add(role)
        actions += fill(page, field, wanted[role])
    submit = page.one(within=area, where=lambda e: e["text"] in ("Submit", "Search", "Go!"))
    return Plan(f"fill genre, director and year, then {submit['text']}", [*actions, page.click(submit)])


SOLVERS = {
    "click-checkboxes": click_checkboxes,
    "click-checkboxes-large": click_checkboxes,
    "click-checkboxes-transfer": click_checkboxes,
    "choose-list": choose_list,
    "click-scroll-list": click_scroll_list,
    "use-autocomplete": use_autocomplete,
    "use-spinner": use_spinner,
    "multi-layouts": multi_layouts,
    "multi-orderings": multi_layouts,
}
