"""Task files (``task.yaml``): the schema, loading with located errors, and writing.

A task is data: what to do (instruction), where (environment), how to prepare the
environment (setup steps), how to tell whether it was done (an evaluator tree of checks),
and the limits and guards of an episode. Every model forbids unknown keys, and every
problem in a file is reported as a :class:`~gui_agent.errors.TaskFileError` naming the
file, the 1-based line, the key path (``evaluator.all_of[1].element_text.selector``) and
what was expected, because task suites are written by hand and a silently ignored typo
turns into a task that can never succeed.

A complete example::

    id: miniwob.click-button
    instruction_from_env: true          # MiniWoB++ pages generate their instruction
    environment:
      kind: browser
      url: miniwob:click-button         # a page shipped in the ``miniwob`` package
    evaluator:
      miniwob_reward: {min: 1.0}
    limits: {max_steps: 10}

``tests/fixtures/tasks/good/search_form.yaml`` uses every section and step and check.

Setup steps and checks are written as single-key mappings (``- goto: {url: ...}``), so a
file reads like a list of commands. In Python each is a small wrapper model whose one
field is named like the key and holds the arguments, e.g. ``GotoStep(goto=GotoArgs(url=
...))``; ``step.name`` and ``step.args`` give uniform access. The form
:meth:`Task.model_dump` produces is exactly the YAML form, so dumping and loading
round-trip.

Adding an environment kind: define a model with ``kind: Literal["desktop"]`` deriving from
:class:`_EnvironmentBase`, and add it to the :data:`Environment` union; the loader, the
error messages and ``gui-agent validate`` pick it up from there.
"""

from __future__ import annotations

import difflib
import importlib.util
import re
from collections.abc import Mapping
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Literal,
    TypeAlias,
    Union,
    get_args,
)

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from gui_agent.actions import normalize_key
from gui_agent.errors import ActionError, TaskFileError

__all__ = [
    "CHECK_TYPES",
    "MINIWOB_URL_PREFIX",
    "MINIWOB_VIEWPORT",
    "STEP_TYPES",
    "AllOfCheck",
    "AnswerEqualsArgs",
    "AnswerEqualsCheck",
    "AnyOfCheck",
    "BrowserEnvironment",
    "Check",
    "ClickArgs",
    "ClickStep",
    "DoomLoop",
    "ElementTextArgs",
    "ElementTextCheck",
    "ElementValueArgs",
    "ElementValueCheck",
    "Environment",
    "FillArgs",
    "FillStep",
    "GotoArgs",
    "GotoStep",
    "Guards",
    "JsTruthyArgs",
    "JsTruthyCheck",
    "Limits",
    "MiniwobRewardArgs",
    "MiniwobRewardCheck",
    "NotCheck",
    "Observe",
    "PageContainsArgs",
    "PageContainsCheck",
    "RunJsArgs",
    "RunJsStep",
    "SetupStep",
    "SleepArgs",
    "SleepStep",
    "Task",
    "UrlMatchesArgs",
    "UrlMatchesCheck",
    "Viewport",
    "WaitForArgs",
    "WaitForStep",
    "dump_task",
    "load_task",
    "load_task_text",
    "miniwob_html_dir",
    "miniwob_task_file",
    "miniwob_task_names",
]

#: ``url: miniwob:click-button`` means ``miniwob/html/miniwob/click-button.html``.
MINIWOB_URL_PREFIX = "miniwob:"


