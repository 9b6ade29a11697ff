"""Clicking tasks: buttons, links and radio options named by the instruction."""

from __future__ import annotations

from models.policies.miniwob_oracle.page import OracleError, PageView, Plan, parse


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


SOLVERS = {
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
