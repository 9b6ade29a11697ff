"""``gui-agent export DATASET``: a station's DATASET gives what its reviewers accepted, several
stations' DATASETs merge, and a step a reviewer marked a mistake says so in its row.

The DATASETs are the real thing: ``station.json`` from :class:`gui_agent.station.queue.TaskQueue`,
episodes from the real writer, decisions written the way the station's Accept / Reject
writes them (the queue, then the episode through :func:`gui_agent.recorder.edit.relabel`).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import datasets

from gui_agent.actions import Click, Type
from gui_agent.episode import read_episode
from gui_agent.episode.edit import apply_edit
from gui_agent.export.rows import info_from_row
from gui_agent.export.stations import STATION_FILE
from gui_agent.recorder.edit import relabel
from gui_agent.station.queue import PROGRESS_FILE, TaskQueue
from tests.paths import REPO
from tests.synthetic_episodes import write_synthetic

ACTIONS = [Click(10, 20), Type("=SUM(B2:B5)\n")]


def station_dataset(folder: Path, decisions: dict[str, str | None], *, actions=ACTIONS) -> Path:  # type: ignore[no-untyped-def]
    """A station DATASET with one finished item per episode id, reviewed as ``decisions`` says
    (``accepted``, ``rejected``, or None: not reviewed)."""
    tasks = [(Path(f"tasks/t{i}.yaml"), f"calc/t{i}", f"Task {i}") for i in range(len(decisions))]
    queue = TaskQueue.open(folder, tasks, ["annotator1", "annotator2"])
    for item, (episode_id, decision) in zip(queue.items(), decisions.items(), strict=True):
        episode = write_synthetic(folder, episode_id, actions, task_id=item.task_id, labels={"station_item": item.item_id})
        queue.take(item.item_id)
        queue.add_attempt(item.item_id, episode.name)
        queue.close_attempt(item.item_id, "finished", status="done", outcome={"success": True})
        if decision is not None:
            updated = queue.set_review(item.item_id, {"decision": decision, "by": "reviewer", "notes": None})
            relabel(episode, labels={"review": updated.review})
    return folder


def export(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gui_agent", "export", *map(str, args), "--quiet"],
                          cwd=REPO, capture_output=True, text=True, timeout=300, check=False)


def load(out: Path, config: str, tmp_path: Path) -> datasets.Dataset:
    return datasets.load_dataset(str(out), config, split="train", cache_dir=str(tmp_path / "cache"))


def test_core_names_the_stations_progress_file_without_importing_station() -> None:
    assert STATION_FILE == PROGRESS_FILE
    probe = "import sys, gui_agent.export.exporter, gui_agent.cli.export; print(any(m.startswith('gui_agent.station') for m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.strip() == "False"


def test_only_accepted_episodes_of_a_station_dataset_are_exported(tmp_path: Path) -> None:
    dataset = station_dataset(tmp_path / "ann", {"ep-a": "accepted", "ep-b": "accepted", "ep-c": "rejected", "ep-d": None, "ep-e": None})
    assert (dataset / PROGRESS_FILE).is_file()
    out = tmp_path / "hf"
    result = export(dataset, "--out", out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"station dataset {dataset}: 2 accepted exported, 1 rejected, 2 not reviewed skipped" in result.stdout
    assert "skipped " not in result.stdout.replace("not reviewed skipped", "")  # not listed one by one as damage
    episodes = load(out, "episodes", tmp_path)
    assert sorted(episodes["episode_id"]) == ["ep-a", "ep-b"]
    assert all(json.loads(labels)["review"]["decision"] == "accepted" for labels in episodes["labels"])
    assert sorted(set(load(out, "steps", tmp_path)["episode_id"])) == ["ep-a", "ep-b"]
    card = (out / "README.md").read_text()
    assert "| review | 2 episode(s) of the annotation station accepted by a reviewer; rejected ones left out |" in card
    assert str(tmp_path) not in card  # no local paths in a card

    # Found below a given folder too; --include-unreviewed adds the undecided, never the rejected.
    wide = tmp_path / "hf-wide"
    result = export(tmp_path, "--out", wide, "--include-unreviewed")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"station dataset {dataset}: 2 accepted and 2 not reviewed exported, 1 rejected skipped" in result.stdout
    assert sorted(load(wide, "episodes", tmp_path)["episode_id"]) == ["ep-a", "ep-b", "ep-d", "ep-e"]
    assert "and 2 not reviewed (exported with `--include-unreviewed`)" in (wide / "README.md").read_text()

    # An episode folder named directly is exported as named (gui-agent annotate --list-accepted output).
    named = tmp_path / "hf-named"
    assert export(dataset / "ep-d", "--out", named).returncode == 0
    assert load(named, "episodes", tmp_path)["episode_id"] == ["ep-d"]


def test_episodes_outside_a_station_dataset_are_exported_as_before(tmp_path: Path) -> None:
    station_dataset(tmp_path / "in" / "ann", {"st-a": "accepted", "st-b": None})
    write_synthetic(tmp_path / "in" / "runs", "run-1", ACTIONS)  # no review, not a station's: exported
    out = tmp_path / "hf"
    result = export(tmp_path / "in", "--out", out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(load(out, "episodes", tmp_path)["episode_id"]) == ["run-1", "st-a"]


def test_two_stations_datasets_merge_and_an_identical_copy_is_exported_once(tmp_path: Path) -> None:
    vm1 = station_dataset(tmp_path / "vm1" / "ann", {"vm1-a": "accepted", "vm1-b": "rejected"})
    vm2 = station_dataset(tmp_path / "vm2" / "ann", {"vm2-a": "accepted", "vm2-b": "accepted", "vm2-c": None})
    shutil.copytree(vm1 / "vm1-a", vm2 / "vm1-a")  # copied between the machines
    (vm2 / "vm1-a" / "review.html").write_text("a page the export never reads")
    out = tmp_path / "merged"
    result = export(vm1, vm2, "--out", out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"station dataset {vm1}: 1 accepted exported, 1 rejected, 0 not reviewed skipped" in result.stdout
    assert (f"station dataset {vm2}: 2 accepted exported, 0 rejected, 1 not reviewed skipped; "
            "1 copy of episodes also found elsewhere, exported once") in result.stdout
    assert "exported 3 episode(s), 6 step(s)" in result.stdout
    episodes = load(out, "episodes", tmp_path)
    assert sorted(episodes["episode_id"]) == ["vm1-a", "vm2-a", "vm2-b"]
    steps = load(out, "steps", tmp_path)
    assert len(steps) == 6 and sorted(steps["episode_id"]).count("vm1-a") == 2


def test_one_episode_id_for_two_different_episodes_is_an_error_naming_both(tmp_path: Path) -> None:
    vm1 = station_dataset(tmp_path / "vm1" / "ann", {"shared": "accepted"})
    vm2 = station_dataset(tmp_path / "vm2" / "ann", {"shared": "accepted"}, actions=[Click(30, 40)])
    out = tmp_path / "merged"
    result = export(vm1, vm2, "--out", out)
    assert result.returncode == 2, result.stdout + result.stderr
    message = " ".join(result.stdout.split())
    assert f"episode id 'shared' is in {vm1 / 'shared'} and in {vm2 / 'shared'}" in message
    assert "not the same episode (their episode.json differ)" in message
    assert not out.exists()  # found before the output folder was touched

    # A copy that is not accepted does not count: only vm1's is exported.
    relabel(vm2 / "shared", labels={"review": {"decision": "rejected", "by": "reviewer", "notes": "blurry", "at": "x"}})
    result = export(vm1, vm2, "--out", out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert load(out, "episodes", tmp_path)["episode_id"] == ["shared"]
    assert len(load(out, "steps", tmp_path)) == len(ACTIONS)


def test_a_station_dataset_with_nothing_accepted_exits_1_saying_why(tmp_path: Path) -> None:
    dataset = station_dataset(tmp_path / "ann", {"ep-a": "rejected", "ep-b": None, "ep-c": None})
    out = tmp_path / "hf"
    result = export(dataset, "--out", out)
    assert result.returncode == 1, result.stdout + result.stderr
    message = " ".join(result.stdout.split())
    assert f"station dataset {dataset}: no accepted episode to export (1 rejected, 2 not reviewed)" in message
    assert "pass --include-unreviewed" in message
    assert not (out / "README.md").exists()

    # Merged with a DATASET that has accepted ones, it is reported and the rest is exported.
    other = station_dataset(tmp_path / "vm2", {"ok": "accepted"})
    result = export(dataset, other, "--out", tmp_path / "hf2")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"station dataset {dataset}: no accepted episode to export" in " ".join(result.stdout.split())


def test_mistake_column_from_a_review_edit_and_back_through_import(tmp_path: Path) -> None:
    dataset = tmp_path / "ann"
    station_dataset(dataset, {})
    folder = write_synthetic(dataset, "edited", [Click(1, 2), Click(3, 4), Click(5, 6), Type("ok")])
    # The real review edits: the original is kept beside the edited episode (original.*).
    apply_edit(folder, {"op": "delete", "steps": [0]}, by="reviewer")
    apply_edit(folder, {"op": "mistake", "step": 1}, by="reviewer")
    apply_edit(folder, {"op": "note", "step": 1, "text": "clicked the wrong cell"}, by="reviewer")
    assert (folder / "original.episode.json").is_file() and (folder / "original.frames").is_dir()
    relabel(folder, labels={"review": {"decision": "accepted", "by": "reviewer", "notes": None, "at": "x"}})
    out = tmp_path / "hf"
    result = export(dataset, "--out", out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "exported 1 episode(s), 3 step(s)" in result.stdout  # the edited steps, the original not taken for another episode
    steps = load(out, "steps", tmp_path)
    assert steps.features["mistake"].dtype == "bool"
    assert steps["mistake"] == [False, True, False]
    assert json.loads(steps["info"][1]) == {"mistake": True, "note": "clicked the wrong cell"}
    assert [row["x"] for row in steps["action"]] == [3, 5, None]

    back = tmp_path / "back"
    imported = subprocess.run([sys.executable, "-m", "gui_agent", "import", str(out), "--out", str(back)],
                              cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    edited, copy = read_episode(folder), read_episode(back / "edited")
    assert [s.info for s in copy.steps] == [{}, {"mistake": True, "note": "clicked the wrong cell"}, {}]
    assert [s.model_dump() for s in copy.steps] == [s.model_dump() for s in edited.steps]


def test_the_mistake_column_wins_over_info_when_a_dataset_was_edited() -> None:
    marked = json.dumps({"mistake": True, "note": "n"})
    assert info_from_row({"info": marked, "mistake": True}) == {"mistake": True, "note": "n"}
    assert info_from_row({"info": marked, "mistake": False}) == {"note": "n"}
    assert info_from_row({"info": None, "mistake": True}) == {"mistake": True}
    assert info_from_row({"info": json.dumps({"mistake": False}), "mistake": False}) == {"mistake": False}
    assert info_from_row({"info": marked}) == {"mistake": True, "note": "n"}  # exported before the column


def test_an_unusable_accepted_episode_is_listed_and_an_unfinished_attempt_is_not_reviewed(tmp_path: Path) -> None:
    dataset = station_dataset(tmp_path / "ann", {"good": "accepted", "broken": "accepted"})
    frame = dataset / "broken" / "frames" / "000001.png"
    frame.write_bytes(frame.read_bytes()[:-20])  # truncated
    write_synthetic(dataset, "killed-attempt", ACTIONS, finalize=False)  # left 'recording', never reviewed
    out = tmp_path / "hf"
    result = export(dataset, "--out", out)
    assert result.returncode == 0, result.stdout + result.stderr
    text = " ".join(result.stdout.split())
    assert f"skipped {dataset / 'broken'}: {frame}: corrupt PNG" in text
    assert "killed-attempt" not in text
    assert f"station dataset {dataset}: 1 accepted exported, 0 rejected, 1 not reviewed, 1 unusable skipped" in text
    assert load(out, "episodes", tmp_path)["episode_id"] == ["good"]
