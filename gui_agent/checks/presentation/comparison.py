"""Judging ``presentation_equal``: a saved presentation against a reference, slide by
slide and shape by shape, the way OSWorld's ``compare_pptx_files`` compares them.

Shapes are paired in order (as many pairs as the shorter slide has); values are compared
as python-pptx reads them (an unset bold differs from an explicit "not bold", as in
OSWorld). Every difference is listed, so a failure says what differs, not only that
something does.
"""

from __future__ import annotations

from typing import Any

from gui_agent.checks.presentation.models import LayoutRule, PresentationEqualArgs
from gui_agent.checks.presentation.reading import background_color, bullets, open_presentation, reference, shape_kinds
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut, verdict

_GEOMETRY = ("left", "top", "width", "height")


def _close(a: int | None, b: int | None, tolerance: float) -> bool:
    if a == b:
        return True
    if a is None or b is None:
        return False
    return a != 0 and b != 0 and abs(a - b) / max(abs(a), abs(b)) <= tolerance


def _geometry_differences(a: Any, b: Any, where: str, tolerance: float, attrs: tuple[str, ...] = _GEOMETRY) -> list[str]:
    return [f"{where} {attr} is {getattr(a, attr)}, expected {getattr(b, attr)}"
            for attr in attrs if not _close(getattr(a, attr), getattr(b, attr), tolerance)]


def _notes(slide: Any) -> str:
    return slide.notes_slide.notes_text_frame.text.strip() if slide.has_notes_slide else ""


def _font(run: Any) -> dict[str, Any]:
    """A run's font as compared: raw values (None when unset); the colour only if RGB."""
    font = run.font
    try:
        color: str | None = str(font.color.rgb)
    except AttributeError:  # no colour, or a theme colour: not compared
        color = None
    underline = font.underline
    return {"font_name": font.name, "font_size": font.size, "font_bold": font.bold, "font_italic": font.italic,
            "font_color": color, "font_underline": underline if isinstance(underline, (bool, type(None))) else str(underline),
            "font_strike": font._element.get("strike", "noStrike")}


_FONT_ASPECTS = ("font_name", "font_size", "font_bold", "font_italic", "font_color", "font_underline", "font_strike")


def _run_differences(ra: Any, rb: Any, where: str, args: PresentationEqualArgs) -> list[str]:
    font_a, font_b = _font(ra), _font(rb)
    out = []
    for key in _FONT_ASPECTS:
        if not getattr(args, key) or font_a[key] == font_b[key]:
            continue
        if key == "font_color" and (font_a[key] is None or font_b[key] is None):
            continue  # compared only where both runs have an RGB colour
        out.append(f"{where} run {cut(ra.text[:30])!r} {key} is {font_a[key]!r}, expected {font_b[key]!r}")
    return out


def _text_differences(a: Any, b: Any, where: str, args: PresentationEqualArgs) -> tuple[list[str], bool]:
    """How two shapes holding text differ, and whether any pair of runs was compared."""
    out = []
    text_differs = a.text.strip() != b.text.strip()
    if args.text and text_differs:
        out.append(f"{where} text is {cut(a.text.strip())!r}, expected {cut(b.text.strip())!r}")
    compared = False
    for pa, pb in zip(a.text_frame.paragraphs, b.text_frame.paragraphs):
        label = f"{where} paragraph {cut(pb.text[:30])!r}"
        if args.alignment and pa.alignment != pb.alignment:
            out.append(f"{label} is aligned {pa.alignment}, expected {pb.alignment}")
        if args.text and not text_differs and pa.text != pb.text:
            out.append(f"{where} paragraph reads {cut(pa.text)!r}, expected {cut(pb.text)!r}")
        if args.indent and pa.level != pb.level:
            out.append(f"{label} is at level {pa.level}, expected {pb.level}")
        for ra, rb in zip(pa.runs, pb.runs):
            compared = True
            out += _run_differences(ra, rb, where, args)
    return out, compared


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) else None


def _selected(rule: LayoutRule, a: Any, b: Any, slide: int) -> bool:
    if rule.slide is not None and rule.slide != slide:
        return False
    if rule.kinds is not None:
        kinds_a, kinds_b = shape_kinds(a), shape_kinds(b)
        if not any(k in kinds_a and k in kinds_b for k in rule.kinds):
            return False
    both_text = a.has_text_frame and b.has_text_frame
    if rule.text is not None and not (both_text and a.text == rule.text == b.text):
        return False
    return not rule.same_text or (both_text and a.text == b.text)


