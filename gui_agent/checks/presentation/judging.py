"""Judging the checks of :mod:`gui_agent.checks.presentation.models` (python-pptx; the
settings file with the standard library's XML parser). ``presentation_equal`` is judged
in :mod:`.comparison`, LibreOffice's settings in :mod:`.settings`."""

from __future__ import annotations

import math
import re
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from gui_agent.checks.family import CheckType
from gui_agent.checks.image import looks_like_reward
from gui_agent.checks.presentation.comparison import presentation_equal
from gui_agent.checks.presentation.models import (
    ImageFillsSlideArgs,
    ImageFillsSlideCheck,
    LibreofficeLocaleCheck,
    LibreofficeSettingCheck,
    PresentationEqualCheck,
    PresentationMediaArgs,
    PresentationMediaCheck,
    ShapeMovedArgs,
    ShapeMovedCheck,
    SlideBackgroundArgs,
    SlideBackgroundCheck,
    SlideBackgroundImageArgs,
    SlideBackgroundImageCheck,
    SlideNumberColorArgs,
    SlideNumberColorCheck,
    SlideOrientationArgs,
    SlideOrientationCheck,
    SlideTransitionArgs,
    SlideTransitionCheck,
    TextStrikethroughArgs,
    TextStrikethroughCheck,
)
from gui_agent.checks.presentation.reading import (
    A_NS,
    P_NS,
    background_color,
    color_family,
    open_presentation,
    reference,
    slide_number_color,
)
from gui_agent.checks.presentation.settings import libreoffice_locale, libreoffice_setting
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, verdict

_R_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


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
    ours = open_presentation(probe, args.path, report)
    if ours is None:
        return
    theirs = reference(probe, args.original)
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


def _slide_transition(args: SlideTransitionArgs, probe: DesktopProbe, report: Report) -> None:
    ours = open_presentation(probe, args.path, report)
    if ours is None:
        return
    if args.slide >= len(ours.slides):
        report["reason"] = f"{args.path} has {len(ours.slides)} slide(s), none numbered {args.slide}"
        return
    root = ET.fromstring(ours.slides[args.slide].part.blob)
    transition = root.find(f".//{{{P_NS}}}transition")
    kinds = sorted({child.tag.rsplit("}", 1)[-1] for child in transition.iter() if child is not transition}) if transition is not None else []
    ok = transition is not None and transition.find(f".//{{{P_NS}}}{args.type}") is not None
    report.update(observed={"transition": kinds}, passed=ok,
                  reason=f"slide {args.slide}'s transition is {kinds or 'none'}; expected {args.type!r}")


def _slide_background(args: SlideBackgroundArgs, probe: DesktopProbe, report: Report) -> None:
    ours = open_presentation(probe, args.path, report)
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
    ours = open_presentation(probe, args.path, report)
    if ours is None:
        return
    width, height = ours.slide_width, ours.slide_height
    got = "portrait" if width < height else "landscape"
    report.update(observed={"width": width, "height": height}, passed=got == args.orientation,
                  reason=f"the slides are {width} x {height} EMU ({got}), expected {args.orientation}")


def _media_kind(reltype: str, content_type: str) -> str | None:
    kind = reltype.rsplit("/", 1)[-1]
    if kind == "media":
        return "audio" if content_type.startswith("audio") else "video" if content_type.startswith("video") else "media"
    return kind if kind in ("audio", "video") else None


def _linked(target: str, home: Path) -> tuple[str, bytes] | None:
    """A linked (not embedded) media file in the home folder: its name and bytes."""
    parsed = urllib.parse.urlparse(target)
    if parsed.scheme != "file":
        return None
    found = Path(urllib.request.url2pathname(parsed.path)).resolve()
    if not found.is_relative_to(home) or not found.is_file():
        return None
    return found.name, found.read_bytes()


def _media(presentation: Any, slide: int | None, home: Path) -> list[tuple[int, str, str, bytes]]:
    """(slide, kind, file name, bytes) of every audio or video the slides embed, or link to
    in the home folder (as OSWorld's ``audio_in_slide`` getter follows a ``file://`` link)."""
    found = []
    for index, each in enumerate(presentation.slides):
        if slide is not None and index != slide:
            continue
        for rel in each.part.rels.values():
            if rel.is_external:
                kind, linked = _media_kind(rel.reltype, ""), _linked(rel.target_ref, home)
                if kind in ("audio", "video") and linked is not None:
                    found.append((index, kind, *linked))
                continue
            part = rel.target_part
            kind = _media_kind(rel.reltype, getattr(part, "content_type", ""))
            if kind is not None:
                found.append((index, kind, Path(str(part.partname)).name, part.blob))
    unique = {(s, n): (s, k, n, b) for s, k, n, b in found}
    return list(unique.values())


