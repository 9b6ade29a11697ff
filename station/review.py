"""The review page of one item: its outcome, both verdicts, and every step with its keyframe.

Rendered on the server from the episode (through :mod:`gui_agent.episode`), every value
escaped; a person reads it, nothing on it is a JSON dump. Keyframes are fetched from
``/api/items/ID/frames/N`` under the same sign-in.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from station.queue import Item


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _verdict(value: Any) -> str:
    return {True: "success", False: "failure", None: "not judged"}.get(value, str(value))


def _action_text(action: dict[str, Any]) -> str:
    from gui_agent.actions import action_from_dict, action_to_text

    try:
        return action_to_text(action_from_dict(action))
    except Exception:  # noqa: BLE001 - an action this version cannot read is still shown
        return ", ".join(f"{k}={v}" for k, v in action.items())


def _checks(report: Any, depth: int = 0) -> list[str]:
    """The evaluator's report as nested list items: check, passed, reason."""
    if not isinstance(report, dict) or "check" not in report:
        return []
    mark = "passed" if report.get("passed") else "failed"
    rows = [f'<li class="{mark}"><b>{_e(report.get("check"))}</b> {mark}: {_e(report.get("reason", ""))}']
    children = report.get("children") or []
    if children:
        rows.append("<ul>")
        for child in children:
            rows.extend(_checks(child, depth + 1))
        rows.append("</ul>")
    rows.append("</li>")
    return rows


def render_review(item: Item, folder: Path | None, *, reviewer: bool = False) -> str:
    head = (f'<!doctype html><html><head><meta charset="utf-8"><title>Review {_e(item.item_id)}</title>'
            '<link rel="stylesheet" href="/static/style.css"></head><body>'
            f'<p><a href="/">&larr; all tasks</a></p><h1>{_e(item.task_id)} <small>{_e(item.item_id)}, '
            f'repeat {item.repeat + 1}, {_e(item.annotator)}</small></h1><p class="instruction">{_e(item.instruction)}</p>')
    if folder is None:
        return head + f"<p>No finished episode yet (the item is {_e(item.status)}).</p></body></html>"
    from gui_agent.episode import read_episode

    episode = read_episode(folder, lenient=True)
    meta = episode.meta
    outcome = meta.outcome
    labels = meta.labels
    verdict = (labels.get("annotator_verdict") or {})
    parts = [head, '<section class="summary"><dl>']
    parts.append(f"<dt>Evaluator</dt><dd>{_e(_verdict(outcome.success if outcome else None))}"
                 f"{' &mdash; ' + _e(outcome.reason) if outcome and outcome.reason else ''}</dd>")
    parts.append(f"<dt>Annotator said</dt><dd>{_e('gave up' if verdict.get('gave_up') else _verdict(verdict.get('success')))}</dd>")
    if labels.get("disagreement"):
        parts.append('<dt>Flag</dt><dd class="flag">The evaluator and the annotator disagree: review this episode.</dd>')
    if verdict.get("notes"):
        parts.append(f"<dt>Notes</dt><dd>{_e(verdict['notes'])}</dd>")
    parts.append(f"<dt>Steps</dt><dd>{len(episode.steps)} in {meta.stats.duration_s:.1f} s</dd>")
    parts.append(f"<dt>Task file</dt><dd>{_e(meta.task.source or '')} (seed {_e(labels.get('seed'))})</dd>")
    parts.append(f"<dt>Episode</dt><dd>{_e(meta.episode_id)} ({_e(meta.status)})</dd>")
    decision = item.review or {}
    shown = f"{decision['decision']} by {decision.get('by')}" if decision.get("decision") else "not reviewed yet"
    parts.append(f'<dt>Review</dt><dd id="decision">{_e(shown)}</dd></dl></section>')
    if reviewer:
        parts.append(f'<section class="controls" data-item="{_e(item.item_id)}"><label>Review notes <input id="review-notes" size="50"></label> '
                     '<button id="accept">Accept</button><button id="reject">Reject</button></section>'
                     '<script type="module" src="/static/review.js"></script>')
    if outcome is not None and isinstance(outcome.detail, dict) and outcome.detail.get("check"):
        parts.append("<section><h2>Checks</h2><ul class=\"checks\">" + "".join(_checks(outcome.detail)) + "</ul></section>")
    parts.append('<section><h2>Steps</h2><ol class="steps">')
    from recorder.review import action_svg

    width, height = meta.env.screen.width, meta.env.screen.height
    arrow = ('<defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="4" refY="4" orient="auto">'
             '<path d="M0,0 L8,4 L0,8 z" fill="#ff1493"/></marker></defs>')
    for step in episode.steps:
        # The keyframe with its action drawn over it, as `gui-agent review` draws it (screen pixels).
        image = (f'<div class="frame"><img loading="lazy" alt="screen before step {step.index}" '
                 f'src="/api/items/{_e(item.item_id)}/frames/{step.index}">'
                 f'<svg viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">{arrow}{action_svg(step.action, 1.0)}</svg></div>'
                 if step.frame_before else '<p class="muted">no keyframe</p>')
        typed = step.action.get("text") if step.action.get("kind") == "type" else None
        parts.append(f'<li class="step"><div class="what"><b>{step.index + 1}.</b> {_e(_action_text(step.action))}'
                     f' <span class="muted">at {step.t:.2f} s</span>'
                     + (f'<div class="typed">typed: <code>{_e(typed)}</code></div>' if typed else "")
                     + f"</div>{image}</li>")
    parts.append("</ol>")
    parts.append(f'<h3>Final screen</h3><img alt="final screen" src="/api/items/{_e(item.item_id)}/frames/{len(episode.steps)}">')
    parts.append("</section></body></html>")
    return "".join(parts)
