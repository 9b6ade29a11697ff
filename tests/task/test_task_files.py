"""Task files: the schema, located error messages, and dump/load round trips."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.checks.browser import ElementTextArgs, ElementTextCheck, UrlMatchesArgs, UrlMatchesCheck
from gui_agent.checks.tree import AllOfCheck, NotCheck
from gui_agent.envs.browser.miniwob_pages import miniwob_task_file, miniwob_task_names
from gui_agent.envs.browser.settings import MINIWOB_VIEWPORT, BrowserEnvironment, Viewport
from gui_agent.envs.browser.steps import GotoArgs, GotoStep
from gui_agent.errors import TaskFileError
from gui_agent.task import Task, dump_task, load_task, load_task_text
from tests.paths import FIXTURES as FIXTURE_ROOT

FIXTURES = FIXTURE_ROOT / "tasks"

HEAD = """\
id: t
instruction: Do it.
environment: {kind: browser, url: "https://example.test/"}
"""  # three lines; the cases below continue at line 4


# (name, file text, expected line, strings the message must contain)
MALFORMED: list[tuple[str, str, int, list[str]]] = [
    (
        "unknown top-level key",
        HEAD + "evalutor:\n  url_matches: {pattern: x}\n",
        4,
        ["'evalutor'", "expected one of:", "evaluator", "did you mean 'evaluator'"],
    ),
    (
        "unknown nested key points at the key's own line",
        HEAD + "evaluator:\n  all_of:\n    - url_matches: {pattern: x}\n    - element_text:\n"
        "        equals: Hi\n        selctor: h1\n",
        9,
        ["evaluator.all_of[1].element_text.selctor",
         "unknown key 'selctor'; expected one of: selector, equals, contains, matches"],
    ),
    (
        "wrong type",
        HEAD + "limits:\n  max_steps: many\n",
        5,
        ["limits.max_steps", "expected an integer", "'many'"],
    ),
    (
        "wrong type of a list",
        HEAD + "tags: demo\n",
        4,
        ["tags", "expected a list"],
    ),
    (
        "missing id points at the mapping",
        "# a comment first\ninstruction: Do it.\nenvironment: {kind: browser, url: 'https://e.test/'}\n",
        2,
        ["missing required key 'id'"],
    ),
    (
        "missing nested key points at the key holding the mapping",
        HEAD + "evaluator:\n  not:\n    element_text:\n      equals: Hi\n",
        6,
        ["evaluator.not.element_text.selector", "missing required key 'selector'"],
    ),
    (
        "unknown setup step",
        HEAD + "setup:\n  - goto: {url: 'https://example.test/'}\n  - clik: {selector: '#b'}\n",
        6,
        ["setup[1]", "unknown setup step 'clik'", "goto, wait_for, click, fill, run_js, sleep",
         "did you mean 'click'"],
    ),
    (
        "setup step with two keys",
        HEAD + "setup:\n  - click: {selector: a}\n    fill: {selector: b, text: c}\n",
        5,
        ["setup[0]", "exactly one key", "click, fill"],
    ),
    (
        "unknown check",
        HEAD + "evaluator:\n  any_of:\n    - url_maches: {pattern: x}\n",
        6,
        ["evaluator.any_of[0]", "unknown check 'url_maches'", "all_of, any_of, not", "url_matches"],
    ),
    (
        "bad regex",
        HEAD + "evaluator:\n  element_text:\n    selector: h1\n    matches: '[a-'\n",
        7,
        ["evaluator.element_text.matches", "invalid regular expression '[a-'"],
    ),
    (
        "bad regex in guards",
        HEAD + "guards:\n  forbidden_text:\n    - ok\n    - '(x'\n",
        7,
        ["guards.forbidden_text[1]", "invalid regular expression"],
    ),
    (
        "negative limit",
        HEAD + "limits:\n  max_steps: 10\n  step_timeout_s: -1\n",
        6,
        ["limits.step_timeout_s", "greater than 0", "-1"],
    ),
    (
        "step timeout longer than the episode",
        HEAD + "limits:\n  step_timeout_s: 60\n  episode_timeout_s: 30\n",
        5,
        ["limits.step_timeout_s", "longer than episode_timeout_s"],
    ),
    (
        "nonexistent miniwob task",
        "id: t\ninstruction_from_env: true\nenvironment:\n  kind: browser\n  url: miniwob:clik-button\n",
        5,
        ["environment.url", "unknown MiniWoB++ task 'clik-button'", "click-button"],
    ),
    (
        "unsupported url scheme",
        "id: t\ninstruction: x\nenvironment: {kind: browser, url: 'ftp://x'}\n",
        3,
        ["environment.url", "unsupported url 'ftp://x'", "miniwob:TASK_NAME"],
    ),
    (
        "unknown environment kind",
        "id: t\ninstruction: x\nenvironment:\n  kind: desk\n  url: 'https://e.test/'\n",
        4,
        ["environment.kind", "unknown kind 'desk'", "browser"],
    ),
    (
        "bad enum value",
        HEAD + "setup:\n  - wait_for: {selector: a, state: shown}\n",
        5,
        ["setup[0].wait_for.state", "attached, detached, visible, hidden", "'shown'"],
    ),
    (
        "element_text needs exactly one comparison",
        HEAD + "evaluator:\n  element_text:\n    selector: h1\n    equals: a\n    contains: b\n",
        8,
        ["evaluator.element_text", "exactly one of: equals, contains, matches"],
    ),
    (
        "unknown key name in guards",
        HEAD + "guards:\n  forbidden_keys: [[ctrl, w], [ctrl, wat]]\n",
        5,
        ["guards.forbidden_keys[1][1]", "unknown key 'wat'"],
    ),
    (
        "instruction missing",
        "id: t\nenvironment: {kind: browser, url: 'https://e.test/'}\n",
        1,
        ["missing required key 'instruction'", "instruction_from_env"],
    ),
    (
        "instruction_from_env on a page that does not generate one",
        "id: t\ninstruction_from_env: true\nenvironment: {kind: browser, url: 'https://e.test/'}\n",
        2,
        ["instruction_from_env", "miniwob:TASK_NAME"],
    ),
    (
        "duplicate key",
        HEAD + "limits: {max_steps: 3}\nlimits: {max_steps: 4}\n",
        5,
        ["duplicate key 'limits'", "first at line 4"],
    ),
    (
        "invalid YAML syntax",
        HEAD + "evaluator: {url_matches: {pattern: x}\nlimits: {}\n",
        5,
        ["invalid YAML", "expected ',' or '}'", "started at line 4"],
    ),
    (
        "top level not a mapping",
        "# tasks are mappings\n- id: t\n- id: u\n",
        2,
        ["expected a mapping of task keys at the top level, got a list"],
    ),
    (
        "empty file",
        "",
        1,
        ["the file is empty"],
    ),
    (
        "only comments",
        "# nothing yet\n",
        1,
        ["the file is empty"],
    ),
]


@pytest.mark.parametrize(("text", "line", "fragments"), [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED])
def test_malformed_task_is_located(text: str, line: int, fragments: list[str]) -> None:
    with pytest.raises(TaskFileError) as caught:
        load_task_text(text, "suite/broken.yaml")
    error = caught.value
    message = str(error)
    assert error.line == line, message
    assert message.startswith(f"suite/broken.yaml:{line}: "), message
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


def test_every_problem_is_listed_with_its_own_line() -> None:
    text = HEAD + "tags: demo\nlimits:\n  max_steps: 0\nguards:\n  doom_loop: {max_repeats: 1}\n"
    with pytest.raises(TaskFileError) as caught:
        load_task_text(text, "t.yaml")
    message = str(caught.value)
    assert caught.value.line == 4
    assert "also t.yaml:6: limits.max_steps" in message
    assert "also t.yaml:8: guards.doom_loop.max_repeats" in message


def test_quoted_number_hint() -> None:
    text = HEAD + "evaluator:\n  element_value: {selector: '#n', equals: 42}\n"
    with pytest.raises(TaskFileError, match=r"equals: expected a string, got 42 \(quote it"):
        load_task_text(text)


def test_load_task_reports_unreadable_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(TaskFileError) as caught:
        load_task(missing)
    assert caught.value.path == missing
    assert caught.value.line is None
    assert "cannot read the file" in str(caught.value)


def test_load_task_names_the_real_path(tmp_path: Path) -> None:
    path = tmp_path / "task.yaml"
    path.write_text(HEAD + "limits: {max_steps: -3}\n", encoding="utf-8")
    with pytest.raises(TaskFileError, match=rf"^{path}:4: limits.max_steps"):
        load_task(path)


def test_miniwob_task_defaults() -> None:
    task = load_task(FIXTURES / "good" / "miniwob_click_button.yaml")
    env = task.environment
    assert isinstance(env, BrowserEnvironment)
    assert env.miniwob_task == "click-button"
    assert env.viewport == MINIWOB_VIEWPORT
    assert env.generates_instruction
    assert env.resolved_url().startswith("file://") and env.resolved_url().endswith("/click-button.html")
    assert task.instruction is None and task.instruction_from_env
    assert task.evaluator is not None and task.evaluator.name == "miniwob_reward"
    assert task.limits.max_steps == 5 and task.limits.step_timeout_s == 10.0
    assert "click-button" in miniwob_task_names()
    assert miniwob_task_file("click-button").is_file()


def test_miniwob_viewport_can_be_overridden() -> None:
    task = load_task_text(
        "id: t\ninstruction_from_env: true\n"
        "environment: {kind: browser, url: 'miniwob:click-button', viewport: {width: 1280, height: 720}}\n"
    )
    assert task.environment.viewport == Viewport(width=1280, height=720)
    assert load_task_text(dump_task(task)) == task


def test_full_example_fields() -> None:
    task = load_task(FIXTURES / "good" / "search_form.yaml")
    assert task.environment.viewport == Viewport(width=1024, height=768)
    assert [s.name for s in task.setup] == ["goto", "wait_for", "fill", "click", "run_js", "sleep"]
    assert task.setup[0].args.url == "https://shop.example.test/"
    assert task.post_steps[0].args.state == "attached"
    assert isinstance(task.evaluator, AllOfCheck)
    assert [c.name for c in task.evaluator.all_of] == ["url_matches", "any_of", "element_value", "not", "js_truthy"]
    assert task.guards.forbidden_keys == [["ctrl", "w"], ["ctrl", "shift", "q"]]
    assert task.guards.doom_loop is not None and task.guards.doom_loop.max_repeats == 4


def test_miniwob_reward_without_arguments_means_min_one() -> None:
    task = load_task_text(
        "id: t\ninstruction_from_env: true\nenvironment: {kind: browser, url: 'miniwob:click-button'}\n"
        "evaluator:\n  miniwob_reward:\n"
    )
    assert task.evaluator.args.min == 1.0


@pytest.mark.parametrize("path", sorted((FIXTURES / "good").glob("*.yaml")), ids=lambda p: p.name)
@pytest.mark.parametrize("full", [False, True], ids=["set-fields", "full"])
def test_valid_files_round_trip(path: Path, full: bool) -> None:
    task = load_task(path)
    text = dump_task(task, full=full)
    again = load_task_text(text, "dumped.yaml")
    assert again == task
    assert dump_task(again, full=full) == text
    assert task.model_dump_yaml(full=full) == text


def test_python_built_task_dumps_to_a_loadable_file() -> None:
    """The path a converter (OSWorld import) takes: build models, write YAML."""
    task = Task(
        id="osworld.abc",
        instruction="Open the page and check the title.\nThen stop.",
        source="osworld:abc",
        environment=BrowserEnvironment(kind="browser", url="https://example.test/"),
        setup=[GotoStep(goto=GotoArgs(url="https://example.test/a"))],
        evaluator=AllOfCheck(all_of=[
            UrlMatchesCheck(url_matches=UrlMatchesArgs(pattern=r"/a$")),
            NotCheck(not_=ElementTextCheck(element_text=ElementTextArgs(selector="h1", equals="Error"))),
        ]),
    )
    text = dump_task(task)
    assert "instruction: |" in text  # multi-line strings stay readable
    assert "not:\n" in text and "not_" not in text
    assert "limits" not in text  # defaults are not written unless asked for
    assert load_task_text(text) == task


def test_model_dump_is_the_yaml_form() -> None:
    task = load_task(FIXTURES / "good" / "search_form.yaml")
    assert Task.model_validate(task.model_dump()) == task
    dumped = task.model_dump()["evaluator"]["all_of"][3]
    assert dumped == {"not": {"page_contains": {"text": "No results"}}}
