"""Judging the scored checks of :mod:`gui_agent.checks.document.score_models`: each puts
OSWorld's score in ``observed.score``, passes when it reaches ``min_score``, and gives
that score as the episode's reward when it is the task's whole evaluator."""

from __future__ import annotations

import re
from typing import Any

from gui_agent.checks.document.loading import reference_document, saved_document
from gui_agent.checks.document.parts import Document, Paragraph, TabStop
from gui_agent.checks.document.score_models import (
    DocumentTextSimilarityArgs,
    DocumentTextSimilarityCheck,
    ReferencesEqualArgs,
    ReferencesEqualCheck,
    TabStopsEqualArgs,
    TabStopsEqualCheck,
)
from gui_agent.checks.text_similarity import indel_ratio
from gui_agent.checks.family import CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut


def _scored(report: Report, score: float, min_score: float, why: str, **observed: Any) -> None:
    report["observed"] = {"score": round(score, 6), **observed}
    ok = score >= min_score - 1e-9
    report.update(passed=ok, reason=f"scores {score:.4f} ({why}); at least {min_score:g} needed")


def score_of(report: Report) -> float:
    """The episode's reward under a scored check: its score, 0 when it has none (no file)."""
    observed = report.get("observed")
    return float(observed.get("score", 0.0)) if isinstance(observed, dict) else 0.0


def _similarity_texts(document: Document, args: DocumentTextSimilarityArgs) -> list[str]:
    texts = [p.text for p in document.paragraphs]
    if args.ignore_order:
        texts = sorted(texts)
    if args.delete_empty_lines:
        texts = [t for t in texts if t.strip()]
    return [t.lower() for t in texts] if args.ignore_case else texts


def _document_text_similarity(args: DocumentTextSimilarityArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    ours = _similarity_texts(document, args)
    theirs = _similarity_texts(reference_document(probe, args.expected), args)
    if not args.by_paragraph:
        a, b = (re.sub(r"\s+", " ", "\n".join(t)).strip() for t in (ours, theirs))
        _scored(report, indel_ratio(a, b), args.min_score, f"the text's similarity to {args.expected}'s", text=cut(a))
    elif len(ours) != len(theirs):
        _scored(report, 0.0, args.min_score, f"{len(ours)} paragraph(s), {args.expected} has {len(theirs)}", paragraphs=len(ours))
    else:
        score = sum(indel_ratio(a, b) for a, b in zip(ours, theirs)) / len(ours) if ours else 1.0
        _scored(report, score, args.min_score, f"the mean similarity of {len(ours)} paragraph(s) to {args.expected}'s", paragraphs=len(ours))


def _counted_tabs(paragraph: Paragraph) -> list[TabStop]:
    """The tab stops OSWorld compares: not clear tabs, not a left tab at 0."""
    return [t for t in paragraph.tab_stops if t.alignment != "clear" and not (t.alignment == "left" and t.position == 0)]


def _words_misfit(paragraphs: list[Paragraph], args: TabStopsEqualArgs) -> str | None:
    """Why a paragraph's part between tabs at ``tab_index`` has not ``words_before_tab`` words (None: all have)."""
    for i, paragraph in enumerate(paragraphs, start=1):
        parts = paragraph.text.split("\t")
        if not -len(parts) <= args.tab_index < len(parts):
            return f"paragraph {i} ({cut(paragraph.text[:40])!r}) has no part {args.tab_index} between tabs"
        words = [w for w in re.split(r"\s", parts[args.tab_index]) if w.strip()]
        if len(words) != args.words_before_tab:
            return f"paragraph {i} ({cut(paragraph.text[:40])!r}) has {len(words)} word(s) before its tab, expected {args.words_before_tab}"
    return None


def _tab_score(ours: list[Paragraph], theirs: list[Paragraph], width: int) -> tuple[float, str]:
    offsets = 0.0
    for i, (a, b) in enumerate(zip(ours, theirs), start=1):
        tabs_a, tabs_b = _counted_tabs(a), _counted_tabs(b)
        if len(tabs_a) != len(tabs_b):
            return 0.0, f"paragraph {i} has {len(tabs_a)} tab stop(s), the reference's {len(tabs_b)}"
        if any(x.alignment != y.alignment for x, y in zip(tabs_a, tabs_b)):
            return 0.0, f"paragraph {i}'s tab stops are aligned {[t.alignment for t in tabs_a]}, the reference's {[t.alignment for t in tabs_b]}"
        offsets += sum(abs(x.position - y.position) for x, y in zip(tabs_a, tabs_b)) / width
    return 1 - offsets / len(ours), f"tab stops of {len(ours)} paragraph(s) against the reference's"


def _tab_stops_equal(args: TabStopsEqualArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    reference = reference_document(probe, args.expected)
    ours = [p for p in document.paragraphs if p.text.strip()]
    theirs = [p for p in reference.paragraphs if p.text.strip()]
    misfit = _words_misfit(ours, args) if args.words_before_tab is not None else None
    if len(ours) != len(theirs) or not ours:
        score, why = 0.0, f"{len(ours)} paragraph(s) with text, {args.expected} has {len(theirs)}"
    elif misfit is not None:
        score, why = 0.0, misfit
    elif not reference.text_width:
        raise ValueError(f"{args.expected} gives no page width and margins to measure tab positions against")
    else:
        score, why = _tab_score(ours, theirs, reference.text_width)
    _scored(report, score, args.min_score, why, paragraphs=len(ours))


def _references(document: Document, heading: str) -> list[str] | None:
    texts = [p.text for p in document.paragraphs]
    if heading not in texts:
        return None
    return [t for t in texts[texts.index(heading) + 1:] if t.strip()]


def _references_equal(args: ReferencesEqualArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    ours, theirs = _references(document, args.heading), _references(reference_document(probe, args.expected), args.heading)
    if ours is None or theirs is None:
        both = ours is None and theirs is None
        where = "neither document has" if both else (f"{args.path} has no" if ours is None else f"{args.path} has a")
        _scored(report, 1.0 if both else 0.0, args.min_score, f"{where} paragraph {args.heading!r}" + ("" if both else f", unlike {args.expected}"))
        return
    if len(ours) != len(theirs):
        _scored(report, 0.0, args.min_score, f"{len(ours)} reference(s), {args.expected} lists {len(theirs)}", references=len(ours))
        return
    mean = sum(indel_ratio(a, b) for a, b in zip(ours, theirs)) / len(ours) if ours else 1.0
    score = (mean - args.base) / (1 - args.base) if mean >= args.base else 0.0
    _scored(report, score, args.min_score, f"the {len(ours)} reference(s) are {mean:.1%} like {args.expected}'s, "
                                           f"{args.base:.0%} scoring 0", references=len(ours))


#: The scored checks, each with its judge and the reward it gives.
CHECKS: tuple[CheckType, ...] = (
    CheckType(DocumentTextSimilarityCheck, _document_text_similarity, reward=score_of),
    CheckType(TabStopsEqualCheck, _tab_stops_equal, reward=score_of),
    CheckType(ReferencesEqualCheck, _references_equal, reward=score_of),
)

__all__ = ["CHECKS", "score_of"]
