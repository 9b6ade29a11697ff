"""The chrome family on a real Chromium (Debian's, in Xvfb, as the desktop runs it): the
setup steps (open/close tabs, history, quitting), the sources reading its tabs and its
profile, and the checks judging them, each with a state that passes and one that fails.

One browser serves the module (it takes seconds to start); pages come from a loopback
HTTP server the module runs. Each test puts the browser in the state it judges.
"""

from __future__ import annotations

import functools
import http.server
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gui_agent.checks.sources import read_source
from gui_agent.checks.sources.chrome import DevTools
from gui_agent.checks.values import ValueArgs
from gui_agent.envs.desktop.session import DesktopSession
from gui_agent.envs.desktop.step_runner import run_step
from gui_agent.envs.desktop.steps import DESKTOP_STEP_TYPES
from gui_agent.errors import DesktopStepError
from gui_agent.polling import poll
from tests.checks.check_helpers import FolderProbe, check, passes

PAGES = {
    "a.html": "<html><head><title>Page A</title></head><body><h1>A</h1></body></html>",
    "b.html": "<html><head><title>Page B</title></head><body><h1>B</h1></body></html>",
    "form.html": """<!DOCTYPE html><html><head><title>Trip</title></head><body>
      <div class="place"> Boston </div><div class="place">Zurich</div>
      <section><p><span>Pick-up date</span></p><p>Mon, 10 June</p></section>
      <main><div><p id="from">  10:00 </p></div></main>
      <input id="who" value=" Ann ">
      <script>document.cookie = "seen=1; max-age=86400";</script>
    </body></html>""",
}


class Browser:
    """The module's desktop with Chromium, and a probe of its home as checks see it."""

    def __init__(self, session: DesktopSession, site: str) -> None:
        self.session, self.site = session, site
        self.probe = FolderProbe(home=session.home)
        self.probe.ports["chrome"] = session.app_ports["chrome"]
        self.devtools = DevTools(session.app_ports["chrome"])

    def step(self, spec: dict[str, Any]) -> None:
        kind = next(t for t in DESKTOP_STEP_TYPES if t.name in spec)
        run_step(self.session, kind.model_validate(spec), task_dir=None)

    def read(self, source: dict[str, Any]) -> Any:
        return read_source(ValueArgs.model_validate({"of": source, "equals": None}).of, self.probe)

    def url(self, page: str) -> str:
        return f"{self.site}/{page}"

    def in_page(self, url: str, expression: str) -> Any:
        """Evaluate in a tab opened on ``url`` (a browser page's own API), then close it."""
        tab = self.devtools.load(url)
        try:
            return self.devtools.evaluate(tab, expression)
        finally:
            self.devtools.close(tab)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("site")
    for name, text in PAGES.items():
        (root / name).write_text(text)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser(site: str) -> Iterator[Browser]:
    session = DesktopSession(width=1280, height=800, apps=("chrome",))
    try:
        session.start()
        made = Browser(session, site)
        made.step({"chrome_add_history": {"visits": [
            {"url": "https://www.youtube.com/watch?v=1", "title": "one", "seconds_ago": 3600},
            {"url": "https://www.youtube.com/watch?v=1", "title": "one", "seconds_ago": 60},
            {"url": "https://www.bbc.co.uk/", "title": "BBC", "seconds_ago": 100},
        ]}})
        made.step({"launch": {"app": "chrome"}})
        yield made
    finally:
        session.stop()


