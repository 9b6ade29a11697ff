"""OSWorld's Chrome setup steps as our desktop steps.

================================================  ==========================================
OSWorld                                           task file
================================================  ==========================================
``chrome_open_tabs`` {urls_to_open}               ``chrome_open_tabs {urls}``: new tabs through
                                                  the DevTools port, the start tab closed
``chrome_close_tabs`` {urls_to_close}             ``chrome_close_tabs {urls}``: the first tab
                                                  showing each address closed
``update_browse_history`` {history: [{url,        ``chrome_add_history {visits: [{url, title,
title, visit_time_from_now_in_seconds}]}``        seconds_ago}]}`` in the profile's database
================================================  ==========================================

Each of them needs the browser, so the task gets the ``chrome`` app. The URLs are kept
as they are: a task opening internet pages needs the internet to be done, as in OSWorld.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from gui_agent.errors import OsworldConfigError


def _urls(params: dict[str, Any], key: str, where: str) -> list[str]:
    urls = params.get(key)
    if not isinstance(urls, list) or not urls or not all(isinstance(u, str) and u.strip() for u in urls):
        raise OsworldConfigError(f"{where}.parameters.{key}", "expected a list of URLs")
    for index, url in enumerate(urls):
        if not urlsplit(url).scheme:
            raise OsworldConfigError(f"{where}.parameters.{key}[{index}]", f"expected a full URL (with its scheme), got {url!r}")
    return list(urls)


def _open_tabs(params: dict[str, Any], where: str, context: Any) -> list[dict[str, Any]]:
    context.use_app("chrome")
    return [{"chrome_open_tabs": {"urls": _urls(params, "urls_to_open", where)}}]


def _close_tabs(params: dict[str, Any], where: str, context: Any) -> list[dict[str, Any]]:
    context.use_app("chrome")
    return [{"chrome_close_tabs": {"urls": _urls(params, "urls_to_close", where)}}]


def _browse_history(params: dict[str, Any], where: str, context: Any) -> list[dict[str, Any]]:
    history = params.get("history")
    if not isinstance(history, list) or not history:
        raise OsworldConfigError(f"{where}.parameters.history", "expected a list of {url, title, visit_time_from_now_in_seconds}")
    visits = []
    for index, item in enumerate(history):
        at = f"{where}.parameters.history[{index}]"
        if not isinstance(item, dict) or not isinstance(item.get("url"), str) or not item["url"].strip():
            raise OsworldConfigError(at, "expected {url, title, visit_time_from_now_in_seconds}")
        ago = item.get("visit_time_from_now_in_seconds", 0)
        if isinstance(ago, bool) or not isinstance(ago, (int, float)) or ago < 0:
            raise OsworldConfigError(f"{at}.visit_time_from_now_in_seconds", f"expected seconds (a number >= 0), got {ago!r}")
        title = item.get("title", "")
        visits.append({"url": item["url"], "title": title if isinstance(title, str) else str(title), "seconds_ago": float(ago)})
    context.use_app("chrome")
    return [{"chrome_add_history": {"visits": visits}}]


#: OSWorld step type -> its conversion (params, where, context) -> our steps.
STEPS: dict[str, Callable[[dict[str, Any], str, Any], list[dict[str, Any]]]] = {
    "chrome_open_tabs": _open_tabs,
    "chrome_close_tabs": _close_tabs,
    "update_browse_history": _browse_history,
}
