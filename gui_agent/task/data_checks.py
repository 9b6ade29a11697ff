"""Checks of mail-client state and of plain data files: Thunderbird's preferences,
message filters, accounts and folders; line lists, CSV, JSON, SQLite and PDF files.

They cover OSWorld's ``check_thunderbird_prefs``, ``check_thunderbird_filter``,
``check_list``, ``check_csv``, ``check_json``, the sqlite checks and ``check_pdf_pages``,
on the files the desktop environment's apps write. Their implementations are in
:mod:`gui_agent.task.data_evaluator`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.task._base import NonBlank, Regex, _Model, _SingleKey
from gui_agent.task.desktop_paths import HomePath
from gui_agent.task.value_rules import ValueRule


def _expect_something(model: Any) -> None:
    if not model.expect and not model.unexpect:
        raise PydanticCustomError("expect", "expected 'expect' and/or 'unexpect' (what must and must not be there)", {"key": None})


class ThunderbirdPrefsArgs(_Model):
    """Preferences in a Thunderbird ``prefs.js`` (``user_pref("key", value);`` lines):
    every ``expect`` key is set and satisfies its rule; no ``unexpect`` key satisfies its."""

    path: HomePath
    expect: dict[NonBlank, ValueRule] = Field(default_factory=dict)
    unexpect: dict[NonBlank, ValueRule] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _something(self) -> ThunderbirdPrefsArgs:
        _expect_something(self)
        return self


class ThunderbirdFiltersArgs(_Model):
    """Message filters in a ``msgFilterRules.dat``: each ``expect`` entry is matched by some
    filter, no filter matches an ``unexpect`` entry. An entry gives fields a filter must
    have: ``name``, ``enabled`` (``yes``/``no``), ``type``, ``action``, ``actionValue``
    (text) and ``condition`` (the list of its conditions, e.g. ``["ALL"]`` or
    ``['AND (subject,contains,report)']``)."""

    path: HomePath
    expect: list[dict[NonBlank, str | list[str]]] = Field(default_factory=list)
    unexpect: list[dict[NonBlank, str | list[str]]] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> ThunderbirdFiltersArgs:
        _expect_something(self)
        return self


class ThunderbirdAccountsArgs(_Model):
    """Mail accounts of the Thunderbird profile at ``profile`` (its ``prefs.js``; a
    ``.thunderbird`` folder means the default profile its ``profiles.ini`` names): each
    ``expect`` entry matches an account, none matches an ``unexpect`` entry. Entries give
    ``url`` (``imap://host``, ``pop3://host``, ``smtp://host``) and/or ``user``."""

    profile: HomePath
    expect: list[dict[NonBlank, str]] = Field(default_factory=list)
    unexpect: list[dict[NonBlank, str]] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> ThunderbirdAccountsArgs:
        _expect_something(self)
        return self


class MailFolderArgs(_Model):
    """A Thunderbird mail folder (an mbox file, e.g. ``.../Mail/Local Folders/Archive``)
    exists and holds at least ``min_messages`` messages, with a message whose subject
    contains each of ``subjects`` (deleted ones do not count)."""

    path: HomePath
    min_messages: int = Field(default=0, strict=True, ge=0)
    subjects: list[NonBlank] = Field(default_factory=list)


class LinesMatchArgs(_Model):
    """The text file's lines: each ``expect`` regex matches some line, no ``unexpect`` regex
    matches any (OSWorld's ``check_list``, e.g. over a saved folder listing)."""

    path: HomePath
    expect: list[Regex] = Field(default_factory=list)
    unexpect: list[Regex] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> LinesMatchArgs:
        _expect_something(self)
        return self


class CsvRowsArgs(_Model):
    """The CSV file (first line: column names): each ``expect`` record is matched by some
    row (every given column equal), no row matches an ``unexpect`` record."""

    path: HomePath
    expect: list[dict[NonBlank, str]] = Field(default_factory=list)
    unexpect: list[dict[NonBlank, str]] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> CsvRowsArgs:
        _expect_something(self)
        return self


class JsonValue(_Model):
    """One value in a JSON document: ``key`` is the path to it (keys and list positions)."""

    key: list[str | int] = Field(min_length=1)
    rule: ValueRule


class JsonValuesArgs(_Model):
    """Values in a JSON file: each ``expect`` value is there and satisfies its rule; no
    ``unexpect`` value satisfies its (OSWorld's ``check_json``)."""

    path: HomePath
    expect: list[JsonValue] = Field(default_factory=list)
    unexpect: list[JsonValue] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> JsonValuesArgs:
        _expect_something(self)
        return self


class SqliteQueryArgs(_Model):
    """A read-only SQL ``query`` on the SQLite file returns exactly ``equals`` (rows of
    values, in order) or, with ``contains``, at least those rows."""

    path: HomePath
    query: NonBlank
    equals: list[list[Any]] | None = None
    contains: list[list[Any]] | None = None

    @model_validator(mode="after")
    def _one(self) -> SqliteQueryArgs:
        if (self.equals is None) == (self.contains is None):
            raise PydanticCustomError("one_of", "expected exactly one of: equals, contains", {"key": None})
        return self


class PdfPagesArgs(_Model):
    """The PDF file's page count satisfies ``pages`` (e.g. ``{method: eq, ref: 1}``)."""

    path: HomePath
    pages: ValueRule


class ThunderbirdPrefsCheck(_SingleKey):
    name: ClassVar[str] = "thunderbird_prefs"
    thunderbird_prefs: ThunderbirdPrefsArgs


class ThunderbirdFiltersCheck(_SingleKey):
    name: ClassVar[str] = "thunderbird_filters"
    thunderbird_filters: ThunderbirdFiltersArgs


class ThunderbirdAccountsCheck(_SingleKey):
    name: ClassVar[str] = "thunderbird_accounts"
    thunderbird_accounts: ThunderbirdAccountsArgs


class MailFolderCheck(_SingleKey):
    name: ClassVar[str] = "mail_folder"
    mail_folder: MailFolderArgs


class LinesMatchCheck(_SingleKey):
    name: ClassVar[str] = "lines_match"
    lines_match: LinesMatchArgs


class CsvRowsCheck(_SingleKey):
    name: ClassVar[str] = "csv_rows"
    csv_rows: CsvRowsArgs


class JsonValuesCheck(_SingleKey):
    name: ClassVar[str] = "json_values"
    json_values: JsonValuesArgs


class SqliteQueryCheck(_SingleKey):
    name: ClassVar[str] = "sqlite_query"
    sqlite_query: SqliteQueryArgs


class PdfPagesCheck(_SingleKey):
    name: ClassVar[str] = "pdf_pages"
    pdf_pages: PdfPagesArgs


#: The checks of this module, in the order error messages list them.
DATA_CHECK_TYPES: tuple[type[_SingleKey], ...] = (
    ThunderbirdPrefsCheck, ThunderbirdFiltersCheck, ThunderbirdAccountsCheck, MailFolderCheck, LinesMatchCheck,
    CsvRowsCheck, JsonValuesCheck, SqliteQueryCheck, PdfPagesCheck,
)