@pytest.mark.slow
def test_open_and_close_tabs_and_what_the_tab_sources_read(browser: Browser) -> None:
    a, b, query = browser.url("a.html"), browser.url("b.html"), browser.url("a.html?q=drip%20coffee&tbs=p:1&x=")
    browser.step({"chrome_open_tabs": {"urls": [a, query, b]}})
    tabs = browser.read({"chrome_tabs": {}})
    assert sorted(t["url"] for t in tabs) == sorted([a, query, b])  # the start tab is gone
    assert browser.read({"chrome_active_tab": {"field": "url"}}) == b
    info = browser.read({"chrome_active_tab": {}})
    assert info["title"] == "Page B" and "<h1>B</h1>" in info["content"] and info["url"] == b
    assert passes({"same_urls": {"of": {"chrome_tabs": {}}, "urls": [b.replace("http:", "HTTP:"), a, query]}}, browser.probe, apps="chrome")
    assert not passes({"same_urls": {"of": {"chrome_tabs": {}}, "urls": [a, b]}}, browser.probe, apps="chrome")

    browser.step({"chrome_close_tabs": {"urls": [b]}})
    assert sorted(t["url"] for t in browser.read({"chrome_tabs": {}})) == sorted([a, query])
    with pytest.raises(DesktopStepError, match="no open tab shows"):
        browser.step({"chrome_close_tabs": {"urls": [b]}})

    # The tab a person brings to the front is the active one.
    target = next(t for t in browser.devtools.tabs() if t["url"] == query)
    browser.devtools.get(f"/json/activate/{target['id']}")
    assert poll(lambda: browser.read({"chrome_active_tab": {"field": "url"}}) == query, timeout_s=5)
    assert browser.read({"chrome_url_query": {"keys": ["q", "tbs", "x", "absent"], "rename": {"tbs": "filters"}}}) == {
        "q": "drip coffee", "filters": "p:1", "x": "", "absent": ""}
    assert browser.read({"chrome_url_part": {"index": -1, "drop_query": True}}) == "a.html"
    assert browser.read({"chrome_url_part": {"index": -1, "key": "page"}}) == {"page": "a.html?q=drip%20coffee&tbs=p:1&x="}
    spec = {"same_url": {"of": {"chrome_active_tab": {}}, "url": query}}
    assert passes(spec, browser.probe, apps="chrome")
    report = check({"same_url": {"of": {"chrome_active_tab": {"field": "url"}}, "url": a}}, browser.probe, apps="chrome")
    assert not report["passed"] and report["observed"]["url"] == query


@pytest.mark.slow
def test_page_elements_and_a_page_loaded_in_a_new_tab(browser: Browser) -> None:
    browser.step({"chrome_open_tabs": {"urls": [browser.url("form.html")]}})
    elements = browser.read({"chrome_page_elements": {
        "classes": {"place": {"0": "start", "1": "end", "5": "absent"}},
        "first_of_class": {"place": "first", "nothing-here": "none"},
        "labels": {"pick-up DATE": "label"},
        "xpaths": {"/html/body/main/div/p": "from", "/html/body/nav": "none2"},
        "inputs": {"//input[@id='who']": "who"},
    }})
    assert elements == {"start": "Boston", "end": "Zurich", "first": "Boston", "label": "Pick-up date", "from": "10:00", "who": "Ann"}
    tabs_before = [t["id"] for t in browser.devtools.tabs()]
    page = browser.read({"chrome_page": {"url": browser.url("b.html")}})
    assert page["title"] == "Page B" and page["url"] == browser.url("b.html") and "<h1>B</h1>" in page["content"]
    assert browser.read({"chrome_page": {"url": browser.url("a.html"), "field": "title"}}) == "Page A"
    assert [t["id"] for t in browser.devtools.tabs()] == tabs_before  # its tab was closed again, and is no longer listed


@pytest.mark.slow
def test_history_from_the_setup_step(browser: Browser) -> None:
    rows = browser.read({"chrome_history": {}})
    urls = sorted(r[0] for r in rows)
    assert urls[:2] == ["https://www.bbc.co.uk/", "https://www.youtube.com/watch?v=1"]  # one row per address
    now_chrome = (time.time() + 11_644_473_600) * 1e6
    youtube = next(r for r in rows if "youtube" in r[0])
    assert abs(now_chrome - youtube[2] - 60e6) < 120e6  # its last visit, a minute ago
    assert not passes({"history_lacks": {"of": {"chrome_history": {}}, "keywords": ["youtube"]}}, browser.probe, apps="chrome")
    assert passes({"history_lacks": {"of": {"chrome_history": {}}, "keywords": ["vimeo"]}}, browser.probe, apps="chrome")
    with pytest.raises(DesktopStepError, match="before Chromium is launched"):
        browser.step({"chrome_add_history": {"visits": [{"url": "https://example.com/"}]}})


def _set_pref(browser: Browser, name: str, value: Any) -> None:
    done = browser.in_page("chrome://settings/", f"chrome.settingsPrivate.setPref({json.dumps(name)}, {json.dumps(value)})")
    assert done is True, (name, done)


