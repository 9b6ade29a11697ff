"""Sources read from the episode's Chromium: its tabs (through the DevTools port) and its
profile's files.

OSWorld's Chrome getters read two kinds of state, and so do these sources:

* **live state** through the browser's DevTools port (``probe.app_port("chrome")``): the
  open tabs (``/json/list``), the active tab's address, title and HTML, elements of the
  active page (evaluated in the page, as Playwright does in OSWorld), a page loaded in a
  new tab;
* **saved state** in the profile under ``~/.config/google-chrome`` (where the desktop's
  Chromium keeps it, exactly OSWorld's path): ``Default/Preferences`` (settings),
  ``Local State`` (experiments, language), ``Bookmarks``, the ``History`` and ``Cookies``
  databases, installed extensions, and ``.desktop`` shortcuts on the Desktop.

Chromium writes its files some seconds after a change (Preferences and the databases
batch their writes; it flushes everything when it quits), as Chrome does in OSWorld's
VM: tasks whose answer is in those files quit the browser first (OSWorld's ``pkill``
post steps, our ``quit_app``). The databases are copied before they are read: the
browser keeps them locked while it runs.

The active tab is the tab a person sees: of the tabs DevTools lists (most recently
active first), the first whose page is visible.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import Field

from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.sources.base import SourceType
from gui_agent.schema import NonBlank, SingleKey, StrictModel

#: The Chromium user data folder and its profile, relative to the episode's home.
USER_DATA = ".config/google-chrome"
PROFILE = f"{USER_DATA}/Default"

# ---------------------------------------------------------------------- DevTools


class DevTools:
    """The DevTools interface of the Chromium listening on ``127.0.0.1:port``: its HTTP
    endpoints and, per page, the websocket protocol (``Runtime.evaluate``)."""

    def __init__(self, port: int, *, timeout_s: float = 10.0) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.timeout_s = timeout_s

    def get(self, path: str, *, method: str = "GET") -> Any:
        """An HTTP endpoint's answer (JSON, or the text of ``/json/close``)."""
        request = urllib.request.Request(self.base + path, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                body = response.read().decode("utf-8", "replace")
        except (urllib.error.URLError, OSError) as exc:
            raise ConnectionError(f"Chromium's DevTools port ({self.base}) does not answer: is Chromium running? ({exc})") from None
        try:
            return json.loads(body)
        except ValueError:
            return body

    def tabs(self) -> list[dict[str, Any]]:
        """The open tabs (``page`` targets), most recently active first."""
        return [t for t in self.get("/json/list") if t.get("type") == "page"]

    def evaluate(self, tab: dict[str, Any], expression: str) -> Any:
        """The JSON value of a JavaScript expression evaluated in ``tab``'s page (a promise
        is awaited); raises :class:`ValueError` when the expression throws."""
        import websocket  # websocket-client; imported here so importing the sources stays light

        try:
            socket = websocket.create_connection(tab["webSocketDebuggerUrl"], timeout=self.timeout_s, suppress_origin=True)
            try:
                socket.send(json.dumps({"id": 1, "method": "Runtime.evaluate", "params": {
                    "expression": expression, "returnByValue": True, "awaitPromise": True}}))
                while True:
                    message = json.loads(socket.recv())
                    if message.get("id") == 1:
                        break
            finally:
                socket.close()
        except websocket.WebSocketException as exc:  # the tab closed or its page crashed meanwhile
            raise ConnectionError(f"the tab {tab.get('url')!r} stopped answering DevTools: {exc}") from None
        if "error" in message:
            raise ValueError(f"DevTools refused the evaluation: {message['error'].get('message')}")
        result = message.get("result", {})
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise ValueError(f"the page's script failed: {details.get('exception', {}).get('description') or details.get('text')}")
        return result.get("result", {}).get("value")

    def active_tab(self) -> dict[str, Any]:
        """The tab shown in the browser window (the first listed tab whose page is visible)."""
        tabs = self.tabs()
        if not tabs:
            raise LookupError("Chromium has no open tab")
        for tab in tabs:
            try:
                if self.evaluate(tab, "document.visibilityState") == "visible":
                    return tab
            except (ValueError, OSError):
                continue  # a tab whose page cannot answer (a crashed renderer) is not the one shown
        return tabs[0]

    def load(self, url: str, *, timeout_s: float = 30.0) -> dict[str, Any]:
        """Open ``url`` in a new tab and wait until it has loaded (or ``timeout_s`` passed)."""
        tab = self.get("/json/new?" + urllib.parse.quote(url, safe=""), method="PUT")
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            current = next((t for t in self.tabs() if t["id"] == tab["id"]), tab)
            try:
                if current.get("url") not in ("", "about:blank") and self.evaluate(current, "document.readyState") == "complete":
                    return current
            except (ValueError, OSError):
                pass
            time.sleep(0.2)
        return next((t for t in self.tabs() if t["id"] == tab["id"]), tab)

    def close(self, tab: dict[str, Any], *, timeout_s: float = 5.0) -> None:
        """Close ``tab`` and wait until DevTools no longer lists it: ``/json/close`` only
        starts the closing, and a read right after would still see (or pick) the tab."""
        self.get(f"/json/close/{tab['id']}")
        deadline = time.monotonic() + timeout_s
        while any(t["id"] == tab["id"] for t in self.tabs()) and time.monotonic() < deadline:
            time.sleep(0.05)


#: The page's HTML as Playwright's ``page.content()`` gives it (its doctype and root element).
PAGE_HTML = ("(document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '')"
             " + document.documentElement.outerHTML")


def _devtools(probe: DesktopProbe) -> DevTools:
    return DevTools(probe.app_port("chrome"))


def _tab_info(devtools: DevTools, tab: dict[str, Any]) -> dict[str, str]:
    return {"title": devtools.evaluate(tab, "document.title"), "url": tab.get("url", ""), "content": devtools.evaluate(tab, PAGE_HTML)}


# ---------------------------------------------------------------------- the profile's files


def _json_file(probe: DesktopProbe, relative: str) -> Any:
    """A profile JSON file's data, or None when the file is missing or not JSON."""
    path = probe.resolve_path(relative)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _dig(data: Any, *keys: str, default: Any = None) -> Any:
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return default
        data = data[key]
    return data


def _sqlite_rows(probe: DesktopProbe, relative: str, query: str) -> list[tuple[Any, ...]]:
    """Rows of ``query`` in a copy of the profile's database (the browser locks the original)."""
    path = probe.resolve_path(relative)
    if not path.is_file():
        raise FileNotFoundError(f"Chromium has no {relative} database (it writes one at its first start)")
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / path.name
        shutil.copyfile(path, copy)
        with closing(sqlite3.connect(copy)) as db:
            return db.execute(query).fetchall()


# ---------------------------------------------------------------------- what a task file writes


class NoArgs(StrictModel):
    """No arguments: ``{chrome_tabs: {}}``."""


class ActiveTabArgs(StrictModel):
    """The active tab's ``url`` (text), ``title``, ``content`` (its HTML) or ``info``: all
    three as ``{title, url, content}`` (OSWorld's ``active_tab_info``)."""

    field: Literal["info", "url", "title", "content"] = "info"


class UrlQueryArgs(StrictModel):
    """Values of the active tab address's query parameters ``keys`` (the first value of
    each, ``""`` when absent) as a mapping; ``rename`` gives some of them other names in
    it (OSWorld's ``active_tab_url_parse``)."""

    keys: list[str] = Field(min_length=1)
    rename: dict[str, str] = Field(default_factory=dict)


class UrlPartArgs(StrictModel):
    """One ``/``-separated part of the active tab's address (``index``, negative from the
    end), without its query when ``drop_query``; as ``{key: part}`` when ``key`` is given
    (OSWorld's ``url_dashPart``)."""

    index: int
    drop_query: bool = False
    key: str | None = None


class PageElementsArgs(StrictModel):
    """Texts of elements of the active page, as a mapping of the names given (OSWorld's
    ``active_tab_html_parse``); an element not found leaves its name out:

    * ``classes``: ``{class: {n: name}}``: the text of the n-th element (from 0) matching
      ``.class``; ``first_of_class``: ``{class: name}``: the first one's;
    * ``labels``: ``{text: name}``: the text of the first, innermost element containing
      ``text`` (whitespace and case aside: Playwright's ``text=`` selector);
    * ``xpaths``: ``{xpath: name}``: the first matching element's text;
    * ``inputs``: ``{xpath: name}``: the first matching form field's value.

    Texts are stripped of surrounding blanks.
    """

    classes: dict[str, dict[str, str]] = Field(default_factory=dict)
    first_of_class: dict[str, str] = Field(default_factory=dict)
    labels: dict[str, str] = Field(default_factory=dict)
    xpaths: dict[str, str] = Field(default_factory=dict)
    inputs: dict[str, str] = Field(default_factory=dict)


class PageArgs(StrictModel):
    """``url`` loaded in a new tab (closed after): ``{title, url, content}`` (OSWorld's
    ``page_info``), or one of them (``field``)."""

    url: NonBlank
    field: Literal["info", "url", "title", "content"] = "info"
    timeout_s: float = Field(default=30.0, gt=0, strict=False)


#: The settings :class:`SettingArgs` names, each read as OSWorld's getter of the same meaning reads it.
SettingName = Literal[
    "default_search_engine", "language", "font_sizes", "default_font_size", "profile_name", "do_not_track",
    "enhanced_safe_browsing", "startup_page_new_tab", "content_settings_changed", "enabled_experiments",
    "extension_paths", "extension_names",
]


class SettingArgs(StrictModel):
    """A Chromium setting from the profile's files (see :data:`SETTINGS` for each).

    ``home_as``: paths in the episode's home folder are given under this folder instead
    (``/home/user``: OSWorld's expectations name the VM's paths)."""

    name: SettingName
    home_as: str | None = None


class ChromeTabsSource(SingleKey):
    name: ClassVar[str] = "chrome_tabs"
    chrome_tabs: NoArgs


class ChromeActiveTabSource(SingleKey):
    name: ClassVar[str] = "chrome_active_tab"
    chrome_active_tab: ActiveTabArgs


class ChromeUrlQuerySource(SingleKey):
    name: ClassVar[str] = "chrome_url_query"
    chrome_url_query: UrlQueryArgs


class ChromeUrlPartSource(SingleKey):
    name: ClassVar[str] = "chrome_url_part"
    chrome_url_part: UrlPartArgs


class ChromePageElementsSource(SingleKey):
    name: ClassVar[str] = "chrome_page_elements"
    chrome_page_elements: PageElementsArgs


class ChromePageSource(SingleKey):
    name: ClassVar[str] = "chrome_page"
    chrome_page: PageArgs


class ChromeSettingSource(SingleKey):
    name: ClassVar[str] = "chrome_setting"
    chrome_setting: SettingArgs


class ChromeBookmarksSource(SingleKey):
    name: ClassVar[str] = "chrome_bookmarks"
    chrome_bookmarks: NoArgs


class ChromeHistorySource(SingleKey):
    name: ClassVar[str] = "chrome_history"
    chrome_history: NoArgs


class ChromeCookiesSource(SingleKey):
    name: ClassVar[str] = "chrome_cookies"
    chrome_cookies: NoArgs


class ChromeExtensionManifestsSource(SingleKey):
    name: ClassVar[str] = "chrome_extension_manifests"
    chrome_extension_manifests: NoArgs


class DesktopShortcutsSource(SingleKey):
    name: ClassVar[str] = "desktop_shortcuts"
    desktop_shortcuts: NoArgs


# ---------------------------------------------------------------------- readers: tabs and pages


def _tabs(args: NoArgs, probe: DesktopProbe) -> list[dict[str, str]]:
    """``[{title, url}]`` of the open tabs, most recently active first (OSWorld's ``open_tabs_info``)."""
    return [{"title": t.get("title", ""), "url": t.get("url", "")} for t in _devtools(probe).tabs()]


def _active_tab(args: ActiveTabArgs, probe: DesktopProbe) -> Any:
    devtools = _devtools(probe)
    tab = devtools.active_tab()
    if args.field == "url":
        return tab.get("url", "")
    if args.field == "title":
        return devtools.evaluate(tab, "document.title")
    if args.field == "content":
        return devtools.evaluate(tab, PAGE_HTML)
    return _tab_info(devtools, tab)


def _url_query(args: UrlQueryArgs, probe: DesktopProbe) -> dict[str, str]:
    url = _devtools(probe).active_tab().get("url", "")
    query = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)
    values = {key: query.get(key, [""])[0] for key in args.keys}
    for old, new in args.rename.items():
        if old in values:
            values[new] = values.pop(old)
    return values


