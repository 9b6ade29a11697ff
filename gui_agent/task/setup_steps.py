"""Setup steps: what prepares the environment before the agent acts (and after, in
``post_steps``), each written as a one-key mapping (``- goto: {url: ...}``).

Browser steps are defined here; desktop steps in :mod:`gui_agent.task.desktop_steps`.
Which environment kind runs which steps is :data:`STEPS_BY_ENVIRONMENT` (``sleep`` runs
everywhere); a task using a step its environment cannot run is rejected when loaded.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar, Literal, TypeAlias

from pydantic import Field, field_validator

from gui_agent.task._base import NonBlank, PositiveFloat, _Model, _single_key_union, _SingleKey
from gui_agent.task.desktop_steps import (
    DESKTOP_STEP_TYPES,
    ActivateWindowStep,
    CloseWindowStep,
    DeliverMailStep,
    HotkeyStep,
    LaunchStep,
    OpenFileStep,
    PlaceFileStep,
    RunCommandStep,
    WaitForFileStep,
    WaitForWindowStep,
)


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


_BROWSER_STEP_TYPES: tuple[type[_SingleKey], ...] = (GotoStep, WaitForStep, ClickStep, FillStep, RunJsStep, SleepStep)
#: Every setup step type, in the order error messages list them.
STEP_TYPES: tuple[type[_SingleKey], ...] = _BROWSER_STEP_TYPES + DESKTOP_STEP_TYPES
#: The steps each environment kind can run.
STEPS_BY_ENVIRONMENT: dict[str, frozenset[str]] = {
    "browser": frozenset(t.name for t in _BROWSER_STEP_TYPES),
    "desktop": frozenset(t.name for t in DESKTOP_STEP_TYPES) | {SleepStep.name},
}
if TYPE_CHECKING:  # what type checkers see; pydantic validates through the tagged union below
    SetupStep: TypeAlias = (
        GotoStep | WaitForStep | ClickStep | FillStep | RunJsStep | SleepStep | PlaceFileStep | LaunchStep
        | RunCommandStep | WaitForWindowStep | OpenFileStep | ActivateWindowStep | CloseWindowStep | HotkeyStep
        | WaitForFileStep | DeliverMailStep
    )
else:
    SetupStep = _single_key_union("setup step", STEP_TYPES)
