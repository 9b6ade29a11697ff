"""Tasks solved by reading text on the page and typing or clicking an answer."""

from __future__ import annotations

import re

from gui_agent.actions import Action, Click
from gui_agent.models.errors import OracleError
from gui_agent.models.policies.miniwob_oracle.page import PageView, Plan, parse
from gui_agent.models.policies.miniwob_oracle.text import enter_and_submit, fill


def find_word(instruction: str, page: PageView) -> Plan:
    """'Find the 3rd word in the paragraph, type that into the textbox and press "Submit".'

    Words are separated by spaces; the page compares letters only, so punctuation goes.
    """
    index = int(parse(r"Find the (\d+)(?:st|nd|rd|th) word in the paragraph", instruction).group(1))
    words = page.one("p", within=page.by_id("area"))["text"].split(" ")
    if index > len(words):
        raise OracleError(f"the paragraph has {len(words)} words, not {index}")
    word = re.sub(r"[^a-zA-Z]", "", words[index - 1])
    return enter_and_submit(page, page.by_id("answer-input"), word, page.by_id("subbtn"))


def _table(page: PageView) -> dict[str, str]:
    """The key -> value rows of the two-column table in #tab."""
    rows = {}
    for row in page.find("tr", within=page.by_id("tab")):
        cells = page.find("td", within=row)
        if len(cells) != 2:
            raise OracleError(f"a table row has {len(cells)} cells, not 2")
        rows[cells[0]["text"]] = cells[1]["text"]
    return rows


def read_table(instruction: str, page: PageView) -> Plan:
    """'Enter the value of Language into the text field and press Submit.' A key/value table."""
    key = parse(r"^Enter the value of (.+) into the text field", instruction).group(1)
    table = _table(page)
    if key not in table:
        raise OracleError(f"no row {key!r} in the table {sorted(table)}")
    return enter_and_submit(page, page.by_id("tt"), table[key], page.by_id("subbtn"))


def read_table_2(instruction: str, page: PageView) -> Plan:
    """'Enter the value that corresponds with each label into the form ...' Two fields
    labelled 'Color:' and so on, each to get that row of the table."""
    table = _table(page)
    actions: list[Action] = []
    keys = []
    for label_id, field_id in (("ll1", "tt1"), ("ll2", "tt2")):
        key = page.by_id(label_id)["text"].removesuffix(":")
        if key not in table:
            raise OracleError(f"no row {key!r} in the table {sorted(table)}")
        keys.append(key)
        actions += fill(page, page.by_id(field_id), table[key])
    return Plan(f"type the {' and '.join(keys)} from the table, then submit", [*actions, page.click(page.by_id("subbtn"))])


def simple_algebra(instruction: str, page: PageView) -> Plan:
    """'Solve for x ...' The problem reads 'x - 3 = 40' or '3 + x = 40' (operators + and -)."""
    problem = page.by_id("math-problem")["text"]
    match = parse(r"^(x|\d+) ([-+]) (x|\d+) = (-?\d+)$", problem)
    left, op, right, total = match.group(1), match.group(2), match.group(3), int(match.group(4))
    if left == "x" and right != "x":
        answer = total - int(right) if op == "+" else total + int(right)
    elif right == "x" and left != "x":
        answer = total - int(left) if op == "+" else int(left) - total
    else:
        raise OracleError(f"cannot solve {problem!r}")
    return enter_and_submit(page, page.by_id("math-answer"), str(answer), page.by_id("subbtn"))


def text_transform(instruction: str, page: PageView) -> Plan:
    """'Type the text below into the text field and press Submit.' One skewed span a character."""
    text = "".join(span["text"] for span in page.find("span", within=page.by_id("captcha"), visible=None))
    if not text:
        raise OracleError("the captcha is empty")
    return enter_and_submit(page, page.by_id("tt"), text, page.by_id("subbtn"))


def odd_or_even(instruction: str, page: PageView) -> Plan:
    """'Mark the numbers below as odd or even and press submit when done.' Three rows, each
    a number between an Odd and an Even button; a click marks the button 'selected'."""
    actions: list[Action] = []
    marks = []
    for row in page.find("div", cls="row", within=page.by_id("numbers")):
        number = int(page.one(cls="display-number", within=row)["text"])
        kind = "odd" if number % 2 else "even"
        button = page.one("button", cls=kind, within=row)
        marks.append(f"{number} {kind}")
        if "selected" not in button["classes"].split():
            actions.append(page.click(button))
    if not marks:
        raise OracleError("no numbers on the page")
    return Plan(f"mark {', '.join(marks)}, then submit", [*actions, page.click(page.by_id("submit"))])


#: guess-number hides a number in 0..9.
_GUESS_RANGE = (0, 9)


def _next_guess(last: int | None, higher: bool) -> int:
    """Binary search without memory: replay the search that led to ``last``, narrow, halve."""
    low, high = _GUESS_RANGE
    if last is not None:
        while (low + high) // 2 != last:
            if low > high:
                raise OracleError(f"{last} was not guessed by this search")
            if last < (low + high) // 2:
                high = (low + high) // 2 - 1
            else:
                low = (low + high) // 2 + 1
        if higher:
            low = last + 1
        else:
            high = last - 1
    if low > high:
        raise OracleError(f"no number is left after {last}")
    return (low + high) // 2


def guess_number(instruction: str, page: PageView) -> Plan:
    """'Guess the number between 0-9 and press Submit. Use the feedback below ...'

    The feedback shows only the last guess ('The number is higher than 4.'); every guess
    of a binary search has one interval, so the next guess follows from it alone.
    """
    feedback = page.find("div", within=page.by_id("feedback"))
    shown = [div["id"] for div in feedback]
    if "lower" in shown or "higher" in shown:
        direction = "higher" if "higher" in shown else "lower"
        last = int(page.one("span", within=page.by_id(direction))["text"])
        guess = _next_guess(last, higher=direction == "higher")
        thought = f"the number is {direction} than {last}: guess {guess}"
    else:
        guess = _next_guess(None, higher=False)
        thought = f"guess {guess}"
    field = page.by_id("tt")
    actions = fill(page, field, str(guess))
    if actions:
        # The field is a narrow <input type=number>: its centre can be on the spin arrows,
        # which would step the value. Click its left end instead.
        x, y, width, height = field["bbox"]
        actions[0] = Click(int(x + min(6, width / 4)), int(y + height / 2))
    return Plan(thought, [*actions, page.click(page.by_id("subbtn"))])


def visual_addition(instruction: str, page: PageView) -> Plan:
    """'Type the total number of blocks into the textbox and press Submit.' Two groups of
    blocks, each block a span."""
    counts = [len(page.find("span", cls="addition-block", within=page.by_id(group))) for group in ("visual-1", "visual-2")]
    if not all(counts):
        raise OracleError(f"block groups of {counts}: expected two non-empty ones")
    return enter_and_submit(page, page.by_id("math-answer"), str(sum(counts)), page.by_id("subbtn"))


SOLVERS = {
    "find-word": find_word,
    "visual-addition": visual_addition,
    "read-table": read_table,
    "read-table-2": read_table_2,
    "simple-algebra": simple_algebra,
    "text-transform": text_transform,
    "odd-or-even": odd_or_even,
    "guess-number": guess_number,
}