def _url_part(args: UrlPartArgs, probe: DesktopProbe) -> Any:
    url = _devtools(probe).active_tab().get("url", "")
    parts = url.split("/")
    try:
        part = parts[args.index]
    except IndexError:
        raise LookupError(f"the address {url!r} has no part {args.index} (it has {len(parts)})") from None
    if args.drop_query:
        part = part.split("?")[0]
    return part if args.key is None else {args.key: part}


#: Evaluated in the page with the arguments as JSON: the texts :class:`PageElementsArgs` asks for.
ELEMENTS_JS = r"""
((args) => {
  const out = {};
  const text = (el) => (el.textContent || "").trim();
  const norm = (s) => (s || "").replace(/\s+/g, " ").trim().toLowerCase();
  const xpathFirst = (xp) => document.evaluate(xp, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
  for (const [cls, picks] of Object.entries(args.classes)) {
    const texts = Array.from(document.querySelectorAll("." + cls)).map(text);
    for (const [n, name] of Object.entries(picks)) { if (texts.length > Number(n)) out[name] = texts[Number(n)]; }
  }
  for (const [cls, name] of Object.entries(args.first_of_class)) {
    const found = document.querySelector("." + cls);
    if (found) out[name] = text(found);
  }
  const skip = new Set(["SCRIPT", "STYLE", "HEAD", "NOSCRIPT", "TEMPLATE"]);
  for (const [label, name] of Object.entries(args.labels)) {
    const needle = norm(label);
    const holds = (el) => !skip.has(el.tagName) && norm(el.textContent).includes(needle);
    const found = Array.from(document.body ? document.body.querySelectorAll("*") : []).find(
      (el) => holds(el) && !Array.from(el.children).some(holds));
    if (found) out[name] = text(found);
  }
  for (const [xp, name] of Object.entries(args.xpaths)) {
    const found = xpathFirst(xp);
    if (found) out[name] = (found.textContent || "").trim();
  }
  for (const [xp, name] of Object.entries(args.inputs)) {
    const found = xpathFirst(xp);
    if (found && "value" in found) out[name] = String(found.value).trim();
  }
  return out;
})
"""


