"""Clicking tasks: buttons, links and radio options named by the instruction, two clicks
timed apart, and cards to turn over."""

from __future__ import annotations

from collections.abc import Callable

from gui_agent.actions import Action, Wait
from gui_agent.models.errors import OracleError
from gui_agent.models.policies.miniwob_oracle.page import PageView, Plan, parse


def click_test(instruction: str, page: PageView) -> Plan:
    """'Click the button.' One button, random size and place."""
    return Plan("click the button", [page.click(page.by_id("subbtn"))])


def click_test_2(instruction: str, page: PageView) -> Plan:
    """'Click button ONE.' Two 40 px buttons; TWO comes later, so it is drawn over ONE."""
    label = parse(r"Click button (\w+)\.", instruction).group(1)
    buttons = page.find("button", within=page.by_id("area"))
    target = page.one("button", text=label, within=page.by_id("area"))
    above = [b for b in buttons if buttons.index(b) > buttons.index(target)]
    return Plan(f"click button {label}", [page.click(target, avoid=above)])


def click_button(instruction: str, page: PageView) -> Plan:
    """'Click on the "Yes" button.' Every button with that label is right."""
    label = parse(r'Click on the "(.*)" button\.', instruction).group(1)
    return Plan(f'click the "{label}" button', [page.click(page.one("button", text=label, within=page.by_id("area")))])


def click_button_sequence(instruction: str, page: PageView) -> Plan:
    """'Click button ONE, then click button TWO.' The page shows nothing in between, so both at once."""
    one = page.by_id("subbtn")
    two = page.by_id("subbtn2")
    return Plan("click ONE, then TWO", [page.click(one, avoid=[two]), page.click(two)])


def click_link(instruction: str, page: PageView) -> Plan:
    """'Click on the link "lorem".' Links are spans with class alink in running text."""
    word = parse(r'Click on the link "(.*)"\.', instruction).group(1)
    return Plan(f'click the link "{word}"', [page.click(page.one("span", cls="alink", text=word))])


def click_option(instruction: str, page: PageView) -> Plan:
    """'Select Xy1 and click Submit.' Radio buttons inside labels that carry the text."""
    name = parse(r"^Select (.*) and click Submit\.$", instruction).group(1)
    label = page.one("label", text=name, within=page.by_id("boxes"))
    radio = page.one("input", within=label)
    submit = page.by_id("subbtn")
    if radio["checked"]:
        return Plan(f"{name} is selected; submit", [page.click(submit)])
    return Plan(f"select {name}, then submit", [page.click(radio), page.click(submit)])


def click_widget(instruction: str, page: PageView) -> Plan:
    """'Click on a "checkbox" widget.' Kinds: radio, checkbox, text (an input), textarea, button."""
    kind = parse(r'Click on a "(.*)" widget\.', instruction).group(1)
    area = page.by_id("area")
    for el in page.find(within=area):
        if el["tag"] == "input":
            el_kind = {"radio": "radio", "checkbox": "checkbox"}.get(el["type"] or "", "text")
        else:
            el_kind = el["tag"]
        if el_kind == kind:
            return Plan(f"click the {kind}", [page.click(el)])
    raise OracleError(f"no {kind!r} widget on the page")


def button_delay(instruction: str, page: PageView) -> Plan:
    """'Click button ONE, wait 2 seconds, then click button TWO.' Full reward within 15 %
    of the delay. TWO comes later in the page, so where they overlap it is drawn over ONE."""
    seconds = int(parse(r"Click button ONE, wait (\d+) seconds?, then click button TWO", instruction).group(1))
    one, two = page.by_id("subbtn"), page.by_id("subbtn2")
    return Plan(f"click ONE, wait {seconds} s, click TWO", [page.click(one, avoid=[two]), Wait(float(seconds)), page.click(two)])


def find_greatest(instruction: str, page: PageView) -> Plan:
    """'Find and pick the card with the greatest number, then press submit.' Three cards
    face down; clicking one turns it up and the others down. Turn each up in turn, then
    the greatest, then submit; a greatest card already up is submitted."""
    cards = page.find("div", cls="card", within=page.by_id("cardholder"))
    if len(cards) < 2:
        raise OracleError(f"{len(cards)} cards on the page")
    numbers = [int(page.one(cls="card-value", within=card, visible=None)["text"]) for card in cards]
    best = numbers.index(max(numbers))
    submit = page.click(page.by_id("submit"))
    if "hidden" not in cards[best]["classes"].split():
        return Plan(f"the card up shows {numbers[best]}, the greatest; submit", [submit])
    turns: list[Action] = [page.click(card) for card in cards]
    return Plan(f"turn each card up, then pick the one with {numbers[best]} and submit", [*turns, page.click(cards[best]), submit])


def _number_rule(instruction: str) -> tuple[str, Callable[[int], bool]]:
    """generate-number's rule: (description, test of a number)."""
    match = parse(r"^Generate (?:a number (less|greater) than (\d+)|an (odd|even) number)", instruction)
    if match.group(1):
        bound = int(match.group(2))
        return f"{match.group(1)} than {bound}", (lambda n: n < bound) if match.group(1) == "less" else (lambda n: n > bound)
    odd = match.group(3) == "odd"
    return match.group(3), lambda n: (n % 2 == 1) == odd


def generate_number(instruction: str, page: PageView) -> Plan:
    """'Generate a number less than 7, then press submit.' (greater than, odd, even). Each
    Generate draws a new number 0-10: press it until the number fits, then Submit."""
    rule, fits = _number_rule(instruction)
    shown = page.by_id("display-number")["text"]
    if shown.lstrip("-").isdigit() and fits(int(shown)):
        return Plan(f"{shown} is {rule}; submit", [page.click(page.by_id("submit"))])
    return Plan(f"{shown} is not {rule}; generate another" if shown != "-" else "generate a number", [page.click(page.by_id("generate"))])


SOLVERS = {
    "button-delay": button_delay,
    "generate-number": generate_number,
    "find-greatest": find_greatest,
    "click-test": click_test,
    "click-test-2": click_test_2,
    "click-test-transfer": click_test_2,  # same page; train mode asks for ONE
    "click-button": click_button,
    "unicode-test": click_button,  # the same page with labels like '确定' and 'Cancél'

    "click-button-sequence": click_button_sequence,
    "click-link": click_link,
    "click-option": click_option,
    "click-widget": click_widget,
}
