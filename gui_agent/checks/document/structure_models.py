"""Document checks of what a document holds beside its formatted text: tables, pictures
and where they sit, the words of its sentences, records written one per line, and the
text a picture shows (read by OCR). Their judges are in
:mod:`gui_agent.checks.document.structure` and :mod:`gui_agent.checks.document.ocr`."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import NonBlank, SingleKey, StrictModel


class DocumentTablesEqualArgs(StrictModel):
    """The document has as many tables as ``expected``, each with as many rows and grid
    columns, and every cell's text (stripped) equal (OSWorld's ``compare_docx_tables``)."""

    path: HomePath
    expected: TaskPath


class DocumentImagesEqualArgs(StrictModel):
    """The document embeds as many pictures as ``expected``, and each, in the order the
    files list them, has the same pixels (OSWorld's ``compare_docx_images``)."""

    path: HomePath
    expected: TaskPath


class ImagePositionsEqualArgs(StrictModel):
    """Where ``expected`` has a picture, the document has one, and nowhere else: run by run
    of paragraph by paragraph, over the paragraphs and runs both documents have
    (OSWorld's ``compare_contains_image``)."""

    path: HomePath
    expected: TaskPath


class OcrTextContainsArgs(StrictModel):
    """The text Tesseract reads in the picture at ``path`` (its words joined by single
    spaces) contains ``text``, case and spaces as given (OSWorld's ``compare_image_text``,
    which reads with EasyOCR). ``language``: Tesseract's language code."""

    path: HomePath
    text: str = Field(min_length=1)
    language: NonBlank = "eng"


class SentenceWordsApartArgs(StrictModel):
    """Every sentence (the text between full stops of a body paragraph) of at least
    ``words`` words reads as its first ``words`` words, single-spaced, followed later by
    the rest of its words, single-spaced: whatever stands between the two parts (a tab, a
    wide space) may differ (OSWorld's ``evaluate_alignment``, which takes three words)."""

    path: HomePath
    words: int = Field(default=3, strict=True, ge=1)


class RecordKeysEqualArgs(StrictModel):
    """Body paragraphs that split into exactly ``fields`` parts at ``separator`` are records
    keyed by their part ``key`` (0-based, stripped). The document and ``expected`` name
    the same set of keys, and the file ``no_duplicates`` names (``path`` or ``expected``)
    has no two records with one key (OSWorld's ``check_no_duplicates``, on train records
    ``time, train id, station, platform``)."""

    path: HomePath
    expected: TaskPath
    fields: int = Field(default=4, strict=True, ge=1)
    key: int = Field(default=1, strict=True, ge=0)
    separator: str = Field(default=",", min_length=1)
    no_duplicates: Literal["path", "expected"] = "path"

    @model_validator(mode="after")
    def _key_is_a_field(self) -> RecordKeysEqualArgs:
        if self.key >= self.fields:
            raise PydanticCustomError("key", "key {key} is not one of the {fields} fields (0-based)",
                                      {"key": self.key, "fields": self.fields})
        return self


class DocumentTablesEqualCheck(SingleKey):
    name: ClassVar[str] = "document_tables_equal"
    document_tables_equal: DocumentTablesEqualArgs


class DocumentImagesEqualCheck(SingleKey):
    name: ClassVar[str] = "document_images_equal"
    document_images_equal: DocumentImagesEqualArgs


class ImagePositionsEqualCheck(SingleKey):
    name: ClassVar[str] = "image_positions_equal"
    image_positions_equal: ImagePositionsEqualArgs


class OcrTextContainsCheck(SingleKey):
    name: ClassVar[str] = "ocr_text_contains"
    ocr_text_contains: OcrTextContainsArgs


class SentenceWordsApartCheck(SingleKey):
    name: ClassVar[str] = "sentence_words_apart"
    sentence_words_apart: SentenceWordsApartArgs


class RecordKeysEqualCheck(SingleKey):
    name: ClassVar[str] = "record_keys_equal"
    record_keys_equal: RecordKeysEqualArgs