def _page_elements(args: PageElementsArgs, probe: DesktopProbe) -> dict[str, str]:
    devtools = _devtools(probe)
    result = devtools.evaluate(devtools.active_tab(), f"{ELEMENTS_JS}({json.dumps(args.model_dump())})")
    return result if isinstance(result, dict) else {}


def _page(args: PageArgs, probe: DesktopProbe) -> dict[str, str]:
    devtools = _devtools(probe)
    tab = devtools.load(args.url, timeout_s=args.timeout_s)
    try:
        info = _tab_info(devtools, tab)
    finally:
        devtools.close(tab)
    return info if args.field == "info" else info[args.field]


# ---------------------------------------------------------------------- readers: settings


def _preferences(probe: DesktopProbe) -> Any:
    return _json_file(probe, f"{PROFILE}/Preferences")


def _local_state(probe: DesktopProbe) -> Any:
    return _json_file(probe, f"{USER_DATA}/Local State")


#: Chromium's font sizes before anyone changes them (what OSWorld's getter assumes then).
DEFAULT_FONT_SIZES = {"default_fixed_font_size": 13, "default_font_size": 16, "minimum_font_size": 13}


def _content_settings_changed(prefs: Any) -> str:
    """``"true"`` when a default content setting was changed (OSWorld's ``data_delete_automacally``:
    "true" once ``profile.default_content_setting_values`` exists). This Chromium writes
    its own migration markers there (``has_migrated_...``) in every new profile; they are
    no setting, so they do not count."""
    values = _dig(prefs, "profile", "default_content_setting_values")
    if not isinstance(values, dict):
        return "false"
    return "true" if any(not key.startswith("has_migrated") for key in values) else "false"


