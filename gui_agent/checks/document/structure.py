"""Judging the checks of :mod:`gui_agent.checks.document.structure_models`: tables,
pictures and where they sit, the words of sentences, records one per paragraph."""

from __future__ import annotations

import io

from gui_agent.checks.document.loading import reference_document, saved_document
from gui_agent.checks.document.parts import Document
from gui_agent.checks.document.structure_models import (
    DocumentImagesEqualArgs,
    DocumentImagesEqualCheck,
    DocumentTablesEqualArgs,
    DocumentTablesEqualCheck,
    ImagePositionsEqualArgs,
    ImagePositionsEqualCheck,
    RecordKeysEqualArgs,
    RecordKeysEqualCheck,
    SentenceWordsApartArgs,
    SentenceWordsApartCheck,
)
from gui_agent.checks.family import CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut, verdict


def _table_differences(ours: list[list[list[str]]], theirs: list[list[list[str]]]) -> list[str]:
    if len(ours) != len(theirs):
        return [f"{len(ours)} table(s), expected {len(theirs)}"]
    differences = []
    for t, (a, b) in enumerate(zip(ours, theirs), start=1):
        shape_a, shape_b = (len(a), len(a[0]) if a else 0), (len(b), len(b[0]) if b else 0)
        if shape_a != shape_b:
            differences.append(f"table {t} is {shape_a[0]}x{shape_a[1]}, expected {shape_b[0]}x{shape_b[1]}")
            continue
        differences += [f"table {t} cell ({i + 1},{j + 1}) is {cut(x.strip())!r}, expected {cut(y.strip())!r}"
                        for i, (row_a, row_b) in enumerate(zip(a, b)) for j, (x, y) in enumerate(zip(row_a, row_b))
                        if x.strip() != y.strip()]
    return differences


def _document_tables_equal(args: DocumentTablesEqualArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    ours, theirs = document.tables, reference_document(probe, args.expected).tables
    report["observed"] = {"tables": [f"{len(t)}x{len(t[0]) if t else 0}" for t in ours]}
    verdict(report, _table_differences(ours, theirs), ok=f"the {len(ours)} table(s) equal {args.expected}'s cell by cell")


def _pixels(data: bytes) -> tuple[tuple[int, int], str, bytes] | None:
    """A picture's size, mode and raw pixels (None when Pillow cannot read it)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size, image.mode, image.tobytes()
    except (UnidentifiedImageError, OSError):
        return None


def _document_images_equal(args: DocumentImagesEqualArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    ours, theirs = document.images, reference_document(probe, args.expected).images
    report["observed"] = {"images": len(ours)}
    differences = [f"{len(ours)} picture(s), expected {len(theirs)}"] if len(ours) != len(theirs) else []
    for i, (a, b) in enumerate(zip(ours, theirs) if not differences else [], start=1):
        pa, pb = _pixels(a), _pixels(b)
        if pa is None or pb is None:
            differences.append(f"picture {i} cannot be read as an image")
        elif pa[:2] != pb[:2]:
            differences.append(f"picture {i} is {pa[0][0]}x{pa[0][1]} {pa[1]}, expected {pb[0][0]}x{pb[0][1]} {pb[1]}")
        elif pa[2] != pb[2]:
            differences.append(f"picture {i} has other pixels than {args.expected}'s")
    verdict(report, differences, ok=f"the {len(ours)} picture(s) have the pixels of {args.expected}'s")


def _image_places(document: Document) -> list[list[bool]]:
    return [[run.has_image for run in paragraph.runs] for paragraph in document.paragraphs]


def _image_positions_equal(args: ImagePositionsEqualArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    ours, theirs = _image_places(document), _image_places(reference_document(probe, args.expected))
    differences = [
        f"paragraph {p + 1}, run {r + 1} {'has' if a else 'has no'} picture, {args.expected}'s {'has' if b else 'has none'}"
        for p, (runs_a, runs_b) in enumerate(zip(ours, theirs)) for r, (a, b) in enumerate(zip(runs_a, runs_b)) if a != b
    ]
    report["observed"] = {"pictures": sum(map(sum, ours))}
    verdict(report, differences, ok=f"pictures sit where {args.expected}'s do (over the paragraphs and runs both have)")


def sentence_misfit(sentence: str, words: int) -> bool:
    """True when a sentence of at least ``words`` words does not read as its first words,
    single-spaced, then (later) the rest, single-spaced."""
    split = sentence.strip().split()
    if len(split) < words:
        return False
    first, rest = " ".join(split[:words]), " ".join(split[words:])
    return not (first in sentence and rest in sentence and sentence.find(first) < sentence.find(rest))


def _sentence_words_apart(args: SentenceWordsApartArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    differences = [f"paragraph {p + 1}, sentence {s + 1} ({cut(sentence.strip()[:60])!r}) does not keep its first "
                   f"{args.words} word(s) apart from the rest"
                   for p, paragraph in enumerate(document.paragraphs)
                   for s, sentence in enumerate(paragraph.text.split(".")) if sentence_misfit(sentence, args.words)]
    report["observed"] = {"paragraphs": len(document.paragraphs)}
    verdict(report, differences, ok=f"every sentence keeps its first {args.words} word(s) apart from the rest")


def _record_keys(document: Document, args: RecordKeysEqualArgs) -> list[str]:
    parts = (p.text.split(args.separator) for p in document.paragraphs)
    return [fields[args.key].strip() for fields in parts if len(fields) == args.fields]


def _record_keys_equal(args: RecordKeysEqualArgs, probe: DesktopProbe, report: Report) -> None:
    document = saved_document(probe, args.path, report)
    if document is None:
        return
    ours, theirs = _record_keys(document, args), _record_keys(reference_document(probe, args.expected), args)
    checked = ours if args.no_duplicates == "path" else theirs
    named = args.path if args.no_duplicates == "path" else args.expected
    twice = sorted({k for k in checked if checked.count(k) > 1})
    differences = [f"{named} names key(s) {twice[:10]} more than once"] if twice else []
    differences += [f"key {k!r} is missing" for k in sorted(set(theirs) - set(ours))]
    differences += [f"key {k!r} is not in {args.expected}" for k in sorted(set(ours) - set(theirs))]
    report["observed"] = {"records": len(ours), "keys": len(set(ours))}
    verdict(report, differences, ok=f"the {len(set(ours))} record key(s) are {args.expected}'s, none twice in {named}")


#: The structure checks, each with its judge.
CHECKS: tuple[CheckType, ...] = (
    CheckType(DocumentTablesEqualCheck, _document_tables_equal),
    CheckType(DocumentImagesEqualCheck, _document_images_equal),
    CheckType(ImagePositionsEqualCheck, _image_positions_equal),
    CheckType(SentenceWordsApartCheck, _sentence_words_apart),
    CheckType(RecordKeysEqualCheck, _record_keys_equal),
)

__all__ = ["CHECKS", "sentence_misfit"]
