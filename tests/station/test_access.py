"""Sign-in and refusals of the station, against the real server on loopback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import requests
import websocket
from starlette.routing import Mount, Route, WebSocketRoute

from gui_agent.station.accounts import Accounts, AccountsError, load_accounts
from gui_agent.station.guard import OPEN_PATHS, Guard
from tests.station.station_server import CALC_SUITE, running_station


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    with running_station([CALC_SUITE], tmp_path_factory.mktemp("dataset"), annotators=2) as running:
        yield running


def signed_in(server, name: str) -> requests.Session:
    session = requests.Session()
    response = session.post(f"{server.url}/signin", data={"token": server.token(name)}, allow_redirects=False)
    assert response.status_code == 303 and "station_token" in session.cookies
    return session


def test_everything_needs_a_sign_in(server) -> None:
    page = requests.get(server.url + "/", headers={"Accept": "text/html"}, allow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/signin"
    for path in ("/api/items", "/api/me", "/api/items/item-0001", "/static/index.js", "/novnc/core/rfb.js",
                 "/task/item-0001", "/review/item-0001", "/api/items/item-0001/frames/0"):
        assert requests.get(server.url + path).status_code == 401, path
    assert requests.post(server.url + "/api/items/item-0001/take").status_code == 401
    assert requests.get(server.url + "/api/items", headers={"Authorization": "Bearer " + "0" * 32}).status_code == 401
    assert requests.get(server.url + "/signin").status_code == 200  # the one open page
    with pytest.raises(websocket.WebSocketBadStatusException):
        websocket.create_connection(server.url.replace("http", "ws") + "/api/items/item-0001/vnc", timeout=5)


def test_sign_in_form_and_own_items(server) -> None:
    bad = requests.post(f"{server.url}/signin", data={"token": "not-a-token"}, allow_redirects=False)
    assert bad.status_code == 401 and "station_token" not in bad.cookies
    session = signed_in(server, "annotator1")
    assert session.get(server.url + "/").status_code == 200
    assert session.get(server.url + "/novnc/core/rfb.js").status_code == 200
    me = session.get(server.url + "/api/me").json()
    assert me["name"] == "annotator1" and me["role"] == "annotator" and me["csrf"]
    items = session.get(server.url + "/api/items").json()["items"]
    assert items and {i["annotator"] for i in items} == {"annotator1"}
    cookie = session.cookies.get("station_token")
    assert cookie == server.token("annotator1")
    set_cookie = requests.post(f"{server.url}/signin", data={"token": cookie}, allow_redirects=False).headers["set-cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=strict" in set_cookie


def test_annotators_see_only_their_own_work_and_the_reviewer_sees_all(server) -> None:
    theirs = server.items_of("annotator1")[0].item_id
    other = server.bearer("annotator2")
    for path in (f"/api/items/{theirs}", f"/task/{theirs}", f"/review/{theirs}", f"/api/items/{theirs}/frames/0"):
        assert requests.get(server.url + path, headers=other).status_code == 404, path
    for verb in ("take", "start", "finish", "give-up", "discard"):
        assert requests.post(f"{server.url}/api/items/{theirs}/{verb}", headers=other).status_code == 404, verb
    with pytest.raises(websocket.WebSocketBadStatusException):
        websocket.create_connection(server.url.replace("http", "ws") + f"/api/items/{theirs}/vnc", timeout=5,
                                    header=[f"Authorization: Bearer {server.token('annotator2')}"])
    everyone = requests.get(server.url + "/api/items", headers=server.bearer("reviewer")).json()["items"]
    assert {i["annotator"] for i in everyone} == {"annotator1", "annotator2"}
    assert requests.get(f"{server.url}/review/{theirs}", headers=server.bearer("reviewer")).status_code == 200
    # A reviewer looks, but does not record someone else's task.
    assert requests.post(f"{server.url}/api/items/{theirs}/take", headers=server.bearer("reviewer")).status_code == 404


@pytest.mark.parametrize("path", [
    "/api/items/..%2F..%2F..%2Fetc%2Fpasswd", "/api/items/%2e%2e", "/review/..%2Fstation.json",
    "/api/items/item-0001%2F..%2F..%2Fstation.json", "/api/items/item-0001/frames/-1", "/api/items/item-0001/frames/999",
    "/api/items/item-0001/frames/..%2F..%2Fstation.json", "/novnc/..%2F..%2F..%2Fetc%2Fpasswd", "/static/..%2Fapp.py",
    "/task/station.json",
])
def test_path_traversal_ids_are_refused(server, path: str) -> None:
    response = requests.get(server.url + path, headers=server.bearer("reviewer"))
    assert response.status_code == 404, (path, response.text[:200])
    assert "root:" not in response.text and "import" not in response.text


def test_cross_site_state_changes_are_refused(server) -> None:
    item = server.items_of("annotator1")[0].item_id
    url = f"{server.url}/api/items/{item}/finish"
    body = {"success": True}
    evil = {"Origin": "http://evil.example"}
    assert requests.post(url, json=body, headers={**server.bearer("annotator1"), **evil}).status_code == 403
    assert requests.post(url, json=body, headers={**server.bearer("annotator1"), "Sec-Fetch-Site": "cross-site"}).status_code == 403
    session = signed_in(server, "annotator1")
    assert session.post(url, json=body).status_code == 403  # signed in by cookie, no CSRF header
    assert session.post(url, json=body, headers={"X-Station-CSRF": "0" * 64}).status_code == 403
    csrf = session.get(server.url + "/api/me").json()["csrf"]
    assert session.post(url, json=body, headers={"X-Station-CSRF": csrf, **evil}).status_code == 403
    # Same site with the right header gets through to the item, which has no desktop yet.
    same = session.post(url, json=body, headers={"X-Station-CSRF": csrf, "Origin": server.url, "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 409 and "take it first" in same.json()["error"]
    # A login from another site is refused too.
    assert requests.post(f"{server.url}/signin", data={"token": server.token("annotator1")}, headers=evil,
                         allow_redirects=False).status_code == 403
    with pytest.raises(websocket.WebSocketBadStatusException):
        websocket.create_connection(server.url.replace("http", "ws") + f"/api/items/{item}/vnc", timeout=5,
                                    header=[f"Authorization: Bearer {server.token('annotator1')}"], origin="http://evil.example")


def served_routes(server) -> list[tuple[str, str]]:
    """Every (method, concrete path) the running app serves, read from the app itself, so a
    route added later is checked here without a line of this file changing: path
    parameters get a real value (annotator1's first item, frame 0; a new kind of parameter
    fails here until it gets one), a mount is probed with one file it serves, a websocket's
    method is ``WS``."""
    assert isinstance(server.app, Guard)  # the whole app is behind the guard
    values = {"item_id": server.items_of("annotator1")[0].item_id, "index": "0"}
    found: list[tuple[str, str]] = []
    for route in server.app.app.routes:
        path = re.sub(r"\{(\w+)(:\w+)?\}", lambda m: values[m.group(1)], route.path)
        if isinstance(route, Mount):
            root = Path(route.app.directory)
            served = next(p for p in sorted(root.rglob("*")) if p.is_file() and f"{path}/{p.relative_to(root)}" not in OPEN_PATHS)
            found.append(("GET", f"{path}/{served.relative_to(root)}"))
        elif isinstance(route, WebSocketRoute):
            found.append(("WS", path))
        else:
            assert isinstance(route, Route), route
            found += [(method, path) for method in sorted(route.methods - {"HEAD"})]
    return found


def _ws(server, path: str, **options) -> None:
    websocket.create_connection(server.url.replace("http", "ws") + path, timeout=5, **options).close()


def test_every_served_route_needs_a_sign_in(server) -> None:
    assert set(OPEN_PATHS) == {"/signin", "/static/style.css"}  # the sign-in page and its stylesheet, nothing else
    routes = served_routes(server)
    item = server.items_of("annotator1")[0].item_id
    assert {("GET", "/"), ("POST", f"/api/items/{item}/edit"), ("WS", f"/api/items/{item}/vnc"),
            ("GET", f"/api/items/{item}/frames/0"), ("GET", "/static/common.js")} <= set(routes)
    for method, path in routes:
        if method == "WS":
            with pytest.raises(websocket.WebSocketBadStatusException):
                _ws(server, path)
            continue
        response = requests.request(method, server.url + path, allow_redirects=False)
        refused = response.status_code == 401 and response.headers["content-type"] == "application/json" \
            and response.json() == {"error": "sign in first"}
        assert refused != (path in OPEN_PATHS), (method, path, response.status_code)


def test_every_served_state_change_is_refused_cross_site_and_without_csrf(server) -> None:
    changes = [(m, p) for m, p in served_routes(server) if m not in ("GET", "WS")]
    assert changes
    cookie = {"station_token": server.token("annotator1")}
    for method, path in changes:
        url = server.url + path
        assert requests.request(method, url, headers={**server.bearer("annotator1"), "Origin": "http://evil.example"},
                                allow_redirects=False).status_code == 403, path
        assert requests.request(method, url, headers={"Sec-Fetch-Site": "cross-site"}, cookies=cookie,
                                allow_redirects=False).status_code == 403, path
        if path not in OPEN_PATHS:
            no_csrf = requests.request(method, url, cookies=cookie, allow_redirects=False)
            assert no_csrf.status_code == 403 and "csrf" in no_csrf.json()["error"], path
    for _, path in (r for r in served_routes(server) if r[0] == "WS"):
        with pytest.raises(websocket.WebSocketBadStatusException):
            _ws(server, path, header=[f"Authorization: Bearer {server.token('annotator1')}"], origin="http://evil.example")


def test_no_served_route_shows_or_changes_another_annotators_item(server) -> None:
    theirs = server.items_of("annotator1")[0].item_id
    before = server.station.queue.get(theirs).public()
    routes = [(m, p) for m, p in served_routes(server) if f"/{theirs}" in p]
    assert len(routes) > 5
    for method, path in routes:
        if method == "WS":
            with pytest.raises(websocket.WebSocketBadStatusException):
                _ws(server, path, header=[f"Authorization: Bearer {server.token('annotator2')}"])
            continue
        response = requests.request(method, server.url + path, headers=server.bearer("annotator2"), json={})
        # 404, as unknown as a made-up id; a reviewer's action says 403 to every annotator, whoever's item it is
        assert response.status_code in ((404,) if method == "GET" else (403, 404)), (method, path, response.status_code)
    assert server.station.queue.get(theirs).public() == before


def test_tokens_file(tmp_path: Path) -> None:
    good = tmp_path / "tokens.txt"
    good.write_text("# accounts\nalice  aaaaaaaaaaaaaaaaaaaa\nrosa   bbbbbbbbbbbbbbbbbbbb reviewer\n")
    accounts = load_accounts(good)
    assert accounts.annotators == ["alice"]
    assert accounts.verify("bbbbbbbbbbbbbbbbbbbb").role == "reviewer"
    assert accounts.verify("aaaaaaaaaaaaaaaaaaab") is None and accounts.verify("") is None
    for text, message in (("alice short\n", "shorter"), ("al/ice aaaaaaaaaaaaaaaaaaaa\n", "name"),
                          ("alice aaaaaaaaaaaaaaaaaaaa boss\n", "role"), ("rosa bbbbbbbbbbbbbbbbbbbb reviewer\n", "annotator"),
                          ("a aaaaaaaaaaaaaaaaaaaa\nb aaaaaaaaaaaaaaaaaaaa\n", "own token")):
        bad = tmp_path / "bad.txt"
        bad.write_text(text)
        with pytest.raises(AccountsError, match=message):
            load_accounts(bad)
    assert isinstance(accounts, Accounts)
