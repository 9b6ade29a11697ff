"""Checks of text documents (Writer: ``.docx`` read with python-docx, ``.odt`` from its XML).

They cover what OSWorld's Writer tasks compare: the text against a reference document,
paragraph formats, highlighted text, the formatting of runs (sub/superscript, fonts,
colours, highlights), alignment, page breaks, page numbers in footers and equations.
Their judges are in :mod:`gui_agent.checks.document.judging`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

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
    """

    path: HomePath
    expected: TaskPath
    ignore_blanks: bool = True
    ignore_case: bool = False
    ignore_order: bool = False
    delete_empty_lines: bool = False
    distinct: bool = False
    min_similarity: float | None = Field(default=None, gt=0, le=1)


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


class RunFormatArgs(StrictModel):
    """Runs of text (the pieces of a paragraph sharing one format) have a format.

    ``which``: the runs considered: those whose text matches ``matching`` (a regex; all
    non-empty runs by default), only in tables with ``in_tables``. ``mode``: ``some`` (at
    least one considered run has every given property), ``every`` (all of them do) or
    ``none`` (none has them; e.g. no yellow highlight left). ``color`` / ``highlight`` are
    hex colours compared within ``color_tolerance`` (CIE76 ΔE in Lab; 0 = exact).
    """

    path: HomePath
    mode: Literal["some", "every", "none"] = "some"
    matching: Regex | None = None
    in_tables: bool = False
    bold: bool | None = None
    italic: bool | None = None
    underline: bool | None = None
    strike: bool | None = None
    subscript: bool | None = None
    superscript: bool | None = None
    font_name: NonBlank | None = None
    font_size: float | None = Field(default=None, gt=0)
    color: NonBlank | None = None
    highlight: NonBlank | None = None
    color_tolerance: float = Field(default=0.0, ge=0)

    @model_validator(mode="after")
    def _some_property(self) -> RunFormatArgs:
        props = ("bold", "italic", "underline", "strike", "subscript", "superscript", "font_name", "font_size", "color", "highlight")
        if all(getattr(self, p) is None for p in props):
            raise PydanticCustomError("props", "expected at least one of: {props}", {"props": ", ".join(props), "key": None})
        for key in ("color", "highlight"):
            value = getattr(self, key)
            if value is not None and not _is_hex(value):
                raise PydanticCustomError("color", "{key} must be six hex digits like 'FF0000', got {value!r}",
                                          {"key": key, "value": value})
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
