"""A self-contained HTML page to review an episode: frames with actions drawn, a timeline, labels.

Everything is inlined (frames as base64 images, CSS, no script, no network), so the file
can be mailed or opened offline. It opens on what a reviewer reads first: the task, the
outcome, who acted where, the notes; episode.json itself is at the end, folded. Each step
shows its keyframe with the action drawn in an SVG layer in screen pixels: a ring at a
click (count rings for double/triple), a line with an arrow for a drag, an arrow for a
scroll, a box with the typed text, a label for a hotkey. Masked text is shown as typed
(stars). A label is sized to fit its frame (smaller type on a small frame, cut with "…"
past that), never clipped by its box or the frame's edge.
"""

from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path
from typing import Any

from PIL import Image

from gui_agent.actions import action_from_dict, action_to_text
from gui_agent.episode.reader import Episode, read_episode

#: Frames are embedded at most this wide (JPEG), keeping pages small; drawing scales with them.
MAX_FRAME_WIDTH = 1280

_CSS = """
body{font-family:sans-serif;margin:16px;background:#f4f4f4;color:#222}
h1{font-size:20px;margin:0 0 8px} .meta{background:#fff;padding:8px 12px;border:1px solid #ccc}
.timeline{position:relative;height:28px;background:#fff;border:1px solid #ccc;margin:12px 0}
.tick{position:absolute;top:2px;width:4px;height:24px;background:#d22}
.step{background:#fff;border:1px solid #ccc;margin:12px 0;padding:8px}
.step h2{font-size:15px;margin:0 0 6px;font-family:monospace}
.frame{position:relative;display:inline-block} .frame img{display:block;max-width:100%}
.frame svg{position:absolute;left:0;top:0;width:100%;height:100%}
.noframe{padding:24px;background:#eee;color:#777}
pre{margin:0;white-space:pre-wrap}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
.facts dt{font-weight:bold;color:#555} .facts dd{margin:0;overflow-wrap:anywhere}
.ok{color:#0a7d28;font-weight:bold} .bad{color:#c0182b;font-weight:bold} .none{color:#8a6d00;font-weight:bold}
details.raw{margin:12px 0} details.raw summary{cursor:pointer;color:#555}
"""
#: A monospace glyph's advance in em (DejaVu Sans Mono and its kind: 0.602).
_MONO_ADVANCE = 0.6
#: Label type size in frame pixels: at most this, and at least the smaller, cut with "…" below it.
_LABEL_SIZE, _LABEL_MIN_SIZE = 20.0, 9.0

_COLOR = "#ff1493"


def _embed(path: Path) -> tuple[str, int, int, float]:
    with Image.open(path) as image:
        image = image.convert("RGB")
        scale = min(1.0, MAX_FRAME_WIDTH / image.width)
        if scale < 1.0:
            image = image.resize((round(image.width * scale), round(image.height * scale)))
        buf = io.BytesIO()
        image.save(buf, format="JPEG", quality=80)
        return base64.b64encode(buf.getvalue()).decode("ascii"), image.width, image.height, scale


def _label(text: str, frame_width: float) -> str:
    """A box with ``text`` at the frame's top left, its type sized so box and text fit the frame.

    The text is drawn at a width of its own (``textLength``), which the box is made for, so no
    font's glyphs can run past the box; a text too long even in the smallest type is cut.
    """
    room = max(frame_width - 16 - 16, 1.0)  # 8 px margin and 8 px padding, each side
    size = max(_LABEL_MIN_SIZE, min(_LABEL_SIZE, room / (_MONO_ADVANCE * max(len(text), 1))))
    fits = max(1, int(room / (_MONO_ADVANCE * size)))
    if len(text) > fits:
        text = text[: max(fits - 1, 0)] + "…"
    text_width = _MONO_ADVANCE * size * len(text)
    height = round(size * 1.7, 1)
    return (f'<rect class="act-label" x="8" y="8" width="{text_width + 16:.1f}" height="{height}" fill="{_COLOR}" opacity="0.85"/>'
            f'<text x="16" y="{8 + height / 2:.1f}" dominant-baseline="central" font-size="{size:.1f}" font-family="monospace" '
            f'fill="#fff" textLength="{text_width:.1f}" lengthAdjust="spacingAndGlyphs">{html.escape(text)}</text>')


def action_svg(action: dict[str, Any], scale: float, frame_width: float | None = None) -> str:
    """SVG elements drawing one action (coordinates in screen pixels, scaled; labels fit ``frame_width``)."""
    kind = action.get("kind")
    s = scale
    out: list[str] = []
    if kind in ("click", "move"):
        x, y = action["x"] * s, action["y"] * s
        for i in range(int(action.get("count", 1))):
            out.append(f'<circle class="act-click" cx="{x:.1f}" cy="{y:.1f}" r="{10 + 6 * i}" fill="none" stroke="{_COLOR}" stroke-width="4"/>')
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{_COLOR}"/>')
    elif kind == "drag":
        x1, y1, x2, y2 = (action[k] * s for k in ("x1", "y1", "x2", "y2"))
        out.append(f'<line class="act-drag" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{_COLOR}" '
                   f'stroke-width="4" marker-end="url(#arrow)"/><circle cx="{x1:.1f}" cy="{y1:.1f}" r="6" fill="{_COLOR}"/>')
    elif kind == "scroll":
        x, y = action["x"] * s, action["y"] * s
        dx, dy = action.get("dx", 0), action.get("dy", 0)
        out.append(f'<line class="act-scroll" x1="{x:.1f}" y1="{y:.1f}" x2="{x + 15 * dx:.1f}" y2="{y + 15 * dy:.1f}" '
                   f'stroke="{_COLOR}" stroke-width="4" marker-end="url(#arrow)"/>')
    elif kind in ("type", "hotkey"):
        text = action["text"] if kind == "type" else "+".join(action["keys"])
        out.append(f'<g class="act-{kind}">{_label(text.replace(chr(10), "⏎"), frame_width or 1280 * s)}</g>')
    return "".join(out)


