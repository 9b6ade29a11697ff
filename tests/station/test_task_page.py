"""What the task page tells an annotator when things go wrong, in real Chromium: the live
view lost and got back, a broken desktop and the next attempt, a station restart under an
open page; and what a reviewer who opens the page gets (a view, no buttons).

The browser reaches the station through a TCP proxy on 127.0.0.1 (:mod:`tests.station.tcp_proxy`)
that the test cuts and mends, as an annotator's network drops and comes back. Everything
started here (Chromium, the proxy, the stations, their desktops and x11vnc) is stopped by
PID in a ``finally``/context exit, also when an assertion fails.
"""

from __future__ import annotations

import contextlib
import os
import signal
import urllib.parse
from pathlib import Path

import pytest
import requests

from gui_agent.envs.browser.chromium import DEFAULT_EXECUTABLE, ESSENTIAL_FLAGS
from gui_agent.episode import read_episode
from gui_agent.polling import wait_until
from tests.station.station_server import SUM_COLUMN, running_station
from tests.station.tcp_proxy import TcpProxy

pytestmark = pytest.mark.slow  # x11vnc, novnc, Xvfb, Calc and Chromium: scripts/setup.sh installs them

LIT = """() => {
  const canvas = document.querySelector('#screen canvas');
  if (!canvas || !canvas.width) return 0;
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let lit = 0;
  for (let i = 0; i < data.length; i += 16) if (data[i] | data[i + 1] | data[i + 2]) lit++;
  return lit;
}"""


def _port(url: str) -> int:
    return int(urllib.parse.urlsplit(url).port)


def _wait(predicate, timeout_s: float, what: str):
    return wait_until(predicate, timeout_s=timeout_s, what=what, interval_s=0.2)


def _sign_in(browser, url: str, token: str):
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(url + "/signin")
    page.fill("input[name=token]", token)
    page.click("button[type=submit]")
    page.wait_for_selector("#items tbody tr")
    return page


def _open_desktop(page, url: str, item: str) -> None:
    page.goto(f"{url}/task/{item}")
    page.wait_for_selector("body[data-state=pending]")
    page.click("#take")
    page.wait_for_selector("body[data-vnc=connected]", timeout=120_000)


def _office(live) -> list[int]:
    """The PIDs of LibreOffice among the live desktop's own processes."""
    found = []
    for pid in live.env.pids():
        with contextlib.suppress(OSError):
            if Path(f"/proc/{pid}/comm").read_text().strip() == "soffice.bin":
                found.append(pid)
    return found


def _status(page) -> str:
    return page.inner_text("#status")


