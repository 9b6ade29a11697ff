"""A self-contained HTML page to review an episode: frames with actions drawn, a timeline, labels.

Everything is inlined (frames as base64 images, CSS, no script, no network), so the file
can be mailed or opened offline. Each step shows its keyframe with the action drawn in an
SVG layer in screen pixels: a ring at a click (count rings for double/triple), a line
with an arrow for a drag, an arrow for a scroll, a box with the typed text, a label for a
hotkey. Masked text is shown as typed (stars).
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
"""

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


def action_svg(action: dict[str, Any], scale: float) -> str:
    """SVG elements drawing one action (coordinates in screen pixels, scaled)."""
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
        label = html.escape(text.replace("\n", "⏎"))
        width = 16 + 11 * len(text)
        out.append(f'<rect class="act-{kind}" x="8" y="8" width="{width}" height="34" fill="{_COLOR}" opacity="0.85"/>'
                   f'<text x="16" y="32" font-size="20" font-family="monospace" fill="#fff">{label}</text>')
    return "".join(out)


def _frame_block(episode: Episode, rel: str | None, action: dict[str, Any] | None) -> str:
    if rel is None or not (episode.path / rel).is_file():
        return '<div class="noframe">no keyframe</div>'
    data, w, h, scale = _embed(episode.path / rel)
    svg = action_svg(action, scale) if action else ""
    return (f'<div class="frame"><img src="data:image/jpeg;base64,{data}" width="{w}" height="{h}">'
            f'<svg viewBox="0 0 {w} {h}" xmlns="http://www.w3.org/2000/svg"><defs><marker id="arrow" '
            f'markerWidth="8" markerHeight="8" refX="4" refY="4" orient="auto"><path d="M0,0 L8,4 L0,8 z" '
            f'fill="{_COLOR}"/></marker></defs>{svg}</svg></div>')


def render_review(episode_path: str | Path) -> str:
    """The review page of an episode, as HTML text."""
    episode = read_episode(episode_path, lenient=True)
    meta = episode.meta
    duration = max([meta.stats.duration_s] + [s.t for s in episode.steps] + [1e-6])
    ticks = "".join(f'<div class="tick" title="step {s.index}" style="left:{100 * s.t / duration:.2f}%"></div>'
                    for s in episode.steps)
    meta_text = json.dumps({"task": meta.task.model_dump(), "status": meta.status,
                            "outcome": meta.outcome.model_dump() if meta.outcome else None,
                            "labels": meta.labels, "env": meta.env.model_dump(), "actor": meta.actor.model_dump()},
                           indent=1, ensure_ascii=False)
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>review {html.escape(meta.episode_id)}</title>"
             f"<style>{_CSS}</style></head><body>",
             f"<h1>{html.escape(meta.task.instruction)}</h1>",
             f"<div class='meta'><pre>{html.escape(meta_text)}</pre></div>",
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
            extra.append("target " + " ".join(f"{k}={step.target.get(k)!r}" for k in ("tag", "role", "name", "selector") if step.target.get(k)))
        parts.append(f"<div class='step' id='step-{step.index}'><h2>#{step.index}  t={step.t:.2f}s  {html.escape(text)}</h2>"
                     f"<div>{html.escape(' · '.join(extra))}</div>{_frame_block(episode, step.frame_before, step.action)}</div>")
    parts.append(f"<div class='step' id='final'><h2>after the last step</h2>{_frame_block(episode, episode.final_frame, None)}</div>")
    parts.append("</body></html>")
    return "".join(parts)


def write_review(episode_path: str | Path, out: str | Path | None = None) -> Path:
    """Write the review page (default: ``EPISODE/review.html``) and return its path."""
    target = Path(out) if out is not None else Path(episode_path) / "review.html"
    target.write_text(render_review(episode_path), encoding="utf-8")
    return target
