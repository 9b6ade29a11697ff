"""``--format reward``: the reward-model data the replayer builds, as one dataset config.

The replayer (``replay/``: re-execution, the human simulator's perturbations, labelling)
does not exist yet. This module is the one place its output is defined, so that it can
write exactly what export reads:

* a ``reward.jsonl`` file (:data:`REWARD_FILE`) in a folder, one :class:`RewardSample`
  per line;
* each sample points at a step of an episode in the trajectory format (``episode`` is
  that episode's folder, relative to the file's folder): the screen before the step, the
  action judged (the recorded one or a perturbed variant), and the verdict (``reward`` in
  [0, 1] and a ``label``).

Export turns each sample into one row of the ``reward`` config (:func:`reward_features`),
with the screenshot embedded. Nothing here runs a replay.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from datasets import Features, Image, Value
from gui_agent.actions import action_from_dict
from gui_agent.errors import ActionError
from gui_agent.errors import ExportError
from gui_agent.export.features import action_fields

REWARD_FILE = "reward.jsonl"


class RewardSample(BaseModel):
    """One judged (screen, action) pair: a line of ``reward.jsonl``."""

    model_config = ConfigDict(extra="forbid")

    sample_id: str
    episode: str = Field(description="the episode folder, relative to the folder of reward.jsonl")
    step_index: int = Field(ge=0)
    action: dict[str, Any] = Field(description="the canonical action judged (action_to_dict form)")
    reward: float = Field(ge=0.0, le=1.0)
    label: Literal["positive", "negative", "neutral"]
    perturbation: str | None = Field(None, description="what the simulator changed; None for the recorded action")
    source: Literal["recorded", "replay", "simulator", "human"] = "replay"
    group: str | None = Field(None, description="samples compared with each other (pairwise training) share a group")
    detail: dict[str, Any] = Field(default_factory=dict)

    @field_validator("action")
    @classmethod
    def _canonical(cls, value: dict[str, Any]) -> dict[str, Any]:
        try:
            action_from_dict(value)
        except ActionError as exc:
            raise ValueError(str(exc)) from None
        return value


def reward_features() -> Features:
    """The ``reward`` config's columns."""
    return Features(
        {
            "sample_id": Value("string"),
            "episode_id": Value("string"),
            "step_index": Value("int32"),
            "task_id": Value("string"),
            "instruction": Value("string"),
            "image": Image(),
            "action": action_fields(),
            "action_text": Value("string"),
            "reward": Value("float64"),
            "label": Value("string"),
            "perturbation": Value("string"),
            "source": Value("string"),
            "group": Value("string"),
            "detail": Value("string"),
        }
    )


def find_reward_files(paths: Iterable[str | Path]) -> list[Path]:
    """``reward.jsonl`` files named directly or found below the given folders."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file() and path.name == REWARD_FILE:
            files.append(path)
        elif path.is_dir():
            files.extend(sorted(path.rglob(REWARD_FILE)))
    return files


def read_samples(file: Path) -> Iterator[tuple[int, RewardSample | str]]:
    """Each line's sample, or the reason the line is unusable (line numbers from 1)."""
    with open(file, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield number, RewardSample.model_validate(json.loads(line))
            except json.JSONDecodeError as exc:
                yield number, f"invalid JSON: {exc.msg}"
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"]) or "record"
                yield number, f"field '{where}': {first['msg']}"


def no_reward_data_error(paths: Iterable[str | Path]) -> ExportError:
    shown = ", ".join(str(p) for p in paths)
    return ExportError(
        f"--format reward found no {REWARD_FILE} under {shown}. It exports the replayer's reward samples "
        f"(schema: gui_agent.export.reward.RewardSample); the replayer that writes them is not built yet, "
        "so use --format steps or sft for recorded episodes"
    )