def _frame_block(episode: Episode, rel: str | None, action: dict[str, Any] | None) -> str:
    if rel is None or not (episode.path / rel).is_file():
        return '<div class="noframe">no keyframe</div>'
    data, w, h, scale = _embed(episode.path / rel)
    svg = action_svg(action, scale, w) if action else ""
    return (f'<div class="frame"><img src="data:image/jpeg;base64,{data}" width="{w}" height="{h}">'
            f'<svg viewBox="0 0 {w} {h}" xmlns="http://www.w3.org/2000/svg"><defs><marker id="arrow" '
            f'markerWidth="8" markerHeight="8" refX="4" refY="4" orient="auto"><path d="M0,0 L8,4 L0,8 z" '
            f'fill="{_COLOR}"/></marker></defs>{svg}</svg></div>')


def render_review(episode_path: str | Path) -> str:
    """The review page of an episode, as HTML text."""
    episode = read_episode(episode_path, lenient=True)
    meta = episode.meta
    duration = max([meta.stats.duration_s] + [s.t for s in episode.steps] + [1e-6])
    # A tick is 4 px wide: the last step's (at 100 %) is drawn ending at the edge, not past it.
    ticks = "".join(f'<div class="tick" title="step {s.index}" style="left:calc({100 * s.t / duration:.2f}% - '
                    f'{4 * s.t / duration:.2f}px)"></div>' for s in episode.steps)
    meta_text = json.dumps({"task": meta.task.model_dump(), "status": meta.status,
                            "outcome": meta.outcome.model_dump() if meta.outcome else None,
                            "labels": meta.labels, "env": meta.env.model_dump(), "actor": meta.actor.model_dump()},
                           indent=1, ensure_ascii=False)
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>review {html.escape(meta.episode_id)}</title>"
             f"<style>{_CSS}</style></head><body>",
             f"<h1>{html.escape(meta.task.instruction)}</h1>",
             f"<div class='meta'>{_facts(episode)}</div>",
             f"<div class='timeline'>{ticks}</div>"]
    if episode.problems:
        parts.append("<div class='meta'><b>problems:</b><pre>" + html.escape("\n".join(map(str, episode.problems))) + "</pre></div>")
    for step in episode.steps:
        try:
            text = action_to_text(action_from_dict(step.action))
        except Exception:  # noqa: BLE001 - show what is there
            text = json.dumps(step.action)
        extra = []
        if step.events:
            extra.append(f"events {step.events[0]}–{step.events[1]}")
        if step.target:
            extra.append("target " + " ".join(f"{k}={step.target.get(k)!r}" for k in ("tag", "role", "name", "selector", "window") if step.target.get(k)))
        parts.append(f"<div class='step' id='step-{step.index}'><h2>#{step.index}  t={step.t:.2f}s  {html.escape(text)}</h2>"
                     f"<div>{html.escape(' · '.join(extra))}</div>{_frame_block(episode, step.frame_before, step.action)}</div>")
    parts.append(f"<div class='step' id='final'><h2>after the last step</h2>{_frame_block(episode, episode.final_frame, None)}</div>")
    parts.append(f"<details class='raw'><summary>episode.json</summary><div class='meta'><pre>{html.escape(meta_text)}</pre></div></details>")
    parts.append("</body></html>")
    return "".join(parts)


def _facts(episode: Episode) -> str:
    """The episode at a glance, as a definition list: outcome, task, who, where, notes, labels."""
    meta = episode.meta
    outcome = meta.outcome
    rows: list[tuple[str, str]] = []
    if outcome is None:
        verdict = "<span class='none'>not finished</span>"
    else:
        verdict = {True: "<span class='ok'>success</span>", False: "<span class='bad'>failure</span>",
                   None: "<span class='none'>no verdict</span>"}[outcome.success]
        more = [f"reward {outcome.reward:g}" if outcome.reward is not None else "",
                f"ended: {outcome.termination}" if outcome.termination else "",
                outcome.reason or ""]
        verdict += "".join(f" · {html.escape(m)}" for m in more if m)
    rows.append(("outcome", verdict))
    rows.append(("task", html.escape(meta.task.id + (f" ({meta.task.source})" if meta.task.source else ""))))
    rows.append(("by", html.escape(f"{meta.actor.type} {meta.actor.name}")))
    env = meta.env
    rows.append(("where", html.escape(" ".join(str(p) for p in (env.kind, env.app, f"{env.screen.width}x{env.screen.height}") if p))))
    rows.append(("steps", html.escape(f"{len(episode.steps)} in {meta.stats.duration_s:.1f} s · episode {meta.status}")))
    for key, value in meta.labels.items():
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        rows.append((str(key), html.escape(shown)))
    return "<dl class='facts'>" + "".join(f"<dt>{html.escape(k)}</dt><dd>{v}</dd>" for k, v in rows) + "</dl>"


def write_review(episode_path: str | Path, out: str | Path | None = None) -> Path:
    """Write the review page (default: ``EPISODE/review.html``) and return its path."""
    target = Path(out) if out is not None else Path(episode_path) / "review.html"
    target.write_text(render_review(episode_path), encoding="utf-8")
    return target
