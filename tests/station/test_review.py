"""The review page and Accept / Reject, on an episode in the trajectory format; what a
reviewer accepted is listed for ``gui-agent export`` and loads with ``datasets``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import requests

from gui_agent.actions import Click, Type
from gui_agent.episode import read_episode
from tests.paths import REPO
from tests.station.station_server import CALC_SUITE, SUM_COLUMN, running_station
from tests.synthetic_episodes import write_synthetic


def _finished_item(server, dataset: Path) -> tuple[str, Path]:
    """Give annotator1's first item a finished episode, as Finish would."""
    item = server.items_of("annotator1")[0].item_id
    folder = write_synthetic(dataset, "station-episode-1", [Click(10, 20), Type("=SUM(B2:B5)\n")],
                             labels={"annotator_verdict": {"success": True, "notes": "<b>bold</b> claim"}, "disagreement": True})
    queue = server.station.queue
    queue.take(item)
    queue.add_attempt(item, folder.name)
    queue.close_attempt(item, "finished", status="done", outcome={"success": True, "annotator_success": True, "disagreement": True})
    return item, Path(folder)


def test_review_page_accept_reject_and_export(tmp_path: Path) -> None:
    dataset = tmp_path / "dataset"
    with running_station([CALC_SUITE], dataset, annotators=2) as server:
        item, folder = _finished_item(server, dataset)
        steps_before = (folder / "steps.jsonl").read_bytes()
        own = requests.get(f"{server.url}/review/{item}", headers=server.bearer("annotator1"))
        assert own.status_code == 200
        page = own.text
        assert "=SUM(B2:B5)" in page and "disagree" in page and 'id="accept"' not in page
        assert "&lt;b&gt;bold&lt;/b&gt; claim" in page and "<b>bold</b>" not in page  # escaped
        assert f"/api/items/{item}/frames/0" in page and '"kind"' not in page  # no JSON dump
        assert 'class="act-click" cx="10.0" cy="20.0"' in page and 'class="act-type"' in page  # actions drawn
        image = requests.get(f"{server.url}/api/items/{item}/frames/0", headers=server.bearer("annotator1"))
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
        final = requests.get(f"{server.url}/api/items/{item}/frames/2", headers=server.bearer("annotator1"))
        assert final.status_code == 200
        assert requests.get(f"{server.url}/api/items/{item}/frames/3", headers=server.bearer("annotator1")).status_code == 404
        assert 'id="accept"' in requests.get(f"{server.url}/review/{item}", headers=server.bearer("reviewer")).text

        url = f"{server.url}/api/items/{item}/review"
        assert requests.post(url, json={"decision": "accept"}, headers=server.bearer("annotator1")).status_code == 403
        assert requests.post(url, json={"decision": "accept"}, headers={**server.bearer("reviewer"), "Origin": "http://evil.example"}).status_code == 403
        assert requests.post(url, json={"decision": "maybe"}, headers=server.bearer("reviewer")).status_code == 400
        assert requests.post(f"{server.url}/api/items/item-9999/review", json={"decision": "accept"},
                             headers=server.bearer("reviewer")).status_code == 404
        server.station.busy.add(item)  # an edit or a live action on the item is under way
        try:
            assert requests.post(url, json={"decision": "accept"}, headers=server.bearer("reviewer")).status_code == 409
            assert requests.post(f"{server.url}/api/items/{item}/edit", json={"op": "mistake", "step": 0, "value": True},
                                 headers=server.bearer("reviewer")).status_code == 409
        finally:
            server.station.busy.discard(item)
        rejected = requests.post(url, json={"decision": "reject", "notes": "blurry"}, headers=server.bearer("reviewer"))
        assert rejected.status_code == 200 and rejected.json()["item"]["review"]["decision"] == "rejected"
        accepted = requests.post(url, json={"decision": "accept"}, headers=server.bearer("reviewer")).json()["item"]
        assert accepted["review"]["decision"] == "accepted" and accepted["review"]["by"] == "reviewer"
        episode = read_episode(folder)
        assert episode.meta.labels["review"]["decision"] == "accepted"
        assert (folder / "steps.jsonl").read_bytes() == steps_before  # the steps are untouched

    listed = subprocess.run([sys.executable, "-m", "gui_agent", "annotate", "--list-accepted", "--out", str(dataset)],
                            cwd=REPO, capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0 and listed.stdout.split() == [str(folder)], listed.stderr
    out = tmp_path / "hf"
    export = subprocess.run([sys.executable, "-m", "gui_agent", "export", *listed.stdout.split(), "--out", str(out), "--quiet"],
                            cwd=REPO, capture_output=True, text=True, timeout=300)
    assert export.returncode == 0, export.stdout + export.stderr
    import datasets

    rows = datasets.load_dataset(str(out), split="train", cache_dir=str(tmp_path / "cache"))
    assert len(rows) == 2 and set(rows["episode_id"]) == {"station-episode-1"}


def _steps_episode(server, dataset: Path, name: str = "annotator1") -> tuple[str, Path]:
    """An item of ``name`` finished with a five-step episode."""
    item = server.items_of(name)[0].item_id
    folder = write_synthetic(dataset, f"edit-episode-{name}", [Click(10, 20), Type("=SUM("), Type("B2:B5)\n"), Click(30, 5),
                                                               Click(40, 8)])
    queue = server.station.queue
    queue.take(item)
    queue.add_attempt(item, folder.name)
    queue.close_attempt(item, "finished", status="done", outcome={"success": True})
    return item, Path(folder)


def test_edits_over_http(tmp_path: Path) -> None:
    dataset = tmp_path / "dataset"
    with running_station([CALC_SUITE], dataset, annotators=2) as server:
        item, folder = _steps_episode(server, dataset)
        recorded = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
        url = f"{server.url}/api/items/{item}/edit"
        reviewer, own = server.bearer("reviewer"), server.bearer("annotator1")

        def edit(body: object, headers: dict[str, str] = reviewer) -> requests.Response:
            return requests.post(url, json=body, headers=headers, timeout=30)

        # the annotator edits their own episode; another annotator cannot even see it
        merged = edit({"op": "merge", "step": 1}, own)
        assert merged.status_code == 200, merged.text
        assert merged.json()["steps"] == 4 and merged.json()["edits"] == 1
        assert read_episode(folder).actions()[1] == Type("=SUM(B2:B5)\n")
        assert edit({"op": "delete", "steps": [0]}, server.bearer("annotator2")).status_code == 404
        assert requests.post(f"{server.url}/api/items/item-9999/edit", json={"op": "reset"}, headers=reviewer).status_code == 404
        # the same guard as every state-changing call: cross-site, no CSRF header, not signed in
        assert edit({"op": "delete", "steps": [0]}, {**reviewer, "Origin": "http://evil.example"}).status_code == 403
        assert edit({"op": "delete", "steps": [0]}, {**reviewer, "Sec-Fetch-Site": "cross-site"}).status_code == 403
        cookie = requests.post(url, json={"op": "delete", "steps": [0]}, cookies={"station_token": server.token("reviewer")})
        assert cookie.status_code == 403 and "csrf" in cookie.json()["error"].lower()
        assert requests.post(url, json={"op": "delete", "steps": [0]}).status_code == 401
        # bad bodies and out-of-range values: 400 with what is wrong, nothing changed
        before = (folder / "steps.jsonl").read_bytes()
        for body, message in [
            ({"op": "explode"}, "unknown edit op"),
            ([1], "JSON object"),
            ({"op": "delete", "steps": "3"}, "steps"),
            ({"op": "delete", "steps": [4]}, "no step 4"),
            ({"op": "merge", "step": 3}, "last step"),
            ({"op": "trim", "start": 0, "end": 99}, "past the last step"),
            ({"op": "set_text", "step": 0, "text": "x"}, "not a type step"),
            ({"op": "set_text", "step": 1, "text": "x" * 20_000}, "text"),
            ({"op": "mistake", "step": -1}, "step"),
            ({"op": "mistake", "step": 1, "value": "yes"}, "value"),
            ({"op": "reset", "steps": [1]}, "takes no other fields"),
        ]:
            response = edit(body)
            assert response.status_code == 400, (body, response.text)
            assert message in response.json()["error"], (body, response.json())
        not_json = requests.post(url, data=b"{op", headers={**reviewer, "Content-Type": "application/json"})
        assert not_json.status_code == 400 and "not JSON" in not_json.json()["error"]
        assert requests.post(url, data=b" " * 70_000, headers=reviewer).status_code == 400
        assert (folder / "steps.jsonl").read_bytes() == before

        # the page shows the edits: a mistake marked, a note, the edit panel, all escaped
        assert edit({"op": "mistake", "step": 2}).status_code == 200
        assert edit({"op": "note", "step": 2, "text": "<script>x</script> wrong cell"}).status_code == 200
        page = requests.get(f"{server.url}/review/{item}", headers=reviewer).text
        assert 'class="step mistake" id="step-2"' in page and "&lt;script&gt;x&lt;/script&gt; wrong cell" in page
        assert "<script>x" not in page and "Edited: 3 edit(s)" in page and 'id="reset"' in page
        assert 'data-op="set_text"' in page and '"kind"' not in page
        assert read_episode(folder).steps[2].info == {"mistake": True, "note": "<script>x</script> wrong cell"}

        # once a reviewer decided, the annotator cannot edit; a rejection stands through a reviewer's edit
        review = f"{server.url}/api/items/{item}/review"
        assert requests.post(review, json={"decision": "reject"}, headers=reviewer).status_code == 200
        locked = edit({"op": "note", "step": 0, "text": "please take it"}, own)
        assert locked.status_code == 409 and "only a reviewer" in locked.json()["error"]
        kept = edit({"op": "note", "step": 0, "text": "seen"}).json()
        assert kept["review_withdrawn"] is False and kept["item"]["review"]["decision"] == "rejected"
        assert read_episode(folder).meta.labels["review"]["decision"] == "rejected"
        assert edit({"op": "undo"}).status_code == 200
        # an edit withdraws an acceptance: the episode must be accepted again before it is exported
        assert requests.post(review, json={"decision": "accept"}, headers=reviewer).status_code == 200
        assert edit({"op": "delete", "steps": [3]}, own).status_code == 409
        after = edit({"op": "delete", "steps": [3]}).json()
        assert after["review_withdrawn"] is True and after["item"]["review"]["decision"] is None
        assert read_episode(folder).meta.labels["review"]["decision"] is None
        assert server.station.queue.accepted() == []
        assert "withdrawn" in requests.get(f"{server.url}/review/{item}", headers=reviewer).text

        # undo drops the last edit; back to original gives the recorded files back
        assert edit({"op": "undo"}).json()["steps"] == 4
        reset = edit({"op": "reset"})
        assert reset.status_code == 200 and reset.json()["steps"] == 5 and reset.json()["edits"] == 0
        now = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
        assert {k: v for k, v in now.items() if k != "episode.json"} == {k: v for k, v in recorded.items() if k != "episode.json"}
        restored, original = json.loads(now["episode.json"]), json.loads(recorded["episode.json"])
        assert restored["labels"].pop("review")["decision"] is None  # the withdrawn verdict is the queue's, and stays
        assert restored == original
        assert sorted(p.name for p in (folder / "frames").iterdir()) == [f"{i:06d}.png" for i in range(6)]
        assert not (folder / "original.frames").exists()
        assert edit({"op": "reset"}).status_code == 400  # nothing left to undo

        # accepted before the first edit: back to original does not bring the withdrawn verdict back
        assert requests.post(review, json={"decision": "accept"}, headers=reviewer).status_code == 200
        assert edit({"op": "delete", "steps": [0]}).status_code == 200
        assert edit({"op": "reset"}).status_code == 200
        assert read_episode(folder).meta.labels["review"]["decision"] is None
        assert read_episode(folder).actions()[0] == Click(10, 20)


def test_episode_files_that_resolve_outside_the_dataset_are_refused(tmp_path: Path) -> None:
    """An episode folder that is a link leaving DATASET, or whose episode.json is one, is as
    absent as a missing folder on every route that reads it; a frame that is one is a 404."""
    from gui_agent.episode.format import frame_path

    dataset, outside = tmp_path / "dataset", tmp_path / "outside"
    with running_station([CALC_SUITE], dataset, annotators=1) as server:
        secret = Path(write_synthetic(outside, "elsewhere", [Click(10, 20)], labels={"annotator_verdict": {"notes": "SECRET-NOTE"}}))
        linked = dataset / "linked-episode"
        linked.symlink_to(secret, target_is_directory=True)  # the folder itself leaves DATASET
        meta_linked = Path(write_synthetic(dataset, "meta-linked", [Click(10, 20)]))
        (meta_linked / "episode.json").unlink()
        (meta_linked / "episode.json").symlink_to(secret / "episode.json")  # its metadata leaves it
        frame_linked = Path(write_synthetic(dataset, "frame-linked", [Click(10, 20)]))
        (frame_linked / frame_path(0)).unlink()
        (frame_linked / frame_path(0)).symlink_to(secret / frame_path(0))  # one frame leaves it
        items = [i.item_id for i in server.items_of("annotator1")[:3]]
        queue = server.station.queue
        for item, folder in zip(items, (linked, meta_linked, frame_linked)):
            queue.take(item)
            queue.add_attempt(item, folder.name)
            queue.close_attempt(item, "finished", status="done", outcome={"success": True})
        for item in items[:2]:
            for who in ("annotator1", "reviewer"):
                for index in (0, 1):
                    assert requests.get(f"{server.url}/api/items/{item}/frames/{index}", headers=server.bearer(who)).status_code == 404
                page = requests.get(f"{server.url}/review/{item}", headers=server.bearer(who))
                assert "SECRET-NOTE" not in page.text and "No finished episode" in page.text
                assert requests.get(f"{server.url}/api/items/{item}", headers=server.bearer(who)).json()["episode_available"] is False
            assert requests.post(f"{server.url}/api/items/{item}/edit", json={"op": "mistake", "step": 0, "value": True},
                                 headers=server.bearer("reviewer")).status_code == 404
            assert requests.post(f"{server.url}/api/items/{item}/review", json={"decision": "accept"},
                                 headers=server.bearer("reviewer")).status_code == 404
        frames = f"{server.url}/api/items/{items[2]}/frames"
        assert requests.get(frames + "/0", headers=server.bearer("reviewer")).status_code == 404
        assert requests.get(frames + "/1", headers=server.bearer("reviewer")).status_code == 200  # its own frame is served
        assert requests.post(f"{server.url}/api/items/{items[2]}/review", json={"decision": "accept"},
                             headers=server.bearer("reviewer")).status_code == 200
        for item in items[:2]:  # marked accepted in the progress file: still not listed for export
            queue.set_review(item, {"decision": "accepted", "by": "reviewer"})

    listed = subprocess.run([sys.executable, "-m", "gui_agent", "annotate", "--list-accepted", "--out", str(dataset)],
                            cwd=REPO, capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0 and listed.stdout.split() == [str(dataset / frame_linked.name)], listed.stdout + listed.stderr


def test_review_page_escapes_every_value_once(tmp_path: Path) -> None:
    """A task id, instruction, notes and a typed text holding markup and ``&`` are shown as
    written: escaped once by the templates, neither run as markup nor escaped twice."""
    suite = tmp_path / "suite"
    suite.mkdir()
    task = SUM_COLUMN.read_text().replace("id: desktop.calc.sum-column", 'id: "calc.<script>alert(1)</script>&sum"')
    task = task.replace("instruction: In sales.xlsx,", "instruction: <script>alert(2)</script> & \"sums\" in sales.xlsx,")
    (suite / "sum.yaml").write_text(task)
    shutil.copytree(SUM_COLUMN.parent / "files", suite / "files")
    dataset = tmp_path / "dataset"
    with running_station([suite], dataset, annotators=1) as server:
        item = server.items_of("annotator1")[0].item_id
        folder = write_synthetic(dataset, "markup-episode", [Click(10, 20), Type("<b>&amp;</b> & x")],
                                 labels={"annotator_verdict": {"success": True, "notes": "Tom & <i>Jerry</i>"},
                                         "notes": "episode & <u>notes</u>"})
        queue = server.station.queue
        queue.take(item)
        queue.add_attempt(item, folder.name)
        queue.close_attempt(item, "finished", status="done", outcome={"success": True})
        edited = requests.post(f"{server.url}/api/items/{item}/edit", json={"op": "note", "step": 0, "text": "<script>x</script> & y"},
                               headers=server.bearer("reviewer"))
        assert edited.status_code == 200, edited.text
        page = requests.get(f"{server.url}/review/{item}", headers=server.bearer("reviewer")).text
    assert "<title>Review item-0001</title>" in page
    assert "calc.&lt;script&gt;alert(1)&lt;/script&gt;&amp;sum <small>" in page
    assert "&lt;script&gt;alert(2)&lt;/script&gt; &amp; &#34;sums&#34; in sales.xlsx" in page
    assert "<dd>Tom &amp; &lt;i&gt;Jerry&lt;/i&gt;</dd>" in page and "<dd>episode &amp; &lt;u&gt;notes&lt;/u&gt;</dd>" in page
    assert "Note: &lt;script&gt;x&lt;/script&gt; &amp; y</div>" in page
    assert '<textarea data-field="note" rows="1" cols="40" maxlength="4000">\n&lt;script&gt;x&lt;/script&gt; &amp; y</textarea>' in page
    assert "<code>&lt;b&gt;&amp;amp;&lt;/b&gt; &amp; x</code>" in page  # the typed text's own "&amp;", escaped once
    assert "<script>alert" not in page and "<script>x" not in page and "<i>Jerry" not in page
    assert "&amp;lt;" not in page and "&amp;#" not in page and "&amp;amp;amp;" not in page  # nothing escaped twice
