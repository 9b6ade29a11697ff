"""What the review page of one item shows: its outcome, both verdicts, every step with its
keyframe and edit controls, read from the episode (through :mod:`gui_agent.episode`).

:func:`review_context` turns an item and its episode folder into plain values for
``templates/review.html``; the template lays them out and Jinja2 escapes every one of
them. A person reads the page: nothing on it is a JSON dump. Keyframes are fetched from
``/api/items/ID/frames/N`` under the same sign-in, with the action drawn over them as
``gui-agent review`` draws it (:func:`gui_agent.recorder.review.action_svg`, whose SVG escapes
its own text and so is the one markup the template takes as is).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup

from gui_agent.station.queue import Item


@dataclass(frozen=True)
class CheckRow:
    """One check of the evaluator's report, with the checks it is made of."""

    check: str
    passed: bool
    reason: str
    children: list[CheckRow]


@dataclass(frozen=True)
class StepRow:
    """One step: what was done, the annotator's marks on it, and its keyframe."""

    index: int
    action: str
    t: float
    mistake: bool
    note: str
    merged: int | None  # how many steps it was merged from
    typed: str | None  # the text of a type step (None for other kinds)
    last: bool
    keyframe: bool
    drawing: Markup  # the action as SVG elements, in screen pixels


@dataclass(frozen=True)
class Summary:
    """The head of the page: both verdicts and the episode's facts."""

    evaluator: str
    evaluator_reason: str | None
    annotator_said: str
    disagreement: bool
    annotator_notes: str | None
    duration_s: float
    task_source: str
    seed: Any
    episode_id: str
    episode_status: str
    episode_notes: str | None  # shown when they are not the annotator's notes again


@dataclass(frozen=True)
class EpisodeView:
    """Everything the page shows of a finished episode."""

    summary: Summary
    checks: CheckRow | None
    steps: list[StepRow]
    width: int
    height: int
    version: str  # changes with the steps, so a browser never shows a cached frame of another version
    edited: dict[str, Any] | None  # the episode's ``labels.edited`` once it has edits
    notes: str  # the episode's notes, for the edit field
    max_note: int
    max_text: int


def review_context(item: Item, folder: Path | None, *, reviewer: bool) -> dict[str, Any]:
    """The values ``templates/review.html`` renders for ``item`` (its episode in ``folder``, if any)."""
    return {"item": item, "decision": decision_text(item.review), "reviewer": reviewer,
            "episode": episode_view(folder) if folder is not None else None}


def decision_text(review: dict[str, Any] | None) -> str:
    """A reviewer's decision as the page says it (a withdrawn one with its reason)."""
    decision = review or {}
    if decision.get("decision"):
        return f"{decision['decision']} by {decision.get('by')}"
    if decision.get("withdrawn") and decision.get("notes"):
        return f"not reviewed yet ({decision['notes']})"
    return "not reviewed yet"


def episode_view(folder: Path) -> EpisodeView:
    """The page's view of the episode in ``folder`` (read leniently: a damaged step is left out, not fatal)."""
    from gui_agent.episode import read_episode
    from gui_agent.episode.edit import MAX_NOTE, MAX_TEXT, is_edited
    from gui_agent.episode.labels import EDITED, NOTES

    episode = read_episode(folder, lenient=True)
    meta = episode.meta
    outcome = meta.outcome
    edited = EDITED.get(meta.labels) if is_edited(folder) else None
    steps_file = folder / "steps.jsonl"
    return EpisodeView(
        summary=_summary(episode), checks=check_rows(outcome.detail if outcome is not None else None),
        steps=[_step_row(step, last=step.index == len(episode.steps) - 1) for step in episode.steps],
        width=meta.env.screen.width, height=meta.env.screen.height,
        version=hashlib.sha256(steps_file.read_bytes() if steps_file.is_file() else b"").hexdigest()[:12],
        edited=dict(edited) if edited is not None else None, notes=NOTES.get(meta.labels) or "",
        max_note=MAX_NOTE, max_text=MAX_TEXT)


def _verdict(value: Any) -> str:
    return {True: "success", False: "failure", None: "not judged"}.get(value, str(value))


def _summary(episode: Any) -> Summary:
    from gui_agent.episode.labels import ANNOTATOR_VERDICT, DISAGREEMENT, NOTES, SEED

    meta, outcome, labels = episode.meta, episode.meta.outcome, episode.meta.labels
    verdict = ANNOTATOR_VERDICT.get(labels) or {}
    notes = NOTES.get(labels)
    return Summary(
        evaluator=_verdict(outcome.success if outcome else None),
        evaluator_reason=outcome.reason if outcome and outcome.reason else None,
        annotator_said="gave up" if verdict.get("gave_up") else _verdict(verdict.get("success")),
        disagreement=bool(DISAGREEMENT.get(labels)), annotator_notes=verdict.get("notes") or None,
        duration_s=meta.stats.duration_s, task_source=meta.task.source or "", seed=SEED.get(labels),
        episode_id=meta.episode_id, episode_status=meta.status,
        # The recorder keeps the annotator's notes there too: shown once.
        episode_notes=notes if notes and notes != verdict.get("notes") else None)


def check_rows(report: Any) -> CheckRow | None:
    """The evaluator's report (``outcome.detail``) as a tree of checks; None if it is not one."""
    if not isinstance(report, dict) or "check" not in report:
        return None
    children = [row for row in (check_rows(child) for child in report.get("children") or []) if row is not None]
    return CheckRow(check=str(report.get("check")), passed=bool(report.get("passed")),
                    reason=str(report.get("reason", "")), children=children)


def _action_text(action: dict[str, Any]) -> str:
    from gui_agent.actions import action_from_dict, action_to_text

    try:
        return action_to_text(action_from_dict(action))
    except Exception:  # noqa: BLE001 - an action this version cannot read is still shown
        return ", ".join(f"{k}={v}" for k, v in action.items())


def _step_row(step: Any, *, last: bool) -> StepRow:
    from gui_agent.recorder.review import action_svg

    merged = step.info.get("merged")
    return StepRow(
        index=step.index, action=_action_text(step.action), t=step.t, mistake=bool(step.info.get("mistake")),
        note=str(step.info.get("note") or ""), merged=len(merged) if isinstance(merged, list) else None,
        typed=step.action.get("text", "") if step.action.get("kind") == "type" else None, last=last,
        keyframe=bool(step.frame_before), drawing=Markup(action_svg(step.action, 1.0)))
