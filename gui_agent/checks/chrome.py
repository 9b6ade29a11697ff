"""Checks of the chrome family: what a browser's state must be, judged on a value a source
reads (``of``: the active tab, the open tabs, the bookmarks, the history...).

They are OSWorld's Chrome metrics, judging the way those do:

=========================  ===============================================================
check                      passes when (the OSWorld metric)
=========================  ===============================================================
``same_url``               the value (an address, or a mapping with ``url``) is the same
                           address as ``url`` (``is_expected_active_tab``)
``same_urls``              the value (tabs: mappings with ``url``, or addresses) has as many
                           addresses as ``urls`` and each of ``urls`` among them
                           (``is_expected_tabs``)
``bookmarks_match``        the bookmark bar's folders are ``bar_folders``, or its
                           addresses ``bar_urls``, or the bar's folder ``folder`` holds
                           one address of each ``folder_urls`` entry and nothing else
                           (``is_expected_bookmarks``)
``no_cookies_for``         no cookie's domain is one of ``domains`` (``is_cookie_deleted``)
``history_lacks``          no address in the history contains one of ``keywords``
                           (``check_history_deleted``)
``experiments_equal``      the experiments turned on, less their ``@choice``, are ``names``
                           in that order (``check_enabled_experiments``)
``shortcut_on_desktop``    a Desktop launcher is named ``name`` (``is_shortcut_on_desktop``)
=========================  ===============================================================

Addresses are compared as OSWorld's ``compare_urls`` compares them (:func:`same_url`):
the scheme (``http`` when missing) and host without case, ``www.`` in the host ignored,
a path of just ``/`` the same as none; the query and fragment count.
"""

from __future__ import annotations

from itertools import product
from typing import Any, ClassVar
from urllib.parse import urlparse, urlunparse

from pydantic import Field, model_validator

from gui_agent.checks.family import CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut, listing
from gui_agent.checks.sources import Source, read_source
from gui_agent.schema import NonBlank, SingleKey, StrictModel, exactly_one


def _normal_url(url: str) -> str:
    parts = urlparse(url)
    return urlunparse(parts._replace(
        scheme=(parts.scheme or "http").lower(),
        netloc=parts.netloc.lower().replace("www.", ""),
        path="" if parts.path == "/" else parts.path,
    ))


def same_url(first: str | None, second: str | None) -> bool:
    """Whether two addresses are the same (see the module docstring); two missing ones are."""
    if first is None or second is None:
        return first == second
    return _normal_url(first) == _normal_url(second)


def url_of(value: Any) -> str | None:
    """The address in a value: the text itself, or a mapping's ``url``."""
    if isinstance(value, dict):
        value = value.get("url")
    return value if isinstance(value, str) else None


# ---------------------------------------------------------------------- what a task file writes


class SameUrlArgs(StrictModel):
    """The value read ``of`` is the address ``url``."""

    of: Source
    url: NonBlank


class SameUrlsArgs(StrictModel):
    """The addresses in the value read ``of`` are ``urls`` (as many, each one there)."""

    of: Source
    urls: list[NonBlank]


class BookmarksArgs(StrictModel):
    """The bookmarks read ``of`` (their roots): exactly one of

    * ``bar_folders``: the bookmark bar's folders have these names (as a set);
    * ``bar_urls``: the bookmark bar's addresses are these (as a set, folders aside);
    * ``folder_urls`` (with ``folder``, a folder of the bar): the folder's addresses are,
      as a set, one choice of each entry (an address, or a list of addresses any of
      which will do).
    """

    of: Source
    bar_folders: list[str] | None = None
    bar_urls: list[str] | None = None
    folder_urls: list[str | list[str]] | None = None
    folder: NonBlank | None = None

    @model_validator(mode="after")
    def _one(self) -> BookmarksArgs:
        exactly_one(self, ("bar_folders", "bar_urls", "folder_urls"))
        if (self.folder_urls is None) != (self.folder is None):
            raise ValueError("folder_urls and folder go together")
        return self