def _presentation_media(args: PresentationMediaArgs, probe: DesktopProbe, report: Report) -> None:
    ours = open_presentation(probe, args.path, report)
    if ours is None:
        return
    media = _media(ours, args.slide, probe.resolve_path(".").resolve())
    fitting = [m for m in media if (args.kind == "any" or m[1] == args.kind)
               and (args.name_matches is None or re.search(args.name_matches, m[2], re.IGNORECASE))]
    if args.same_as is not None:
        wanted = probe.task_file(args.same_as).read_bytes()
        fitting = [m for m in fitting if m[3] == wanted]
    report["observed"] = {"media": [{"slide": s, "kind": k, "name": n, "bytes": len(b)} for s, k, n, b in media]}
    where = f"slide {args.slide}" if args.slide is not None else args.path
    wanted_text = args.kind + (f" named like {args.name_matches!r}" if args.name_matches else "") + (
        f" equal to {args.same_as}" if args.same_as else "")
    report.update(passed=bool(fitting), reason=f"{where} holds {len(media)} media file(s); {len(fitting)} {wanted_text}")




def _pictures(slide: Any) -> list[Any]:
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    return [shape for shape in slide.shapes if shape.shape_type == MSO_SHAPE_TYPE.PICTURE]


def _image_fills_slide(args: ImageFillsSlideArgs, probe: DesktopProbe, report: Report) -> None:
    ours = open_presentation(probe, args.path, report)
    if ours is None:
        return
    original = reference(probe, args.original)
    pictures = _pictures(original.slides[args.slide]) if args.slide < len(original.slides) else []
    if not pictures:
        raise ValueError(f"{args.original} has no picture on slide {args.slide}")
    if args.slide >= len(ours.slides):
        report["reason"] = f"{args.path} has {len(ours.slides)} slide(s), none numbered {args.slide}"
        return
    same = [p for p in _pictures(ours.slides[args.slide]) if p.image.blob == pictures[0].image.blob]
    if not same:
        report["reason"] = f"slide {args.slide} no longer holds the picture {pictures[0].name!r}"
        return
    picture, width, height = same[-1], original.slide_width, original.slide_height
    place = {"left": picture.left, "top": picture.top, "width": picture.width, "height": picture.height}
    wanted = {"width": width, "height": height, "left": (width - picture.width) / 2, "top": (height - picture.height) / 2}
    off = [f"{k} is {place[k]}, {wanted[k]:.0f} wanted" for k in ("width", "height", "left", "top")
           if abs(place[k] - wanted[k]) > args.tolerance]
    report["observed"] = {**place, "slide_width": width, "slide_height": height}
    verdict(report, off, ok=f"the picture covers the {width} x {height} slide, centred (within {args.tolerance} EMU)",
            prefix=f"the picture {picture.name!r} does not fill the slide: ")


def _slide_number_color(args: SlideNumberColorArgs, probe: DesktopProbe, report: Report) -> None:
    ours = open_presentation(probe, args.path, report)
    if ours is None:
        return
    color = slide_number_color(ours)
    shown = any(getattr(shape, "has_text_frame", False) and shape.text_frame.text.isdigit()
                for slide in ours.slides for shape in slide.shapes)
    problems = []
    if color is None:
        problems.append("the slide master sets no colour for the slide number")
    elif args.equals is not None and color != args.equals.removeprefix("#").upper():
        problems.append(f"the slide number is #{color}, expected #{args.equals.removeprefix('#').upper()}")
    elif args.like is not None and not color_family(color, args.like):
        problems.append(f"the slide number is #{color}, which is not {args.like}")
    if args.shown and not shown:
        problems.append("no slide shows a slide number")
    report["observed"] = {"color": color, "shown": shown}
    verdict(report, problems, ok=f"the slide number is #{color}" + (", shown on the slides" if args.shown else ""))