class _Model(BaseModel):
    """Base of every task-file model: unknown keys are errors that list the valid ones.

    Pydantic's own ``extra_forbid`` error does not say which keys *are* valid, so a
    before-validator reports the first unknown key itself (with close matches); the
    ``extra="forbid"`` setting stays as the backstop.
    """

    # populate_by_name: Python code writes NotCheck(not_=...); serialize_by_alias (pydantic
    # >= 2.11): model_dump() writes the file's spelling ("not"), so it loads back.
    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)

    @model_validator(mode="before")
    @classmethod
    def _reject_unknown_keys(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        allowed = _yaml_keys(cls)
        names = set(cls.model_fields)
        unknown = [k for k in data if k not in allowed and k not in names]
        if unknown:
            key = unknown[0]
            more = f" (and {', '.join(repr(k) for k in unknown[1:])})" if unknown[1:] else ""
            raise PydanticCustomError(
                "unknown_key",
                "unknown key {key_repr}{more}; expected one of: {allowed}{hint}",
                {"key": key, "key_repr": repr(key), "more": more, "allowed": ", ".join(allowed),
                 "hint": _did_you_mean(str(key), allowed)},
            )
        return data


def _yaml_keys(model: type[BaseModel]) -> list[str]:
    """The keys a model accepts in a file, in declaration order (aliases where set)."""
    return [f.alias or name for name, f in model.model_fields.items()]


def _did_you_mean(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


def _nonblank(value: str) -> str:
    if not value.strip():
        raise ValueError("expected a non-empty string")
    return value


def _regex(value: str) -> str:
    try:
        re.compile(value)
    except re.error as exc:
        raise ValueError(f"invalid regular expression {value!r}: {exc}") from None
    return value


NonBlank = Annotated[str, AfterValidator(_nonblank)]
#: A Python regular expression (``re`` syntax), checked when the file is loaded.
Regex = Annotated[str, AfterValidator(_regex)]
PositiveInt = Annotated[int, Field(strict=True, gt=0)]
PositiveFloat = Annotated[float, Field(strict=True, gt=0)]


# --------------------------------------------------------------------------- environment


class Viewport(_Model):
    """Size of the page area in CSS pixels; screenshots (and action coordinates) use it."""

    width: PositiveInt = 1280
    height: PositiveInt = 720


#: MiniWoB++ tasks draw into a 160x210 area at the top left of the page.
MINIWOB_VIEWPORT = Viewport(width=160, height=210)


class Observe(_Model):
    """Optional extra observations besides the screenshot (they cost time per step)."""

    dom: bool = False
    aria: bool = False


class _EnvironmentBase(_Model):
    """What every environment kind offers the rest of the task schema."""

    @property
    def generates_instruction(self) -> bool:
        """Whether the environment produces the instruction itself (per seed)."""
        return False


class BrowserEnvironment(_EnvironmentBase):
    """A Chromium page driven by Playwright.

    ``url`` is ``http(s)://...``, ``file://...`` or ``miniwob:TASK_NAME`` (a MiniWoB++
    page from the installed ``miniwob`` package; its viewport defaults to 160x210).
    """

    kind: Literal["browser"]
    url: str
    viewport: Viewport = Field(default_factory=Viewport)
    headless: bool = True
    observe: Observe = Field(default_factory=Observe)

    @field_validator("url")
    @classmethod
    def _check_url(cls, url: str) -> str:
        if url.startswith(MINIWOB_URL_PREFIX):
            miniwob_task_file(url[len(MINIWOB_URL_PREFIX):])
            return url
        if not re.match(r"^(https?://[^/\s]+|file://)", url):
            raise ValueError(
                f"unsupported url {url!r}; expected http://..., https://..., file://... or miniwob:TASK_NAME"
            )
        return url

    @model_validator(mode="after")
    def _miniwob_viewport(self) -> BrowserEnvironment:
        if self.miniwob_task is not None and "viewport" not in self.model_fields_set:
            self.viewport = MINIWOB_VIEWPORT.model_copy()
        return self

    @property
    def miniwob_task(self) -> str | None:
        """The MiniWoB++ task name when ``url`` is ``miniwob:NAME``, else None."""
        return self.url[len(MINIWOB_URL_PREFIX):] if self.url.startswith(MINIWOB_URL_PREFIX) else None

    @property
    def generates_instruction(self) -> bool:
        return self.miniwob_task is not None

    def resolved_url(self) -> str:
        """The address to open: ``miniwob:NAME`` becomes the page's ``file://`` URL."""
        task = self.miniwob_task
        return miniwob_task_file(task).as_uri() if task is not None else self.url


#: Every environment kind, chosen by ``kind``. Extension point: a desktop environment is
#: added as ``BrowserEnvironment | DesktopEnvironment``.
Environment = Annotated[BrowserEnvironment, Field(discriminator="kind")]


def _environment_kinds() -> list[str]:
    members = get_args(get_args(Environment)[0]) or (get_args(Environment)[0],)
    return [get_args(m.model_fields["kind"].annotation)[0] for m in members]


# --------------------------------------------------------------------------- MiniWoB++ pages


def miniwob_html_dir() -> Path:
    """Folder of the MiniWoB++ task pages in the installed ``miniwob`` package.

    Found without importing the package (its import pulls in gymnasium and more).

    Raises:
        FileNotFoundError: the package is not installed.
    """
    spec = importlib.util.find_spec("miniwob")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the 'miniwob' package is not installed (pip install miniwob)")
    return Path(next(iter(spec.submodule_search_locations))) / "html" / "miniwob"


def miniwob_task_names() -> list[str]:
    """Names of every MiniWoB++ task page installed, sorted."""
    return sorted(p.stem for p in miniwob_html_dir().glob("*.html"))


def miniwob_task_file(name: str) -> Path:
    """The HTML file of MiniWoB++ task ``name``.

    Raises:
        ValueError: no such task; the message lists close matches.
    """
    try:
        folder = miniwob_html_dir()
    except FileNotFoundError as exc:
        raise ValueError(str(exc)) from None
    if re.fullmatch(r"[\w.-]+", name) and (folder / f"{name}.html").is_file():
        return folder / f"{name}.html"
    names = sorted(p.stem for p in folder.glob("*.html"))
    close = difflib.get_close_matches(name, names, n=5, cutoff=0.6)
    hint = (f"close matches: {', '.join(close)}" if close
            else f"the {len(names)} task names are the *.html files in {folder}")
    raise ValueError(f"unknown MiniWoB++ task {name!r}; {hint}")


# --------------------------------------------------------------------------- single-key items


class _SingleKey(_Model):
    """A step or check written as a one-key mapping; its one field is named like the key."""

    name: ClassVar[str]

    @property
    def args(self) -> Any:
        """The value under the key: an arguments model, a list of checks, or a check."""
        return getattr(self, next(iter(type(self).model_fields)))


def _single_key_union(kind: str, members: tuple[type[_SingleKey], ...]) -> Any:
    """A union of single-key models, picked by the key, with errors a person can act on."""
    names = [m.name for m in members]

    def pick(value: Any) -> str | None:
        if isinstance(value, dict) and len(value) == 1:
            return str(next(iter(value)))
        return getattr(value, "name", None)

    def check_shape(value: Any) -> Any:
        if isinstance(value, _SingleKey):
            return value
        expected = ", ".join(names)
        if not isinstance(value, dict):
            raise PydanticCustomError(
                "single_key_type", "expected a {kind}: a mapping with one key, one of: {expected}; got {got}",
                {"kind": kind, "expected": expected, "got": _describe(value)},
            )
        if len(value) != 1:
            keys = ", ".join(map(str, value)) or "none"
            raise PydanticCustomError(
                "single_key_count", "a {kind} is a mapping with exactly one key (one of: {expected}); got keys: {keys}",
                {"kind": kind, "expected": expected, "keys": keys},
            )
        key = next(iter(value))
        if key not in names:
            raise PydanticCustomError(
                "unknown_key", "unknown {kind} {key_repr}; expected one of: {expected}{hint}",
                {"kind": kind, "key": key, "key_repr": repr(key), "expected": expected,
                 "hint": _did_you_mean(str(key), names)},
            )
        return value

    tagged = tuple(Annotated[m, Tag(m.name)] for m in members)
    return Annotated[Union[tagged], Discriminator(pick), BeforeValidator(check_shape)]  # noqa: UP007


# --------------------------------------------------------------------------- setup steps


class GotoArgs(_Model):
    """Open ``url`` (http(s)://, file://, about: or data:)."""

    url: str

    @field_validator("url")
    @classmethod
    def _check_url(cls, url: str) -> str:
        if not re.match(r"^(https?://[^/\s]+|file://|about:|data:)", url):
            raise ValueError(f"unsupported url {url!r}; expected http://..., https://..., file://..., about: or data:")
        return url


class WaitForArgs(_Model):
    """Wait until an element matching the CSS ``selector`` reaches ``state``."""

    selector: NonBlank
    timeout_s: PositiveFloat = 5.0
    state: Literal["attached", "detached", "visible", "hidden"] = "visible"


class ClickArgs(_Model):
    """Click the first element matching the CSS ``selector``."""

    selector: NonBlank


class FillArgs(_Model):
    """Replace the value of the input matching ``selector`` with ``text``."""

    selector: NonBlank
    text: str


class RunJsArgs(_Model):
    """Run a JavaScript ``script`` in the page (its value is ignored)."""

    script: NonBlank


class SleepArgs(_Model):
    """Do nothing for ``seconds`` (0-600): for pages that animate in without a signal."""

    seconds: float = Field(strict=True, ge=0, le=600)


class GotoStep(_SingleKey):
    name: ClassVar[str] = "goto"
    goto: GotoArgs


class WaitForStep(_SingleKey):
    name: ClassVar[str] = "wait_for"
    wait_for: WaitForArgs


class ClickStep(_SingleKey):
    name: ClassVar[str] = "click"
    click: ClickArgs


class FillStep(_SingleKey):
    name: ClassVar[str] = "fill"
    fill: FillArgs


class RunJsStep(_SingleKey):
    name: ClassVar[str] = "run_js"
    run_js: RunJsArgs


class SleepStep(_SingleKey):
    name: ClassVar[str] = "sleep"
    sleep: SleepArgs


#: Every setup step type, in the order error messages list them.
STEP_TYPES: tuple[type[_SingleKey], ...] = (GotoStep, WaitForStep, ClickStep, FillStep, RunJsStep, SleepStep)
if TYPE_CHECKING:  # what type checkers see; pydantic validates through the tagged union below
    SetupStep: TypeAlias = GotoStep | WaitForStep | ClickStep | FillStep | RunJsStep | SleepStep
else:
    SetupStep = _single_key_union("setup step", STEP_TYPES)


# --------------------------------------------------------------------------- checks


class MiniwobRewardArgs(_Model):
    """The MiniWoB++ episode ended with a raw reward of at least ``min`` (-1..1)."""

    min: float = Field(default=1.0, strict=True, ge=-1, le=1)


class UrlMatchesArgs(_Model):
    """The page's current URL matches the regex ``pattern`` (``re.search``)."""

    pattern: Regex


class PageContainsArgs(_Model):
    """The page's visible text (``document.body.innerText``) contains ``text``."""

    text: NonBlank


class ElementTextArgs(_Model):
    """The visible text of the first element matching ``selector``, stripped of surrounding
    whitespace, ``equals`` a string, ``contains`` one, or ``matches`` a regex (exactly one).
    """

    selector: NonBlank
    equals: str | None = None
    contains: str | None = None
    matches: Regex | None = None

    @model_validator(mode="after")
    def _one_comparison(self) -> ElementTextArgs:
        given = [k for k in ("equals", "contains", "matches") if getattr(self, k) is not None]
        if len(given) != 1:
            raise PydanticCustomError(
                "one_of", "expected exactly one of: equals, contains, matches; got {got}",
                {"got": ", ".join(given) or "none", "key": given[1] if len(given) > 1 else None},
            )
        return self


class ElementValueArgs(_Model):
    """The ``value`` of the form field matching ``selector`` equals ``equals`` exactly."""

    selector: NonBlank
    equals: str


class JsTruthyArgs(_Model):
    """The JavaScript ``expression`` (one expression; a Promise is awaited) is truthy."""

    expression: NonBlank


class AnswerEqualsArgs(_Model):
    """The agent's ``done(answer=...)`` equals ``value`` (whitespace-stripped)."""

    value: str
    case_sensitive: bool = False


class MiniwobRewardCheck(_SingleKey):
    name: ClassVar[str] = "miniwob_reward"
    miniwob_reward: MiniwobRewardArgs = Field(default_factory=lambda: MiniwobRewardArgs())

    @field_validator("miniwob_reward", mode="before")
    @classmethod
    def _empty_means_defaults(cls, value: Any) -> Any:
        return {} if value is None else value  # ``miniwob_reward:`` alone means min 1.0


class UrlMatchesCheck(_SingleKey):
    name: ClassVar[str] = "url_matches"
    url_matches: UrlMatchesArgs


class PageContainsCheck(_SingleKey):
    name: ClassVar[str] = "page_contains"
    page_contains: PageContainsArgs


class ElementTextCheck(_SingleKey):
    name: ClassVar[str] = "element_text"
    element_text: ElementTextArgs


class ElementValueCheck(_SingleKey):
    name: ClassVar[str] = "element_value"
    element_value: ElementValueArgs


class JsTruthyCheck(_SingleKey):
    name: ClassVar[str] = "js_truthy"
    js_truthy: JsTruthyArgs


class AnswerEqualsCheck(_SingleKey):
    name: ClassVar[str] = "answer_equals"
    answer_equals: AnswerEqualsArgs


class AllOfCheck(_SingleKey):
    """Passes when every check passes."""

    name: ClassVar[str] = "all_of"
    all_of: list[Check] = Field(min_length=1)


class AnyOfCheck(_SingleKey):
    """Passes when at least one check passes."""

    name: ClassVar[str] = "any_of"
    any_of: list[Check] = Field(min_length=1)


class NotCheck(_SingleKey):
    """Passes when the check fails (and could be evaluated)."""

    name: ClassVar[str] = "not"
    not_: Check = Field(alias="not")


#: Every check type, combinators first, in the order error messages list them.
CHECK_TYPES: tuple[type[_SingleKey], ...] = (
    AllOfCheck, AnyOfCheck, NotCheck, MiniwobRewardCheck, UrlMatchesCheck, PageContainsCheck,
    ElementTextCheck, ElementValueCheck, JsTruthyCheck, AnswerEqualsCheck,
)
if TYPE_CHECKING:
    Check: TypeAlias = (
        AllOfCheck | AnyOfCheck | NotCheck | MiniwobRewardCheck | UrlMatchesCheck | PageContainsCheck
        | ElementTextCheck | ElementValueCheck | JsTruthyCheck | AnswerEqualsCheck
    )
else:
    Check = _single_key_union("check", CHECK_TYPES)
for _combinator in (AllOfCheck, AnyOfCheck, NotCheck):
    _combinator.model_rebuild()


# --------------------------------------------------------------------------- limits, guards


class Limits(_Model):
    """When an episode is cut off (truncated, not failed by the agent's choice)."""

    max_steps: PositiveInt = 30
    step_timeout_s: PositiveFloat = 10.0
    episode_timeout_s: PositiveFloat = 300.0

    @model_validator(mode="after")
    def _step_within_episode(self) -> Limits:
        if self.step_timeout_s > self.episode_timeout_s:
            raise PydanticCustomError(
                "limits", "step_timeout_s ({step}) is longer than episode_timeout_s ({episode})",
                {"step": self.step_timeout_s, "episode": self.episode_timeout_s, "key": "step_timeout_s"},
            )
        return self


class DoomLoop(_Model):
    """Stop an episode after the same action repeats ``max_repeats`` times in a row."""

    max_repeats: int = Field(default=5, strict=True, ge=2)


def _key_name(name: str) -> str:
    try:
        return normalize_key(name)
    except ActionError as exc:
        raise ValueError(str(exc)) from None


KeyCombo = Annotated[list[Annotated[str, AfterValidator(_key_name)]], Field(min_length=1)]


class Guards(_Model):
    """Actions the agent must not take; enforced by the runner's guard wrapper.

    Attributes:
        forbidden_keys: key combinations, each normalised with
            :func:`gui_agent.actions.normalize_key` (``[Control, W]`` -> ``[ctrl, w]``).
        forbidden_text: regexes that typed text must not match.
        protected_paths: files or folders the agent must not change (desktop tasks).
        doom_loop: repeated-action detection; ``null`` turns it off.
    """

    forbidden_keys: list[KeyCombo] = Field(default_factory=list)
    forbidden_text: list[Regex] = Field(default_factory=list)
    protected_paths: list[NonBlank] = Field(default_factory=list)
    doom_loop: DoomLoop | None = Field(default_factory=lambda: DoomLoop())


# --------------------------------------------------------------------------- the task


def _task_id(value: str) -> str:
    if not re.fullmatch(r"\S+", value):
        raise ValueError(f"expected a non-empty id without spaces, got {value!r}")
    return value


class Task(_Model):
    """One task file.

    Attributes:
        id: unique name of the task, no spaces (``miniwob.click-button``).
        instruction: what the agent is told. Omit it only with ``instruction_from_env:
            true``, for environments that generate it (MiniWoB++ pages, per seed).
        instruction_from_env: take the instruction from the environment at reset.
        description: notes for people; never shown to the agent.
        tags: free labels for selecting tasks (``[miniwob, click]``).
        source: where the task came from (``osworld:<uuid>``), written by converters.
        environment: where the task happens, chosen by ``kind``.
        setup: steps run in order after the environment starts, before the agent acts.
        evaluator: the check tree deciding success; None means no automatic evaluation.
        post_steps: steps run after the agent finishes and before the evaluator.
        limits: step and time limits of an episode.
        guards: actions the agent must not take.
    """

    id: Annotated[str, AfterValidator(_task_id)]
    instruction: NonBlank | None = None
    instruction_from_env: bool = False
    description: str | None = None
    tags: list[NonBlank] = Field(default_factory=list)
    source: str | None = None
    environment: Environment
    setup: list[SetupStep] = Field(default_factory=list)
    evaluator: Check | None = None
    post_steps: list[SetupStep] = Field(default_factory=list)
    limits: Limits = Field(default_factory=Limits)
    guards: Guards = Field(default_factory=Guards)

    @model_validator(mode="after")
    def _instruction_source(self) -> Task:
        if self.instruction_from_env:
            if self.instruction is not None:
                raise PydanticCustomError(
                    "instruction", "give either 'instruction' or 'instruction_from_env: true', not both",
                    {"key": "instruction"},
                )
            if not self.environment.generates_instruction:
                raise PydanticCustomError(
                    "instruction",
                    "instruction_from_env: true needs an environment that generates its instruction "
                    "(a browser with url miniwob:TASK_NAME); write an 'instruction' instead",
                    {"key": "instruction_from_env"},
                )
        elif self.instruction is None:
            raise PydanticCustomError(
                "instruction",
                "missing required key 'instruction' (or set 'instruction_from_env: true' for "
                "environments that generate it)",
                {},
            )
        return self

    def model_dump_yaml(self, *, full: bool = False) -> str:
        """This task as task-file YAML; see :func:`dump_task`."""
        return dump_task(self, full=full)


# --------------------------------------------------------------------------- loading


def load_task(path: str | Path) -> Task:
    """Read and validate a task file.

    Raises:
        TaskFileError: the file cannot be read, is not YAML, or does not fit the schema;
            the message names the file, the line, the key path and what was expected.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TaskFileError(path, f"not UTF-8 text: {exc}") from None
    except OSError as exc:
        raise TaskFileError(path, f"cannot read the file: {exc.strerror or exc}") from None
    return load_task_text(text, path)


def load_task_text(text: str, path_for_messages: str | Path = "<string>") -> Task:
    """Validate task-file YAML given as text; ``path_for_messages`` names it in errors.

    Raises:
        TaskFileError: as :func:`load_task`.
    """
    loader = yaml.SafeLoader(text)
    try:
        root = loader.get_single_node()
        _check_duplicate_keys(root, path_for_messages)
        data = loader.construct_document(root) if root is not None else None
    except yaml.MarkedYAMLError as exc:
        raise TaskFileError(path_for_messages, *_yaml_problem(exc)) from None
    except yaml.YAMLError as exc:
        raise TaskFileError(path_for_messages, f"invalid YAML: {exc}") from None
    finally:
        loader.dispose()
    if root is None:
        raise TaskFileError(
            path_for_messages, "the file is empty; expected a task mapping (id, instruction, environment, ...)", 1
        )
    if not isinstance(data, dict):
        raise TaskFileError(
            path_for_messages, f"expected a mapping of task keys at the top level, got {_describe(data)}",
            root.start_mark.line + 1,
        )
    try:
        return Task.model_validate(data)
    except ValidationError as exc:
        raise _task_file_error(exc, root, path_for_messages) from None


def _yaml_problem(exc: yaml.MarkedYAMLError) -> tuple[str, int | None]:
    """PyYAML's error as (problem, 1-based line), the context's line given in words."""
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "cannot parse"
    if exc.context and exc.problem:
        where = exc.context_mark
        if where is not None and mark is not None and where.line != mark.line:
            problem += f" ({exc.context} started at line {where.line + 1})"
        else:
            problem += f" ({exc.context})"
    return f"invalid YAML: {problem}", (mark.line + 1 if mark is not None else None)


def _check_duplicate_keys(node: yaml.Node | None, path: str | Path) -> None:
    """PyYAML keeps the last of two equal keys silently; a task file must not rely on that."""
    seen_nodes: set[int] = set()
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if id(current) in seen_nodes:  # aliases share nodes
            continue
        seen_nodes.add(id(current))
        if isinstance(current, yaml.MappingNode):
            first_line: dict[str, int] = {}
            for key_node, value_node in current.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                    line = key_node.start_mark.line + 1
                    if key_node.value in first_line:
                        raise TaskFileError(
                            path, f"duplicate key {key_node.value!r} (first at line {first_line[key_node.value]})", line
                        )
                    first_line[key_node.value] = line
                stack.extend((key_node, value_node))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)


# --------------------------------------------------------------------------- error locations


def _describe(value: Any) -> str:
    """A short description of a YAML value for 'got ...' in messages."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class _Located:
    """Where a pydantic error ``loc`` lands in the YAML node tree."""

    def __init__(self, root: yaml.Node, loc: tuple[Any, ...]):
        self.node: yaml.Node = root
        self.key_node: yaml.Node | None = None
        self.parts: list[str | int] = []
        self.resolved = True
        i = 0
        while i < len(loc):
            elem = loc[i]
            if isinstance(elem, str) and i + 1 < len(loc) and loc[i + 1] == elem:
                # A single-key union puts its tag before the field of the same name:
                # drop the tag, keep the field.
                i += 1
            elif isinstance(elem, str) and self._child(elem) is None and self._kind_value() == elem:
                i += 1  # the environment union's tag: the value of 'kind', not a key
                continue
            self._step(loc[i])
            i += 1

    def _step(self, elem: str | int) -> None:
        self.parts.append(elem)
        if self.resolved:
            child = self._child(elem)
            if child is None:
                self.resolved = False
            else:
                self.key_node, self.node = child

    def _kind_value(self) -> str | None:
        if isinstance(self.node, yaml.MappingNode):
            for key_node, value_node in self.node.value:
                if key_node.value == "kind" and isinstance(value_node, yaml.ScalarNode):
                    return value_node.value
        return None

    def _child(self, elem: str | int) -> tuple[yaml.Node | None, yaml.Node] | None:
        if isinstance(self.node, yaml.MappingNode) and isinstance(elem, str):
            for key_node, value_node in self.node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.value == elem:
                    return key_node, value_node
        if isinstance(self.node, yaml.SequenceNode) and isinstance(elem, int) and 0 <= elem < len(self.node.value):
            return None, self.node.value[elem]
        return None

    def descend(self, key: Any) -> bool:
        """Move to the key ``key`` of the current mapping, if it is there."""
        if not self.resolved or self._child(str(key)) is None:
            return False
        self._step(str(key))
        return True

    def path(self) -> str:
        text = ""
        for part in self.parts:
            text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
        return text

    def value_line(self) -> int:
        """The line of the value; for a nested block, the line of the key that holds it."""
        if self.key_node is not None and isinstance(self.node, (yaml.MappingNode, yaml.SequenceNode)):
            return self.key_node.start_mark.line + 1
        return self.node.start_mark.line + 1

    def key_line(self) -> int:
        node = self.key_node if self.key_node is not None else self.node
        return node.start_mark.line + 1


_TYPE_WORDS = {
    "model_type": "a mapping", "dict_type": "a mapping", "model_attributes_type": "a mapping",
    "list_type": "a list", "string_type": "a string", "int_type": "an integer",
    "int_parsing": "an integer", "int_from_float": "an integer", "float_type": "a number",
    "float_parsing": "a number", "bool_type": "true or false", "bool_parsing": "true or false",
}
_BOUND_WORDS = {
    "greater_than": ("greater than", "gt"), "greater_than_equal": ("of at least", "ge"),
    "less_than": ("less than", "lt"), "less_than_equal": ("of at most", "le"),
}


def _explain(err: Mapping[str, Any], root: yaml.Node) -> tuple[int, str]:
    """Turn one pydantic error into (line, "key.path: what was wrong and expected")."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    got = err.get("input")
    where = _Located(root, tuple(err["loc"]))
    if kind == "missing":
        line = where.key_line() if not where.resolved else where.value_line()
        message = f"missing required key {where.parts[-1]!r}"
    elif kind == "union_tag_invalid":
        where.descend(str(ctx.get("discriminator", "kind")).strip("'"))
        line = where.value_line()
        expected = str(ctx.get("expected_tags", "")).replace("'", "")
        message = f"unknown {where.parts[-1]} {ctx.get('tag')!r}; expected one of: {expected}"
    elif kind == "union_tag_not_found":
        line = where.value_line()
        message = f"missing required key 'kind'; expected one of: {', '.join(_environment_kinds())}"
    elif kind in _TYPE_WORDS:
        line = where.value_line()
        message = f"expected {_TYPE_WORDS[kind]}, got {_describe(got)}"
        if kind == "string_type" and isinstance(got, (int, float, bool)):
            message += " (quote it to make it a string)"
    elif kind in _BOUND_WORDS:
        words, bound = _BOUND_WORDS[kind]
        line = where.value_line()
        message = f"expected a value {words} {ctx.get(bound)}, got {_describe(got)}"
    elif kind == "value_error":
        line = where.value_line()
        message = str(ctx.get("error", err["msg"]))
    elif kind == "too_short":
        line = where.value_line()
        message = f"expected at least {ctx.get('min_length')} item(s), got {ctx.get('actual_length')}"
    elif kind == "literal_error":
        line = where.value_line()
        expected = str(ctx.get("expected", "")).replace("' or '", "', '").replace("'", "")
        message = f"expected one of: {expected}; got {_describe(got)}"
    elif kind == "extra_forbidden":  # backstop; _Model reports unknown keys itself
        line = where.key_line()
        message = f"unknown key {where.parts[-1]!r}"
    else:
        # Our own PydanticCustomErrors: ctx["key"] names the key the problem is about.
        if ctx.get("key") is not None and where.descend(ctx["key"]):
            line = where.key_line()
        else:
            line = where.key_line() if where.key_node is not None else where.value_line()
        message = err["msg"]
    path = where.path()
    return line, f"{path}: {message}" if path else message


def _task_file_error(exc: ValidationError, root: yaml.Node, path: str | Path) -> TaskFileError:
    problems = sorted({_explain(err, root) for err in exc.errors()}, key=lambda p: p[0])
    line, problem = problems[0]
    if len(problems) > 1:
        problem += "".join(f"\n  also {path}:{ln}: {text}" for ln, text in problems[1:])
    return TaskFileError(path, problem, line)


# --------------------------------------------------------------------------- writing


class _TaskDumper(yaml.SafeDumper):
    """Writes multi-line strings (scripts, descriptions) as literal blocks."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _represent_list(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.SequenceNode:
    """Short lists of plain values (tags, key combinations) stay on one line."""
    flat = all(isinstance(v, (str, int, float, bool)) and not (isinstance(v, str) and "\n" in v) for v in value)
    short = len(repr(value)) <= 60
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flat and short)


_TaskDumper.add_representer(str, _represent_str)
_TaskDumper.add_representer(list, _represent_list)


def dump_task(task: Task, *, full: bool = False) -> str:
    """The task as task-file YAML, for converters that write task suites.

    Args:
        task: the task.
        full: write every field, defaults included; otherwise only the fields that were
            set (given in the file or passed to the constructor), which keeps converted
            files short and loads back to an equal task.
    """
    data = task.model_dump(mode="json", by_alias=True, exclude_unset=not full)
    return yaml.dump(data, Dumper=_TaskDumper, sort_keys=False, allow_unicode=True, width=100)
