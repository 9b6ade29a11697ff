"""Checks of text documents (Writer: ``.docx`` read with python-docx, ``.odt`` from its XML).

They cover what OSWorld's Writer tasks compare: the text against a reference document,
paragraph formats, highlighted text, the formatting of runs (sub/superscript, fonts,
colours, highlights, capitals), alignment, line spacing, page breaks, page numbers in
footers and equations. Their judges are in :mod:`gui_agent.checks.document.judging`;
tables, pictures and the like are in :mod:`.structure_models`, scored comparisons in
:mod:`.score_models`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.checks.document.colors import Formula
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import NonBlank, Regex, SingleKey, StrictModel

Alignment = Literal["left", "center", "right", "justify"]


class DocumentTextEqualArgs(StrictModel):
    """The document's paragraphs read like those of ``expected`` (OSWorld's ``compare_docx_files``).

    By default all whitespace runs count as one space and the texts are compared whole
    (``ignore_blanks``); otherwise paragraph by paragraph. ``delete_empty_lines`` drops
    empty paragraphs, ``ignore_order`` sorts them, ``distinct`` compares the sets of
    stripped non-empty paragraphs (OSWorld's ``compare_docx_lines``), ``min_similarity``
    (0-1) accepts texts at least that similar (difflib's ratio) instead of equal ones.
    ``keep_whitespace_lines`` makes ``delete_empty_lines`` drop only paragraphs with no
    text at all (OSWorld's ``compare_docx_files_and_ignore_new_lines``), keeping those of
    spaces. ``ignore_extra_paragraphs`` (paragraph by paragraph only) compares as many
    paragraphs as the shorter document has (OSWorld's ``compare_init_lines``).
    """

    path: HomePath
    expected: TaskPath
    ignore_blanks: bool = True
    ignore_case: bool = False
    ignore_order: bool = False
    delete_empty_lines: bool = False
    distinct: bool = False
    min_similarity: float | None = Field(default=None, gt=0, le=1)
    keep_whitespace_lines: bool = False
    ignore_extra_paragraphs: bool = False

    @model_validator(mode="after")
    def _paragraph_wise(self) -> DocumentTextEqualArgs:
        if self.ignore_extra_paragraphs and (self.ignore_blanks or self.distinct):
            raise PydanticCustomError("options", "ignore_extra_paragraphs compares paragraph by paragraph: "
                                      "it needs ignore_blanks: false (and not distinct)", {"key": None})
        return self


class ParagraphFormatEqualArgs(StrictModel):
    """Every paragraph has the same ``props`` as the one at the same position in ``expected``
    (and both have as many paragraphs)."""

    path: HomePath
    expected: TaskPath
    props: list[Literal["line_spacing", "alignment", "space_before", "space_after", "left_indent", "first_line_indent"]] = Field(min_length=1)


class HighlightedTextEqualArgs(StrictModel):
    """The highlighted texts (runs with a highlight or background colour) are the same as in ``expected``."""

    path: HomePath
    expected: TaskPath


#: The run properties that are on or off.
RUN_FLAGS = ("bold", "italic", "underline", "strike", "subscript", "superscript", "uppercase")
#: Every run property ``run_format`` can ask for.
RUN_PROPS = (*RUN_FLAGS, "font_name", "font_size", "color", "highlight")


class RunSelection(StrictModel):
    """Which runs a ``run_format`` considers, by properties they have (``{italic: true}``:
    the italic runs). ``uppercase``: the run's text is in capitals (Python's ``str.isupper``)."""

    bold: bool | None = None
    italic: bool | None = None
    underline: bool | None = None
    strike: bool | None = None
    subscript: bool | None = None
    superscript: bool | None = None
    uppercase: bool | None = None

    @model_validator(mode="after")
    def _some_flag(self) -> RunSelection:
        if all(getattr(self, p) is None for p in RUN_FLAGS):
            raise PydanticCustomError("props", "expected at least one of: {props}", {"props": ", ".join(RUN_FLAGS), "key": None})
        return self


class RunFormatArgs(StrictModel):
    """Runs of text (the pieces of a paragraph sharing one format) have a format.

    The runs considered: those with non-blank text (every run with ``blank_runs``, as
    OSWorld's loops see them), whose text matches ``matching`` (a regex), which have the
    properties of ``among`` (``{italic: true}``), and of one place: ``in_tables`` (only
    in tables), ``body_only`` (only outside tables) or ``paragraph`` (the body paragraph
    at that 0-based position; -1 is the last). ``mode``: ``some`` (at least one
    considered run has every given property), ``every`` (all of them do, and there are at
    least ``min_runs``; 0 lets a document with none pass, as OSWorld's loops do) or
    ``none`` (none has them; e.g. no yellow highlight left). ``uppercase``: the text is in
    capitals (``str.isupper``). ``color`` / ``highlight`` are hex colours compared within
    ``color_tolerance`` ΔE in Lab, by ``color_formula`` (``cie76`` or ``ciede2000``; 0 = exact).
    """

    path: HomePath
    mode: Literal["some", "every", "none"] = "some"
    matching: Regex | None = None
    among: RunSelection | None = None
    in_tables: bool = False
    body_only: bool = False
    paragraph: int | None = Field(default=None, strict=True)
    blank_runs: bool = False
    min_runs: int = Field(default=1, strict=True, ge=0)
    bold: bool | None = None
    italic: bool | None = None
    underline: bool | None = None
    strike: bool | None = None
    subscript: bool | None = None
    superscript: bool | None = None
    uppercase: bool | None = None
    font_name: NonBlank | None = None
    font_size: float | None = Field(default=None, gt=0)
    color: NonBlank | None = None
    highlight: NonBlank | None = None
    color_tolerance: float = Field(default=0.0, ge=0)
    color_formula: Formula = "cie76"

    @model_validator(mode="after")
    def _some_property(self) -> RunFormatArgs:
        if all(getattr(self, p) is None for p in RUN_PROPS):
            raise PydanticCustomError("props", "expected at least one of: {props}", {"props": ", ".join(RUN_PROPS), "key": None})
        for key in ("color", "highlight"):
            value = getattr(self, key)
            if value is not None and not _is_hex(value):
                raise PydanticCustomError("color", "{key} must be six hex digits like 'FF0000', got {value!r}",
                                          {"key": key, "value": value})
        if sum((self.in_tables, self.body_only, self.paragraph is not None)) > 1:
            raise PydanticCustomError("place", "in_tables, body_only and paragraph each choose where the runs are: give one", {"key": None})
        return self


def _is_hex(value: str) -> bool:
    text = value.removeprefix("#")
    return len(text) == 6 and all(c in "0123456789abcdefABCDEF" for c in text)


class ParagraphAlignmentArgs(StrictModel):
    """The paragraph at 0-based ``paragraph`` (default: the first) is aligned ``equals``
    (OSWorld's ``is_first_line_centered``)."""

    path: HomePath
    paragraph: int = Field(default=0, strict=True, ge=0)
    equals: Alignment


class PageBreaksArgs(StrictModel):
    """The document has page breaks: at least one, or exactly ``count``."""

    path: HomePath
    count: int | None = Field(default=None, strict=True, ge=0)


class FooterPageNumbersArgs(StrictModel):
    """Every section's footer shows a page number (a PAGE field, or a digit in its text)."""

    path: HomePath


class DocumentEquationsArgs(StrictModel):
    """The document holds at least ``min_count`` equations (Math objects or OMML)."""

    path: HomePath
    min_count: int = Field(default=1, strict=True, ge=1)


class ParagraphLineSpacingArgs(StrictModel):
    """The body paragraph at 0-based ``paragraph`` (-1: the last) has its own line spacing
    ``equals`` times a single line (``1.5``; a ``.odt``'s ``150%`` reads 1.5). Spacing
    inherited from a style, or given as a fixed height, is not a multiple and does not
    match (as python-docx reports it to OSWorld's ``evaluate_spacing``)."""

    path: HomePath
    paragraph: int = Field(strict=True)
    equals: float = Field(gt=0)


class DocumentTextEqualCheck(SingleKey):
    name: ClassVar[str] = "document_text_equal"
    document_text_equal: DocumentTextEqualArgs


class ParagraphFormatEqualCheck(SingleKey):
    name: ClassVar[str] = "paragraph_format_equal"
    paragraph_format_equal: ParagraphFormatEqualArgs


class HighlightedTextEqualCheck(SingleKey):
    name: ClassVar[str] = "highlighted_text_equal"
    highlighted_text_equal: HighlightedTextEqualArgs


class RunFormatCheck(SingleKey):
    name: ClassVar[str] = "run_format"
    run_format: RunFormatArgs


class ParagraphAlignmentCheck(SingleKey):
    name: ClassVar[str] = "paragraph_alignment"
    paragraph_alignment: ParagraphAlignmentArgs


class PageBreaksCheck(SingleKey):
    name: ClassVar[str] = "page_breaks"
    page_breaks: PageBreaksArgs


class FooterPageNumbersCheck(SingleKey):
    name: ClassVar[str] = "footer_page_numbers"
    footer_page_numbers: FooterPageNumbersArgs


class DocumentEquationsCheck(SingleKey):
    name: ClassVar[str] = "document_equations"
    document_equations: DocumentEquationsArgs


class ParagraphLineSpacingCheck(SingleKey):
    name: ClassVar[str] = "paragraph_line_spacing"
    paragraph_line_spacing: ParagraphLineSpacingArgs
