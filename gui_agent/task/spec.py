"""The task model itself, with the limits and guards of an episode."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, Field, PrivateAttr, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.actions import normalize_key
from gui_agent.checks.registry import CHECKS_BY_ENVIRONMENT
from gui_agent.checks.tree import Check, leaves
from gui_agent.errors import ActionError
from gui_agent.schema import NonBlank, PositiveFloat, PositiveInt, Regex, StrictModel
from gui_agent.task.dumping import dump_task
from gui_agent.task.environments import STEPS_BY_ENVIRONMENT, Environment, SetupStep


class Limits(StrictModel):
    """When an episode is cut off (truncated, not failed by the agent's choice)."""

    max_steps: PositiveInt = 30
    step_timeout_s: PositiveFloat = 10.0
    episode_timeout_s: PositiveFloat = 300.0
    #: Model input + output tokens the policy may spend (as it reports them); None: no limit.
    #: ``gui-agent eval --max-tokens`` overrides it for a run.
    max_tokens: PositiveInt | None = None

    @model_validator(mode="after")
    def _step_within_episode(self) -> Limits:
        if self.step_timeout_s > self.episode_timeout_s:
            raise PydanticCustomError(
                "limits", "step_timeout_s ({step}) is longer than episode_timeout_s ({episode})",
                {"step": self.step_timeout_s, "episode": self.episode_timeout_s, "key": "step_timeout_s"},
            )
        return self


class DoomLoop(StrictModel):
    """Stop an episode after the same action repeats ``max_repeats`` times in a row."""

    max_repeats: int = Field(default=5, strict=True, ge=2)


def _key_name(name: str) -> str:
    try:
        return normalize_key(name)
    except ActionError as exc:
        raise ValueError(str(exc)) from None


KeyCombo = Annotated[list[Annotated[str, AfterValidator(_key_name)]], Field(min_length=1)]


class Guards(StrictModel):
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


class Task(StrictModel):
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
    # The file the task was loaded from (set by load_task); not part of the file's data.
    _file: Path | None = PrivateAttr(default=None)

    def __eq__(self, other: object) -> bool:
        # Where a task was loaded from is not part of the task: equal data, equal tasks.
        if not isinstance(other, Task):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # mutable, like every pydantic model

    @property
    def task_dir(self) -> Path | None:
        """The folder of the task file it was loaded from (files it ships are relative to it)."""
        return self._file.parent if self._file is not None else None

    @model_validator(mode="after")
    def _steps_and_checks_fit_the_environment(self) -> Task:
        kind = self.environment.kind
        steps_ok = STEPS_BY_ENVIRONMENT[kind]
        for section in ("setup", "post_steps"):
            for index, step in enumerate(getattr(self, section)):
                if step.name not in steps_ok:
                    raise PydanticCustomError(
                        "step_kind", "{where} is a '{step}' step, which a {kind} environment cannot run; its steps are: {ok}",
                        {"where": f"{section}[{index}]", "kind": kind, "step": step.name,
                         "ok": ", ".join(sorted(steps_ok)), "key": section},
                    )
        needs_mail = [s.name for s in (*self.setup, *self.post_steps) if s.name == "deliver_mail"]
        if self.evaluator is not None:
            needs_mail += [c.name for c in leaves(self.evaluator) if c.name == "email_received"]
        if needs_mail and getattr(self.environment, "mail", None) is None:
            raise PydanticCustomError(
                "mail", "'{what}' needs the environment's mail server: add 'mail: {example}' to the environment",
                {"what": needs_mail[0], "example": "{address: ...}", "key": "environment"},
            )
        if self.evaluator is not None:
            checks_ok = CHECKS_BY_ENVIRONMENT[kind]
            for check in leaves(self.evaluator):
                if check.name not in checks_ok:
                    raise PydanticCustomError(
                        "check_kind", "a {kind} environment cannot evaluate the check '{check}'; its checks are: {ok}",
                        {"kind": kind, "check": check.name, "ok": ", ".join(sorted(checks_ok)), "key": "evaluator"},
                    )
        return self

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
