"""Reading presentations (python-pptx) for the checks: opening them, and the few things
several checks read the same way (a slide's background colour, what kind a shape is,
the slide number's colour in the master, a slide's paragraphs as bullets)."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree as ET

from gui_agent.checks.reports import missing

#: DrawingML's namespace (runs, paragraphs, colours).
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
#: PresentationML's namespace (slides, transitions, placeholders).
P_NS = "http://schemas.openxmlformats.org/presentationml/2006/main"


def open_presentation(probe: Any, path: str, report: dict[str, Any]) -> Any:
    """The saved presentation at the home-relative ``path``, or None (report filled) if missing."""
    from pptx import Presentation

    found = probe.resolve_path(path)
    if not found.is_file():
        missing(report, path)
        return None
    return Presentation(str(found))


def reference(probe: Any, path: str) -> Any:
    """A presentation shipped with the task; a missing one raises (the task is broken)."""
    from pptx import Presentation

    return Presentation(str(probe.task_file(path)))


def background_color(slide: Any) -> str | None:
    """The slide's solid background colour (hex), its master's when it inherits one, else None."""
    for owner in (slide, slide.slide_layout.slide_master):
        fill = owner.background.fill
        if fill.type == 1:  # solid
            try:
                return str(fill.fore_color.rgb)
            except AttributeError:
                return None
        if fill.type != 5:  # not "inherit from the master"
            return None
    return None


def shape_kinds(shape: Any) -> set[str]:
    """What a shape is for the layout rules: ``text`` (it holds text, as autoshapes,
    text boxes and placeholders do) or ``no_text``, and ``picture``, ``table``, ``freeform``."""
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    kinds = {"text" if shape.has_text_frame else "no_text"}
    kind = shape.shape_type
    kinds |= {name for name, value in (("picture", MSO_SHAPE_TYPE.PICTURE), ("table", MSO_SHAPE_TYPE.TABLE),
                                       ("freeform", MSO_SHAPE_TYPE.FREEFORM)) if kind == value}
    return kinds


def bullets(slide: Any) -> list[tuple[str | None, str, str, str]]:
    """Every paragraph of the slide (tables and groups included), in order, as (level,
    bullet character, text, bullet colour), the way ``compare_pptx_files`` lists them (a
    paragraph without properties differs from one whose properties set no level)."""
    root = ET.fromstring(slide.part.blob)
    found = []
    for paragraph in root.iter(f"{{{A_NS}}}p"):
        props = paragraph.find(f"{{{A_NS}}}pPr")
        text = "".join(t.text or "" for t in paragraph.iter(f"{{{A_NS}}}t"))
        if props is None:
            found.append(("no properties", "no bullet", text, "no colour"))
            continue
        char = props.find(f"{{{A_NS}}}buChar")
        color = props.find(f"{{{A_NS}}}buClr/{{{A_NS}}}srgbClr")
        found.append((props.get("lvl"), char.get("char", "") if char is not None else "no bullet", text,
                      color.get("val", "") if color is not None else "no colour"))
    return found


def _run_color(props: Any) -> str | None:
    """The RGB colour (hex, upper case) of a run or paragraph property element, if it sets one."""
    color = props.find(f"{{{A_NS}}}solidFill/{{{A_NS}}}srgbClr") if props is not None else None
    if color is None:
        return None
    return color.get("val", "").upper() or None


def _is_slide_number(placeholder: Any) -> bool:
    element = placeholder._element.find(f".//{{{P_NS}}}ph")
    return (element is not None and element.get("type") == "sldNum") or (
        placeholder.has_text_frame and placeholder.text_frame.text == "<number>")


def slide_number_color(presentation: Any) -> str | None:
    """The colour the first slide master gives the slide number: its slide-number field's
    (or first run's) colour, else its first paragraph's default, else its list style's."""
    for master in presentation.slide_masters:
        for placeholder in master.placeholders:
            if not _is_slide_number(placeholder):
                continue
            body = placeholder._element.find(f".//{{{P_NS}}}txBody")
            if body is None:
                return None
            paragraph = body.find(f"{{{A_NS}}}p")
            candidates = []
            if paragraph is not None:
                candidates += [run.find(f"{{{A_NS}}}rPr") for run in paragraph if run.tag in (f"{{{A_NS}}}fld", f"{{{A_NS}}}r")]
                candidates.append(paragraph.find(f"{{{A_NS}}}pPr/{{{A_NS}}}defRPr"))
            candidates.append(body.find(f"{{{A_NS}}}lstStyle/{{{A_NS}}}lvl1pPr/{{{A_NS}}}defRPr"))
            return next((c for c in map(_run_color, candidates) if c is not None), None)
    return None


def color_family(hex_color: str, family: str, threshold: int = 50) -> bool:
    """Whether ``hex_color`` (``C9211E``) is of ``family``: red, green or blue (that channel
    above both others by more than ``threshold``) or black (every channel under it)."""
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (0, 2, 4))
    if family == "black":
        return r < threshold and g < threshold and b < threshold
    mine, others = {"red": (r, (g, b)), "green": (g, (r, b)), "blue": (b, (r, g))}[family]
    return all(mine > other + threshold for other in others)


__all__ = [
    "A_NS", "P_NS", "background_color", "bullets", "color_family", "open_presentation", "reference", "shape_kinds",
    "slide_number_color",
]
