"""The review page of one item (its outcome, both verdicts, every step with its keyframe)
and the edits made from it.

The page is rendered on the server from the episode (through :mod:`gui_agent.episode`),
every value escaped; a person reads it, nothing on it is a JSON dump. Keyframes are
fetched from ``/api/items/ID/frames/N`` under the same sign-in. Each step has its edit
buttons (``review.js`` posts them to ``/api/items/ID/edit`` and reloads the page).

Edits (:func:`edit_episode`) are :mod:`gui_agent.episode.edit`'s: this module only checks
the request and keeps the review consistent. Once a reviewer has decided, only a reviewer
edits the episode. An acceptance is about the episode the reviewer saw, so an edit
withdraws it (the item is "not reviewed" again, in the queue and in the episode's
``labels.review``) and the episode must be accepted again before it is exported; a
rejection stands.
"""

from __future__ import annotations

import hashlib
import html
from pathlib import Path
from typing import Any

from gui_agent.episode.edit import EditError
from station.queue import Item, TaskQueue

#: Edits that are not logged operations: they move back through the log.
HISTORY_OPS = ("undo", "reset")


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


class ReviewLocked(Exception):
    """An annotator's edit of an episode a reviewer has decided on (answered 409)."""


def edit_episode(queue: TaskQueue, item: Item, folder: Path, body: Any, *, by: str, reviewer: bool) -> dict[str, Any]:
    """Apply one edit request (``{"op": "delete", "steps": [3]}``, ``{"op": "reset"}``, ...) to the item's episode.

    The request is checked against the episode before anything changes. The edit and the
    episode's copy of the review are one write; the queue follows. So a failed edit changes
    nothing, and a crash between the two writes leaves an episode that is either the one
    accepted or one no longer marked accepted, never an edited episode marked accepted.

    Raises:
        EditError: a malformed request or one that does not fit the episode (a 400).
        ReviewLocked: ``by`` is not a reviewer and a reviewer has decided on the episode.
    """
    from gui_agent.episode import edit as episode_edit

    if not isinstance(body, dict):
        raise EditError("the body must be a JSON object with an 'op'")
    op = body.get("op")
    if op in HISTORY_OPS:
        if set(body) != {"op"}:
            raise EditError(f"{op} takes no other fields")
        if not episode_edit.is_edited(folder):
            raise EditError("the episode has no edits; it is already the original")
        edit = None
    else:
        edit = episode_edit.check_edit(folder, body)
    current = item.review or {}
    if current.get("decision") in ("accepted", "rejected") and not reviewer:
        raise ReviewLocked(f"a reviewer has {current['decision']} this episode: only a reviewer edits it now")
    withdrawn = None
    if current.get("decision") == "accepted":
        note = f"accepted by {current.get('by')}, withdrawn: {by} edited the episode"
        withdrawn = queue.review_record({"decision": None, "by": by, "notes": note, "withdrawn": dict(current)})
    # The queue's verdict is the one that stands: an undone or restored episode.json would
    # otherwise bring back the verdict of its own time.
    review = withdrawn if withdrawn is not None else item.review
    labels = {"review": review} if review is not None else None
    if edit is None:
        episode = episode_edit.undo(folder, labels=labels) if op == "undo" else episode_edit.reset(folder, labels=labels)
    else:
        episode = episode_edit.apply_edit(folder, edit, by=by, labels=labels)
    if withdrawn is not None:
        queue.set_review(item.item_id, withdrawn)
    return {"steps": len(episode.steps), "edits": len(episode_edit.read_edits(folder)),
            "review_withdrawn": withdrawn is not None}


def _textarea(name: str, value: str, label: str, *, rows: int = 1, max_length: int) -> str:
    # The newline after the tag is eaten by the HTML parser, so a text's own first newline survives.
    return (f'<label>{_e(label)} <textarea data-field="{name}" rows="{rows}" cols="40" maxlength="{max_length}">\n'
            f"{_e(value)}</textarea></label>")


def _step_controls(step: Any, last: bool) -> str:
    from gui_agent.episode.edit import MAX_NOTE, MAX_TEXT

    kind = step.action.get("kind")
    mistake = bool(step.info.get("mistake"))
    parts = ['<div class="step-controls">', '<button data-op="delete">Delete</button>']
    if not last:
        parts.append('<button data-op="merge">Merge with next</button>')
    parts.append(f'<button data-op="mistake" data-value="{"false" if mistake else "true"}">'
                 f'{"Not a mistake" if mistake else "Mark as mistake"}</button>')
    if kind == "type":
        parts.append('<span class="field">' + _textarea("text", step.action.get("text", ""), "Text", max_length=MAX_TEXT)
                     + '<button data-op="set_text">Fix text</button></span>')
    parts.append('<span class="field">' + _textarea("note", step.info.get("note") or "", "Note", max_length=MAX_NOTE)
                 + '<button data-op="note">Save note</button></span>')
    parts.append("</div>")
    return "".join(parts)