class NoCookiesForArgs(StrictModel):
    """No cookie of the value read ``of`` (mappings with ``host_key``, or rows whose second
    field is it) belongs to one of ``domains`` (``.example.com``)."""

    of: Source
    domains: list[NonBlank] = Field(min_length=1)


class HistoryLacksArgs(StrictModel):
    """No address of the history read ``of`` (rows whose first field is it) contains one of ``keywords``."""

    of: Source
    keywords: list[NonBlank] = Field(min_length=1)


class ExperimentsEqualArgs(StrictModel):
    """The experiments read ``of`` (``name@choice`` texts), less their choice, are ``names``, in order."""

    of: Source
    names: list[str]


class ShortcutOnDesktopArgs(StrictModel):
    """A launcher read ``of`` (``{file: text}``) has the line ``Name=<name>``."""

    of: Source
    name: NonBlank


class SameUrlCheck(SingleKey):
    name: ClassVar[str] = "same_url"
    same_url: SameUrlArgs


class SameUrlsCheck(SingleKey):
    name: ClassVar[str] = "same_urls"
    same_urls: SameUrlsArgs


class BookmarksMatchCheck(SingleKey):
    name: ClassVar[str] = "bookmarks_match"
    bookmarks_match: BookmarksArgs


class NoCookiesForCheck(SingleKey):
    name: ClassVar[str] = "no_cookies_for"
    no_cookies_for: NoCookiesForArgs


class HistoryLacksCheck(SingleKey):
    name: ClassVar[str] = "history_lacks"
    history_lacks: HistoryLacksArgs


class ExperimentsEqualCheck(SingleKey):
    name: ClassVar[str] = "experiments_equal"
    experiments_equal: ExperimentsEqualArgs


class ShortcutOnDesktopCheck(SingleKey):
    name: ClassVar[str] = "shortcut_on_desktop"
    shortcut_on_desktop: ShortcutOnDesktopArgs


# ---------------------------------------------------------------------- judges


def _same_url(args: SameUrlArgs, probe: DesktopProbe, report: Report) -> None:
    observed = url_of(read_source(args.of, probe))
    report["observed"] = {"url": observed}
    ok = bool(observed) and same_url(args.url, observed)
    report.update(passed=ok, reason=f"the address is {observed!r}, {'the same as' if ok else 'not'} {args.url!r}")


def _same_urls(args: SameUrlsArgs, probe: DesktopProbe, report: Report) -> None:
    value = read_source(args.of, probe)
    observed = [url_of(v) for v in value] if isinstance(value, list) else []
    report["observed"] = {"urls": observed}
    problems = [] if len(observed) == len(args.urls) else [f"{len(observed)} address(es) where {len(args.urls)} are expected"]
    problems += [f"{url} is not open" for url in args.urls if not any(same_url(url, o) for o in observed)]
    report.update(passed=not problems, reason=listing(problems) if problems else f"the addresses are {args.urls}")


def _bar_children(bookmarks: Any) -> list[dict[str, Any]]:
    bar = bookmarks.get("bookmark_bar") if isinstance(bookmarks, dict) else None
    children = bar.get("children") if isinstance(bar, dict) else None
    return [c for c in children if isinstance(c, dict)] if isinstance(children, list) else []


