"""Checks of markup files against expected ones: an HTML page (OSWorld's
``compare_htmls``) and an EPUB book (its ``compare_epub``).

``html_equal`` walks both documents in order, every element and every piece of text: an
element matches when its name, its attributes and its whole text (stripped) are the
same, a text when it is the same text. ``epub_equal`` compares the book's parts as
OSWorld normalises them: the table of contents (``.ncx``) without its ``navPoint``
lines, the package file (``.opf``) without its ``dc:identifier`` lines (a fresh id each
time a book is made), and every ``.html`` chapter re-serialised from its parsed tree
(so layout whitespace does not count) — each part line for line. Like OSWorld it scores
the product of the parts' line similarities (difflib's ratio over their lines, its
``diff_text_file``) in ``observed.score``, passes at ``min_score`` (default 1: every part
the same) and gives that score as the reward when it is a task's whole evaluator.

Where OSWorld pairs the two walks by position and stops at the shorter (a page or book
missing its end would pass), these require the same number of nodes and parts (an EPUB
missing a part scores 0).
"""

from __future__ import annotations

import difflib
import math
import zipfile
from pathlib import Path
from typing import Any, ClassVar

import lxml.html
from lxml import etree
from pydantic import Field

from gui_agent.checks.document.scoring import score_of
from gui_agent.checks.family import CheckType
from gui_agent.checks.files.compare import line_difference
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut, listing, written_file
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import SingleKey, StrictModel

#: One node of a walked HTML document: ("tag", name, text, attributes), ("text", text),
#: ("comment", text) or ("doctype", declaration).
Node = tuple[Any, ...]


# ---------------------------------------------------------------------- HTML


def html_nodes(text: str) -> list[Node]:
    """Every node of the HTML document ``text`` in document order (see :data:`Node`)."""
    root = lxml.html.document_fromstring(text)
    nodes: list[Node] = []
    doctype = root.getroottree().docinfo.doctype
    if doctype:
        nodes.append(("doctype", doctype))
    _walk(root, nodes)
    return nodes


def _walk(element: Any, nodes: list[Node]) -> None:
    if isinstance(element, etree._Comment):
        nodes.append(("comment", element.text or ""))
    elif isinstance(element.tag, str):
        nodes.append(("tag", element.tag, element.text_content().strip(), dict(element.attrib)))
        if element.text:
            nodes.append(("text", element.text))
        for child in element:
            _walk(child, nodes)
            if child.tail:
                nodes.append(("text", child.tail))


def _describe(node: Node) -> str:
    if node[0] == "tag":
        return f"<{node[1]} {node[3]}> with text {cut(node[2])!r}" if node[3] else f"<{node[1]}> with text {cut(node[2])!r}"
    return f"{node[0]} {cut(node[1])!r}"


def html_difference(got: list[Node], want: list[Node], got_name: str, want_name: str) -> str | None:
    """Where two walked documents first differ, or None when they are the same."""
    for index, (a, b) in enumerate(zip(got, want)):
        if a != b:
            return f"node {index + 1} of {got_name} is {_describe(a)}, {want_name} has {_describe(b)}"
    if len(got) != len(want):
        longer, name = (got, got_name) if len(got) > len(want) else (want, want_name)
        return f"{got_name} has {len(got)} nodes, {want_name} {len(want)}: {name} goes on with {_describe(longer[min(len(got), len(want))])}"
    return None


# ---------------------------------------------------------------------- EPUB


def _chapter_lines(data: bytes) -> list[str]:
    text = data.decode("utf-8", errors="replace").replace("\n", "").replace("\r", "")
    tree = lxml.html.fromstring(text.encode("utf-8"))
    return str(lxml.html.tostring(tree, pretty_print=True, encoding="unicode")).splitlines()


def epub_parts(path: Path) -> dict[str, list[str]]:
    """The normalised parts of the EPUB at ``path``: member name -> its lines (see the module docstring).

    Raises:
        ValueError: it is not a zip file, or holds no table of contents, package file or chapter.
    """
    if not zipfile.is_zipfile(path):
        raise ValueError(f"{path.name} is not an EPUB (not a zip file)")
    parts: dict[str, list[str]] = {}
    with zipfile.ZipFile(path) as book:
        for name in book.namelist():
            if name.endswith(".ncx"):
                parts[name] = [line for line in book.read(name).decode("utf-8", "replace").splitlines() if "navPoint" not in line]
            elif name.endswith(".opf"):
                parts[name] = [line for line in book.read(name).decode("utf-8", "replace").splitlines() if "dc:identifier" not in line]
            elif name.endswith(".html"):
                parts[name] = _chapter_lines(book.read(name))
    if not parts:
        raise ValueError(f"{path.name} holds no .ncx, .opf or .html part")
    return parts


# ---------------------------------------------------------------------- what a task file writes


class HtmlEqualArgs(StrictModel):
    """The HTML page at ``path`` has the elements and texts of ``expected`` (a page shipped in
    the task's folder), in order (see the module docstring)."""

    path: HomePath
    expected: TaskPath


class EpubEqualArgs(StrictModel):
    """Scores how alike the EPUB at ``path`` is to ``expected`` (an EPUB shipped in the
    task's folder), part by part once normalised (see the module docstring); passes at
    ``min_score`` (default 1: every part the same)."""

    path: HomePath
    expected: TaskPath
    min_score: float = Field(default=1.0, gt=0, le=1)


class HtmlEqualCheck(SingleKey):
    name: ClassVar[str] = "html_equal"
    html_equal: HtmlEqualArgs


class EpubEqualCheck(SingleKey):
    name: ClassVar[str] = "epub_equal"
    epub_equal: EpubEqualArgs


def _html_equal(args: HtmlEqualArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    got = html_nodes(path.read_text(encoding="utf-8", errors="replace"))
    want = html_nodes(probe.task_file(args.expected).read_text(encoding="utf-8", errors="replace"))
    report["observed"] = {"nodes": len(got), "expected_nodes": len(want)}
    difference = html_difference(got, want, args.path, args.expected)
    report.update(passed=difference is None, reason=difference or f"{args.path} has the {len(got)} nodes of {args.expected}")


def _epub_equal(args: EpubEqualArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    try:
        got = epub_parts(path)
    except ValueError as exc:
        report.update(observed={"exists": True, "score": 0.0}, reason=str(exc))
        return
    want = epub_parts(probe.task_file(args.expected))
    problems = [f"{name} is missing" for name in sorted(set(want) - set(got))]
    problems += [f"{name} is not in {args.expected}" for name in sorted(set(got) - set(want))]
    score = 0.0 if problems else math.prod(difflib.SequenceMatcher(a=got[n], b=want[n]).ratio() for n in sorted(want))
    problems += [d for name in sorted(set(got) & set(want)) if (d := line_difference(got[name], want[name], name, f"{args.expected}'s"))]
    report["observed"] = {"parts": sorted(got)[:50], "score": round(score, 6)}
    if score >= args.min_score - 1e-9:
        report.update(passed=True, reason=f"the {len(got)} parts of {args.path} match {args.expected}'s (score {score:.4f})")
    else:
        report.update(passed=False, reason=f"scores {score:.4f} (at least {args.min_score:g} needed): {listing(problems)}")


#: These checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(HtmlEqualCheck, _html_equal),
    CheckType(EpubEqualCheck, _epub_equal, reward=score_of),
)

__all__ = ["CHECKS", "epub_parts", "html_difference", "html_nodes"]
