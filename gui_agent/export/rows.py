"""Trajectory records <-> table rows, both ways, for the ``steps`` and ``episodes`` configs.

Export builds rows from :class:`~gui_agent.episode.EpisodeMeta` and
:class:`~gui_agent.episode.StepRecord`; import turns rows back into the very same records
(validated by their pydantic models, so a tampered dataset fails loudly). Frames travel as
the frame files (PNG or WebP) found on disk, never decoded and re-encoded: that is what makes the round
trip bit-exact and keeps masked regions exactly as the recorder left them.
"""

from __future__ import annotations

import json
import typing
from functools import lru_cache
from typing import Any

from gui_agent.actions import (
    ACTION_TYPES,
    action_from_dict,
    action_to_dict,
    action_to_text,
)
from gui_agent.episode.format import EpisodeMeta, Outcome, StepRecord, Usage
from gui_agent.export.features import SCRUB_KINDS, action_fields
from gui_agent.export.scrub import Scrubber

#: An image cell: the encoded file and the path it had inside its episode folder.
ImageCell = dict[str, Any]


def image_cell(data: bytes | None, path: str | None) -> ImageCell | None:
    return None if data is None else {"bytes": data, "path": path}


def to_json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def from_json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


@lru_cache(maxsize=1)
def _free_text_action_fields() -> frozenset[str]:
    """Action fields holding free text (``str``, not a ``Literal`` of names): scrubbed."""
    names = set()
    for cls in ACTION_TYPES:
        for name, hint in typing.get_type_hints(cls).items():
            if hint is str or hint == (str | None):
                names.add(name)
    return frozenset(names)


def scrub_action(action: dict[str, Any], scrubber: Scrubber) -> dict[str, Any]:
    return {
        key: scrubber.text(value) if key in _free_text_action_fields() and isinstance(value, str) else value
        for key, value in action.items()
    }


def action_row(action: dict[str, Any]) -> dict[str, Any]:
    """The struct cell of a canonical action dict (fields it lacks are null)."""
    return {name: action.get(name) for name in action_fields()}


def action_from_row(cell: dict[str, Any]) -> dict[str, Any]:
    """The canonical action dict of a struct cell, validated by the action's own class."""
    kind = cell.get("kind")
    for cls in ACTION_TYPES:
        if cls.kind == kind:  # type: ignore[attr-defined]
            names = [f for f in cls.__dataclass_fields__ if f != "kind"]
            data = {"kind": kind, **{name: cell.get(name) for name in names}}
            return action_to_dict(action_from_dict(data))
    return action_to_dict(action_from_dict({"kind": kind}))  # raises ActionError naming the kind


def step_row(
    meta: EpisodeMeta,
    step: StepRecord,
    *,
    instruction: str,
    image: ImageCell | None,
    image_after: ImageCell | None,
    scrubber: Scrubber,
) -> dict[str, Any]:
    """One ``steps`` row. ``instruction`` is the episode's, already scrubbed."""
    action = scrub_action(step.action, scrubber)
    return {
        "episode_id": meta.episode_id,
        "step_index": step.index,
        "task_id": meta.task.id,
        "instruction": instruction,
        "app": meta.env.app,
        "image": image,
        "image_after": image_after,
        "action": action_row(action),
        "action_text": action_to_text(action_from_dict(action)),
        "thought": scrubber.text(step.thought) if step.thought is not None else None,
        "target": to_json(scrubber.value(step.target)),
        "reward": step.reward,
        "error": scrubber.text(step.error) if step.error is not None else None,
        "t": step.t,
        "usage": step.usage.model_dump() if step.usage is not None else None,
        "timings": to_json(step.timings),
        "events": list(step.events) if step.events is not None else None,
        "info": to_json(scrubber.value(step.info)),
        "mistake": is_mistake(step.info),
        "episode_success": meta.outcome.success if meta.outcome is not None else None,
    }


def is_mistake(info: dict[str, Any]) -> bool:
    """Whether a reviewer marked the step a mistake (``info["mistake"] is True``)."""
    return info.get("mistake") is True


