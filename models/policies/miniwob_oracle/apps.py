"""Small app pages: a social feed, search results, an inbox (delete, star, reply,
forward), an agreement, a shape to name, numbers to click in order and a terminal.

Items of a scrolled list are brought into view with the mouse wheel before a click, a
whole number of wheel clicks (100 px each) at a time, then a short wait: the wheel's
scroll lands after the step has observed the page.
"""

from __future__ import annotations

import math

from gui_agent.actions import PIXELS_PER_WHEEL_CLICK, Action, Hotkey, Scroll, Type, Wait
from gui_agent.models.errors import OracleError
from gui_agent.models.policies.miniwob_oracle.page import Element, PageView, Plan, parse
from gui_agent.models.policies.miniwob_oracle.text import fill


def _shown(page: PageView, el: Element) -> bool:
    """The whole height of the element is on screen (so its centre can be clicked)."""
    rect = page.visible_rect(el)
    return rect is not None and rect[3] >= el["bbox"][3] - 1 and rect[2] >= 4


#: Seconds for a wheel scroll to land before the page is observed again (with room for a loaded machine).
WHEEL_SETTLE_S = 0.3


def _wheel_towards(page: PageView, box: Element, el: Element) -> list[Action]:
    """A wheel turn over the scrolled ``box`` that brings ``el`` wholly into its view."""
    scroll = box.get("scroll")
    if scroll is None:
        raise OracleError(f"<{el['tag']} class={el['classes']!r}> is off screen and its box does not scroll")
    scroll_top, max_top, client_height = scroll[1], scroll[3] - scroll[5], scroll[5]
    view_top = box["bbox"][1] + (box["bbox"][3] - client_height) / 2
    view_bottom = view_top + client_height
    y, height = el["bbox"][1], el["bbox"][3]
    direction = -1 if y < view_top else 1
    notches = direction
    for n in range(1, 2 + math.ceil(scroll[3] / PIXELS_PER_WHEEL_CLICK)):
        new_top = min(max(scroll_top + direction * n * PIXELS_PER_WHEEL_CLICK, 0), max_top)
        new_y = y - (new_top - scroll_top)
        notches = direction * n
        if (new_y >= view_top and new_y + height <= view_bottom) or new_top in (0, max_top):
            break
    return [Scroll(*page.point(box), dy=notches), Wait(WHEEL_SETTLE_S)]


def social_media(instruction: str, page: PageView) -> Plan:
    """'For the user @lectus, click on the "Mute" button.' Reply, Retweet and Like are icons
    under each post; the rest sit in the post's "more" menu (Mute and Block end in the user)."""
    user, action = parse(r'^For the user (\S+), click on the "(.*)" button\.$', instruction).groups()
    area = page.by_id("area")
    post = next((p for p in page.find("div", cls="media", within=area) if page.one(cls="username", within=p)["text"] == user), None)
    if post is None:
        raise OracleError(f"no post by {user}")
    icons = {"Reply": "reply", "Retweet": "retweet", "Like": "like"}
    if action in icons:
        target = page.one("span", cls=icons[action], within=post)
        what = f"the {action} icon of {user}'s post"
    else:
        items = page.find("li", within=post)
        target = next((li for li in items if li["text"] == action or li["text"] == f"{action} {user}"), None)
        if target is None:
            more = page.one("span", cls="more", within=post)
            if not _shown(page, more):
                return Plan(f"scroll to {user}'s post", _wheel_towards(page, area, more))
            return Plan(f"open the menu of {user}'s post", [page.click(more)])
        what = f'"{target["text"]}" in the menu'
    if not _shown(page, target):
        return Plan(f"scroll to {what}", _wheel_towards(page, area, target))
    return Plan(f"click {what}", [page.click(target)])


_ORDINAL = r"(\d+)(?:st|nd|rd|th)"
#: Results on one page of search results.
_PER_PAGE = 3


