"""Checks of PDF files: how many pages, what text, what the pages look like.

They cover OSWorld's ``check_pdf_pages``, ``compare_pdfs`` (the text of every page, as
one text, against an expected PDF's) and ``compare_pdf_images`` (every page rendered,
pixel for pixel). PDFium (the ``pypdfium2`` package) reads and renders them: one reader
for both sides of a comparison, so the two texts are extracted alike.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
from pydantic import Field

from gui_agent.checks.document.scoring import score_of
from gui_agent.checks.text_similarity import indel_ratio
from gui_agent.checks.family import CheckType
from gui_agent.checks.files.compare import text_difference
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, written_file
from gui_agent.checks.value_rules import ValueRule, matches
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import SingleKey, StrictModel

#: Points per inch of a PDF page: rendering at scale 1 gives one pixel per point (72 dpi),
#: the resolution OSWorld's ``compare_pdf_images`` renders at.
RENDER_SCALE = 1.0


# ---------------------------------------------------------------------- reading


def _pdfium() -> ModuleType:
    try:
        import pypdfium2
    except ImportError:  # pragma: no cover - an install problem
        raise RuntimeError("reading PDF files needs the pypdfium2 package (pip install pypdfium2)") from None
    return pypdfium2


def _open(path: Path) -> Any:
    if not path.read_bytes()[:1024].lstrip().startswith(b"%PDF"):
        raise ValueError(f"{path.name} is not a PDF file")
    pdfium = _pdfium()
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        raise ValueError(f"{path.name} is not a readable PDF: {exc}") from None


def page_count(path: Path) -> int:
    """How many pages the PDF at ``path`` has."""
    document = _open(path)
    try:
        return len(document)
    finally:
        document.close()


def pdf_text(path: Path) -> str:
    """The text of every page, pages one after another, line breaks as ``\\n``, the ends stripped."""
    document = _open(path)
    try:
        texts = []
        for page in document:
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
            page.close()
    finally:
        document.close()
    return "\n".join(texts).replace("\r\n", "\n").replace("\r", "\n").strip()


def page_images(path: Path) -> list[Any]:
    """Every page rendered at 72 dpi as an RGB :class:`PIL.Image.Image`."""
    document = _open(path)
    try:
        images = []
        for page in document:
            images.append(page.render(scale=RENDER_SCALE).to_pil().convert("RGB"))
            page.close()
        return images
    finally:
        document.close()


def comparable_text(text: str, *, ignore_case: bool = False) -> str:
    """A PDF's text as two PDFs' texts are compared: every run of spaces and line breaks one
    space (text extractors differ in the spacing they infer between glyphs, not in the
    glyphs), lower-cased with ``ignore_case``."""
    text = " ".join(text.split())
    return text.lower() if ignore_case else text


def compare_pdf_text(got: Path, want: Path, *, min_score: float = 1.0, ignore_case: bool = False) -> tuple[float, str | None]:
    """OSWorld's score for two PDFs' texts (their Indel similarity, ``fuzz.ratio``) and,
    when it is under ``min_score``, where they differ."""
    a = comparable_text(pdf_text(got), ignore_case=ignore_case)
    b = comparable_text(pdf_text(want), ignore_case=ignore_case)
    score = indel_ratio(a, b)
    if score >= min_score - 1e-9:
        return score, None
    return score, f"the text of {text_difference(a, b, got.name, want.name)} (similarity {score:.4f}, at least {min_score:g} needed)"


# ---------------------------------------------------------------------- what a task file writes


class PdfPagesArgs(StrictModel):
    """The PDF file's page count satisfies ``pages`` (e.g. ``{method: eq, ref: 1}``)."""

    path: HomePath
    pages: ValueRule


class PdfTextArgs(StrictModel):
    """Scores how alike the text of the PDF at ``path`` (every page's, in order) is to that
    of ``expected``, a PDF shipped in the task's folder, spacing aside: their Indel
    similarity (OSWorld's ``compare_pdfs``, ``fuzz.ratio``), 0..1, in ``observed.score``.
    It passes at ``min_score`` (default 1: the same text, OSWorld's full marks); as a
    task's whole evaluator its score is the reward. ``ignore_case``: letter case aside too."""

    path: HomePath
    expected: TaskPath
    min_score: float = Field(default=1.0, gt=0, le=1)
    ignore_case: bool = False


class PdfImagesArgs(StrictModel):
    """The PDF at ``path`` has as many pages as ``expected`` and each renders (at 72 dpi)
    to exactly the same pixels (OSWorld's ``compare_pdf_images``)."""

    path: HomePath
    expected: TaskPath


class PdfPagesCheck(SingleKey):
    name: ClassVar[str] = "pdf_pages"
    pdf_pages: PdfPagesArgs


class PdfTextCheck(SingleKey):
    name: ClassVar[str] = "pdf_text"
    pdf_text: PdfTextArgs


class PdfImagesCheck(SingleKey):
    name: ClassVar[str] = "pdf_images"
    pdf_images: PdfImagesArgs


# ---------------------------------------------------------------------- judging


def _pdf_pages(args: PdfPagesArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    pages = page_count(path)
    report.update(observed={"pages": pages}, passed=matches(pages, args.pages),
                  reason=f"{args.path} has {pages} page(s), expected {args.pages.describe()}")


def _pdf_text(args: PdfTextArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    score, difference = compare_pdf_text(path, probe.task_file(args.expected), min_score=args.min_score, ignore_case=args.ignore_case)
    report["observed"] = {"exists": True, "score": round(score, 6)}
    report.update(passed=difference is None, reason=difference or f"the text of {args.path} is that of {args.expected}")


def _pixels_differing(a: Any, b: Any) -> int:
    return int(np.count_nonzero((np.asarray(a) != np.asarray(b)).any(axis=-1)))


def _pdf_images(args: PdfImagesArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    got, want = page_images(path), page_images(probe.task_file(args.expected))
    report["observed"] = {"pages": len(got), "expected_pages": len(want)}
    if len(got) != len(want):
        report["reason"] = f"{args.path} has {len(got)} page(s), {args.expected} has {len(want)}"
        return
    for number, (a, b) in enumerate(zip(got, want), start=1):
        if a.size != b.size:
            report["reason"] = f"page {number} of {args.path} is {a.size[0]}x{a.size[1]} pixels, expected {b.size[0]}x{b.size[1]}"
            return
        if a.tobytes() != b.tobytes():
            differing = _pixels_differing(a, b)
            report["observed"]["differing_pixels"] = differing
            report["reason"] = f"page {number} of {args.path} differs from {args.expected}'s in {differing} pixel(s)"
            return
    report.update(passed=True, reason=f"the {len(got)} page(s) of {args.path} look exactly like {args.expected}'s")


#: These checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(PdfPagesCheck, _pdf_pages),
    CheckType(PdfTextCheck, _pdf_text, reward=score_of),
    CheckType(PdfImagesCheck, _pdf_images),
)

__all__ = ["CHECKS", "compare_pdf_text", "comparable_text", "page_count", "page_images", "pdf_text"]
