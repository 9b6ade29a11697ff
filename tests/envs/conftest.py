"""Fixtures for the real-browser tests: Debian's Chromium, no mocks.

Every fixture that starts a browser closes it in a ``finally``/teardown, so a failing test
leaves no browser behind.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

TEST_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>gui-agent test page</title>
<style>
  body { margin: 0; height: 3000px; font-family: sans-serif; background: #fff; }
  .abs { position: absolute; box-sizing: border-box; }
</style></head>
<body>
<button id="btn" class="abs" style="left:10px;top:10px;width:100px;height:40px">Button</button>
<div id="hover" class="abs" style="left:150px;top:10px;width:100px;height:40px;background:#ccc"></div>
<div id="swatch" class="abs" style="left:300px;top:10px;width:50px;height:50px;background:rgb(0,0,255)"></div>
<div id="late" class="abs" style="left:400px;top:10px;width:50px;height:50px;background:rgb(0,0,255)"></div>
<div id="box" class="abs" style="left:10px;top:100px;width:50px;height:50px;background:rgb(255,0,0)"></div>
<input id="inp" class="abs" style="left:10px;top:200px;width:300px;height:30px">
<a id="link" class="abs" style="left:10px;top:260px;font-size:20px" href="second.html">next page</a>
<script>
  window.log = {clicks: 0, dbl: 0, ctx: 0, middle: 0, enter: 0, hovered: false, moves: 0};
  const btn = document.getElementById('btn');
  btn.addEventListener('click', () => log.clicks++);
  btn.addEventListener('dblclick', () => log.dbl++);
  btn.addEventListener('contextmenu', (e) => { log.ctx++; e.preventDefault(); });
  btn.addEventListener('auxclick', (e) => { if (e.button === 1) log.middle++; });
  document.getElementById('hover').addEventListener('mouseover', () => log.hovered = true);
  // A synchronous effect on pixels, and one deferred by a tick.
  document.getElementById('swatch').addEventListener('click', (e) => e.target.style.background = 'rgb(0,255,0)');
  document.getElementById('late').addEventListener('click', (e) => setTimeout(() => e.target.style.background = 'rgb(0,255,0)', 0));
  // A box that follows the mouse while the button is down (pages that track mousemove).
  const box = document.getElementById('box');
  let grab = null;
  box.addEventListener('mousedown', (e) => { grab = {dx: e.clientX - box.offsetLeft, dy: e.clientY - box.offsetTop}; });
  document.addEventListener('mousemove', (e) => {
    if (!grab) return;
    log.moves++;
    box.style.left = (e.clientX - grab.dx) + 'px';
    box.style.top = (e.clientY - grab.dy) + 'px';
  });
  document.addEventListener('mouseup', () => { grab = null; });
  document.getElementById('inp').addEventListener('keydown', (e) => { if (e.key === 'Enter') log.enter++; });
</script>
</body></html>
"""


SECOND_PAGE = """<!DOCTYPE html><html><head><title>second</title></head>
<body style="margin:0;background:rgb(0,128,0)"><h1>second page</h1></body></html>
"""


@pytest.fixture(scope="session")
def test_page_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """file:// URL of a small page where every action kind has an observable effect."""
    folder = tmp_path_factory.mktemp("pages")
    (folder / "second.html").write_text(SECOND_PAGE, encoding="utf-8")
    path = folder / "actions.html"
    path.write_text(TEST_PAGE, encoding="utf-8")
    return path.as_uri()


@pytest.fixture(scope="module")
def shared_env(test_page_url: str) -> Iterator["object"]:
    """One BrowserEnv shared by a module's action tests (each test resets it)."""
    from gui_agent.envs.browser.env import BrowserEnv

    env = BrowserEnv(url=test_page_url, viewport=(640, 480), step_timeout_s=10.0)
    try:
        yield env
    finally:
        env.close()
