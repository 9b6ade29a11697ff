"""Where a task happens and how it is prepared: the environment kinds, chosen by ``kind``,
each with its settings (the ``environment:`` section) and its setup steps (``setup:``,
``post_steps:``).

Both are declared next to the environment code that uses them
(:mod:`gui_agent.envs.browser.settings` and :mod:`gui_agent.envs.browser.steps`,
:mod:`gui_agent.envs.desktop.settings` and :mod:`gui_agent.envs.desktop.steps`; ``sleep``,
which every environment runs, in :mod:`gui_agent.envs.steps`); this module collects them
for the task schema. A task using a step its environment cannot run is rejected when
loaded (:data:`STEPS_BY_ENVIRONMENT`).

Adding an environment kind: declare its settings model (``kind: Literal[...]`` and a
``generates_instruction`` property) and its step types beside its code, and add them to
:data:`Environment` and :data:`STEPS_BY_ENVIRONMENT` below; the loader, the error
messages and ``gui-agent validate`` pick them up from there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, TypeAlias, get_args

from pydantic import Field

from gui_agent.envs.browser.settings import BrowserEnvironment
from gui_agent.envs.browser.steps import BROWSER_STEP_TYPES
from gui_agent.envs.desktop.settings import DesktopEnvironment
from gui_agent.envs.desktop.steps import DESKTOP_STEP_TYPES
from gui_agent.envs.steps import SleepStep
from gui_agent.schema import SingleKey, single_key_union

#: Every environment kind, chosen by ``kind``.
Environment = Annotated[BrowserEnvironment | DesktopEnvironment, Field(discriminator="kind")]

#: Every setup step type, in the order error messages list them.
STEP_TYPES: tuple[type[SingleKey], ...] = (*BROWSER_STEP_TYPES, SleepStep, *DESKTOP_STEP_TYPES)
#: The steps each environment kind can run.
STEPS_BY_ENVIRONMENT: dict[str, frozenset[str]] = {
    "browser": frozenset(t.name for t in (*BROWSER_STEP_TYPES, SleepStep)),
    "desktop": frozenset(t.name for t in (*DESKTOP_STEP_TYPES, SleepStep)),
}
if TYPE_CHECKING:  # statically any single-key model; pydantic validates through the tagged union below
    SetupStep: TypeAlias = SingleKey
else:
    SetupStep = single_key_union("setup step", STEP_TYPES)


def _environment_kinds() -> list[str]:
    members = get_args(get_args(Environment)[0]) or (get_args(Environment)[0],)
    return [get_args(m.model_fields["kind"].annotation)[0] for m in members]
