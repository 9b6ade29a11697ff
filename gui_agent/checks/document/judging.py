"""Judging the document checks of :mod:`gui_agent.checks.document.models` on the plain
model :mod:`gui_agent.checks.document.reader` makes of a ``.docx`` or ``.odt``."""

from __future__ import annotations

import difflib
import re
from typing import Any

from gui_agent.checks.document import scoring, structure
from gui_agent.checks.document.colors import color_distance
from gui_agent.checks.document.loading import reference_document, saved_document
from gui_agent.checks.document.models import (
    RUN_PROPS,
    DocumentEquationsArgs,
    DocumentEquationsCheck,
    DocumentTextEqualArgs,
    DocumentTextEqualCheck,
    FooterPageNumbersArgs,
    FooterPageNumbersCheck,
    HighlightedTextEqualArgs,
    HighlightedTextEqualCheck,
    PageBreaksArgs,
    PageBreaksCheck,
    ParagraphAlignmentArgs,
    ParagraphAlignmentCheck,
    ParagraphFormatEqualArgs,
    ParagraphFormatEqualCheck,
    ParagraphLineSpacingArgs,
    ParagraphLineSpacingCheck,
    RunFormatArgs,
    RunFormatCheck,
    RunSelection,
)
from gui_agent.checks.document.ocr import OCR_CHECKS
from gui_agent.checks.document.parts import Document, Run
from gui_agent.checks.family import CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut, verdict


def _texts(document: Document, args: DocumentTextEqualArgs) -> list[str]:
    texts = [p.text for p in document.paragraphs]
    if args.distinct:
        return sorted({t.strip() for t in texts if t.strip()})
    if args.ignore_order:
        texts = sorted(texts)
    if args.delete_empty_lines:
        texts = [t for t in texts if (t if args.keep_whitespace_lines else t.strip())]
    return texts


def _normal(text: str, args: DocumentTextEqualArgs) -> str:
    return text.lower() if args.ignore_case else text