def test_a_lost_view_is_said_and_reconnected_and_a_reviewer_only_watches(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    with running_station([SUM_COLUMN], tmp_path / "dataset", annotators=1) as server, \
            TcpProxy(_port(server.url)) as net, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=DEFAULT_EXECUTABLE, headless=True, args=list(ESSENTIAL_FLAGS))
        try:
            item = server.items_of("annotator1")[0].item_id
            api = f"{server.url}/api/items/{item}"
            page = _sign_in(browser, net.url, server.token("annotator1"))
            _open_desktop(page, net.url, item)
            assert not page.is_checked("#done-ok")  # the annotator says it, nothing says it for her
            page.click("#start")
            page.wait_for_selector("body[data-state=recording]")
            live = server.station.live[item]

            # A reviewer opens the task: she sees the desktop, and none of the annotator's buttons.
            reviewer = _sign_in(browser, server.url, server.token("reviewer"))
            assert reviewer.get_attribute(f"tr[data-item='{item}'] a", "href") == f"/task/{item}"
            reviewer.click(f"tr[data-item='{item}'] a")
            reviewer.wait_for_selector("body[data-vnc=connected]", timeout=60_000)
            _wait(lambda: reviewer.evaluate(LIT) > 10_000, 30, "the desktop on the reviewer's canvas")
            assert reviewer.is_hidden("#controls") and reviewer.is_hidden("#notes-row")
            assert "View only" in reviewer.inner_text("#watching")
            reviewer.locator("#screen canvas").click(position={"x": 700, "y": 500})

            # The annotator's network drops: the page says so, offers no Resume, and reconnects.
            net.cut()
            page.wait_for_selector("body[data-vnc=lost]", timeout=30_000)
            assert "reconnecting" in page.inner_text("#view-lost")
            _wait(lambda: live.paused_for_viewers, 30, "the recording to pause (the reviewer's view does not count)")
            assert page.is_disabled("#pause") and page.inner_text("#pause") == "Pause"
            assert "Resume" not in _status(page)
            refused = requests.post(api + "/pause", headers=server.bearer("annotator1"))
            assert refused.status_code == 409 and "live view" in refused.json()["error"]
            net.mend()
            page.wait_for_selector("body[data-vnc=connected]", timeout=60_000)
            _wait(lambda: not live.paused, 30, "the recording to resume")
            page.wait_for_function("() => document.getElementById('status').textContent === 'recording'")
            assert page.is_hidden("#view-lost") and page.is_enabled("#pause")

            # The app dies: Finish says the desktop broke, without the app's start-up chatter.
            office = _office(live)
            assert office, live.env.pids()
            for pid in office:
                os.kill(pid, signal.SIGKILL)
            _wait(lambda: not _office(live), 30, "LibreOffice to exit")
            page.click("#finish")
            page.wait_for_selector("#outcome", timeout=60_000)
            broke = page.inner_text("#outcome")
            assert "The desktop broke" in broke and "crashed" in broke and "javaldx" not in broke, broke
            episode = read_episode(server.station.queue.dataset / server.station.queue.get(item).attempts[-1]["episode"])
            assert (700, 500) not in [(s.action.get("x"), s.action.get("y")) for s in episode.steps]

            # The next attempt starts clean.
            page.click("#take")
            assert page.inner_text("#result") == ""
            page.wait_for_selector("body[data-vnc=connected]", timeout=120_000)
            assert page.locator("#outcome").count() == 0 and not page.is_checked("#done-ok")
            page.click("#discard")
            page.wait_for_selector("body[data-state=pending]")
        finally:
            browser.close()


def test_a_station_restart_tells_the_open_page_the_attempt_was_interrupted(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    token = "a" * 32
    tokens = tmp_path / "tokens.txt"
    tokens.write_text(f"alice {token}\n")
    dataset = tmp_path / "dataset"
    with TcpProxy(0) as net, sync_playwright() as pw:  # forwards once a station is up
        browser = pw.chromium.launch(executable_path=DEFAULT_EXECUTABLE, headless=True, args=list(ESSENTIAL_FLAGS))
        try:
            with running_station([SUM_COLUMN], dataset, tokens_file=tokens) as first:
                net.mend(_port(first.url))
                item = first.items_of("alice")[0].item_id
                page = _sign_in(browser, net.url, token)
                _open_desktop(page, net.url, item)
                page.click("#start")
                page.wait_for_selector("body[data-state=recording]")
                net.cut()  # the station goes down under the open page (its desktop with it)
            page.wait_for_selector("body[data-vnc=lost]", timeout=30_000)

            with running_station([SUM_COLUMN], dataset, tokens_file=tokens) as second:
                net.mend(_port(second.url))
                page.wait_for_function("() => (document.getElementById('outcome') || {}).textContent?.includes('interrupted')",
                                       timeout=60_000)
                assert "The station restarted" in page.inner_text("#outcome")
                assert page.get_attribute("body", "data-state") == "pending" and page.is_hidden("#screen")
                assert page.is_disabled("#finish") and page.is_disabled("#giveup") and page.is_disabled("#pause")
                assert second.station.queue.get(item).attempts[-1]["result"] == "interrupted"
                # Open desktop works in the same page: no CSRF error from the restarted station.
                page.click("#take")
                page.wait_for_selector("body[data-vnc=connected]", timeout=120_000)
                assert "error" not in _status(page)
                page.click("#discard")
                page.wait_for_selector("body[data-state=pending]")
        finally:
            browser.close()
