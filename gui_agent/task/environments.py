"""Where a task happens: the environment kinds, chosen by ``kind``.

Adding an environment kind: define a model with ``kind: Literal[...]`` deriving from
:class:`_EnvironmentBase`, and add it to the :data:`Environment` union below; the loader,
the error messages and ``gui-agent validate`` pick it up from there.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, get_args

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.task._base import NonBlank, PositiveInt, _Model
from gui_agent.task.desktop_paths import DesktopApp
from gui_agent.task.miniwob_pages import miniwob_task_file

#: ``url: miniwob:click-button`` means ``miniwob/html/miniwob/click-button.html``.
MINIWOB_URL_PREFIX = "miniwob:"


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


class Screen(_Model):
    """Size of the virtual screen in pixels; screenshots (and action coordinates) use it."""

    width: int = Field(default=1280, strict=True, ge=320, le=7680)
    height: int = Field(default=800, strict=True, ge=240, le=4320)


class MailSettings(_Model):
    """The user's mail identity. With it, the environment runs a loopback SMTP server
    (which the ``email_received`` check reads) and sets up the mail client for it."""

    address: NonBlank = "me@example.test"
    name: NonBlank = "Alex Doe"


class DesktopEnvironment(_EnvironmentBase):
    """A virtual X desktop (Xvfb + a window manager) with real apps, driven through XTEST.

    ``apps`` are the apps the task uses (checked installed and prepared when the
    environment starts; setup steps launch them). ``window_manager: none`` runs apps
    without one (no window titles from EWMH, no focus handling).
    """

    kind: Literal["desktop"]
    screen: Screen = Field(default_factory=Screen)
    apps: list[DesktopApp] = Field(default_factory=list)
    window_manager: Literal["openbox", "none"] = "openbox"
    mail: MailSettings | None = None

    @model_validator(mode="after")
    def _mail_client_needs_mail(self) -> DesktopEnvironment:
        if "thunderbird" in self.apps and self.mail is None:
            raise PydanticCustomError(
                "mail", "the thunderbird app needs 'mail' (the user's address) to set up its account",
                {"key": "apps"},
            )
        return self


#: Every environment kind, chosen by ``kind``.
Environment = Annotated[BrowserEnvironment | DesktopEnvironment, Field(discriminator="kind")]


def _environment_kinds() -> list[str]:
    members = get_args(get_args(Environment)[0]) or (get_args(Environment)[0],)
    return [get_args(m.model_fields["kind"].annotation)[0] for m in members]
