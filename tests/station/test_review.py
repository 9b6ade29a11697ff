"""The review page and Accept / Reject, on an episode in the trajectory format; what a
reviewer accepted is listed for ``gui-agent export`` and loads with ``datasets``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import requests

from gui_agent.actions import Click, Type
from gui_agent.episode import read_episode
from tests.paths import REPO
from tests.station.station_server import CALC_SUITE, running_station
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