def _document_text_equal(args: DocumentTextEqualArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    ours, theirs = _texts(document, args), _texts(reference_document(probe, args.expected), args)
    if args.ignore_blanks and not args.distinct:
        a = _normal(re.sub(r"\s+", " ", "\n".join(ours)).strip(), args)
        b = _normal(re.sub(r"\s+", " ", "\n".join(theirs)).strip(), args)
        report["observed"] = {"paragraphs": len(ours), "text": cut(a)}
        if args.min_similarity is not None:
            ratio = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
            report["observed"]["similarity"] = round(ratio, 4)
            ok = ratio >= args.min_similarity
            report.update(passed=ok, reason=f"the text is {ratio:.1%} like {args.expected}'s (at least {args.min_similarity:.0%} needed)")
            return
        at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        differences = [] if a == b else [f"the text differs from {args.expected}'s at character {at}: "
                                          f"{cut(a[max(0, at - 30):at + 40])!r} vs {cut(b[max(0, at - 30):at + 40])!r}"]
        verdict(report, differences, ok=f"the text equals {args.expected}'s ({len(a)} characters)")
        return
    report["observed"] = {"paragraphs": len(ours)}
    differences = [f"paragraph {i + 1} is {cut(x)!r}, expected {cut(y)!r}"
                   for i, (x, y) in enumerate(zip(ours, theirs)) if _normal(x, args) != _normal(y, args)]
    if len(ours) != len(theirs) and not args.ignore_extra_paragraphs:
        differences.append(f"{len(ours)} paragraph(s), expected {len(theirs)}")
    verdict(report, differences, ok=f"the {len(ours)} paragraph(s) equal {args.expected}'s")


def _paragraph_format_equal(args: ParagraphFormatEqualArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    ours, theirs = document.paragraphs, reference_document(probe, args.expected).paragraphs
    differences = [f"{len(ours)} paragraph(s), expected {len(theirs)}"] if len(ours) != len(theirs) else []
    for i, (a, b) in enumerate(zip(ours, theirs)):
        differences += [f"paragraph {i + 1} ({cut(a.text[:40])!r}) {p} is {getattr(a, p)!r}, expected {getattr(b, p)!r}"
                        for p in args.props if getattr(a, p) != getattr(b, p)]
    report["observed"] = {"paragraphs": len(ours)}
    verdict(report, differences, ok=f"{', '.join(args.props)} of {len(ours)} paragraph(s) as in {args.expected}")


def _highlighted(document: Document) -> list[str]:
    return sorted({r.text for r in document.all_runs() if r.highlight is not None and r.text.strip()})


def _highlighted_text_equal(args: HighlightedTextEqualArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    ours, theirs = _highlighted(document), _highlighted(reference_document(probe, args.expected))
    report["observed"] = {"highlighted": ours[:20]}
    differences = [f"{t!r} is not highlighted" for t in theirs if t not in ours] + [f"{t!r} is highlighted" for t in ours if t not in theirs]
    verdict(report, differences, ok=f"the same {len(ours)} highlighted text(s) as {args.expected}")


def _prop(run: Run, prop: str) -> Any:
    """A run's property; ``uppercase`` is read from its text (``str.isupper``, as OSWorld's
    ``evaluate_conversion`` asks)."""
    return run.text.isupper() if prop == "uppercase" else getattr(run, prop)


def _selected(run: Run, among: RunSelection | None) -> bool:
    return among is None or all(bool(_prop(run, p)) == wanted for p, wanted in among.model_dump(exclude_none=True).items())


def _run_mismatches(run: Run, args: RunFormatArgs) -> list[str]:
    wrong = []
    for prop in RUN_PROPS:
        wanted = getattr(args, prop)
        if wanted is None:
            continue
        got = _prop(run, prop)
        if prop in ("color", "highlight"):
            ok = got is not None and color_distance(got, wanted, args.color_formula) <= args.color_tolerance
        elif isinstance(wanted, bool):
            ok = bool(got) == wanted
        elif prop == "font_size":
            ok = got is not None and abs(got - wanted) < 0.05
        else:
            ok = got == wanted
        if not ok:
            wrong.append(f"{prop} {got!r}")
    return wrong


def _place(document: Document, args: RunFormatArgs) -> tuple[list[Run] | None, str]:
    """The runs of the place ``args`` names, and how to say it (None: no such paragraph)."""
    if args.paragraph is not None:
        count = len(document.paragraphs)
        if not -count <= args.paragraph < count:
            return None, f"{args.path} has {count} paragraph(s), none at position {args.paragraph}"
        return document.paragraphs[args.paragraph].runs, f" in paragraph {args.paragraph % count + 1}"
    if args.in_tables:
        return document.table_runs, " in tables"
    if args.body_only:
        return [r for p in document.paragraphs for r in p.runs], " outside tables"
    return document.all_runs(), ""


def _run_format(args: RunFormatArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    runs, where = _place(document, args)
    if runs is None:
        report.update(observed={"paragraphs": len(document.paragraphs)}, reason=where)
        return
    runs = [r for r in runs if (args.blank_runs or r.text.strip()) and _selected(r, args.among)
            and (args.matching is None or re.search(args.matching, r.text))]
    checked = [(r, _run_mismatches(r, args)) for r in runs]
    fitting = [r for r, wrong in checked if not wrong]
    wanted = ", ".join(f"{p} {getattr(args, p)!r}" for p in RUN_PROPS if getattr(args, p) is not None)
    report["observed"] = {"runs": len(runs), "fitting": len(fitting)}
    ok, reason = _RUN_MODES[args.mode](checked, fitting, wanted, args.min_runs)
    report.update(passed=ok, reason=reason + where)


def _some_run(checked: list[tuple[Run, list[str]]], fitting: list[Run], wanted: str, least: int) -> tuple[bool, str]:
    if fitting:
        return True, f"{len(fitting)} of {len(checked)} run(s) have {wanted}, e.g. {cut(fitting[0].text)!r}"
    return False, f"none of {len(checked)} run(s) has {wanted}"


def _every_run(checked: list[tuple[Run, list[str]]], fitting: list[Run], wanted: str, least: int) -> tuple[bool, str]:
    misfits = [(r, wrong) for r, wrong in checked if wrong]
    if len(checked) < least:
        return False, "no run to check" if not checked else f"{len(checked)} run(s) to check, at least {least} needed"
    if not misfits:
        return True, f"all {len(checked)} run(s) have {wanted}"
    run, wrong = misfits[0]
    return False, f"{len(misfits)} of {len(checked)} run(s) lack {wanted}, e.g. {cut(run.text)!r} has {', '.join(wrong)}"


def _no_run(checked: list[tuple[Run, list[str]]], fitting: list[Run], wanted: str, least: int) -> tuple[bool, str]:
    if not fitting:
        return True, f"no run has {wanted}"
    return False, f"{len(fitting)} run(s) still have {wanted}, e.g. {cut(fitting[0].text)!r}"


#: ``run_format``'s mode -> its verdict on the runs considered (each with what it lacks) and those fitting.
_RUN_MODES = {"some": _some_run, "every": _every_run, "none": _no_run}


def _paragraph_alignment(args: ParagraphAlignmentArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    if args.paragraph >= len(document.paragraphs):
        report.update(observed={"paragraphs": len(document.paragraphs)},
                      reason=f"{args.path} has {len(document.paragraphs)} paragraph(s), none at position {args.paragraph}")
        return
    paragraph = document.paragraphs[args.paragraph]
    got = paragraph.alignment or "left"
    report.update(observed={"alignment": got, "text": cut(paragraph.text)}, passed=got == args.equals,
                  reason=f"paragraph {args.paragraph + 1} ({cut(paragraph.text[:40])!r}) is aligned {got}, expected {args.equals}")


def _page_breaks(args: PageBreaksArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    count = document.page_breaks
    ok = count >= 1 if args.count is None else count == args.count
    wanted = "at least 1" if args.count is None else str(args.count)
    report.update(observed={"page_breaks": count}, passed=ok, reason=f"{args.path} has {count} page break(s), expected {wanted}")


def _footer_page_numbers(args: FooterPageNumbersArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    footers = document.footers
    lacking = [i + 1 for i, (text, field) in enumerate(footers) if not field and not any(c.isdigit() for c in text)]
    report["observed"] = {"footers": [{"text": cut(t), "page_field": f} for t, f in footers]}
    ok = bool(footers) and not lacking
    reason = ("every footer shows a page number" if ok else "the document has no footer" if not footers
              else f"the footer of section(s) {lacking} shows no page number")
    report.update(passed=ok, reason=reason)


def _document_equations(args: DocumentEquationsArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    count = document.equations
    report.update(observed={"equations": count}, passed=count >= args.min_count,
                  reason=f"{args.path} holds {count} equation(s), at least {args.min_count} expected")


def _spacing_multiple(value: Any) -> float | None:
    """A line spacing as a multiple of one line: python-docx's float, or an ODF ``150%``."""
    if isinstance(value, float):
        return value
    if isinstance(value, str) and value.endswith("%"):
        try:
            return float(value[:-1]) / 100
        except ValueError:
            return None
    return None


def _paragraph_line_spacing(args: ParagraphLineSpacingArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    count = len(document.paragraphs)
    if not -count <= args.paragraph < count:
        report.update(observed={"paragraphs": count}, reason=f"{args.path} has {count} paragraph(s), none at position {args.paragraph}")
        return
    paragraph = document.paragraphs[args.paragraph]
    got = _spacing_multiple(paragraph.line_spacing)
    shown = got if got is not None else paragraph.line_spacing
    ok = got is not None and abs(got - args.equals) < 1e-6
    report.update(observed={"line_spacing": shown if isinstance(shown, (float, str)) or shown is None else str(shown),
                            "text": cut(paragraph.text)}, passed=ok,
                  reason=f"paragraph {args.paragraph % count + 1} ({cut(paragraph.text[:40])!r}) has line spacing "
                         f"{shown!r}, expected {args.equals:g} line(s)")


#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(DocumentTextEqualCheck, _document_text_equal),
    CheckType(ParagraphFormatEqualCheck, _paragraph_format_equal),
    CheckType(HighlightedTextEqualCheck, _highlighted_text_equal),
    CheckType(RunFormatCheck, _run_format),
    CheckType(ParagraphAlignmentCheck, _paragraph_alignment),
    CheckType(PageBreaksCheck, _page_breaks),
    CheckType(FooterPageNumbersCheck, _footer_page_numbers),
    CheckType(DocumentEquationsCheck, _document_equations),
    CheckType(ParagraphLineSpacingCheck, _paragraph_line_spacing),
    *structure.CHECKS,
    *scoring.CHECKS,
    *OCR_CHECKS,
)

__all__ = ["color_distance"]