def _edit_panel(meta: Any, n_steps: int, folder: Path) -> str:
    from gui_agent.episode.edit import MAX_NOTE, is_edited

    edited = meta.labels.get("edited") if is_edited(folder) else None
    parts = ['<section class="edit-panel"><h2>Edit</h2>']
    if isinstance(edited, dict):
        parts.append(f'<p id="edited">Edited: {_e(edited.get("edits"))} edit(s), the last by {_e(edited.get("by"))}; '
                     f'the original had {_e(edited.get("original_steps"))} steps and is kept. '
                     '<button id="undo">Undo last edit</button><button id="reset">Back to original</button></p>')
    else:
        parts.append('<p id="edited" class="muted">Not edited: this is the episode as recorded.</p>')
    parts.append(f'<p>Keep steps <input id="trim-first" type="number" min="1" max="{n_steps}" value="1"> to '
                 f'<input id="trim-last" type="number" min="1" max="{n_steps}" value="{n_steps}"> '
                 '<button id="trim">Trim</button></p>')
    parts.append('<p class="field">' + _textarea("episode-notes", meta.labels.get("notes") or "", "Episode notes", rows=2,
                                                 max_length=MAX_NOTE)
                 + '<button id="save-notes">Save notes</button></p>')
    parts.append('<p id="edit-status" class="error" role="alert"></p></section>')
    return "".join(parts)


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
    if labels.get("notes") and labels["notes"] != verdict.get("notes"):  # the recorder keeps the annotator's notes there too
        parts.append(f"<dt>Episode notes</dt><dd>{_e(labels['notes'])}</dd>")
    decision = item.review or {}
    shown = f"{decision['decision']} by {decision.get('by')}" if decision.get("decision") else (
        f"not reviewed yet ({decision['notes']})" if decision.get("withdrawn") and decision.get("notes") else "not reviewed yet")
    parts.append(f'<dt>Review</dt><dd id="decision">{_e(shown)}</dd></dl></section>')
    # Whoever may see the page may edit: a reviewer any item, an annotator their own.
    parts.append(f'<div id="item" data-item="{_e(item.item_id)}" hidden></div>'
                 '<script type="module" src="/static/review.js"></script>')
    if reviewer:
        parts.append('<section class="controls"><label>Review notes <input id="review-notes" size="50"></label> '
                     '<button id="accept">Accept</button><button id="reject">Reject</button></section>')
    parts.append(_edit_panel(meta, len(episode.steps), folder))
    if outcome is not None and isinstance(outcome.detail, dict) and outcome.detail.get("check"):
        parts.append("<section><h2>Checks</h2><ul class=\"checks\">" + "".join(_checks(outcome.detail)) + "</ul></section>")
    parts.append('<section><h2>Steps</h2><ol class="steps">')
    from recorder.review import action_svg

    width, height = meta.env.screen.width, meta.env.screen.height
    # Frame N is another picture after an edit: the version keeps a browser from showing a cached one.
    steps_file = folder / "steps.jsonl"
    version = hashlib.sha256(steps_file.read_bytes() if steps_file.is_file() else b"").hexdigest()[:12]
    arrow = ('<defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="4" refY="4" orient="auto">'
             '<path d="M0,0 L8,4 L0,8 z" fill="#ff1493"/></marker></defs>')
    for step in episode.steps:
        # The keyframe with its action drawn over it, as `gui-agent review` draws it (screen pixels).
        image = (f'<div class="frame"><img loading="lazy" alt="screen before step {step.index + 1}" '
                 f'src="/api/items/{_e(item.item_id)}/frames/{step.index}?v={version}">'
                 f'<svg viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">{arrow}{action_svg(step.action, 1.0)}</svg></div>'
                 if step.frame_before else '<p class="muted">no keyframe</p>')
        typed = step.action.get("text") if step.action.get("kind") == "type" else None
        mistake = bool(step.info.get("mistake"))
        merged = step.info.get("merged")
        parts.append(f'<li class="step{" mistake" if mistake else ""}" id="step-{step.index}" data-step="{step.index}">'
                     f'<div class="what"><b>{step.index + 1}.</b> {_e(_action_text(step.action))}'
                     f' <span class="muted">at {step.t:.2f} s</span>'
                     + (' <span class="badge">mistake</span>' if mistake else "")
                     + (f'<div class="typed">typed: <code>{_e(typed)}</code></div>' if typed else "")
                     + (f'<div class="note">Note: {_e(step.info["note"])}</div>' if step.info.get("note") else "")
                     + (f'<div class="muted">merged from {len(merged)} steps</div>' if isinstance(merged, list) else "")
                     + f"</div>{_step_controls(step, step.index == len(episode.steps) - 1)}{image}</li>")
    parts.append("</ol>")
    parts.append(f'<h3>Final screen</h3><img alt="final screen" '
                 f'src="/api/items/{_e(item.item_id)}/frames/{len(episode.steps)}?v={version}">')
    parts.append("</section></body></html>")
    return "".join(parts)
