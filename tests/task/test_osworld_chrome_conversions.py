"""What OSWorld's Chrome steps, getters and metrics become: every one of OSWorld's Chrome
getters and metrics is converted or listed with the reason it has none, and the
conversions read and judge what OSWorld's do (config shapes taken from OSWorld's configs)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from gui_agent.checks.osworld import METRICS
from gui_agent.checks.osworld import chrome as chrome_metrics
from gui_agent.checks.osworld.getters import GETTERS, NO_EQUIVALENT, chrome as chrome_getters, source_of
from gui_agent.errors import OsworldConfigError, OsworldUnsupported
from gui_agent.task.osworld_import import convert_osworld
from tests.paths import FIXTURES

#: Every getter of OSWorld's desktop_env/evaluators/getters/chrome.py (``get_`` less).
OSWORLD_CHROME_GETTERS = (
    "info_from_website", "default_search_engine", "cookie_data", "history", "enabled_experiments", "profile_name",
    "chrome_language", "chrome_font_size", "bookmarks", "extensions_installed_from_shop", "page_info", "open_tabs_info",
    "active_url_from_accessTree", "active_tab_info", "pdf_from_url", "chrome_saved_address", "shortcuts_on_desktop",
    "number_of_search_results", "googledrive_file", "enable_do_not_track", "enable_enhanced_safety_browsing",
    "new_startup_page", "find_unpacked_extension_path", "find_installed_extension_name", "data_delete_automacally",
    "active_tab_html_parse", "gotoRecreationPage_and_get_html_content", "active_tab_url_parse", "url_dashPart",
)
#: Every metric of OSWorld's metrics/chrome.py but the file comparisons (another family's).
OSWORLD_CHROME_METRICS = (
    "is_expected_active_tab", "is_expected_url_pattern_match", "is_expected_installed_extensions", "is_expected_tabs",
    "is_expected_bookmarks", "is_expected_search_query", "is_cookie_deleted", "is_shortcut_on_desktop",
    "check_history_deleted", "check_enabled_experiments", "check_font_size", "is_added_to_steam_cart",
)


class NoFiles:
    """Getter conversions of the chrome module declare no files."""

    def declare(self, url: str, name: str) -> str:
        raise AssertionError("a chrome getter declared an input")

    def downloaded(self, vm_path: str) -> str | None:
        return None

    def cache_file(self, name: str) -> str | None:
        return None

    def cache_producer(self, name: str) -> list[str] | None:
        return None

    def drop_producer(self, name: str, reason: str) -> None:
        pass


def test_every_chrome_getter_and_metric_is_converted_or_says_why_not() -> None:
    for name in OSWORLD_CHROME_GETTERS:
        assert (name in GETTERS) != (name in NO_EQUIVALENT), name
    assert set(chrome_getters.GETTERS) | set(chrome_getters.NO_EQUIVALENT) == set(OSWORLD_CHROME_GETTERS)
    assert all(reason.startswith("no equivalent: ") for reason in chrome_getters.NO_EQUIVALENT.values())
    assert set(chrome_metrics.METRICS) == set(OSWORLD_CHROME_METRICS)
    assert all(name in METRICS for name in OSWORLD_CHROME_METRICS)


@pytest.mark.parametrize(("spec", "source"), [
    ({"type": "active_url_from_accessTree", "goto_prefix": "https://www."}, {"chrome_active_tab": {"field": "url"}}),
    ({"type": "active_tab_info", "goto_prefix": "https://www."}, {"chrome_active_tab": {"field": "info"}}),
    ({"type": "open_tabs_info"}, {"chrome_tabs": {}}),
    ({"type": "enable_do_not_track"}, {"chrome_setting": {"name": "do_not_track"}}),
    ({"type": "data_delete_automacally"}, {"chrome_setting": {"name": "content_settings_changed"}}),
    ({"type": "find_unpacked_extension_path"}, {"chrome_setting": {"name": "extension_paths", "home_as": "/home/user"}}),
    ({"type": "history", "dest": "history.sqlite"}, {"chrome_history": {}}),
    ({"type": "active_tab_url_parse", "goto_prefix": "https://www.", "parse_keys": ["q", "tbs"]},
     {"chrome_url_query": {"keys": ["q", "tbs"]}}),
    ({"type": "url_dashPart", "goto_prefix": "https://www.", "partIndex": -2, "needDeleteId": False, "returnType": "json", "key": "time"},
     {"chrome_url_part": {"index": -2, "drop_query": False, "key": "time"}}),
    ({"type": "url_dashPart", "partIndex": -1, "needDeleteId": True, "returnType": "string"},
     {"chrome_url_part": {"index": -1, "drop_query": True}}),
    ({"type": "active_tab_html_parse", "goto_prefix": "https://www.", "category": "class", "class_singleObject": {},
      "class_multiObject": {"location-info": {"0": "start_location", "1": "end_location"}}},
     {"chrome_page_elements": {"classes": {"location-info": {"0": "start_location", "1": "end_location"}}, "first_of_class": {}}}),
    ({"type": "active_tab_html_parse", "category": "xpath", "xpathObject": {"/html/body/p": "from"}},
     {"chrome_page_elements": {"xpaths": {"/html/body/p": "from"}}}),
    ({"type": "page_info", "url": "http://127.0.0.1:8000/cart"}, {"chrome_page": {"url": "http://127.0.0.1:8000/cart"}}),
])
def test_getters_become_sources(spec: dict[str, Any], source: dict[str, Any]) -> None:
    assert source_of(spec, "evaluator.result", NoFiles()) == source


def test_getters_of_live_sites_have_no_equivalent_and_wrong_shapes_name_the_key() -> None:
    with pytest.raises(OsworldUnsupported, match="live website https://store.steampowered.com/cart/"):
        source_of({"type": "page_info", "url": "https://store.steampowered.com/cart/"}, "evaluator.result", NoFiles())
    with pytest.raises(OsworldUnsupported, match="Google Drive"):
        source_of({"type": "googledrive_file", "path": ["a"]}, "evaluator.result", NoFiles())
    with pytest.raises(OsworldConfigError, match=r"evaluator\.result\.category"):
        source_of({"type": "active_tab_html_parse", "category": "css"}, "evaluator.result", NoFiles())
    with pytest.raises(OsworldConfigError, match=r"evaluator\.result\.returnType"):
        source_of({"type": "url_dashPart", "partIndex": 1, "returnType": "xml"}, "evaluator.result", NoFiles())


def config(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / "osworld" / f"{name}.json").read_text())


def task_of(cfg: dict[str, Any]) -> dict[str, Any]:
    conversion = convert_osworld(cfg)
    assert conversion.complete, conversion.unsupported
    return conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)


def test_tab_steps_and_the_tabs_check() -> None:
    task = task_of(config("chrome-06fe7178-4491-4589-810f-2e2bc9502122"))
    assert task["environment"]["apps"] == ["chrome"]
    assert {"chrome_open_tabs": {"urls": ["https://www.lonelyplanet.com", "https://www.airbnb.com", "https://www.tripadvisor.com"]}} in task["setup"]
    assert {"chrome_close_tabs": {"urls": ["https://www.tripadvisor.com"]}} in task["setup"]
    assert task["evaluator"] == {"same_urls": {"of": {"chrome_tabs": {}}, "urls": [
        "https://www.lonelyplanet.com", "https://www.airbnb.com", "https://www.tripadvisor.com"]}}


def test_history_step_and_check() -> None:
    task = task_of(config("chrome-44ee5668-ecd5-4366-a6ce-c1c9b8d4e938"))
    visits = task["setup"][0]["chrome_add_history"]["visits"]
    assert len(visits) == 40 and visits[1] == {"url": "https://www.youtube.com/watch?v=9bZkp7q19f0",
                                               "title": "PSY - GANGNAM STYLE(강남스타일) M/V", "seconds_ago": 1631.0}
    assert task["evaluator"] == {"history_lacks": {"of": {"chrome_history": {}}, "keywords": ["youtube"]}}


def test_font_size_range_is_strict() -> None:
    task = task_of(config("chrome-af630914-714e-4a24-a7bb-f9af687d3b91"))
    assert task["evaluator"] == {"value": {"of": {"chrome_setting": {"name": "default_font_size"}},
                                           "rule": {"method": "in_range", "ref": [16, 99999], "inclusive": "tt"}}}


def _with_evaluator(evaluator: dict[str, Any]) -> dict[str, Any]:
    cfg = copy.deepcopy(config("chrome-af630914-714e-4a24-a7bb-f9af687d3b91"))
    cfg["evaluator"] = evaluator
    return cfg


def test_address_metrics() -> None:
    patterns = task_of(_with_evaluator({"func": "is_expected_url_pattern_match", "result": {"type": "active_tab_info"},
                                        "expected": {"type": "rule", "rules": {"expected": ["/women-jerseys/", r"\?size=L"]}}}))
    assert patterns["evaluator"] == {"all_of": [
        {"value": {"of": {"chrome_active_tab": {"field": "url"}}, "rule": {"method": "re", "ref": "/women-jerseys/"}}},
        {"value": {"of": {"chrome_active_tab": {"field": "url"}}, "rule": {"method": "re", "ref": r"\?size=L"}}}]}
    active = task_of(_with_evaluator({"func": ["is_expected_active_tab", "is_expected_active_tab"], "conj": "or",
                                      "result": [{"type": "active_url_from_accessTree", "goto_prefix": "https://www."}] * 2,
                                      "expected": [{"type": "rule", "rules": {"type": "url", "url": u}}
                                                   for u in ("https://www.drugs.com/npc/", "https://www.drugs.com/npp/")]}))
    assert active["evaluator"] == {"any_of": [
        {"same_url": {"of": {"chrome_active_tab": {"field": "url"}}, "url": "https://www.drugs.com/npc/"}},
        {"same_url": {"of": {"chrome_active_tab": {"field": "url"}}, "url": "https://www.drugs.com/npp/"}}]}
    query = task_of(_with_evaluator({"func": "is_expected_search_query", "result": {"type": "active_tab_info"},
                                     "expected": {"type": "rule", "rules": {"expect": {"pattern": r"www\.google\.com.*?/search\?q=Nereida&"}}}}))
    assert query["evaluator"]["value"]["rule"] == {"method": "re", "ref": r"www\.google\.com.*?/search\?q=Nereida&"}


def test_profile_metrics() -> None:
    bookmarks = task_of(_with_evaluator({"func": "is_expected_bookmarks", "result": {"type": "bookmarks"}, "expected": {
        "type": "rule", "rules": {"type": "liked_authors_websites_urls", "urls": [["https://a/1", "https://a/1/"], "https://b/"]}}}))
    assert bookmarks["evaluator"] == {"bookmarks_match": {"of": {"chrome_bookmarks": {}}, "folder": "Liked Authors",
                                                          "folder_urls": [["https://a/1", "https://a/1/"], "https://b/"]}}
    cookies = task_of(_with_evaluator({"func": "is_cookie_deleted", "result": {"type": "cookie_data", "dest": "Cookies"},
                                       "expected": {"type": "rule", "rules": {"type": "domains", "domains": [".amazon.com"]}}}))
    assert cookies["evaluator"] == {"no_cookies_for": {"of": {"chrome_cookies": {}}, "domains": [".amazon.com"]}}
    extensions = task_of(_with_evaluator({"func": "is_expected_installed_extensions", "result": {"type": "find_installed_extension_name"},
                                          "expected": {"type": "rule", "rules": {"expected": ["Momentum", "Google Translate"]}}}))
    assert extensions["evaluator"] == {"value": {"of": {"chrome_setting": {"name": "extension_names"}}, "include": ["Momentum", "Google Translate"]}}
    experiments = task_of(_with_evaluator({"func": "check_enabled_experiments", "result": {"type": "enabled_experiments"},
                                           "expected": {"type": "rule", "rules": {"type": "names", "names": ["chrome-refresh-2023"]}}}))
    assert experiments["evaluator"] == {"experiments_equal": {"of": {"chrome_setting": {"name": "enabled_experiments"}}, "names": ["chrome-refresh-2023"]}}
    shortcut = task_of(_with_evaluator({"func": "is_shortcut_on_desktop", "result": {"type": "shortcuts_on_desktop"},
                                        "expected": {"type": "rule", "rules": {"type": "name", "name": "Play Puzzle Game 2048"}}}))
    assert shortcut["evaluator"] == {"shortcut_on_desktop": {"of": {"desktop_shortcuts": {}}, "name": "Play Puzzle Game 2048"}}


def test_metric_rules_osworld_does_not_know_are_config_errors() -> None:
    unknown = convert_osworld
    with pytest.raises(OsworldConfigError, match=r"evaluator\.expected\.rules\.type"):
        unknown(_with_evaluator({"func": "check_font_size", "result": {"type": "chrome_font_size"},
                                 "expected": {"type": "rule", "rules": {"type": "between", "min": 1}}}))
    with pytest.raises(OsworldConfigError, match=r"evaluator\.expected\.rules\.expected\[0\]"):
        unknown(_with_evaluator({"func": "is_expected_url_pattern_match", "result": {"type": "active_tab_info"},
                                 "expected": {"type": "rule", "rules": {"expected": ["(unclosed"]}}}))
    steam = unknown(_with_evaluator({"func": "is_added_to_steam_cart", "result": {"type": "page_info", "url": "https://store.steampowered.com/cart/"},
                                     "expected": {"type": "rule", "rules": {"items": ["The Dota 2 Official Soundtrack"]}}}))
    assert not steam.complete and "live website" in steam.unsupported[0]


def test_setup_steps_of_wrong_shape_name_the_key() -> None:
    cfg = copy.deepcopy(config("chrome-06fe7178-4491-4589-810f-2e2bc9502122"))
    cfg["config"][2]["parameters"]["urls_to_open"] = ["lonelyplanet.com"]
    with pytest.raises(OsworldConfigError, match=r"config\[2\]\.parameters\.urls_to_open\[0\]"):
        convert_osworld(cfg)
    history = copy.deepcopy(config("chrome-44ee5668-ecd5-4366-a6ce-c1c9b8d4e938"))
    history["config"][0]["parameters"]["history"][3]["visit_time_from_now_in_seconds"] = "yesterday"
    with pytest.raises(OsworldConfigError, match=r"history\[3\]\.visit_time_from_now_in_seconds"):
        convert_osworld(history)