@pytest.mark.slow
def test_settings_bookmarks_and_cookies_read_from_the_profile_after_quitting(browser: Browser) -> None:
    setting = lambda name: browser.read({"chrome_setting": {"name": name}})  # noqa: E731
    assert [setting(n) for n in ("do_not_track", "enhanced_safe_browsing", "startup_page_new_tab", "content_settings_changed")] == [
        "false", "false", "true", "false"]  # a fresh profile (this Chromium's own migration markers aside)
    assert setting("default_font_size") == 16 and setting("default_search_engine") == "Google"
    font_rule = {"of": {"chrome_setting": {"name": "default_font_size"}}, "rule": {"method": "in_range", "ref": [16, 99999], "inclusive": "tt"}}
    assert not passes({"value": font_rule}, browser.probe, apps="chrome")

    browser.step({"chrome_open_tabs": {"urls": [browser.url("form.html")]}})  # it sets a cookie
    for name, value in (("enable_do_not_track", True), ("safebrowsing.enhanced", True), ("session.restore_on_startup", 4),
                        ("webkit.webprefs.default_font_size", 24)):
        _set_pref(browser, name, value)
    created = browser.in_page("chrome://bookmarks/", "chrome.bookmarks.create({parentId: '1', title: 'Favorites'}).then(b => b.title)")
    assert created == "Favorites"
    browser.step({"quit_app": {"app": "chrome"}})  # Chromium writes its files on the way out (bookmarks after 2.5 s, else)

    assert [setting(n) for n in ("do_not_track", "enhanced_safe_browsing", "startup_page_new_tab")] == ["true", "true", "false"]
    assert setting("default_font_size") == 24 and setting("font_sizes")["default_font_size"] == 24
    assert passes({"value": font_rule}, browser.probe, apps="chrome")
    bar = {"of": {"chrome_bookmarks": {}}}
    assert passes({"bookmarks_match": {**bar, "bar_folders": ["Favorites"]}}, browser.probe, apps="chrome")
    assert not passes({"bookmarks_match": {**bar, "bar_folders": ["Work"]}}, browser.probe, apps="chrome")
    assert not passes({"bookmarks_match": {**bar, "bar_urls": ["https://example.com/"]}}, browser.probe, apps="chrome")
    cookies = browser.read({"chrome_cookies": {}})
    assert {"host_key": "127.0.0.1", "name": "seen", "path": "/"} in cookies
    assert not passes({"no_cookies_for": {"of": {"chrome_cookies": {}}, "domains": ["127.0.0.1"]}}, browser.probe, apps="chrome")
    assert passes({"no_cookies_for": {"of": {"chrome_cookies": {}}, "domains": [".amazon.com"]}}, browser.probe, apps="chrome")

    # Started again, it shows the new tab page (restore_on_startup 4 names no page), not a "restore?" bubble.
    browser.step({"launch": {"app": "chrome"}})
    assert [t["url"] for t in browser.devtools.tabs()] == ["chrome://new-tab-page-third-party/"]


@pytest.mark.slow
def test_an_unpacked_extension_is_listed_by_name_and_by_its_folder_as_osworld_names_it(browser: Browser) -> None:
    folder = browser.session.home / "Desktop" / "helloExtension"
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps({"manifest_version": 3, "name": "Hello Extensions", "version": "1.0"}))
    _set_pref(browser, "safebrowsing.enhanced", False)  # with it on, Chromium loads no extension named on its command line
    browser.step({"quit_app": {"app": "chrome"}})
    # (this Chromium loads an extension named on its command line only with this switch off)
    browser.step({"launch": {"app": "chrome", "args": [f"--load-extension={folder}", "--disable-features=DisableLoadExtensionCommandLineSwitch"]}})
    listed = "chrome.developerPrivate.getExtensionsInfo().then(all => all.map(e => e.name))"
    assert poll(lambda: "Hello Extensions" in browser.in_page("chrome://extensions/", listed), timeout_s=15)
    browser.step({"quit_app": {"app": "chrome"}})
    paths = {"chrome_setting": {"name": "extension_paths", "home_as": "/home/user"}}
    assert "/home/user/Desktop/helloExtension" in browser.read(paths)
    assert str(folder) in browser.read({"chrome_setting": {"name": "extension_paths"}})
    assert "Hello Extensions" in browser.read({"chrome_setting": {"name": "extension_names"}})
    assert passes({"value": {"of": {"chrome_setting": {"name": "extension_names"}}, "include": ["Hello Extensions"]}},
                  browser.probe, apps="chrome")
    assert not passes({"value": {"of": {"chrome_setting": {"name": "extension_names"}}, "include": ["Hello Extensions", "Zoom"]}},
                      browser.probe, apps="chrome")


@pytest.fixture
def folder_probe(tmp_path: Path) -> FolderProbe:
    (tmp_path / "home").mkdir()
    return FolderProbe(home=tmp_path / "home")