def info_from_row(row: dict[str, Any]) -> dict[str, Any]:
    """A step's ``info`` from its row: the ``info`` JSON, with the ``mistake`` column's say.

    The column is derived from ``info`` on export, so the two agree unless someone edited
    the dataset; then the column, the one people see and filter on, wins. A dataset from
    before the column (no ``mistake`` in the row) keeps ``info`` as it is.
    """
    info = from_json(row.get("info")) or {}
    mistake = row.get("mistake")
    if mistake is True and not is_mistake(info):
        info["mistake"] = True
    elif mistake is False and is_mistake(info):
        del info["mistake"]
    return info


def step_from_row(row: dict[str, Any]) -> StepRecord:
    """The step record of a ``steps`` row (frame paths from the image cells)."""
    image, after = row.get("image"), row.get("image_after")
    return StepRecord(
        index=row["step_index"],
        t=row["t"],
        action=action_from_row(row["action"]),
        frame_before=image["path"] if image else None,
        frame_after=after["path"] if after else None,
        target=from_json(row.get("target")),
        thought=row.get("thought"),
        usage=Usage(**row["usage"]) if row.get("usage") is not None else None,
        reward=row.get("reward"),
        error=row.get("error"),
        timings=from_json(row.get("timings")) or {},
        events=tuple(row["events"]) if row.get("events") is not None else None,  # type: ignore[arg-type]
        info=info_from_row(row),
    )


def episode_row(
    meta: EpisodeMeta,
    *,
    instruction: str,
    final_image: ImageCell | None,
    scrubbed: dict[str, int] | None,
    scrubber: Scrubber,
    video: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One ``episodes`` row; ``video`` holds the ``video`` and ``video_timestamps`` cells when exported."""
    outcome = meta.outcome or Outcome()
    row = {
        "episode_id": meta.episode_id,
        "format_version": meta.format_version,
        "created_at": meta.created_at,
        "task_id": meta.task.id,
        "instruction": instruction,
        "task_source": meta.task.source,
        "env_kind": meta.env.kind,
        "app": meta.env.app,
        "screen_width": meta.env.screen.width,
        "screen_height": meta.env.screen.height,
        "scale": meta.env.scale,
        "actor_type": meta.actor.type,
        "actor_name": meta.actor.name,
        "status": meta.status,
        "success": outcome.success,
        "reward": outcome.reward,
        "termination": outcome.termination,
        "reason": scrubber.text(outcome.reason) if outcome.reason is not None else None,
        "detail": to_json(scrubber.value(outcome.detail)),
        "labels": to_json(scrubber.value(meta.labels)),
        "num_steps": meta.stats.steps,
        "duration_s": meta.stats.duration_s,
        "final_image": final_image,
        "scrubbed": scrubbed,
    }
    if video is not None:
        row.update(video)
    return row


def meta_from_row(row: dict[str, Any]) -> EpisodeMeta:
    """The episode.json of an ``episodes`` row. An outcome with no field set reads as none."""
    outcome_fields = {
        "success": row.get("success"),
        "reward": row.get("reward"),
        "termination": row.get("termination"),
        "reason": row.get("reason"),
        "detail": from_json(row.get("detail")),
    }
    outcome = Outcome(**outcome_fields) if any(v is not None for v in outcome_fields.values()) else None
    return EpisodeMeta.model_validate(
        {
            "format_version": row["format_version"],
            "episode_id": row["episode_id"],
            "created_at": row["created_at"],
            "task": {"id": row["task_id"], "instruction": row["instruction"], "source": row.get("task_source")},
            "env": {
                "kind": row["env_kind"],
                "app": row.get("app"),
                "screen": {"width": row["screen_width"], "height": row["screen_height"]},
                "scale": row["scale"],
            },
            "actor": {"type": row["actor_type"], "name": row["actor_name"]},
            "status": row["status"],
            "outcome": outcome.model_dump() if outcome is not None else None,
            "labels": from_json(row.get("labels")) or {},
            "stats": {"steps": row["num_steps"], "duration_s": row["duration_s"]},
        }
    )


def empty_scrub_counts() -> dict[str, int]:
    return {kind: 0 for kind in SCRUB_KINDS}