def _bookmarks_match(args: BookmarksArgs, probe: DesktopProbe, report: Report) -> None:
    bookmarks = read_source(args.of, probe)
    if not bookmarks:
        report.update(observed={"bookmarks": bookmarks}, passed=False, reason="there are no bookmarks")
        return
    children = _bar_children(bookmarks)
    folders = [c.get("name") for c in children if c.get("type") == "folder"]
    urls = [c.get("url") for c in children if c.get("type") == "url"]
    report["observed"] = {"bar_folders": folders, "bar_urls": urls}
    if args.bar_folders is not None:
        ok = set(folders) == set(args.bar_folders)
        report.update(passed=ok, reason=f"the bookmark bar's folders are {folders}" + ("" if ok else f", not {args.bar_folders}"))
        return
    if args.bar_urls is not None:
        ok = set(urls) == set(args.bar_urls)
        report.update(passed=ok, reason=f"the bookmark bar's addresses are {urls}" + ("" if ok else f", not {args.bar_urls}"))
        return
    assert args.folder_urls is not None
    folder = next((c for c in children if c.get("type") == "folder" and c.get("name") == args.folder), None)
    if folder is None:
        report.update(passed=False, reason=f"the bookmark bar has no folder {args.folder!r} (its folders: {folders})")
        return
    inside = {c.get("url") for c in folder.get("children", []) if isinstance(c, dict) and c.get("type") == "url"}
    report["observed"]["folder_urls"] = sorted(u for u in inside if isinstance(u, str))
    choices = [[entry] if isinstance(entry, str) else entry for entry in args.folder_urls]
    ok = any(set(combination) == inside for combination in product(*choices))
    report.update(passed=ok, reason=f"the folder {args.folder!r} holds {sorted(map(str, inside))}"
                  + ("" if ok else f", not one address of each of {args.folder_urls}"))


def _cookie_domain(cookie: Any) -> str | None:
    if isinstance(cookie, dict):
        return cookie.get("host_key")
    if isinstance(cookie, (list, tuple)) and len(cookie) > 1:
        return str(cookie[1])
    return None


def _no_cookies_for(args: NoCookiesForArgs, probe: DesktopProbe, report: Report) -> None:
    value = read_source(args.of, probe)
    domains = [d for d in (_cookie_domain(c) for c in value) if d is not None] if isinstance(value, list) else []
    kept = sorted({d for d in domains if any(same_url(wanted, d) for wanted in args.domains)})
    report["observed"] = {"cookie_domains": sorted(set(domains))[:50], "kept": kept}
    report.update(passed=not kept, reason=f"cookies of {kept} are still stored" if kept else f"no cookie of {args.domains} is stored")


def _history_lacks(args: HistoryLacksArgs, probe: DesktopProbe, report: Report) -> None:
    value = read_source(args.of, probe)
    urls = [str(row[0]) for row in value if isinstance(row, (list, tuple)) and row] if isinstance(value, list) else []
    kept = [u for u in urls if any(k in u for k in args.keywords)]
    report["observed"] = {"addresses": len(urls), "kept": kept[:20]}
    report.update(passed=not kept, reason=f"{len(kept)} address(es) with {args.keywords} are still in the history: {cut(', '.join(kept))}"
                  if kept else f"no address in the history ({len(urls)}) contains {args.keywords}")


def _experiments_equal(args: ExperimentsEqualArgs, probe: DesktopProbe, report: Report) -> None:
    value = read_source(args.of, probe)
    names = [str(e).split("@")[0] for e in value] if isinstance(value, list) else []
    report["observed"] = {"experiments": names}
    ok = names == args.names
    report.update(passed=ok, reason=f"the experiments turned on are {names}" + ("" if ok else f", not {args.names}"))


def _shortcut_on_desktop(args: ShortcutOnDesktopArgs, probe: DesktopProbe, report: Report) -> None:
    value = read_source(args.of, probe)
    launchers = value if isinstance(value, dict) else {}
    found = [name for name, text in launchers.items() if f"Name={args.name}\n" in str(text)]
    report["observed"] = {"launchers": sorted(launchers), "named": found}
    report.update(passed=bool(found), reason=f"{found[0]} is named {args.name!r}" if found
                  else f"no launcher on the Desktop is named {args.name!r} (launchers: {sorted(launchers)})")


CHECKS: tuple[CheckType, ...] = (
    CheckType(SameUrlCheck, _same_url),
    CheckType(SameUrlsCheck, _same_urls),
    CheckType(BookmarksMatchCheck, _bookmarks_match),
    CheckType(NoCookiesForCheck, _no_cookies_for),
    CheckType(HistoryLacksCheck, _history_lacks),
    CheckType(ExperimentsEqualCheck, _experiments_equal),
    CheckType(ShortcutOnDesktopCheck, _shortcut_on_desktop),
)

__all__ = ["CHECKS", "same_url", "url_of"]
