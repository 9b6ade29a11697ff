"""The station's HTML pages: Jinja2 templates (``templates/``) rendered through Starlette.

Every value is escaped by Jinja2's autoescaping, on for every template whatever its name,
so no page escapes by hand and nothing is escaped twice; the one markup a page takes as is
(the action drawn over a keyframe) is marked safe where it is made
(:mod:`gui_agent.station.review_page`). Undefined names fail the render rather than print nothing.
Every page carries :data:`PAGE_HEADERS`: no inline script or style, no framing, not cached.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates

TEMPLATES_DIR = Path(__file__).parent / "templates"

PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # "no-referrer" makes Chromium send "Origin: null" with forms
    "Cache-Control": "no-store",
}


def page_templates() -> Jinja2Templates:
    """The templates of ``templates/``, autoescaped (one set per app: ``app.state.templates``)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES_DIR), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    return Jinja2Templates(env=env)


def render_page(request: Request, name: str, context: dict[str, Any] | None = None, *, status_code: int = 200) -> HTMLResponse:
    """The page ``templates/NAME`` filled with ``context``, with :data:`PAGE_HEADERS`."""
    templates: Jinja2Templates = request.app.state.templates
    return templates.TemplateResponse(request, name, dict(context or {}), status_code=status_code, headers=PAGE_HEADERS)
