"""What a browser task file says about its environment (``environment: {kind: browser, ...}``).

Declared here, next to the browser environment it configures; the task schema collects it
(:data:`gui_agent.task.environments.Environment`) and :func:`gui_agent.envs.factory.make_env`
builds the environment from it.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator, model_validator

from gui_agent.envs.browser.miniwob_pages import miniwob_task_file
from gui_agent.schema import PositiveInt, StrictModel

#: ``url: miniwob:click-button`` means ``miniwob/html/miniwob/click-button.html``.
MINIWOB_URL_PREFIX = "miniwob:"


class Viewport(StrictModel):
    """Size of the page area in CSS pixels; screenshots (and action coordinates) use it."""

    width: PositiveInt = 1280
    height: PositiveInt = 720


#: MiniWoB++ tasks draw into a 160x210 area at the top left of the page.
MINIWOB_VIEWPORT = Viewport(width=160, height=210)


class Observe(StrictModel):
    """Optional extra observations besides the screenshot (they cost time per step)."""

    dom: bool = False
    aria: bool = False


class BrowserEnvironment(StrictModel):
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
        """Whether the page produces the instruction itself (per seed): MiniWoB++ pages do."""
        return self.miniwob_task is not None

    def resolved_url(self) -> str:
        """The address to open: ``miniwob:NAME`` becomes the page's ``file://`` URL."""
        task = self.miniwob_task
        return miniwob_task_file(task).as_uri() if task is not None else self.url
