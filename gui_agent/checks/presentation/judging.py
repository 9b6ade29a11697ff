"""Judging the checks of :mod:`gui_agent.checks.presentation.models` (python-pptx; the
settings file with the standard library's XML parser)."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from gui_agent.checks.family import CheckType
from gui_agent.checks.presentation.models import (
    LibreofficeSettingArgs,
    LibreofficeSettingCheck,
    PresentationEqualArgs,
    PresentationEqualCheck,
    PresentationMediaArgs,
    PresentationMediaCheck,
    ShapeMovedArgs,
    ShapeMovedCheck,
    SlideBackgroundArgs,
    SlideBackgroundCheck,
    SlideOrientationArgs,
    SlideOrientationCheck,
    SlideTransitionArgs,
    SlideTransitionCheck,
)
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut, missing, verdict
from gui_agent.checks.value_rules import matches

_OOR = "{http://openoffice.org/2001/registry}"


def _open(probe: Any, path: str, report: dict[str, Any]) -> Any:
    from pptx import Presentation

    found = probe.resolve_path(path)
    if not found.is_file():
        missing(report, path)
        return None
    return Presentation(str(found))


def _reference(probe: Any, path: str) -> Any:
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


def _close(a: int, b: int, tolerance: float) -> bool:
    if a == b:
        return True
    return a != 0 and b != 0 and abs(a - b) / max(abs(a), abs(b)) <= tolerance


def _font(run: Any) -> dict[str, Any]:
    font = run.font
    try:
        color = str(font.color.rgb) if font.color is not None and font.color.type is not None else None
    except AttributeError:
        color = None
    strike = run._r.find("{http://schemas.openxmlformats.org/drawingml/2006/main}rPr")
    return {"font_name": font.name, "font_size": font.size, "font_bold": bool(font.bold), "font_italic": bool(font.italic),
            "font_color": color, "font_underline": bool(font.underline),
            "font_strike": strike is not None and strike.get("strike") not in (None, "noStrike")}


_FONT_ASPECTS = ("font_name", "font_size", "font_bold", "font_italic", "font_color", "font_underline", "font_strike")


def _text_frames(shape: Any) -> list[Any]:
    if shape.has_text_frame:
        return [shape.text_frame]
    if getattr(shape, "has_table", False) and shape.has_table:
        return [cell.text_frame for row in shape.table.rows for cell in row.cells]
    if hasattr(shape, "shapes"):
        return [f for sub in shape.shapes for f in _text_frames(sub)]
    return []


def _shape_differences(a: Any, b: Any, where: str, args: PresentationEqualArgs) -> list[str]:
    out = []
    if args.shapes:
        for attr in ("left", "top", "width", "height"):
            x, y = getattr(a, attr) or 0, getattr(b, attr) or 0
            if not _close(x, y, args.tolerance):
                out.append(f"{where} {attr} is {x}, expected {y}")
    frames_a, frames_b = _text_frames(a), _text_frames(b)
    if len(frames_a) != len(frames_b):
        return out + [f"{where} has {len(frames_a)} text frame(s), expected {len(frames_b)}"]
    for fa, fb in zip(frames_a, frames_b):
        out += _frame_differences(fa, fb, where, args)
    return out


def _frame_differences(fa: Any, fb: Any, where: str, args: PresentationEqualArgs) -> list[str]:
    """How two text frames differ: their text, else paragraph by paragraph."""
    if args.text and fa.text.strip() != fb.text.strip():
        return [f"{where} text is {cut(fa.text.strip())!r}, expected {cut(fb.text.strip())!r}"]
    if len(fa.paragraphs) != len(fb.paragraphs):
        return [f"{where} has {len(fa.paragraphs)} paragraph(s), expected {len(fb.paragraphs)}"]
    out = []
    for pa, pb in zip(fa.paragraphs, fb.paragraphs):
        if args.alignment and (pa.alignment or 1) != (pb.alignment or 1):  # unset = left
            out.append(f"{where} paragraph {cut(pa.text[:30])!r} is aligned {pa.alignment}, expected {pb.alignment}")
        runs_a, runs_b = [r for r in pa.runs if r.text], [r for r in pb.runs if r.text]
        for ra, rb in zip(runs_a, runs_b):
            font_a, font_b = _font(ra), _font(rb)
            out += [f"{where} run {cut(ra.text[:30])!r} {k} is {font_a[k]!r}, expected {font_b[k]!r}"
                    for k in _FONT_ASPECTS if getattr(args, k) and font_a[k] != font_b[k]]
    return out


def _presentation_equal(args: PresentationEqualArgs, probe: DesktopProbe, report: Report) -> None:
    ours = _open(probe, args.path, report)
    if ours is None:
        return
    theirs = _reference(probe, args.expected)
    differences: list[str] = []
    if args.slide_count and len(ours.slides) != len(theirs.slides):
        differences.append(f"{len(ours.slides)} slide(s), expected {len(theirs.slides)}")
    for index, (a, b) in enumerate(zip(ours.slides, theirs.slides)):
        where = f"slide {index}"
        if args.background and background_color(a) != background_color(b):
            differences.append(f"{where} background is {background_color(a)}, expected {background_color(b)}")
        if args.notes:
            notes_a = a.notes_slide.notes_text_frame.text.strip() if a.has_notes_slide else ""
            notes_b = b.notes_slide.notes_text_frame.text.strip() if b.has_notes_slide else ""
            if notes_a != notes_b:
                differences.append(f"{where} notes are {cut(notes_a)!r}, expected {cut(notes_b)!r}")
        if len(a.shapes) != len(b.shapes):
            differences.append(f"{where} has {len(a.shapes)} shape(s), expected {len(b.shapes)}")
            continue
        for number, (sa, sb) in enumerate(zip(a.shapes, b.shapes)):
            differences += _shape_differences(sa, sb, f"{where} shape {number} ({sa.name})", args)
    report["observed"] = {"slides": len(ours.slides)}
    verdict(report, differences, ok=f"{args.path} matches {args.expected} ({len(ours.slides)} slides)")


def _find_shape(slide: Any, kind: str) -> Any:
    from pptx.enum.shapes import MSO_SHAPE_TYPE, PP_PLACEHOLDER

    for shape in slide.shapes:
        if kind == "title" and shape.is_placeholder and shape.placeholder_format.type in (PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE):
            return shape
        if kind == "table" and getattr(shape, "has_table", False) and shape.has_table:
            return shape
        if kind == "picture" and (shape.shape_type == MSO_SHAPE_TYPE.PICTURE or (shape.is_placeholder and hasattr(shape, "image"))):
            return shape
    return None


def _shape_moved(args: ShapeMovedArgs, probe: DesktopProbe, report: Report) -> None:
    ours = _open(probe, args.path, report)
    if ours is None:
        return
    theirs = _reference(probe, args.original)
    if args.slide >= len(ours.slides) or args.slide >= len(theirs.slides):
        report["reason"] = f"no slide {args.slide} (the presentation has {len(ours.slides)}, the original {len(theirs.slides)})"
        return
    now, before = _find_shape(ours.slides[args.slide], args.shape), _find_shape(theirs.slides[args.slide], args.shape)
    if before is None:
        raise ValueError(f"{args.original} has no {args.shape} on slide {args.slide}")
    if now is None:
        report["reason"] = f"slide {args.slide} has no {args.shape} any more"
        return
    vertical = args.toward in ("top", "bottom")
    size = ours.slide_height if vertical else ours.slide_width
    start = (lambda s: s.top) if vertical else (lambda s: s.left)
    extent = (lambda s: s.height) if vertical else (lambda s: s.width)
    centre = start(now) + extent(now) / 2
    forward = args.toward in ("bottom", "right")
    moved = start(now) > start(before) if forward else start(now) < start(before)
    in_half = centre > size / 2 if forward else centre < size / 2
    report["observed"] = {"position": start(now), "original_position": start(before), "slide_size": size}
    report.update(passed=moved and in_half, reason=(
        f"the {args.shape} on slide {args.slide} is at {start(now)} (was {start(before)}; centre {centre:.0f} of {size}): "
        + ("moved toward the " + args.toward if moved and in_half else
           "it did not move toward the " + args.toward if not moved else f"its centre is not in the {args.toward} half")))


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _slide_transition(args: SlideTransitionArgs, probe: DesktopProbe, report: Report) -> None:
    ours = _open(probe, args.path, report)
    if ours is None:
        return
    if args.slide >= len(ours.slides):
        report["reason"] = f"{args.path} has {len(ours.slides)} slide(s), none numbered {args.slide}"
        return
    root = ET.fromstring(ours.slides[args.slide].part.blob)
    transitions = [e for e in root.iter() if _local(e.tag) == "transition"]
    kinds_found = sorted({_local(child.tag) for t in transitions for child in t.iter() if child is not t})
    ok = args.type in kinds_found
    report.update(observed={"transitions": kinds_found}, passed=ok,
                  reason=f"slide {args.slide} has transition(s) {kinds_found or 'none'}; expected {args.type!r}")


def _slide_background(args: SlideBackgroundArgs, probe: DesktopProbe, report: Report) -> None:
    ours = _open(probe, args.path, report)
    if ours is None:
        return
    target = [int(args.color.removeprefix("#")[i:i + 2], 16) for i in (0, 2, 4)]
    scores, colors = [], []
    for slide in ours.slides:
        color = background_color(slide)
        colors.append(color)
        if color is None:
            scores.append(0.0)
            continue
        rgb = [int(color[i:i + 2], 16) for i in (0, 2, 4)]
        scores.append(1 - math.dist(rgb, target) / math.dist((0, 0, 0), (255, 255, 255)))
    similarity = sum(scores) / len(scores) if scores else 0.0
    report.update(observed={"backgrounds": colors, "similarity": round(similarity, 4)}, passed=similarity >= args.min_similarity,
                  reason=f"the backgrounds {colors} are {similarity:.1%} like #{args.color.removeprefix('#')} "
                         f"(at least {args.min_similarity:.0%} needed)")


def _slide_orientation(args: SlideOrientationArgs, probe: DesktopProbe, report: Report) -> None:
    ours = _open(probe, args.path, report)
    if ours is None:
        return
    width, height = ours.slide_width, ours.slide_height
    got = "portrait" if width < height else "landscape"
    report.update(observed={"width": width, "height": height}, passed=got == args.orientation,
                  reason=f"the slides are {width} x {height} EMU ({got}), expected {args.orientation}")


def _media(presentation: Any, slide: int | None) -> list[tuple[int, str, str, bytes]]:
    """(slide, kind, file name, bytes) of every audio or video the slides relate to."""
    found = []
    for index, each in enumerate(presentation.slides):
        if slide is not None and index != slide:
            continue
        for rel in each.part.rels.values():
            kind = "audio" if rel.reltype.endswith("/audio") else "video" if rel.reltype.endswith("/video") else (
                "media" if rel.reltype.endswith("/media") else None)
            if kind is None or rel.is_external:
                continue
            part = rel.target_part
            name = Path(str(part.partname)).name
            content = getattr(part, "content_type", "")
            if kind == "media":
                kind = "audio" if content.startswith("audio") else "video" if content.startswith("video") else "media"
            found.append((index, kind, name, part.blob))
    unique = {(s, n): (s, k, n, b) for s, k, n, b in found}
    return list(unique.values())


def _presentation_media(args: PresentationMediaArgs, probe: DesktopProbe, report: Report) -> None:
    ours = _open(probe, args.path, report)
    if ours is None:
        return
    media = _media(ours, args.slide)
    fitting = [m for m in media if (args.kind == "any" or m[1] == args.kind)
               and (args.name_matches is None or re.search(args.name_matches, m[2], re.IGNORECASE))]
    if args.same_as is not None:
        wanted = probe.task_file(args.same_as).read_bytes()
        fitting = [m for m in fitting if m[3] == wanted]
    report["observed"] = {"media": [{"slide": s, "kind": k, "name": n, "bytes": len(b)} for s, k, n, b in media]}
    where = f"slide {args.slide}" if args.slide is not None else args.path
    wanted_text = args.kind + (f" named like {args.name_matches!r}" if args.name_matches else "") + (
        f" equal to {args.same_as}" if args.same_as else "")
    report.update(passed=bool(fitting), reason=f"{where} embeds {len(media)} media file(s); {len(fitting)} {wanted_text}")


def libreoffice_setting(path: Path, item: str, prop: str) -> str | None:
    """The value LibreOffice saved for ``item``/``prop`` in a ``registrymodifications.xcu``, or None."""
    root = ET.parse(path).getroot()
    for element in root.iter("item"):
        if element.get(f"{_OOR}path") != item:
            continue
        for found in element.iter("prop"):
            if found.get(f"{_OOR}name") == prop:
                value = found.find("value")
                return value.text if value is not None else None
    return None


def _libreoffice_setting(args: LibreofficeSettingArgs, probe: DesktopProbe, report: Report) -> None:
    path = probe.resolve_path(args.path)
    if not path.is_file():
        missing(report, args.path, " (LibreOffice writes it when a setting changes)")
        return
    value = libreoffice_setting(path, args.item, args.prop)
    typed: Any = value
    if value is not None and re.fullmatch(r"-?\d+", value):
        typed = int(value)
    elif value in ("true", "false"):
        typed = value == "true"
    ok = value is not None and matches(typed, args.value)
    report.update(observed={"value": typed}, passed=ok,
                  reason=f"{args.item}/{args.prop} is {typed!r}" + ("" if value is not None else " (not set)")
                         + f", expected {args.value.describe()}")


#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(PresentationEqualCheck, _presentation_equal),
    CheckType(ShapeMovedCheck, _shape_moved),
    CheckType(SlideTransitionCheck, _slide_transition),
    CheckType(SlideBackgroundCheck, _slide_background),
    CheckType(SlideOrientationCheck, _slide_orientation),
    CheckType(PresentationMediaCheck, _presentation_media),
    CheckType(LibreofficeSettingCheck, _libreoffice_setting),
)

__all__ = ["background_color", "libreoffice_setting"]