def _extensions(prefs: Any) -> list[dict[str, Any]]:
    settings = _dig(prefs, "extensions", "settings", default={})
    return [s for s in settings.values() if isinstance(s, dict)] if isinstance(settings, dict) else []


def _extension_name(entry: dict[str, Any], profile: Path) -> str | None:
    """An extension's name: from its manifest in Preferences (where OSWorld's Chrome kept
    it), else from its folder's ``manifest.json`` (where this Chromium leaves unpacked
    ones: ``path`` absolute, or relative to the profile's ``Extensions``)."""
    name = _dig(entry, "manifest", "name")
    if isinstance(name, str):
        return name
    folder = entry.get("path")
    if not isinstance(folder, str):
        return None
    try:
        manifest = json.loads((profile / "Extensions" / folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    name = manifest.get("name") if isinstance(manifest, dict) else None
    return name if isinstance(name, str) else None


#: Search engines this Chromium names otherwise than the Chrome OSWorld's configs were written
#: for (its prepopulated "Bing" became "Microsoft Bing"): the names those configs expect.
ENGINE_NAMES_THEN = {"Microsoft Bing": "Bing"}


def _default_search_engine(prefs: Any) -> Any:
    """The default search engine's name, "Google" when none was chosen (OSWorld's
    ``default_search_engine``, whose Chrome defaulted to Google)."""
    name = _dig(prefs, "default_search_provider_data", "template_url_data", "short_name", default="Google")
    return ENGINE_NAMES_THEN.get(name, name) if isinstance(name, str) else name


def _default_font_size(prefs: Any) -> Any:
    sizes = _dig(prefs, "webkit", "webprefs", default=DEFAULT_FONT_SIZES)
    return sizes.get("default_font_size") if isinstance(sizes, dict) else None


#: Setting name -> how it is read from (Preferences, Local State, the profile folder); OSWorld's getter of
#: the same meaning in brackets.
SETTINGS: dict[str, Callable[[Any, Any, Path], Any]] = {
    # [default_search_engine] the default search engine's name ("Google" when none was chosen)
    "default_search_engine": lambda p, s, d: _default_search_engine(p),
    # [chrome_language] the browser's language
    "language": lambda p, s, d: _dig(s, "intl", "app_locale", default="en-US"),
    # [chrome_font_size] the font sizes ({default_font_size, default_fixed_font_size, minimum_font_size})
    "font_sizes": lambda p, s, d: _dig(p, "webkit", "webprefs", default=dict(DEFAULT_FONT_SIZES)),
    # the default font size alone (None when the sizes were set without it)
    "default_font_size": lambda p, s, d: _default_font_size(p),
    # [profile_name] the profile's name
    "profile_name": lambda p, s, d: _dig(p, "profile", "name"),
    # [enable_do_not_track] "true"/"false": Do Not Track is on
    "do_not_track": lambda p, s, d: "true" if _dig(p, "enable_do_not_track") else "false",
    # [enable_enhanced_safety_browsing] "true"/"false": Enhanced Safe Browsing is on
    "enhanced_safe_browsing": lambda p, s, d: "true" if _dig(p, "safebrowsing", "enhanced") else "false",
    # [new_startup_page] "true" when Chromium opens the New Tab page at start (never changed, or restore_on_startup 5)
    "startup_page_new_tab": lambda p, s, d: "true" if not isinstance(p, dict) or "session" not in p
    else ("true" if _dig(p, "session", "restore_on_startup") == 5 else "false"),
    # [data_delete_automacally] "true" once a default content setting was changed
    "content_settings_changed": lambda p, s, d: _content_settings_changed(p),
    # [enabled_experiments] the chrome://flags experiments turned on ("name@choice")
    "enabled_experiments": lambda p, s, d: _dig(s, "browser", "enabled_labs_experiments", default=[]),
    # [find_unpacked_extension_path] the folders of the extensions
    "extension_paths": lambda p, s, d: [e["path"] for e in _extensions(p) if isinstance(e.get("path"), str)],
    # [find_installed_extension_name] the names of the extensions
    "extension_names": lambda p, s, d: [n for n in (_extension_name(e, d) for e in _extensions(p)) if n is not None],
}


def _setting(args: SettingArgs, probe: DesktopProbe) -> Any:
    value = SETTINGS[args.name](_preferences(probe), _local_state(probe), probe.resolve_path(PROFILE))
    if args.home_as is None:
        return value
    home, prefix = os.path.normpath(probe.resolve_path(".")), args.home_as.rstrip("/")

    def shown(text: Any) -> Any:
        if isinstance(text, str) and (text == home or text.startswith(home + "/")):
            return prefix + text[len(home):]
        return text

    return [shown(v) for v in value] if isinstance(value, list) else shown(value)


# ---------------------------------------------------------------------- readers: bookmarks, history, cookies, extensions


def _bookmarks(args: NoArgs, probe: DesktopProbe) -> Any:
    """The bookmark roots (``bookmark_bar``, ``other``, ``synced``); ``[]`` when there are no bookmarks yet."""
    data = _json_file(probe, f"{PROFILE}/Bookmarks")
    return _dig(data, "roots", default={}) if data else []


def _history(args: NoArgs, probe: DesktopProbe) -> list[list[Any]]:
    """``[url, title, last_visit_time]`` of every address in the history."""
    return [list(r) for r in _sqlite_rows(probe, f"{PROFILE}/History", "SELECT url, title, last_visit_time FROM urls")]


def _cookies(args: NoArgs, probe: DesktopProbe) -> list[dict[str, str]]:
    """``{host_key, name, path}`` of every stored cookie (not their values)."""
    rows = _sqlite_rows(probe, f"{PROFILE}/Cookies", "SELECT host_key, name, path FROM cookies")
    return [{"host_key": host, "name": name, "path": path} for host, name, path in rows]


def _extension_manifests(args: NoArgs, probe: DesktopProbe) -> list[Any]:
    """The manifests of the extensions installed from the web store (``Extensions/ID/VERSION``)."""
    folder = probe.resolve_path(f"{PROFILE}/Extensions")
    manifests = []
    for manifest in sorted(folder.glob("*/*/manifest.json")) if folder.is_dir() else []:
        try:
            manifests.append(json.loads(manifest.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
    return manifests


def _desktop_shortcuts(args: NoArgs, probe: DesktopProbe) -> dict[str, str]:
    """``{file name: text}`` of the ``.desktop`` launchers on the Desktop (a site made an app there)."""
    folder = probe.resolve_path("Desktop")
    found = sorted(folder.glob("*.desktop")) if folder.is_dir() else []
    return {path.name: path.read_text(encoding="utf-8", errors="replace") for path in found if path.is_file()}


SOURCES: tuple[SourceType, ...] = (
    SourceType(ChromeTabsSource, _tabs),
    SourceType(ChromeActiveTabSource, _active_tab),
    SourceType(ChromeUrlQuerySource, _url_query),
    SourceType(ChromeUrlPartSource, _url_part),
    SourceType(ChromePageElementsSource, _page_elements),
    SourceType(ChromePageSource, _page),
    SourceType(ChromeSettingSource, _setting),
    SourceType(ChromeBookmarksSource, _bookmarks),
    SourceType(ChromeHistorySource, _history),
    SourceType(ChromeCookiesSource, _cookies),
    SourceType(ChromeExtensionManifestsSource, _extension_manifests),
    SourceType(DesktopShortcutsSource, _desktop_shortcuts),
)

#: Sources reading the profile's files, which Chromium writes seconds after a change (or
#: when it quits), and sources asking the running browser over DevTools.
PROFILE_SOURCES = frozenset({"chrome_setting", "chrome_bookmarks", "chrome_history", "chrome_cookies",
                             "chrome_extension_manifests"})
LIVE_SOURCES = frozenset({"chrome_tabs", "chrome_active_tab", "chrome_url_query", "chrome_url_part",
                          "chrome_page_elements", "chrome_page"})

__all__ = ["DEFAULT_FONT_SIZES", "LIVE_SOURCES", "PROFILE", "PROFILE_SOURCES", "SETTINGS", "SOURCES", "USER_DATA", "DevTools"]