def _text_strikethrough(args: TextStrikethroughArgs, probe: DesktopProbe, report: Report) -> None:
    """The first run of each paragraph named is struck through. OSWorld's
    ``check_strikethrough`` only asks for a ``strike`` attribute, which LibreOffice writes
    on every run (``noStrike`` when not struck), so a struck run is one whose value is not
    ``noStrike``."""
    ours = open_presentation(probe, args.path, report)
    if ours is None:
        return
    problems, seen = [], {}
    for s in args.slides:
        for h in args.shapes:
            for q in args.paragraphs:
                where = f"slide {s} shape {h} paragraph {q}"
                strike = _first_run_strike(ours, s, h, q)
                seen[where] = strike
                if strike in (None, "noStrike") or strike.startswith("no such"):
                    problems.append(f"{where}: {strike or 'not struck through'}")
    report["observed"] = {"strike": seen}
    verdict(report, problems, ok=f"{len(seen)} paragraph(s) struck through")


def _first_run_strike(presentation: Any, slide: int, shape: int, paragraph: int) -> str | None:
    """The ``strike`` value of the paragraph's first run (None: not set), or "no such ..."."""
    if slide >= len(presentation.slides):
        return "no such slide"
    shapes = presentation.slides[slide].shapes
    if shape >= len(shapes) or not shapes[shape].has_text_frame:
        return "no such shape holding text"
    paragraphs = shapes[shape].text_frame.paragraphs
    if paragraph >= len(paragraphs) or not paragraphs[paragraph].runs:
        return "no such paragraph with text"
    props = paragraphs[paragraph].runs[0]._r.find(f"{{{A_NS}}}rPr")
    return props.get("strike") if props is not None else None


def background_image(presentation_path: Path, slide: int, home: Path | None = None) -> bytes | None:
    """The picture filling slide ``slide``'s background (``bgPr`` with a picture fill),
    embedded or linked to a file in ``home``, or None: what OSWorld's
    ``background_image_in_slide`` getter extracts."""
    from pptx import Presentation

    deck = Presentation(str(presentation_path))
    if slide >= len(deck.slides):
        return None
    part = deck.slides[slide].part
    blip = ET.fromstring(part.blob).find(f".//{{{P_NS}}}bgPr//{{{A_NS}}}blip")
    if blip is None:
        return None
    rel_id = blip.get(f"{_R_NS}embed") or blip.get(f"{_R_NS}link")
    if rel_id is None or rel_id not in part.rels:
        return None
    rel = part.rels[rel_id]
    if rel.is_external:
        linked = _linked(rel.target_ref, home) if home is not None else None
        return linked[1] if linked is not None else None
    return bytes(rel.target_part.blob)


def _slide_background_image(args: SlideBackgroundImageArgs, probe: DesktopProbe, report: Report) -> None:
    import io

    import numpy as np
    from PIL import Image

    from gui_agent.checks.image_measures import ssim

    path = probe.resolve_path(args.path)
    if not path.is_file():
        report.update(observed={"exists": False}, reason=f"{args.path} does not exist (was it saved there?)")
        return
    picture = background_image(path, args.slide, probe.resolve_path(".").resolve())
    if picture is None:
        report.update(observed={"background_image": None}, reason=f"slide {args.slide} of {args.path} has no background picture")
        return
    image = Image.open(io.BytesIO(picture)).convert("L")
    reference = Image.open(probe.task_file(args.expected)).convert("L")
    size = min(image.size, reference.size)  # as OSWorld: the sizes compared as tuples, the smaller width wins
    score = ssim(np.array(image.resize(size, Image.Resampling.LANCZOS)), np.array(reference.resize(size, Image.Resampling.LANCZOS)))
    ok = score >= args.min_score - 1e-9
    report.update(observed={"score": round(score, 6), "compared_at": list(size)}, passed=ok,
                  reason=f"grayscale SSIM of slide {args.slide}'s background and {args.expected} at {size[0]}x{size[1]} "
                         f"is {score:.4f}, {'at least' if ok else 'below'} {args.min_score:g}")


#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(PresentationEqualCheck, presentation_equal),
    CheckType(ShapeMovedCheck, _shape_moved),
    CheckType(ImageFillsSlideCheck, _image_fills_slide),
    CheckType(SlideTransitionCheck, _slide_transition),
    CheckType(SlideBackgroundCheck, _slide_background),
    CheckType(SlideOrientationCheck, _slide_orientation),
    CheckType(PresentationMediaCheck, _presentation_media),
    CheckType(SlideBackgroundImageCheck, _slide_background_image, reward=looks_like_reward),
    CheckType(SlideNumberColorCheck, _slide_number_color),
    CheckType(TextStrikethroughCheck, _text_strikethrough),
    CheckType(LibreofficeSettingCheck, libreoffice_setting),
    CheckType(LibreofficeLocaleCheck, libreoffice_locale),
)

__all__ = ["CHECKS", "background_color", "background_image"]
