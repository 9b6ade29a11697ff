"""Setup steps of browser tasks, each written as a one-key mapping (``- goto: {url: ...}``).

:meth:`gui_agent.envs.browser.env.BrowserEnv.run_steps` runs them on the active page;
``sleep`` (:mod:`gui_agent.envs.steps`) runs here too.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from pydantic import field_validator

from gui_agent.schema import NonBlank, PositiveFloat, SingleKey, StrictModel


class GotoArgs(StrictModel):
    """Open ``url`` (http(s)://, file://, about: or data:)."""

    url: str

    @field_validator("url")
    @classmethod
    def _check_url(cls, url: str) -> str:
        if not re.match(r"^(https?://[^/\s]+|file://|about:|data:)", url):
            raise ValueError(f"unsupported url {url!r}; expected http://..., https://..., file://..., about: or data:")
        return url


class WaitForArgs(StrictModel):
    """Wait until an element matching the CSS ``selector`` reaches ``state``."""

    selector: NonBlank
    timeout_s: PositiveFloat = 5.0
    state: Literal["attached", "detached", "visible", "hidden"] = "visible"


class ClickArgs(StrictModel):
    """Click the first element matching the CSS ``selector``."""

    selector: NonBlank


class FillArgs(StrictModel):
    """Replace the value of the input matching ``selector`` with ``text``."""

    selector: NonBlank
    text: str


class RunJsArgs(StrictModel):
    """Run a JavaScript ``script`` in the page (its value is ignored)."""

    script: NonBlank


class GotoStep(SingleKey):
    name: ClassVar[str] = "goto"
    goto: GotoArgs


class WaitForStep(SingleKey):
    name: ClassVar[str] = "wait_for"
    wait_for: WaitForArgs


class ClickStep(SingleKey):
    name: ClassVar[str] = "click"
    click: ClickArgs


class FillStep(SingleKey):
    name: ClassVar[str] = "fill"
    fill: FillArgs


class RunJsStep(SingleKey):
    name: ClassVar[str] = "run_js"
    run_js: RunJsArgs


#: The browser's own step types, in the order error messages list them.
BROWSER_STEP_TYPES: tuple[type[SingleKey], ...] = (GotoStep, WaitForStep, ClickStep, FillStep, RunJsStep)
