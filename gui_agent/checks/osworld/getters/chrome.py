"""OSWorld's Chrome getters as our sources (:mod:`gui_agent.checks.sources.chrome`).

Each getter becomes the source reading the same state the same way: the profile's files
(settings, bookmarks, history, cookies, extensions) where OSWorld reads them, the tabs
through the DevTools port. Two notes:

* ``active_url_from_accessTree`` reads the address bar from the VM's accessibility tree
  and puts ``goto_prefix`` (``https://www.``) before it, because the bar hides the scheme
  and ``www.``. The active tab's address from DevTools is the address the bar shows, in
  full, so every getter built on it (``active_tab_info``, ``active_tab_url_parse``,
  ``url_dashPart``, ``active_tab_html_parse``) reads that instead, and ``goto_prefix``
  has nothing left to restore.
* ``active_tab_info`` loads the active address again in a new tab and reads that page;
  the source reads the active tab itself (the page a person sees, not a reload of it).

What needs a live website or a Google account has no equivalent (:data:`NO_EQUIVALENT`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from gui_agent.checks.osworld.config import OSWORLD_HOME
from gui_agent.checks.osworld.getters.base import Getter, SourceSpec
from gui_agent.checks.osworld.metric import Files, kind_of
from gui_agent.errors import OsworldConfigError, OsworldUnsupported


def _setting(name: str, **extra: Any) -> Getter:
    def convert(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
        return {"chrome_setting": {"name": name, **extra}}
    return convert


def _fixed(source: SourceSpec) -> Getter:
    def convert(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
        return source
    return convert


def _local_url(url: Any, where: str) -> str:
    """``url`` when this machine can load it (loopback, a file, a browser page), else OsworldUnsupported."""
    if not isinstance(url, str) or not url.strip():
        raise OsworldConfigError(where, f"expected the URL to load, got {kind_of(url)}")
    parts = urlsplit(url)
    if parts.scheme in ("file", "chrome", "about", "data") or parts.hostname in ("localhost", "127.0.0.1", "::1"):
        return url
    raise OsworldUnsupported(f"it loads the live website {url} and reads it; there is no internet here")


def _page_info(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    return {"chrome_page": {"url": _local_url(spec.get("url"), f"{where}.url")}}


def _mapping(spec: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = spec.get(key, {})
    if not isinstance(value, dict):
        raise OsworldConfigError(f"{where}.{key}", f"expected a mapping, got {kind_of(value)}")
    return value


def _html_parse(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    """``active_tab_html_parse``: the elements of the category OSWorld reads (it reads no other)."""
    category = spec.get("category")
    if category == "class":
        multi = _mapping(spec, "class_multiObject", where)
        if not all(isinstance(v, dict) for v in multi.values()):
            raise OsworldConfigError(f"{where}.class_multiObject", "expected {class: {index: name}}")
        args: dict[str, Any] = {
            "classes": {c: {str(i): str(n) for i, n in picks.items()} for c, picks in multi.items()},
            "first_of_class": {c: str(n) for c, n in _mapping(spec, "class_singleObject", where).items()},
        }
    elif category in ("label", "xpath", "input"):
        key, ours = {"label": ("labelObject", "labels"), "xpath": ("xpathObject", "xpaths"), "input": ("inputObject", "inputs")}[category]
        args = {ours: {k: str(v) for k, v in _mapping(spec, key, where).items()}}
    else:
        raise OsworldConfigError(f"{where}.category", f"expected class, label, xpath or input, got {category!r}")
    return {"chrome_page_elements": args}


def _url_parse(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    keys = spec.get("parse_keys")
    if not isinstance(keys, list) or not keys or not all(isinstance(k, str) for k in keys):
        raise OsworldConfigError(f"{where}.parse_keys", "expected a list of query parameter names")
    rename = _mapping(spec, "replace", where)
    return {"chrome_url_query": {"keys": keys, **({"rename": {k: str(v) for k, v in rename.items()}} if rename else {})}}


#: ``url_dashPart``'s ``returnType`` -> whether the part is returned under a key (``{key: part}``).
_URL_PART_RETURNS = {"string": False, "json": True}


def _url_dash_part(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    index = spec.get("partIndex")
    if isinstance(index, bool) or not isinstance(index, int):
        raise OsworldConfigError(f"{where}.partIndex", f"expected the index of a '/'-separated part, got {index!r}")
    kind = spec.get("returnType")
    keyed = _URL_PART_RETURNS.get(kind) if isinstance(kind, str) else None
    if keyed is None:
        raise OsworldConfigError(f"{where}.returnType", f"expected 'string' or 'json', got {kind!r}")
    args: dict[str, Any] = {"index": index, "drop_query": bool(spec.get("needDeleteId"))}
    if keyed:
        if not isinstance(spec.get("key"), str):
            raise OsworldConfigError(f"{where}.key", "returnType 'json' needs the key to put the part under")
        args["key"] = spec["key"]
    return {"chrome_url_part": args}


#: OSWorld getter type -> its conversion to a source.
GETTERS: dict[str, Getter] = {
    "default_search_engine": _setting("default_search_engine"),
    "chrome_language": _setting("language"),
    "chrome_font_size": _setting("font_sizes"),
    "profile_name": _setting("profile_name"),
    "enable_do_not_track": _setting("do_not_track"),
    "enable_enhanced_safety_browsing": _setting("enhanced_safe_browsing"),
    "new_startup_page": _setting("startup_page_new_tab"),
    "data_delete_automacally": _setting("content_settings_changed"),
    "enabled_experiments": _setting("enabled_experiments"),
    # OSWorld's expected paths are the VM's (/home/user/...): the episode's home is shown as that
    "find_unpacked_extension_path": _setting("extension_paths", home_as=OSWORLD_HOME.rstrip("/")),
    "find_installed_extension_name": _setting("extension_names"),
    "bookmarks": _fixed({"chrome_bookmarks": {}}),
    "history": _fixed({"chrome_history": {}}),
    "cookie_data": _fixed({"chrome_cookies": {}}),
    "extensions_installed_from_shop": _fixed({"chrome_extension_manifests": {}}),
    "shortcuts_on_desktop": _fixed({"desktop_shortcuts": {}}),
    "open_tabs_info": _fixed({"chrome_tabs": {}}),
    "active_url_from_accessTree": _fixed({"chrome_active_tab": {"field": "url"}}),
    "active_tab_info": _fixed({"chrome_active_tab": {"field": "info"}}),
    # OSWorld notes it does not work (a settings page's light DOM holds no address); the same page is read here
    "chrome_saved_address": _fixed({"chrome_page": {"url": "chrome://settings/addresses", "field": "content"}}),
    "page_info": _page_info,
    "active_tab_html_parse": _html_parse,
    "active_tab_url_parse": _url_parse,
    "url_dashPart": _url_dash_part,
}

#: OSWorld getter type -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {
    "info_from_website": "no equivalent: it loads a live website in the browser and reads its elements "
                        "(its 'backups' are copies of what the site showed then); there is no internet here",
    "number_of_search_results": "no equivalent: it counts the results of a live Google search",
    "googledrive_file": "no equivalent: it downloads a file from a Google Drive account",
    "gotoRecreationPage_and_get_html_content": "no equivalent: it searches the live www.recreation.gov site and reads its results",
    "pdf_from_url": "no equivalent: it prints a live web page to PDF in the VM's browser to compare it with a downloaded one; "
                    "there is no internet here",
}

__all__ = ["GETTERS", "NO_EQUIVALENT"]
