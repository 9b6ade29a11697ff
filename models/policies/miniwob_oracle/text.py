"""Text-entry tasks: focus a field, type into it, submit."""

from __future__ import annotations

from gui_agent.actions import Action, Click, Hotkey, Type
from gui_agent.models.policies.miniwob_oracle.page import Element, PageView, Plan, parse


def fill(page: PageView, field: Element, text: str) -> list[Action]:
    """Actions that leave ``text`` in ``field``: click it, clear what is there, type."""
    if field["value"] == text:
        return []
    actions: list[Action] = [page.click(field)]
    if field["value"]:
        actions.append(Hotkey(("ctrl", "a")))
    actions.append(Type(text))
    return actions


def enter_and_submit(page: PageView, field: Element, text: str, submit: Element) -> Plan:
    """Leave ``text`` in ``field`` (see :func:`fill`), then click ``submit``."""
    actions = fill(page, field, text)
    thought = f'type "{text}", then submit' if actions else f'"{text}" is entered; submit'
    return Plan(thought, [*actions, page.click(submit)])


def enter_text(instruction: str, page: PageView) -> Plan:
    """'Enter "Kenda" into the text field and press Submit.' (also enter-text-dynamic)"""
    text = parse(r'Enter "(.*)" into the text field', instruction).group(1)
    return enter_and_submit(page, page.by_id("tt"), text, page.by_id("subbtn"))


def enter_text_2(instruction: str, page: PageView) -> Plan:
    """'Type "KENDA" in all lower case letters in the text input and press Submit.'"""
    match = parse(r'Type "(.*)" in all (upper|lower) case letters', instruction)
    text = match.group(1).upper() if match.group(2) == "upper" else match.group(1).lower()
    return enter_and_submit(page, page.by_id("tt"), text, page.by_id("subbtn"))


def enter_password(instruction: str, page: PageView) -> Plan:
    """'Enter the password "x1" into both text fields and press submit.'"""
    password = parse(r'Enter the password "(.*)" into both', instruction).group(1)
    actions = fill(page, page.by_id("password"), password) + fill(page, page.by_id("verify"), password)
    return Plan(f'type "{password}" twice, then submit', [*actions, page.click(page.by_id("subbtn"))])


def login_user(instruction: str, page: PageView) -> Plan:
    """'Enter the username "kenda" and the password "x1" into the text fields and press login.'"""
    match = parse(r'Enter the username "(.*)" and the password "(.*)" into', instruction)
    user, password = match.group(1), match.group(2)
    actions = fill(page, page.by_id("username"), user) + fill(page, page.by_id("password"), password)
    return Plan(f"log in as {user}", [*actions, page.click(page.by_id("subbtn"))])


def focus_text(instruction: str, page: PageView) -> Plan:
    """'Focus into the textbox.' Focusing ends the episode."""
    return Plan("click into the textbox", [page.click(page.by_id("tt"))])


def focus_text_2(instruction: str, page: PageView) -> Plan:
    """'Focus into the 2nd input textbox.' Ordinals count the inputs in page order."""
    index = int(parse(r"Focus into the (\d+)(?:st|nd|rd|th) input textbox", instruction).group(1))
    fields = page.find("input", within=page.by_id("area"))
    return Plan(f"click into textbox number {index}", [page.click(fields[index - 1])])


def login_user_popup(instruction: str, page: PageView) -> Plan:
    """login-user, but focusing a field may pop up 'Exit to home page?' (OK loses): answer
    Cancel. One field at a time (click, look, type), so no click lands on the pop-up."""
    if page.find(id="popup"):
        return Plan("dismiss the pop-up with Cancel", [page.click(page.by_id("popup-cancel"))])
    match = parse(r'Enter the username "(.*)" and the password "(.*)" into', instruction)
    for field, text in ((page.by_id("username"), match.group(1)), (page.by_id("password"), match.group(2))):
        if field["value"] == text:
            continue
        if not field["focused"]:
            return Plan(f"click the {field['id']} field", [page.click(field)])
        clear: list[Action] = [Hotkey(("ctrl", "a"))] if field["value"] else []
        return Plan(f'type "{text}"', [*clear, Type(text)])
    return Plan("log in", [page.click(page.by_id("subbtn"))])


def simple_arithmetic(instruction: str, page: PageView) -> Plan:
    """'Solve the math problem ...' The problem reads '7 x 3 = ' (operators -, +, x)."""
    problem = page.by_id("math-problem")["text"]
    match = parse(r"^(-?\d+) ([-+x]) (-?\d+) =$", problem)
    a, op, b = int(match.group(1)), match.group(2), int(match.group(3))
    answer = str(a + b if op == "+" else a - b if op == "-" else a * b)
    return enter_and_submit(page, page.by_id("math-answer"), answer, page.by_id("subbtn"))


def _segmented(page: PageView, field: Element, keys: str, iso_value: str, submit: Element) -> Plan:
    """Date and time inputs: click the first segment, type its digits (Chromium, en-US order)."""
    if field["value"] == iso_value:
        return Plan(f"{iso_value} is entered; submit", [page.click(submit)])
    x, y, width, height = field["bbox"]
    first_segment = Click(int(x + 8), int(y + height / 2))
    return Plan(f"type {keys} into the field, then submit", [first_segment, Type(keys), page.click(submit)])


def enter_date(instruction: str, page: PageView) -> Plan:
    """'Enter 07/26/2017 as the date and hit submit.' An <input type=date>."""
    month, day, year = parse(r"Enter (\d\d)/(\d\d)/(\d{4}) as the date", instruction).groups()
    return _segmented(page, page.by_id("tt"), f"{month}{day}{year}", f"{year}-{month}-{day}", page.by_id("subbtn"))


def enter_time(instruction: str, page: PageView) -> Plan:
    """'Enter 6:01 AM as the time and press submit.' An <input type=time>."""
    hour, minute, half = parse(r"Enter (\d{1,2}):(\d\d) (AM|PM) as the time", instruction).groups()
    hour24 = int(hour) % 12 + (12 if half == "PM" else 0)
    keys = f"{int(hour):02d}{minute}{half}"
    return _segmented(page, page.by_id("tt"), keys, f"{hour24:02d}:{minute}", page.by_id("subbtn"))


SOLVERS = {
    "enter-text": enter_text,
    "enter-text-dynamic": enter_text,
    "enter-text-2": enter_text_2,
    "enter-password": enter_password,
    "login-user": login_user,
    "login-user-popup": login_user_popup,
    "simple-arithmetic": simple_arithmetic,
    "enter-date": enter_date,
    "enter-time": enter_time,
    "focus-text": focus_text,
    "focus-text-2": focus_text_2,
}
