"""The evaluator against a real Chromium page (Debian's, through Playwright; no downloads)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import playwright.sync_api as playwright_sync  # noqa: E402
import pytest
import yaml
from pydantic import TypeAdapter

from gui_agent.checks.evaluation import EvalResult, evaluate
from gui_agent.checks.probes import BrowserProbe
from gui_agent.checks.tree import Check
from gui_agent.envs.browser.chromium import DEFAULT_EXECUTABLE, ESSENTIAL_FLAGS
from gui_agent.envs.browser.miniwob_pages import miniwob_task_file
from gui_agent.errors import EnvDiedError

CHROMIUM = DEFAULT_EXECUTABLE
CHROMIUM_ARGS = list(ESSENTIAL_FLAGS)
SITE = "https://shop.example.test"
PAGE = """<!doctype html>
<title>Shop</title>
<h1 id="title">  Red shoes  </h1>
<p class="note">Only <b>3</b> left in stock</p>
<input id="q" value="red shoes">
<select id="size"><option>41</option><option selected>42</option></select>
<div id="empty"></div>
<script>window.cartCount = 2;</script>
"""

_CHECK = TypeAdapter(Check)


def check(text: str) -> Any:
    """A check written as in a task file."""
    return _CHECK.validate_python(yaml.safe_load(text))


class PageProbe:
    """The smallest BrowserProbe: a Playwright page."""

    def __init__(self, page: Any):
        self.page = page

    def evaluate_js(self, expression: str) -> Any:
        return self.page.evaluate(expression)

    def current_url(self) -> str:
        return self.page.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def probe(browser: Any) -> Iterator[PageProbe]:
    """A page at https://shop.example.test/product/7 served from memory (no network).

    Shared by the tests of this module: evaluating only reads the page.
    """
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(5000)
        page.route(f"{SITE}/**", lambda route: route.fulfill(status=200, content_type="text/html", body=PAGE))
        page.goto(f"{SITE}/product/7")
        yield PageProbe(page)
    finally:
        context.close()


def run(text: str, probe: BrowserProbe, answer: str | None = None) -> EvalResult:
    result = evaluate(check(text), probe, answer=answer)
    json.dumps(result.detail)  # must be storable in episode.json as is
    return result


def test_test_adapter_is_a_browser_probe(probe: PageProbe) -> None:
    assert isinstance(probe, BrowserProbe)


# (check, passes, fragment of the reason, expected "observed" items)
LEAVES: list[tuple[str, bool, str, dict[str, Any]]] = [
    ("url_matches: {pattern: '/product/\\d+$'}", True, "matches", {"url": f"{SITE}/product/7"}),
    ("url_matches: {pattern: '/cart'}", False, "does not match '/cart'", {"url": f"{SITE}/product/7"}),
    ("page_contains: {text: 'Only 3 left'}", True, "contains 'Only 3 left'", {}),
    ("page_contains: {text: 'Sold out'}", False, "does not contain 'Sold out'", {}),
    ("element_text: {selector: '#title', equals: 'Red shoes'}", True, "which equals", {"text": "Red shoes"}),
    ("element_text: {selector: '#title', equals: 'Blue shoes'}", False, "expected it to equal 'Blue shoes'",
     {"text": "Red shoes", "tag": "h1"}),
    ("element_text: {selector: '.note', contains: '3 left'}", True, "contains", {"text": "Only 3 left in stock"}),
    ("element_text: {selector: '.note', contains: '4 left'}", False, "expected it to contain '4 left'", {}),
    ("element_text: {selector: '#title', matches: '(?i)^red'}", True, "matches", {}),
    ("element_text: {selector: '#title', matches: '^Blue'}", False, "expected it to match '^Blue'", {}),
    ("element_text: {selector: '#missing', equals: 'x'}", False, "no element matches '#missing'", {"found": False}),
    ("element_value: {selector: '#q', equals: 'red shoes'}", True, "value of '#q' is 'red shoes'",
     {"value": "red shoes"}),
    ("element_value: {selector: '#size', equals: '42'}", True, "is '42'", {"tag": "select"}),
    ("element_value: {selector: '#q', equals: 'blue'}", False, "expected 'blue'", {"value": "red shoes"}),
    ("element_value: {selector: '#empty', equals: ''}", False, "has no value", {"value": None}),
    ("js_truthy: {expression: 'window.cartCount === 2'}", True, "truthy", {"value": "true", "truthy": True}),
    ("js_truthy: {expression: 'window.cartCount'}", True, "truthy", {"value": "2"}),
    ("js_truthy: {expression: \"document.querySelectorAll('b').length > 5\"}", False, "falsy", {"truthy": False}),
    ("js_truthy: {expression: 'Promise.resolve(0)'}", False, "falsy", {"value": "0"}),
    ("js_truthy: {expression: \"document.querySelector('h1') // a comment\"}", True, "<h1>", {"value": "<h1>"}),
]


@pytest.mark.parametrize(("text", "passes", "reason", "observed"), LEAVES, ids=[c[0] for c in LEAVES])
def test_leaf(probe: PageProbe, text: str, passes: bool, reason: str, observed: dict[str, Any]) -> None:
    result = run(text, probe)
    detail = result.detail
    assert result.success is passes, detail
    assert result.reward == (1.0 if passes else 0.0)
    assert detail["passed"] is passes
    assert detail["path"] == "evaluator"
    assert detail["check"] == text.split(":")[0]
    assert reason in detail["reason"], detail["reason"]
    assert detail["expected"] == yaml.safe_load(text)[detail["check"]] | (
        {"case_sensitive": False} if detail["check"] == "answer_equals" else {}
    )
    for key, value in observed.items():
        assert detail["observed"][key] == value, detail["observed"]
    assert "error" not in detail


@pytest.mark.parametrize(
    ("text", "answer", "passes", "reason"),
    [
        ("answer_equals: {value: '42'}", " 42\n", True, "equals '42'"),
        ("answer_equals: {value: Paris}", "paris", True, "ignoring case"),
        ("answer_equals: {value: Paris, case_sensitive: true}", "paris", False, "is not 'Paris'"),
        ("answer_equals: {value: '42'}", None, False, "the agent gave no answer"),
    ],
)
def test_answer_equals(probe: PageProbe, text: str, answer: str | None, passes: bool, reason: str) -> None:
    result = run(text, probe, answer=answer)
    assert result.success is passes
    assert reason in result.detail["reason"]
    assert result.detail["observed"] == {"answer": answer}


def test_all_of_reports_every_check_and_why_it_failed(probe: PageProbe) -> None:
    result = run(
        """
        all_of:
          - url_matches: {pattern: product}
          - element_text: {selector: '#title', equals: Blue shoes}
          - element_value: {selector: '#q', equals: red shoes}
          - page_contains: {text: Sold out}
        """,
        probe,
    )
    detail = result.detail
    assert not result.success and result.reward == 0.0
    assert [c["passed"] for c in detail["children"]] == [True, False, True, False]
    assert [c["path"] for c in detail["children"]] == [f"evaluator.all_of[{i}]" for i in range(4)]
    assert detail["reason"].startswith("2 of 4 checks failed: evaluator.all_of[1] (element_text): ")
    assert "'Red shoes', expected it to equal 'Blue shoes'" in detail["reason"]
    assert "evaluator.all_of[3] (page_contains)" in detail["reason"]


def test_any_of_not_and_nesting(probe: PageProbe) -> None:
    result = run(
        """
        all_of:
          - any_of:
              - url_matches: {pattern: /cart}
              - element_text: {selector: h1, contains: Red}
          - not:
              page_contains: {text: Sold out}
          - not:
              not:
                js_truthy: {expression: window.cartCount > 1}
        """,
        probe,
    )
    assert result.success and result.reward == 1.0, result.detail
    any_of, not_1, not_2 = result.detail["children"]
    assert any_of["reason"] == "evaluator.all_of[0].any_of[1] (element_text) passed"
    assert [c["passed"] for c in any_of["children"]] == [False, True]
    assert not_1["children"][0]["path"] == "evaluator.all_of[1].not"
    assert "failed, as required" in not_1["reason"]
    assert not_2["children"][0]["children"][0]["path"] == "evaluator.all_of[2].not.not"


def test_any_of_fails_when_none_pass(probe: PageProbe) -> None:
    result = run("any_of: [{url_matches: {pattern: /cart}}, {page_contains: {text: Sold out}}]", probe)
    assert not result.success
    assert result.detail["reason"].startswith("none of 2 checks passed: evaluator.any_of[0] (url_matches)")


def test_not_fails_when_inner_passes(probe: PageProbe) -> None:
    result = run("not: {url_matches: {pattern: product}}", probe)
    assert not result.success
    assert "the inner check passed but must fail" in result.detail["reason"]


@pytest.mark.parametrize(
    "text",
    [
        "js_truthy: {expression: 'window.nope.deeper'}",  # throws at run time
        "js_truthy: {expression: 'if ('}",  # syntax error
        "element_text: {selector: '[[', equals: x}",  # invalid CSS selector
    ],
)
def test_a_check_that_cannot_run_fails_with_the_error(probe: PageProbe, text: str) -> None:
    result = run(text, probe)
    assert not result.success
    assert "could not be evaluated" in result.detail["reason"]
    assert result.detail["error"]
    # an error never becomes a pass, however many `not`s are around it
    for wrapped in (f"not: {{{text}}}", f"not: {{all_of: [{{{text}}}]}}", f"not: {{not: {{{text}}}}}"):
        negated = run(wrapped, probe)
        assert not negated.success, negated.detail
        assert "error" in negated.detail


def test_a_definite_failure_outweighs_an_error(probe: PageProbe) -> None:
    result = run("not: {all_of: [{js_truthy: {expression: 'if ('}}, {url_matches: {pattern: /cart}}]}", probe)
    assert result.success, result.detail


def test_miniwob_reward_on_a_page_without_miniwob(probe: PageProbe) -> None:
    result = run("miniwob_reward: {}", probe)
    assert not result.success and result.reward == 0.0
    assert "not a MiniWoB++ task" in result.detail["reason"]


def test_miniwob_reward_reads_the_raw_reward(browser: Any) -> None:
    """click-button: the right button gives raw reward 1, a wrong one -1."""
    page = browser.new_page(viewport={"width": 160, "height": 210})
    page.set_default_timeout(5000)
    try:
        page.goto(miniwob_task_file("click-button").as_uri())
        probe = PageProbe(page)
        evaluator = check("miniwob_reward: {min: 1.0}")

        page.evaluate("core.startEpisodeReal()")
        pending = evaluate(evaluator, probe)
        assert not pending.success and pending.reward == 0.0
        assert "has not ended" in pending.detail["reason"]

        wanted = re.search(r'"(.+)"', page.inner_text("#query")).group(1)
        page.locator("#area button", has_text=re.compile(f"^{re.escape(wanted)}$")).first.click()
        won = evaluate(evaluator, probe)
        assert won.success and won.reward == 1.0, won.detail
        assert won.detail["observed"]["done"] is True
        assert 0 < won.detail["observed"]["reward"] <= 1.0  # the time-discounted one, for reference

        buttons = page.locator("#area button")
        for _ in range(50):  # some problems have only the right button: draw until one has a wrong one
            page.evaluate("core.startEpisodeReal()")
            wanted = re.search(r'"(.+)"', page.inner_text("#query")).group(1)
            wrong = [i for i, t in enumerate(buttons.all_inner_texts()) if t.strip() != wanted]
            if wrong:
                break
        buttons.nth(wrong[0]).click()
        lost = evaluate(evaluator, probe)
        assert not lost.success and lost.reward == -1.0
        assert lost.detail["reason"] == "raw reward -1 < 1"

        lenient = evaluate(check("miniwob_reward: {min: -1}"), probe)
        assert lenient.success and lenient.reward == -1.0

        inside = evaluate(check("all_of: [{miniwob_reward: {min: -1}}]"), probe)
        assert inside.success and inside.reward == 1.0  # only a root miniwob_reward gives its reward
    finally:
        page.close()


class _DeadProbe:
    def evaluate_js(self, expression: str) -> Any:
        raise EnvDiedError("browser is gone")

    def current_url(self) -> str:
        raise EnvDiedError("browser is gone")


@pytest.mark.parametrize("text", ["js_truthy: {expression: 'true'}", "not: {url_matches: {pattern: x}}"])
def test_a_broken_environment_is_not_a_failed_check(text: str) -> None:
    with pytest.raises(EnvDiedError):
        evaluate(check(text), _DeadProbe())