def _requirements(rule: LayoutRule, a: Any, b: Any, where: str, tolerance: float) -> list[str]:
    """What a selected pair breaks of ``rule``'s requirements."""
    top, left, top_b, left_b = _number(a.top), _number(a.left), _number(b.top), _number(b.left)
    wanted = [
        (rule.lower, lambda: top > top_b, f"is not lower than in the reference (top {top} vs {top_b})"),
        (rule.higher, lambda: top < top_b, f"is not higher than in the reference (top {top} vs {top_b})"),
        (rule.further_right, lambda: left > left_b, f"is not further right than in the reference (left {left} vs {left_b})"),
        (rule.min_top is not None, lambda: top >= rule.min_top, f"has its top at {top}, above {rule.min_top}"),
        (rule.max_top is not None, lambda: top <= rule.max_top, f"has its top at {top}, below {rule.max_top}"),
        (rule.min_left is not None, lambda: left >= rule.min_left, f"has its left at {left}, left of {rule.min_left}"),
    ]
    out = []
    for asked, holds, broken in wanted:
        if asked and (None in (top, left, top_b, left_b) or not holds()):
            out.append(f"{where} {broken}")
    if rule.same_size:
        out += _geometry_differences(a, b, where, tolerance, ("width", "height"))
    if rule.same_height:
        out += _geometry_differences(a, b, where, tolerance, ("height",))
    return out


def _layout_differences(rule: LayoutRule, a: Any, b: Any, slide: int, where: str, tolerance: float) -> list[str]:
    if _selected(rule, a, b, slide):
        return _requirements(rule, a, b, where, tolerance)
    return _geometry_differences(a, b, where, tolerance) if rule.otherwise == "same_geometry" else []


def _slide_differences(a: Any, b: Any, index: int, args: PresentationEqualArgs) -> list[str]:
    where = f"slide {index}"
    out = []
    if args.background and background_color(a) != background_color(b):
        out.append(f"{where} background is {background_color(a)}, expected {background_color(b)}")
    if args.notes and _notes(a) != _notes(b):
        out.append(f"{where} notes are {cut(_notes(a))!r}, expected {cut(_notes(b))!r}")
    if args.shape_count and len(a.shapes) != len(b.shapes):
        out.append(f"{where} has {len(a.shapes)} shape(s), expected {len(b.shapes)}")
    runs_compared = False
    for number, (sa, sb) in enumerate(zip(a.shapes, b.shapes)):
        label = f"{where} shape {number} ({sa.name})"
        if args.shapes:
            out += _geometry_differences(sa, sb, label, args.tolerance)
        for rule in args.layout:
            out += _layout_differences(rule, sa, sb, index, label, args.tolerance)
        if sa.has_text_frame and sb.has_text_frame:
            found, compared = _text_differences(sa, sb, label, args)
            out += found
            runs_compared = runs_compared or compared
    if args.bullets and runs_compared:
        mine, theirs = bullets(a), bullets(b)
        if mine != theirs:
            first = next((i for i, (x, y) in enumerate(zip(mine, theirs)) if x != y), min(len(mine), len(theirs)))
            got, want = (mine[first] if first < len(mine) else None), (theirs[first] if first < len(theirs) else None)
            out.append(f"{where} paragraph {first} (level, bullet, text, bullet colour) is {got}, expected {want}")
    return list(dict.fromkeys(out))


def presentation_equal(args: PresentationEqualArgs, probe: DesktopProbe, report: Report) -> None:
    ours = open_presentation(probe, args.path, report)
    if ours is None:
        return
    theirs = reference(probe, args.expected)
    differences: list[str] = []
    if args.slide_count and len(ours.slides) != len(theirs.slides):
        differences.append(f"{len(ours.slides)} slide(s), expected {len(theirs.slides)}")
    for index, (a, b) in enumerate(zip(ours.slides, theirs.slides)):
        differences += _slide_differences(a, b, index, args)
    report["observed"] = {"slides": len(ours.slides)}
    verdict(report, differences, ok=f"{args.path} matches {args.expected} ({len(ours.slides)} slides)")


__all__ = ["presentation_equal"]
