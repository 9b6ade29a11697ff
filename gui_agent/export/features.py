"""The declared features (column types) of every exported config.

The action struct and the usage struct are *derived* from their definitions
(:data:`gui_agent.actions.ACTION_TYPES`, :class:`gui_agent.episode.Usage`), so a new
action field shows up in the export without anyone touching this file. Free-form
mappings (a step's ``target``, ``info`` and ``timings``; an episode's ``labels`` and the
evaluator's ``detail``) are JSON text in plain string columns: every Parquet reader
understands them, and they round-trip exactly. One flag of ``info`` has a column of its
own, ``mistake`` (a reviewer marked the step a mistake): it is what a trainer filters
on, and a JSON text column cannot be filtered without parsing every row.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import lru_cache
from typing import Any, Literal, Union

from datasets import Features, Image, List, Value, Video
from pydantic import BaseModel

from gui_agent.actions import ACTION_TYPES
from gui_agent.episode.format import Usage
from gui_agent.export.layout import EPISODES, GROUNDING, OUTCOMES, PREFERENCES, REWARD, SFT, STEPS

#: Kinds of text the scrubber replaces; each is a count column of the ``episodes`` config.
SCRUB_KINDS: tuple[str, ...] = ("email", "phone", "card", "secret")


def _feature_for(annotation: Any, where: str) -> Any:
    """The datasets feature of one Python annotation (nullable by construction)."""
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin in (Union, types.UnionType):
        if len(args) != 1:
            raise TypeError(f"{where}: cannot export a union of {args}")
        return _feature_for(args[0], where)
    if origin is Literal:
        kinds = {type(a) for a in args}
        if kinds != {str}:
            raise TypeError(f"{where}: only string literals are exportable, got {args}")
        return Value("string")
    if origin is tuple or origin is list:
        return List(_feature_for(args[0], where))
    simple = {bool: "bool", int: "int64", float: "float64", str: "string"}
    if annotation in simple:
        return Value(simple[annotation])
    raise TypeError(f"{where}: no export type for {annotation!r}")


@lru_cache(maxsize=1)
def action_fields() -> dict[str, Any]:
    """Every canonical action's fields, merged into one struct (absent fields are null)."""
    fields: dict[str, Any] = {"kind": Value("string")}
    for cls in ACTION_TYPES:
        hints = typing.get_type_hints(cls)
        for field in dataclasses.fields(cls):
            feature = _feature_for(hints[field.name], f"{cls.__name__}.{field.name}")
            if fields.setdefault(field.name, feature) != feature:
                raise TypeError(f"action field {field.name!r} has two types: {fields[field.name]} and {feature}")
    return fields


def _model_fields(model: type[BaseModel]) -> dict[str, Any]:
    return {name: _feature_for(info.annotation, f"{model.__name__}.{name}") for name, info in model.model_fields.items()}


def steps_features() -> Features:
    """One row per step: what the agent saw, what it did, and the episode it belongs to."""
    return Features(
        {
            "episode_id": Value("string"),
            "step_index": Value("int32"),
            "task_id": Value("string"),
            "instruction": Value("string"),
            "app": Value("string"),
            "image": Image(),
            "image_after": Image(),
            "action": action_fields(),
            "action_text": Value("string"),
            "thought": Value("string"),
            "target": Value("string"),
            "reward": Value("float64"),
            "error": Value("string"),
            "t": Value("float64"),
            "usage": _model_fields(Usage),
            "timings": Value("string"),
            "events": List(Value("int64")),
            "info": Value("string"),
            "mistake": Value("bool"),
            "episode_success": Value("bool"),
        }
    )


def episodes_features(*, video: bool = False) -> Features:
    """One row per episode: its metadata, outcome and the frame after the last step."""
    columns: dict[str, Any] = {
        "episode_id": Value("string"),
        "format_version": Value("int32"),
        "created_at": Value("string"),
        "task_id": Value("string"),
        "instruction": Value("string"),
        "task_source": Value("string"),
        "env_kind": Value("string"),
        "app": Value("string"),
        "screen_width": Value("int32"),
        "screen_height": Value("int32"),
        "scale": Value("float64"),
        "actor_type": Value("string"),
        "actor_name": Value("string"),
        "status": Value("string"),
        "success": Value("bool"),
        "reward": Value("float64"),
        "termination": Value("string"),
        "reason": Value("string"),
        "detail": Value("string"),
        "labels": Value("string"),
        "num_steps": Value("int32"),
        "duration_s": Value("float64"),
        "final_image": Image(),
        "scrubbed": {kind: Value("int64") for kind in SCRUB_KINDS},
    }
    if video:
        columns["video"] = Video()
        columns["video_timestamps"] = Value("string")
    return Features(columns)


def sft_features() -> Features:
    """Chat rows for supervised fine-tuning, in the layout TRL's vision SFT reads:
    ``images`` plus ``messages`` whose content parts are ``{"type": "image"}`` placeholders
    (in image order) or ``{"type": "text", "text": ...}``."""
    part = {"type": Value("string"), "text": Value("string")}
    return Features(
        {
            "episode_id": Value("string"),
            "step_index": Value("int32"),
            "task_id": Value("string"),
            "images": List(Image()),
            "messages": List({"role": Value("string"), "content": List(part)}),
        }
    )


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


def outcome_features() -> Features:
    """The ``outcomes`` config's columns."""
    return Features(
        {
            "sample_id": Value("string"),
            "episode_id": Value("string"),
            "task_id": Value("string"),
            "instruction": Value("string"),
            "success": Value("bool"),
            "reward": Value("float64"),
            "steps": Value("int32"),
            "final_image": Image(),
            "perturbation": Value("string"),
            "source": Value("string"),
            "group": Value("string"),
            "detail": Value("string"),
        }
    )


def preference_features() -> Features:
    """The ``preferences`` config's columns (episodes by id: export them with ``--format steps``)."""
    return Features(
        {
            "pair_id": Value("string"),
            "task_id": Value("string"),
            "instruction": Value("string"),
            "chosen_episode_id": Value("string"),
            "rejected_episode_id": Value("string"),
            "chosen_reward": Value("float64"),
            "rejected_reward": Value("float64"),
            "reason": Value("string"),
        }
    )


def config_features(config: str, *, video: bool = False) -> Features:
    """The features of one config by name."""
    if config == STEPS:
        return steps_features()
    if config == EPISODES:
        return episodes_features(video=video)
    if config == SFT:
        return sft_features()
    if config == REWARD:
        return reward_features()
    if config == OUTCOMES:
        return outcome_features()
    if config == PREFERENCES:
        return preference_features()
    if config == GROUNDING:
        from gui_agent.export.grounding import grounding_features

        return grounding_features()
    raise ValueError(f"unknown config {config!r}")