def search_engine(instruction: str, page: PageView) -> Plan:
    """'Use the textbox to enter "Renda" and press "Search", then find and click the 7th
    search result.' Nine results, three a page; the pager's numbers pick the page."""
    match = parse(r'enter "(.*)" and press "Search", then find and click the ' + _ORDINAL + " search result", instruction)
    query, index = match.group(1), int(match.group(2)) - 1
    field = page.by_id("search-text")
    pager = page.find("li", cls="active", within=page.by_id("area"))
    if field["value"] != query or not pager:
        actions: list[Action] = fill(page, field, query)
        return Plan(f'search for "{query}"', [*actions, page.click(page.by_id("search"))])
    wanted_page = index // _PER_PAGE + 1
    current = page.one("a", within=pager[0])["text"]
    if current != str(wanted_page):
        link = page.one("a", cls="page-link", text=str(wanted_page), within=page.by_id("pagination"))
        return Plan(f"go to results page {wanted_page}", [page.click(link)])
    titles = page.find("a", cls="search-title", within=page.by_id("page-content"))
    if len(titles) != _PER_PAGE:
        raise OracleError(f"{len(titles)} results on page {current}, expected {_PER_PAGE}")
    title = titles[index % _PER_PAGE]
    return Plan(f'click result {index + 1}, "{title["text"]}"', [page.click(title)])


def _email_thread(page: PageView, name: str) -> tuple[Element, Element]:
    """(inbox, the inbox row of the email from ``name``)."""
    inbox = page.by_id("main")
    thread = next((t for t in page.find("div", cls="email-thread", within=inbox) if page.one(cls="email-sender", within=t)["text"] == name), None)
    if thread is None:
        raise OracleError(f"no email from {name} in the inbox")
    return inbox, thread


def _email_action(instruction: str, page: PageView, icon: str) -> Plan:
    name = parse(r"^Find the email by (.+?) and click the", instruction).group(1)
    inbox, thread = _email_thread(page, name)
    target = page.one("span", cls=icon, within=thread)
    if not _shown(page, target):
        return Plan(f"scroll to the email from {name}", _wheel_towards(page, inbox, target))
    return Plan(f"click the {icon} icon of the email from {name}", [page.click(target)])


def _open_email(page: PageView, name: str, button: str) -> Plan:
    """From the inbox, open the email from ``name``; from the open email, click its ``button`` (email-reply, email-forward)."""
    opened = page.find(id="email")
    if opened:
        return Plan(f"press {button.removeprefix('email-').title()}", [page.click(page.one(cls=button, within=opened[0]))])
    inbox, thread = _email_thread(page, name)
    sender = page.one(cls="email-sender", within=thread)
    if not _shown(page, sender):
        return Plan(f"scroll to the email from {name}", _wheel_towards(page, inbox, sender))
    return Plan(f"open the email from {name}", [page.click(sender)])


def email_inbox_reply(instruction: str, page: PageView) -> Plan:
    """'Find the email by Audrey and reply to them with the text "Lorem ipsum".' Open the
    email, press Reply, type the text into the reply's body, press the send icon."""
    name, text = parse(r'^Find the email by (.+?) and reply to them with the text "(.*)"', instruction).groups()
    if page.find(id="reply"):
        return Plan(f'type "{text}" and send', [*fill(page, page.by_id("reply-text"), text), page.click(page.by_id("send-reply"))])
    return _open_email(page, name, "email-reply")


def email_inbox_forward(instruction: str, page: PageView) -> Plan:
    """'Find the email by Audrey and forward that email to Kenda.' Open the email, press
    Forward (its body is already in the new message), enter the name after "to:", send."""
    name, to = parse(r"^Find the email by (.+?) and forward that email to (.+?)\.?$", instruction).groups()
    forward = page.find(id="forward")
    if forward:
        field = page.one("input", cls="forward-sender", within=forward[0])
        return Plan(f"address it to {to} and send", [*fill(page, field, to), page.click(page.by_id("send-forward"))])
    return _open_email(page, name, "email-forward")


def email_inbox_delete(instruction: str, page: PageView) -> Plan:
    """'Find the email by Audrey and click the trash icon to delete it.' Icons sit on each
    email of the inbox list."""
    return _email_action(instruction, page, "trash")


def email_inbox_important(instruction: str, page: PageView) -> Plan:
    """'Find the email by Audrey and click the star icon to mark it as important.'"""
    return _email_action(instruction, page, "star")


