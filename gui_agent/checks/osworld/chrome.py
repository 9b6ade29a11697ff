"""OSWorld's Chrome evaluator functions as our checks.

Each metric judges what its ``result`` getter reads; the getter becomes a source
(:func:`~gui_agent.checks.osworld.getters.source_of`) and the metric a check of the
chrome family (:mod:`gui_agent.checks.chrome`) or a ``value`` check reading it:

===================================  ==========================================================
OSWorld                              check
===================================  ==========================================================
``is_expected_active_tab``           ``same_url`` (rule type ``url``)
``is_expected_tabs``                 ``same_urls`` (rule type ``url``)
``is_expected_url_pattern_match``    a ``value`` check per pattern: the address matches it
``is_expected_search_query``         ``value``: the address matches ``expect.pattern``
``is_expected_bookmarks``            ``bookmarks_match`` (bar folders, bar addresses, the
                                     "Liked Authors" folder's addresses)
``is_expected_installed_extensions`` ``value``: the names include every expected one
``is_cookie_deleted``                ``no_cookies_for`` (rule type ``domains``)
``check_history_deleted``            ``history_lacks`` (rule type ``keywords``)
``check_enabled_experiments``        ``experiments_equal`` (rule type ``names``)
``check_font_size``                  ``value`` of the default font size: equal to ``value``,
                                     or strictly between ``min`` and ``max``
``is_shortcut_on_desktop``           ``shortcut_on_desktop`` (rule type ``name``)
``is_added_to_steam_cart``           ``value``: the page's HTML includes every item
===================================  ==========================================================

A rule type OSWorld's metric does not know (it scores 0 whatever the browser shows, or
raises) is a config error here; one it names but does not support is unsupported.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gui_agent.checks.osworld.getters import source_of
from gui_agent.checks.osworld.metric import Check, Metric, kind_of
from gui_agent.errors import OsworldConfigError, OsworldUnsupported


def _source(metric: Metric) -> dict[str, Any]:
    return source_of(metric.result, f"{metric.where}.result", metric.files)


def _with_field(metric: Metric, field: str) -> dict[str, Any]:
    """The result's source, narrowed to one field of a tab (``url``, ``content``) when it reads a tab's info."""
    source = _source(metric)
    for key in ("chrome_active_tab", "chrome_page"):
        if key in source:
            return {key: {**source[key], "field": field}}
    return source


def _rule_type(metric: Metric, rules: dict[str, Any], *known: str) -> str:
    kind = rules.get("type")
    if kind not in known:
        raise OsworldConfigError(f"{metric.where}.expected.rules.type", f"expected {' or '.join(map(repr, known))}, got {kind!r}")
    return str(kind)


def _strings(value: Any, where: str, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise OsworldConfigError(where, f"expected a list of {what}, got {kind_of(value)}")
    return list(value)


def _patterns_match(source: dict[str, Any], patterns: list[str], where: str) -> list[Check]:
    for index, pattern in enumerate(patterns):
        try:
            re.compile(pattern)
        except re.error as exc:
            raise OsworldConfigError(f"{where}[{index}]", f"not a regular expression: {exc}") from None
    return [{"value": {"of": source, "rule": {"method": "re", "ref": pattern}}} for pattern in patterns]


# ---------------------------------------------------------------------- tabs and addresses


def is_expected_active_tab(metric: Metric) -> list[Check]:
    rules = metric.rules()
    _rule_type(metric, rules, "url")
    if not isinstance(rules.get("url"), str) or not rules["url"]:
        raise OsworldConfigError(f"{metric.where}.expected.rules.url", "expected the address the active tab must show")
    return [{"same_url": {"of": _with_field(metric, "url"), "url": rules["url"]}}]


def is_expected_tabs(metric: Metric) -> list[Check]:
    rules = metric.rules()
    _rule_type(metric, rules, "url")
    urls = _strings(rules.get("urls"), f"{metric.where}.expected.rules.urls", "addresses")
    return [{"same_urls": {"of": _source(metric), "urls": urls}}]


def is_expected_url_pattern_match(metric: Metric) -> list[Check]:
    where = f"{metric.where}.expected.rules.expected"
    patterns = _strings(metric.rules().get("expected"), where, "regular expressions")
    if not patterns:
        raise OsworldConfigError(where, "expected at least one pattern")
    return _patterns_match(_with_field(metric, "url"), patterns, where)


def is_expected_search_query(metric: Metric) -> list[Check]:
    expect = metric.rules().get("expect")
    pattern = expect.get("pattern") if isinstance(expect, dict) else None
    if not isinstance(pattern, str):
        raise OsworldConfigError(f"{metric.where}.expected.rules.expect.pattern", "expected the pattern the address must match")
    return _patterns_match(_with_field(metric, "url"), [pattern], f"{metric.where}.expected.rules.expect.pattern")


# ---------------------------------------------------------------------- profile state


def is_expected_bookmarks(metric: Metric) -> list[Check]:
    rules = metric.rules()
    kind = _rule_type(metric, rules, "bookmark_bar_folders_names", "bookmark_bar_websites_urls", "liked_authors_websites_urls")
    where = f"{metric.where}.expected.rules"
    if kind == "bookmark_bar_folders_names":
        spec: dict[str, Any] = {"bar_folders": _strings(rules.get("names"), f"{where}.names", "folder names")}
    elif kind == "bookmark_bar_websites_urls":
        spec = {"bar_urls": _strings(rules.get("urls"), f"{where}.urls", "addresses")}
    else:
        urls = rules.get("urls")
        if not isinstance(urls, list) or not all(isinstance(u, str) or (isinstance(u, list) and all(isinstance(a, str) for a in u))
                                                 for u in urls):
            raise OsworldConfigError(f"{where}.urls", "expected a list of addresses (each one, or a list of alternatives)")
        spec = {"folder": "Liked Authors", "folder_urls": urls}
    return [{"bookmarks_match": {"of": _source(metric), **spec}}]


def is_expected_installed_extensions(metric: Metric) -> list[Check]:
    expected = metric.rules().get("expected")
    names = _strings(expected, f"{metric.where}.expected.rules.expected", "extension names")
    return [{"value": {"of": _source(metric), "include": names}}]


def is_cookie_deleted(metric: Metric) -> list[Check]:
    rules = metric.rules()
    _rule_type(metric, rules, "domains")
    domains = _strings(rules.get("domains"), f"{metric.where}.expected.rules.domains", "cookie domains")
    if not domains:
        raise OsworldConfigError(f"{metric.where}.expected.rules.domains", "expected at least one domain")
    return [{"no_cookies_for": {"of": _source(metric), "domains": domains}}]


def check_history_deleted(metric: Metric) -> list[Check]:
    rules = metric.rules()
    _rule_type(metric, rules, "keywords")
    keywords = _strings(rules.get("keywords"), f"{metric.where}.expected.rules.keywords", "keywords")
    if not keywords:
        raise OsworldConfigError(f"{metric.where}.expected.rules.keywords", "expected at least one keyword")
    return [{"history_lacks": {"of": _source(metric), "keywords": keywords}}]


def check_enabled_experiments(metric: Metric) -> list[Check]:
    rules = metric.rules()
    _rule_type(metric, rules, "names")
    names = _strings(rules.get("names"), f"{metric.where}.expected.rules.names", "experiment names")
    return [{"experiments_equal": {"of": _source(metric), "names": names}}]


def check_font_size(metric: Metric) -> list[Check]:
    kind_read = metric.result.get("type") if isinstance(metric.result, dict) else kind_of(metric.result)
    if kind_read != "chrome_font_size":
        raise OsworldUnsupported(f"check_font_size judges the font sizes chrome_font_size reads, not {kind_read!r}")
    rules = metric.rules()
    kind = _rule_type(metric, rules, "value", "range")
    source = {"chrome_setting": {"name": "default_font_size"}}
    where = f"{metric.where}.expected.rules"
    if kind == "value":
        if not _is_number(rules.get("value")):
            raise OsworldConfigError(f"{where}.value", f"expected a font size, got {rules.get('value')!r}")
        return [{"value": {"of": source, "rule": {"method": "eq", "ref": rules["value"]}}}]
    if not (_is_number(rules.get("min")) and _is_number(rules.get("max"))):
        raise OsworldConfigError(where, "expected min and max (numbers)")
    return [{"value": {"of": source, "rule": {"method": "in_range", "ref": [rules["min"], rules["max"]], "inclusive": "tt"}}}]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_shortcut_on_desktop(metric: Metric) -> list[Check]:
    rules = metric.rules()
    kind = rules.get("type")
    if kind in ("url", "id"):
        raise OsworldUnsupported(f"is_shortcut_on_desktop by {kind} is not supported by OSWorld itself (it raises)")
    _rule_type(metric, rules, "name")
    if not isinstance(rules.get("name"), str) or not rules["name"]:
        raise OsworldConfigError(f"{metric.where}.expected.rules.name", "expected the launcher's name")
    return [{"shortcut_on_desktop": {"of": _source(metric), "name": rules["name"]}}]


def is_added_to_steam_cart(metric: Metric) -> list[Check]:
    items = _strings(metric.rules().get("items"), f"{metric.where}.expected.rules.items", "item names")
    return [{"value": {"of": _with_field(metric, "content"), "include": items}}]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "is_expected_active_tab": is_expected_active_tab,
    "is_expected_tabs": is_expected_tabs,
    "is_expected_url_pattern_match": is_expected_url_pattern_match,
    "is_expected_search_query": is_expected_search_query,
    "is_expected_bookmarks": is_expected_bookmarks,
    "is_expected_installed_extensions": is_expected_installed_extensions,
    "is_cookie_deleted": is_cookie_deleted,
    "check_history_deleted": check_history_deleted,
    "check_enabled_experiments": check_enabled_experiments,
    "check_font_size": check_font_size,
    "is_shortcut_on_desktop": is_shortcut_on_desktop,
    "is_added_to_steam_cart": is_added_to_steam_cart,
}
#: OSWorld metric name -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {}
