"""What a desktop task file says about its environment (``environment: {kind: desktop, ...}``).

Declared here, next to the desktop environment it configures; the task schema collects it
(:data:`gui_agent.task.environments.Environment`) and :func:`gui_agent.envs.factory.make_env`
builds the environment from it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.envs.desktop.apps.catalogue import DesktopApp
from gui_agent.schema import NonBlank, StrictModel


class Screen(StrictModel):
    """Size of the virtual screen in pixels; screenshots (and action coordinates) use it."""

    width: int = Field(default=1280, strict=True, ge=320, le=7680)
    height: int = Field(default=800, strict=True, ge=240, le=4320)


class MailSettings(StrictModel):
    """The user's mail identity. With it, the environment runs a loopback SMTP server
    (which the ``email_received`` check reads) and sets up the mail client for it."""

    address: NonBlank = "me@example.test"
    name: NonBlank = "Alex Doe"


class DesktopObserve(StrictModel):
    """Optional extra observations besides the screenshot and window titles.

    ``a11y_tree``: the apps' accessibility tree in OSWorld's XML form in every observation
    (it starts the accessibility bus; a step costs the time to read it).
    """

    a11y_tree: bool = False


class DesktopEnvironment(StrictModel):
    """A virtual X desktop (Xvfb + a window manager) with real apps, driven through XTEST.

    ``apps`` are the apps the task uses (checked installed and prepared when the
    environment starts; setup steps launch them). ``window_manager: none`` runs apps
    without one (no window titles from EWMH, no focus handling). ``accessibility``
    starts the accessibility bus and the apps with accessibility on, for checks that read
    their element trees; ``observe: {a11y_tree: true}`` implies it.
    """

    kind: Literal["desktop"]
    screen: Screen = Field(default_factory=Screen)
    apps: list[DesktopApp] = Field(default_factory=list)
    window_manager: Literal["openbox", "none"] = "openbox"
    mail: MailSettings | None = None
    accessibility: bool = False
    observe: DesktopObserve = Field(default_factory=DesktopObserve)

    @property
    def generates_instruction(self) -> bool:
        """A desktop never makes up the instruction: the task file gives it."""
        return False

    @model_validator(mode="after")
    def _mail_client_needs_mail(self) -> DesktopEnvironment:
        if "thunderbird" in self.apps and self.mail is None:
            raise PydanticCustomError(
                "mail", "the thunderbird app needs 'mail' (the user's address) to set up its account",
                {"key": "apps"},
            )
        return self
