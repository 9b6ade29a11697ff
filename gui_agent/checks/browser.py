"""Checks of a web page: the MiniWoB++ reward, the URL, the page's text, an element's
text or value, a JavaScript expression.

They ask the environment only what :class:`~gui_agent.checks.probes.BrowserProbe` lists
(run an expression in the page, tell the current URL), so any environment that shows a
page can be judged by them.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.schema import NonBlank, Regex, SingleKey, StrictModel


class MiniwobRewardArgs(StrictModel):
    """The MiniWoB++ episode ended with a raw reward of at least ``min`` (-1..1)."""

    min: float = Field(default=1.0, strict=True, ge=-1, le=1)


class UrlMatchesArgs(StrictModel):
    """The page's current URL matches the regex ``pattern`` (``re.search``)."""

    pattern: Regex


class PageContainsArgs(StrictModel):
    """The page's visible text (``document.body.innerText``) contains ``text``."""

    text: NonBlank


class ElementTextArgs(StrictModel):
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


class ElementValueArgs(StrictModel):
    """The ``value`` of the form field matching ``selector`` equals ``equals`` exactly."""

    selector: NonBlank
    equals: str


class JsTruthyArgs(StrictModel):
    """The JavaScript ``expression`` (one expression; a Promise is awaited) is truthy."""

    expression: NonBlank


class MiniwobRewardCheck(SingleKey):
    name: ClassVar[str] = "miniwob_reward"
    miniwob_reward: MiniwobRewardArgs = Field(default_factory=lambda: MiniwobRewardArgs())

    @field_validator("miniwob_reward", mode="before")
    @classmethod
    def _empty_means_defaults(cls, value: Any) -> Any:
        return {} if value is None else value  # ``miniwob_reward:`` alone means min 1.0


class UrlMatchesCheck(SingleKey):
    name: ClassVar[str] = "url_matches"
    url_matches: UrlMatchesArgs


class PageContainsCheck(SingleKey):
    name: ClassVar[str] = "page_contains"
    page_contains: PageContainsArgs


class ElementTextCheck(SingleKey):
    name: ClassVar[str] = "element_text"
    element_text: ElementTextArgs


class ElementValueCheck(SingleKey):
    name: ClassVar[str] = "element_value"
    element_value: ElementValueArgs


class JsTruthyCheck(SingleKey):
    name: ClassVar[str] = "js_truthy"
    js_truthy: JsTruthyArgs


#: The checks of this family, in the order error messages list them.
BROWSER_CHECK_TYPES: tuple[type[SingleKey], ...] = (
    MiniwobRewardCheck, UrlMatchesCheck, PageContainsCheck, ElementTextCheck, ElementValueCheck, JsTruthyCheck,
)