def sign_agreement(instruction: str, page: PageView) -> Plan:
    """'Click the cancel button.' or 'Scroll to the bottom of the textarea, enter the name
    "Kenda" then press "Agree"' (or "Cancel"). The name field and Agree unlock once the
    text area is scrolled to its end."""
    if instruction.startswith("Click the cancel button"):
        return Plan("click Cancel", [page.click(page.by_id("cancel"))])
    name, button = parse(r'enter the name "(.*)" then press "(Agree|Cancel)"', instruction).groups()
    field = page.by_id("name")
    if field["disabled"]:
        area = page.by_id("text-area")
        scroll = area.get("scroll")
        if scroll is None:
            raise OracleError("the agreement text does not scroll, so the name field stays locked")
        notches = math.ceil((scroll[3] - scroll[5] - scroll[1]) / PIXELS_PER_WHEEL_CLICK) or 1
        return Plan("scroll the agreement to the bottom", [Scroll(*page.point(area), dy=notches), Wait(WHEEL_SETTLE_S)])
    return Plan(f'enter "{name}", then press {button}', [*fill(page, field, name), page.click(page.by_id(button.lower()))])


def identify_shape(instruction: str, page: PageView) -> Plan:
    """'Click the button that best describes the figure below.' One SVG figure: a text
    (letter or digit), a rect, a circle or a polygon (triangle)."""
    svg = page.by_id("area_svg")
    kinds = {"rect": "Rectangle", "circle": "Circle", "polygon": "Triangle"}
    for el in page.find(within=svg):
        if el["tag"] == "text" and el["text"]:
            label = "Number" if el["text"].isdigit() else "Letter"
            break
        if el["tag"] in kinds:
            label = kinds[el["tag"]]
            break
    else:
        raise OracleError("no figure in the picture")
    return Plan(f"the figure is a {label.lower()}", [page.click(page.one("button", text=label, within=page.by_id("area-buttons")))])


def ascending_numbers(instruction: str, page: PageView) -> Plan:
    """'Click on the numbers in ascending order.' Clicking 1 hides the numbers behind
    squares, in number order in the page (1's square is gone): click the squares in turn."""
    svg = page.by_id("area_svg")
    one = page.find("text", text="1", within=svg)
    if one:
        return Plan("click 1", [page.click(one[0])])
    squares = page.find("rect", within=svg)
    if not squares:
        raise OracleError("neither numbers nor squares in the picture")
    return Plan(f"click the {len(squares)} hidden numbers in order", [page.click(sq) for sq in squares])


def _terminal_outputs(page: PageView) -> list[tuple[str, str]]:
    """The terminal's history in order: ("command", text) and ("output", text) lines."""
    history = []
    for el in page.find("span", within=page.by_id("terminal-contents"), visible=None):
        if el["id"] == "active-input":
            continue
        if "command" in el["classes"].split():
            history.append(("command", el["text"]))
        elif "output" in el["classes"].split():
            history.append(("output", el["text"]))
    return history


def terminal(instruction: str, page: PageView) -> Plan:
    """'Use the terminal below to delete a file ending with the extension .gif' (or 'that
    has no file extension'). The files are unknown until listed: type ls and Enter, read
    the listing, then rm the one file that fits."""
    match = parse(r"delete a file (?:ending with the extension \.(\S+?)|that has no file extension)\.?$", instruction)
    extension = match.group(1)
    target = page.by_id("terminal-target", visible=None)
    focus: list[Action] = [] if target["focused"] else [page.click(page.by_id("terminal"))]
    history = _terminal_outputs(page)
    listing = next((history[i + 1][1] for i in range(len(history) - 1) if history[i] == ("command", "ls") and history[i + 1][0] == "output"), None)
    if listing is None:
        return Plan("list the files", [*focus, Type("ls"), Hotkey(("enter",))])
    files = listing.split()
    wanted = [f for f in files if (f.endswith("." + extension) if extension else "." not in f)]
    if not wanted:
        raise OracleError(f"no file in {files} fits {instruction!r}")
    return Plan(f"remove {wanted[0]}", [*focus, Type(f"rm {wanted[0]}"), Hotkey(("enter",))])


SOLVERS = {
    "social-media": social_media,
    "email-inbox-reply": email_inbox_reply,
    "email-inbox-forward": email_inbox_forward,
    "terminal": terminal,
    "search-engine": search_engine,
    "email-inbox-delete": email_inbox_delete,
    "email-inbox-important": email_inbox_important,
    "sign-agreement": sign_agreement,
    "identify-shape": identify_shape,
    "ascending-numbers": ascending_numbers,
}