def test_experiments_language_and_desktop_launchers_from_files(folder_probe: FolderProbe) -> None:
    folder_probe.write(".config/google-chrome/Local State", json.dumps(
        {"browser": {"enabled_labs_experiments": ["chrome-refresh-2023@1", "chrome-webui-refresh-2023"]}, "intl": {"app_locale": "de"}}))
    experiments = {"of": {"chrome_setting": {"name": "enabled_experiments"}}}
    assert passes({"experiments_equal": {**experiments, "names": ["chrome-refresh-2023", "chrome-webui-refresh-2023"]}}, folder_probe)
    assert not passes({"experiments_equal": {**experiments, "names": ["chrome-webui-refresh-2023", "chrome-refresh-2023"]}}, folder_probe)
    assert passes({"value": {"of": {"chrome_setting": {"name": "language"}}, "equals": "de"}}, folder_probe)
    assert passes({"value": {"of": {"chrome_setting": {"name": "profile_name"}}, "equals": None}}, folder_probe)  # no Preferences

    launchers = {"of": {"desktop_shortcuts": {}}, "name": "Play Puzzle Game 2048"}
    folder_probe.write("Desktop/game.desktop", "[Desktop Entry]\nName=Play 2048\nExec=chromium --app=x\n")
    assert not passes({"shortcut_on_desktop": launchers}, folder_probe)
    folder_probe.write("Desktop/game2.desktop", "[Desktop Entry]\nName=Play Puzzle Game 2048\nType=Application\n")
    assert passes({"shortcut_on_desktop": launchers}, folder_probe)


def test_bookmark_folders_of_the_bar_with_alternatives(folder_probe: FolderProbe) -> None:
    def bookmarks(urls: list[str]) -> None:
        folder = {"type": "folder", "name": "Liked Authors", "children": [{"type": "url", "url": u, "name": u} for u in urls]}
        folder_probe.write(".config/google-chrome/Default/Bookmarks", json.dumps(
            {"roots": {"bookmark_bar": {"children": [folder, {"type": "url", "url": "https://a.example/", "name": "a"}]}}}))

    spec = {"bookmarks_match": {"of": {"chrome_bookmarks": {}}, "folder": "Liked Authors",
                                "folder_urls": [["https://x.example/1", "https://x.example/1/"], "https://y.example/"]}}
    bookmarks(["https://x.example/1/", "https://y.example/"])
    assert passes(spec, folder_probe)
    assert passes({"bookmarks_match": {"of": {"chrome_bookmarks": {}}, "bar_urls": ["https://a.example/"]}}, folder_probe)
    bookmarks(["https://x.example/1/", "https://y.example/", "https://z.example/"])
    assert not passes(spec, folder_probe)
    assert not passes({"bookmarks_match": {"of": {"chrome_bookmarks": {}}, "bar_folders": []}}, FolderProbe(home=folder_probe.home / "none"))


def test_settings_read_as_osworld_reads_them(folder_probe: FolderProbe) -> None:
    def setting(preferences: dict[str, Any], name: str) -> Any:
        folder_probe.write(".config/google-chrome/Default/Preferences", json.dumps(preferences))
        return read_source(ValueArgs.model_validate({"of": {"chrome_setting": {"name": name}}, "equals": None}).of, folder_probe)

    # This Chromium's migration markers are no content setting; "clear cookies on exit" (4) is one.
    markers = {"profile": {"default_content_setting_values": {"has_migrated_local_network_access": True}}}
    assert setting(markers, "content_settings_changed") == "false"
    assert setting({"profile": {"default_content_setting_values": {"cookies": 4}}}, "content_settings_changed") == "true"
    assert setting({}, "startup_page_new_tab") == "true"  # no "session": a fresh start, which opens the New Tab page
    assert setting({"session": {"restore_on_startup": 5}}, "startup_page_new_tab") == "true"
    assert setting({"session": {"restore_on_startup": 4, "startup_urls": ["http://funbrain.com/"]}}, "startup_page_new_tab") == "false"
    bing = {"default_search_provider_data": {"template_url_data": {"short_name": "Microsoft Bing", "keyword": "bing.com"}}}
    assert setting(bing, "default_search_engine") == "Bing"  # the name OSWorld's Chrome gave it
    assert setting({}, "default_search_engine") == "Google"
    assert setting({"webkit": {"webprefs": {"minimum_font_size": 12}}}, "default_font_size") is None
    assert setting({"profile": {"name": "Thomas"}}, "profile_name") == "Thomas"
