"""Evaluator checks: the tree deciding whether a task succeeded, each node written as a
one-key mapping (``all_of: [...]``, ``url_matches: {pattern: ...}``).

Browser checks are defined here; desktop checks (files, spreadsheets, e-mail) in
:mod:`gui_agent.task.desktop_checks`. The combinators combine both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.task._base import NonBlank, Regex, _Model, _single_key_union, _SingleKey
from gui_agent.task.desktop_checks import (
    DESKTOP_CHECK_TYPES,
    CellFormulaCheck,
    CellRangeCheck,
    CellStyleCheck,
    CellValueCheck,
    EmailReceivedCheck,
    FileContainsCheck,
    FileEqualCheck,
    FileExistsCheck,
    SheetDataEqualCheck,
    SheetLayoutCheck,
    SheetNamesCheck,
)


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
    ElementTextCheck, ElementValueCheck, JsTruthyCheck, AnswerEqualsCheck, *DESKTOP_CHECK_TYPES,
)
#: The leaf checks each environment kind can evaluate (``answer_equals`` works everywhere).
CHECKS_BY_ENVIRONMENT: dict[str, frozenset[str]] = {
    "browser": frozenset(t.name for t in (MiniwobRewardCheck, UrlMatchesCheck, PageContainsCheck, ElementTextCheck,
                                          ElementValueCheck, JsTruthyCheck, AnswerEqualsCheck)),
    "desktop": frozenset(t.name for t in DESKTOP_CHECK_TYPES) | {AnswerEqualsCheck.name},
}
if TYPE_CHECKING:
    from gui_agent.task._base import _SingleKey as DesktopCheck  # the rest of DESKTOP_CHECK_TYPES

    Check: TypeAlias = (
        AllOfCheck | AnyOfCheck | NotCheck | MiniwobRewardCheck | UrlMatchesCheck | PageContainsCheck
        | ElementTextCheck | ElementValueCheck | JsTruthyCheck | AnswerEqualsCheck
        | FileExistsCheck | FileContainsCheck | FileEqualCheck | CellValueCheck | CellFormulaCheck | CellRangeCheck
        | SheetNamesCheck | CellStyleCheck | SheetLayoutCheck | SheetDataEqualCheck | EmailReceivedCheck
        | DesktopCheck
    )
else:
    Check = _single_key_union("check", CHECK_TYPES)
for _combinator in (AllOfCheck, AnyOfCheck, NotCheck):
    _combinator.model_rebuild()
