"""The ``archive_equal`` check: an archive holds the files an expected one does, each
matching its counterpart (OSWorld's ``compare_archive``).

Both archives (zip, or tar, plain or compressed) are unpacked into a temporary folder;
the entries of ``folder`` inside them (names only, not recursive, as a folder listing
shows them) must be the same, and every file must match the expected archive's file of
the same name the way ``files`` says: ``text`` (the whole text, OSWorld's
``compare_text_file``), ``lines`` (line by line, its ``compare_csv``) or ``pdf`` (the
extracted text, its ``compare_pdfs``). Like OSWorld, it scores the mean of the files'
scores (1 or 0 for a text, the similarity for a PDF; 0 when the listings differ) in
``observed.score``, passes at ``min_score`` (default 1: every file matches, OSWorld's full
marks), and gives that score as the reward when it is a task's whole evaluator.
"""

from __future__ import annotations

import tarfile
import tempfile
import zipfile
from pathlib import Path, PurePosixPath
from typing import ClassVar, Literal

from pydantic import Field, field_validator

from gui_agent.checks.document.scoring import score_of
from gui_agent.checks.family import CheckType
from gui_agent.checks.files.compare import compare_lines, compare_text
from gui_agent.checks.files.pdf import compare_pdf_text
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, listing, written_file
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import SingleKey, StrictModel

#: How two files of the archives are compared.
FileKind = Literal["text", "lines", "pdf"]


class ArchiveEqualArgs(StrictModel):
    """The archive at ``path`` holds, in ``folder`` (a folder inside it; its top by
    default), the entries ``expected`` (an archive shipped in the task's folder) holds there,
    and each file matches its counterpart as ``files`` says (see the module docstring);
    ``ignore_case`` and ``ignore_blanks`` (runs of spaces and line breaks count as one
    space for ``text``; each line's surrounding spaces do not count for ``lines``) loosen it."""

    path: HomePath
    expected: TaskPath
    folder: str = ""
    files: FileKind = "text"
    ignore_case: bool = False
    ignore_blanks: bool = False
    min_score: float = Field(default=1.0, gt=0, le=1)

    @field_validator("folder")
    @classmethod
    def _inside(cls, value: str) -> str:
        parts = PurePosixPath(value.strip("/")).parts if value.strip("/") else ()
        if ".." in parts:
            raise ValueError(f"folder {value!r} must stay inside the archive ('..' is not allowed)")
        return "/".join(parts)


class ArchiveEqualCheck(SingleKey):
    name: ClassVar[str] = "archive_equal"
    archive_equal: ArchiveEqualArgs


def unpack(archive: Path, into: Path) -> None:
    """Unpack a zip or tar archive (any compression tar reads) into the folder ``into``;
    members that would land outside it are refused.

    Raises:
        ValueError: the file is neither.
    """
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as packed:
            packed.extractall(into)
        return
    try:
        with tarfile.open(archive) as packed:
            packed.extractall(into, filter="data")
    except tarfile.TarError as exc:
        raise ValueError(f"{archive.name} is not a zip or tar archive ({exc})") from None


def _compared(args: ArchiveEqualArgs, got: Path, want: Path) -> tuple[float, str | None]:
    """One file's score and, unless it matches fully, what differs."""
    if got.is_dir() or want.is_dir():
        same = got.is_dir() and want.is_dir()
        return float(same), None if same else f"{got.name} is a folder in one archive and a file in the other"
    if args.files == "pdf":
        return compare_pdf_text(got, want, ignore_case=args.ignore_case)
    if args.files == "lines":
        difference = compare_lines(got, want, strip=args.ignore_blanks, ignore_case=args.ignore_case)
    else:
        difference = compare_text(got, want, ignore_blanks=args.ignore_blanks, ignore_case=args.ignore_case)
    return float(difference is None), difference


def _entries(root: Path, folder: str) -> list[str] | None:
    where = root / folder if folder else root
    return sorted(p.name for p in where.iterdir()) if where.is_dir() else None


def _archive_equal(args: ArchiveEqualArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    report["observed"] = {"score": 0.0}
    with tempfile.TemporaryDirectory(prefix="archive-equal-") as scratch:
        got_root, want_root = Path(scratch, "got"), Path(scratch, "want")
        unpack(path, got_root)
        unpack(probe.task_file(args.expected), want_root)
        got, want = _entries(got_root, args.folder), _entries(want_root, args.folder)
        if want is None:
            raise ValueError(f"{args.expected} has no folder {args.folder!r}")
        report["observed"]["entries"] = (got or [])[:50]
        if got is None:
            report["reason"] = f"{args.path} has no folder {args.folder!r}"
            return
        if got != want:
            extra, lacking = sorted(set(got) - set(want)), sorted(set(want) - set(got))
            report["reason"] = f"{args.path} holds {len(got)} entries, {args.expected} {len(want)}: extra {extra}, missing {lacking}"
            return
        compared = [_compared(args, got_root / args.folder / name, want_root / args.folder / name) for name in got]
    score = sum(s for s, _ in compared) / len(compared) if compared else 1.0
    report["observed"]["score"] = round(score, 6)
    differences = [d for _, d in compared if d]
    if score >= args.min_score - 1e-9:
        report.update(passed=True, reason=f"the {len(got)} entries of {args.path} match {args.expected}'s (score {score:.4f})")
    else:
        report.update(passed=False, reason=f"scores {score:.4f} (at least {args.min_score:g} needed): {listing(differences)}")


#: These checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (CheckType(ArchiveEqualCheck, _archive_equal, reward=score_of),)

__all__ = ["CHECKS", "FileKind", "unpack"]
