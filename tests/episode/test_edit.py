"""Episode edits: each operation, the kept original, re-derivation, reset and bad edits."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gui_agent.actions import Click, Hotkey, Move, Scroll, Type
from gui_agent.episode import Episode, read_episode, read_meta
from gui_agent.episode.edit import (
    EDITS_FILE,
    ORIGINAL_EPISODE_FILE,
    ORIGINAL_FRAMES_DIR,
    ORIGINAL_STEPS_FILE,
    EditError,
    apply_edit,
    check_edit,
    is_edited,
    parse_edit,
    read_edits,
    rebuild,
    reset,
    undo,
)
from gui_agent.export.sources import find_episode_dirs, load_episode
from tests.synthetic_episodes import frame, write_synthetic

ACTIONS = [Click(5, 5), Type("hel"), Type("lo\n"), Move(9, 9), Click(9, 9), Scroll(3, 3, dy=2), Scroll(3, 3, dy=1),
           Hotkey(("ctrl", "s"))]
SIZE = (64, 48)


def _episode(tmp_path: Path, frame_format: str = "png") -> Path:
    return write_synthetic(tmp_path, "ep", ACTIONS, events=[(i * 2, i * 2 + 2) for i in range(len(ACTIONS))],
                           frame_format=frame_format)


def _files(folder: Path) -> dict[str, str]:
    """Every file of the folder (below it too) -> its sha256."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _frames_of(episode) -> list[np.ndarray]:  # type: ignore[no-untyped-def]
    return [episode.load_frame(s.frame_before) for s in episode.steps] + [episode.load_frame(episode.final_frame)]


def _original_frame(index: int) -> np.ndarray:
    return frame(*SIZE, index)


def _assert_frames(episode, originals: list[int]) -> None:  # type: ignore[no-untyped-def]
    """The edited episode's frames (before each step, then the final one) are these original frames, dense."""
    fmt = episode.meta.frame_format
    assert [s.frame_before for s in episode.steps] == [f"frames/{i:06d}.{fmt}" for i in range(len(episode.steps))]
    assert episode.final_frame == f"frames/{len(episode.steps):06d}.{fmt}"
    assert len(originals) == len(episode.steps) + 1
    for got, want in zip(_frames_of(episode), originals):
        assert (got == _original_frame(want)).all()
    assert sorted(p.name for p in (episode.path / "frames").iterdir()) == [
        f"{i:06d}.{fmt}" for i in range(len(episode.steps) + 1)]


def test_delete_keeps_the_original_and_frames_resolve(tmp_path: Path) -> None:
    folder = _episode(tmp_path)
    before = _files(folder)
    edited = apply_edit(folder, {"op": "delete", "steps": [0, 3]}, by="rev")
    assert edited.actions() == [Type("hel"), Type("lo\n"), Click(9, 9), Scroll(3, 3, dy=2), Scroll(3, 3, dy=1),
                                Hotkey(("ctrl", "s"))]
    _assert_frames(edited, [1, 2, 4, 5, 6, 7, 8])
    assert [s.thought for s in edited.steps] == ["step 1", "step 2", "step 4", "step 5", "step 6", "step 7"]
    assert [s.events for s in edited.steps][:2] == [(2, 4), (4, 6)]  # still the raw events they came from
    assert edited.meta.stats.steps == 6
    assert edited.meta.labels["edited"]["edits"] == 1 and edited.meta.labels["edited"]["by"] == "rev"
    assert edited.meta.labels["edited"]["original_steps"] == 8
    assert edited.meta.labels["session"] == 3  # other labels stay
    # the original is kept, byte for byte, under names no episode search takes for an episode
    assert hashlib.sha256((folder / ORIGINAL_EPISODE_FILE).read_bytes()).hexdigest() == before["episode.json"]
    assert hashlib.sha256((folder / ORIGINAL_STEPS_FILE).read_bytes()).hexdigest() == before["steps.jsonl"]
    kept = {f"frames/{p.name}": hashlib.sha256(p.read_bytes()).hexdigest() for p in (folder / ORIGINAL_FRAMES_DIR).iterdir()}
    assert kept == {k: v for k, v in before.items() if k.startswith("frames/")}
    assert find_episode_dirs([tmp_path]) == [folder]
    exported = load_episode(folder)  # what export reads: the edited episode, whole
    assert isinstance(exported, Episode) and exported.steps == edited.steps
    assert [e.edit.op for e in read_edits(folder)] == ["delete"]


def test_deleting_the_last_step_makes_the_frame_before_it_final(tmp_path: Path) -> None:
    folder = _episode(tmp_path)
    edited = apply_edit(folder, {"op": "delete", "steps": [6, 7]}, by="rev")
    _assert_frames(edited, [0, 1, 2, 3, 4, 5, 6])


def test_trim_keeps_a_range(tmp_path: Path) -> None:
    folder = _episode(tmp_path, "webp")
    edited = apply_edit(folder, {"op": "trim", "start": 2, "end": 5}, by="rev")
    assert edited.actions() == [Type("lo\n"), Move(9, 9), Click(9, 9)]
    _assert_frames(edited, [2, 3, 4, 5])
    assert edited.meta.frame_format == "webp"


def test_merge_joins_typing_and_scrolls_and_keeps_the_second_of_other_pairs(tmp_path: Path) -> None:
    folder = _episode(tmp_path)
    edited = apply_edit(folder, {"op": "merge", "step": 1}, by="rev")
    assert edited.actions()[1] == Type("hello\n")
    merged = edited.steps[1]
    assert merged.info["merged"] == [{"kind": "type", "text": "hel"}, {"kind": "type", "text": "lo\n"}]
    assert merged.events == (2, 6) and merged.thought == "step 1\nstep 2"
    _assert_frames(edited, [0, 1, 3, 4, 5, 6, 7, 8])
    edited = apply_edit(folder, {"op": "merge", "step": 2}, by="rev")  # move + click: the click, with the move's frame
    assert edited.actions()[2] == Click(9, 9) and edited.steps[2].target == {"role": "button", "name": "b4"}
    edited = apply_edit(folder, {"op": "merge", "step": 3}, by="rev")  # two scrolls at one point
    assert edited.actions() == [Click(5, 5), Type("hello\n"), Click(9, 9), Scroll(3, 3, dy=3), Hotkey(("ctrl", "s"))]
    _assert_frames(edited, [0, 1, 3, 5, 7, 8])
    assert edited.meta.labels["edited"]["edits"] == 3


def test_text_mistake_and_notes_are_labels_of_the_step(tmp_path: Path) -> None:
    folder = _episode(tmp_path)
    apply_edit(folder, {"op": "set_text", "step": 2, "text": "LO\n"}, by="rev")
    apply_edit(folder, {"op": "mistake", "step": 4}, by="rev")
    apply_edit(folder, {"op": "note", "step": 4, "text": "clicked the wrong <cell>"}, by="ann")
    edited = apply_edit(folder, {"op": "notes", "text": "fine after the fix"}, by="ann")
    assert edited.actions()[2] == Type("LO\n")
    assert edited.steps[4].info == {"mistake": True, "note": "clicked the wrong <cell>"}
    assert edited.meta.labels["notes"] == "fine after the fix"
    assert edited.meta.labels["edited"]["by"] == "ann"
    edited = apply_edit(folder, {"op": "mistake", "step": 4, "value": False}, by="rev")
    edited = apply_edit(folder, {"op": "note", "step": 4, "text": ""}, by="rev")
    assert edited.steps[4].info == {}
    _assert_frames(edited, list(range(9)))


def test_reset_restores_the_recorded_files_byte_for_byte(tmp_path: Path) -> None:
    folder = _episode(tmp_path, "webp")
    before = _files(folder)
    apply_edit(folder, {"op": "delete", "steps": [1]}, by="rev")
    apply_edit(folder, {"op": "merge", "step": 0}, by="rev")
    apply_edit(folder, {"op": "mistake", "step": 0}, by="rev")
    assert _files(folder) != before and is_edited(folder)
    restored = reset(folder)
    assert _files(folder) == before  # nothing added, nothing changed
    assert not is_edited(folder) and not (folder / EDITS_FILE).exists()
    assert restored.actions() == ACTIONS
    with pytest.raises(EditError, match="already the original"):
        reset(folder)


def test_edits_are_reapplied_from_the_original(tmp_path: Path) -> None:
    folder = _episode(tmp_path)
    apply_edit(folder, {"op": "delete", "steps": [0]}, by="rev")
    apply_edit(folder, {"op": "mistake", "step": 0}, by="rev")  # now Type("hel")
    once = _files(folder)
    # damage the derived files as a crash mid-edit could: rebuild derives them again from the original and the log
    (folder / "steps.jsonl").write_text("", encoding="utf-8")
    for file in (folder / "frames").iterdir():
        file.unlink()
    rebuilt = rebuild(folder)
    assert _files(folder) == once
    assert rebuilt.steps[0].info["mistake"] is True and rebuilt.actions()[0] == Type("hel")
    # undo drops the last edit only; undoing the only one is a reset
    after_undo = undo(folder)
    assert after_undo.actions()[0] == Type("hel") and "mistake" not in after_undo.steps[0].info
    assert len(read_edits(folder)) == 1
    undo(folder)
    assert not is_edited(folder)
    with pytest.raises(EditError, match="no edits to undo"):
        undo(folder)


def test_a_relabel_between_edits_stays(tmp_path: Path) -> None:
    from gui_agent.recorder.edit import relabel

    folder = _episode(tmp_path)
    apply_edit(folder, {"op": "delete", "steps": [0]}, by="rev")
    relabel(folder, success=False, labels={"review": {"decision": "accepted", "by": "rev"}})
    edited = apply_edit(folder, {"op": "delete", "steps": [0]}, by="rev", labels={"review": {"decision": None}})
    assert edited.meta.outcome.success is False and edited.meta.labels["review"] == {"decision": None}
    assert edited.actions()[0] == Type("lo\n")


def test_an_edited_episode_reads_strictly_and_validates_like_any(tmp_path: Path) -> None:
    folder = _episode(tmp_path)
    apply_edit(folder, {"op": "trim", "start": 1, "end": 7}, by="rev")
    apply_edit(folder, {"op": "merge", "step": 0}, by="rev")
    episode = read_episode(folder)  # strict: raises on any problem
    assert episode.problems == [] and episode.meta.stats.steps == len(episode.steps) == 5
    lines = (folder / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["index"] for line in lines] == [0, 1, 2, 3, 4]
    assert read_meta(folder).status == "complete"


@pytest.mark.parametrize(("edit", "message"), [
    ({"op": "explode"}, "unknown edit op 'explode'"),
    ([1, 2], "an edit is a JSON object"),
    ({"op": "delete", "steps": []}, "delete: field 'steps'"),
    ({"op": "delete", "steps": ["1"]}, "delete: field 'steps.0'"),
    ({"op": "merge", "step": True}, "merge: field 'step'"),
    ({"op": "merge", "step": 1, "extra": 1}, "merge: field 'extra'"),
    ({"op": "set_text", "step": 1, "text": "x" * 10_001}, "set_text: field 'text'"),
    ({"op": "note", "step": 1}, "note: field 'text'"),
])
def test_malformed_edits_are_refused_with_what_is_wrong(edit: object, message: str) -> None:
    with pytest.raises(EditError, match=message.replace("(", r"\(")):
        parse_edit(edit)


@pytest.mark.parametrize(("edit", "message"), [
    ({"op": "delete", "steps": [8]}, "delete: no step 8; the episode has steps 0..7"),
    ({"op": "delete", "steps": list(range(8))}, "leaves none"),
    ({"op": "trim", "start": 3, "end": 9}, "end 9 is past the last step"),
    ({"op": "trim", "start": 5, "end": 5}, "trim 5:5 keeps no step of 8"),
    ({"op": "merge", "step": 7}, "step 7 is the last step"),
    ({"op": "set_text", "step": 0, "text": "x"}, "step 0 is a click step, not a type step"),
    ({"op": "mistake", "step": 99}, "mistake: no step 99"),
])
def test_edits_that_do_not_fit_change_nothing(tmp_path: Path, edit: dict, message: str) -> None:
    folder = _episode(tmp_path)
    before = _files(folder)
    with pytest.raises(EditError, match=message.replace("(", r"\(").replace(".", r"\.")):
        apply_edit(folder, edit, by="rev")
    with pytest.raises(EditError):
        check_edit(folder, edit)
    assert _files(folder) == before and not is_edited(folder)


def test_a_recording_in_progress_is_not_edited(tmp_path: Path) -> None:
    folder = write_synthetic(tmp_path, "rec", ACTIONS[:3], finalize=False)
    with pytest.raises(EditError, match="still being recorded"):
        apply_edit(folder, {"op": "delete", "steps": [0]}, by="rev")


def test_notes_are_derived_from_the_original_and_the_last_notes_edit(tmp_path: Path) -> None:
    from gui_agent.recorder.edit import relabel

    folder = _episode(tmp_path)
    relabel(folder, notes="A")  # before the first edit: the original's own notes
    apply_edit(folder, {"op": "mistake", "step": 0}, by="rev")
    assert read_meta(folder).labels["notes"] == "A"
    assert apply_edit(folder, {"op": "notes", "text": "B"}, by="rev").meta.labels["notes"] == "B"
    assert undo(folder).meta.labels["notes"] == "A"  # the notes before the undone edit
    apply_edit(folder, {"op": "notes", "text": ""}, by="rev")
    assert "notes" not in read_meta(folder).labels
    apply_edit(folder, {"op": "notes", "text": "B"}, by="rev")
    # a relabel of an edited episode's notes is a notes edit: the next edit keeps it, undo takes it back
    relabel(folder, notes="C")
    assert read_meta(folder).labels["notes"] == "C"
    assert apply_edit(folder, {"op": "mistake", "step": 1}, by="rev").meta.labels["notes"] == "C"
    assert rebuild(folder).meta.labels["notes"] == "C"
    assert undo(folder).meta.labels["notes"] == "C" and undo(folder).meta.labels["notes"] == "B"
    with pytest.raises(EditError, match="cannot set 'notes'"):
        apply_edit(folder, {"op": "mistake", "step": 2}, by="rev", labels={"notes": "D"})
    with pytest.raises(EditError, match="cannot set 'edited'"):
        undo(folder, labels={"edited": {}})
    assert len(read_edits(folder)) == 3  # the refused ones are not logged
    assert reset(folder).meta.labels["notes"] == "A"


def test_undo_and_reset_set_labels_in_the_same_write(tmp_path: Path) -> None:
    from gui_agent.recorder.edit import relabel

    folder = _episode(tmp_path, "webp")
    before = _files(folder)
    recorded = read_meta(folder).labels
    apply_edit(folder, {"op": "delete", "steps": [1]}, by="rev")
    apply_edit(folder, {"op": "mistake", "step": 0}, by="rev")
    relabel(folder, labels={"review": {"decision": "accepted", "by": "rev"}})
    withdrawn = {"decision": None, "by": "ann", "withdrawn": {"decision": "accepted", "by": "rev"}}
    undone = undo(folder, labels={"review": withdrawn})
    assert undone.meta.labels["review"] == withdrawn and undone.meta.labels["session"] == 3
    assert "mistake" not in undone.steps[0].info and undone.meta.labels["edited"]["edits"] == 1
    restored = undo(folder, labels={"review": withdrawn, "extra": 1})  # the only edit: a reset, labels and all
    assert not is_edited(folder) and restored.actions() == ACTIONS
    assert restored.meta.labels == {**recorded, "review": withdrawn, "extra": 1}
    assert restored.meta.stats.steps == len(ACTIONS)
    without_meta = {k: v for k, v in before.items() if k != "episode.json"}
    assert {k: v for k, v in _files(folder).items() if k != "episode.json"} == without_meta  # steps, frames: exact
    assert _files(folder)["episode.json"] != before["episode.json"]
    apply_edit(folder, {"op": "trim", "start": 1}, by="rev")
    again = reset(folder, labels={"review": None})
    assert again.meta.labels == {**recorded, "review": None, "extra": 1}
    assert not is_edited(folder) and again.actions() == ACTIONS


def test_a_failed_write_leaves_the_log_and_the_episode_as_they_were(tmp_path: Path) -> None:
    folder = _episode(tmp_path)
    apply_edit(folder, {"op": "delete", "steps": [7]}, by="rev")
    apply_edit(folder, {"op": "mistake", "step": 2}, by="rev")
    (folder / ORIGINAL_FRAMES_DIR / "000005.png").unlink()  # a frame the original lost
    before = _files(folder)
    log = (folder / EDITS_FILE).read_bytes()
    with pytest.raises(FileNotFoundError):
        apply_edit(folder, {"op": "note", "step": 0, "text": "x"}, by="rev")
    with pytest.raises(FileNotFoundError):
        undo(folder)
    assert (folder / EDITS_FILE).read_bytes() == log
    assert _files(folder) == before  # no leftover temp files either
    episode = read_episode(folder)
    assert episode.steps[2].info["mistake"] is True and "note" not in episode.steps[0].info
    assert episode.meta.labels["edited"]["edits"] == 2
    # the next edit that needs no lost frame goes through, without the failed one
    (folder / ORIGINAL_FRAMES_DIR / "000005.png").write_bytes((folder / "frames" / "000005.png").read_bytes())
    edited = apply_edit(folder, {"op": "note", "step": 1, "text": "y"}, by="rev")
    assert [e.edit.op for e in read_edits(folder)] == ["delete", "mistake", "note"]
    assert "note" not in edited.steps[0].info and edited.steps[1].info["note"] == "y"


def test_check_edit_changes_nothing_and_returns_the_parsed_edit(tmp_path: Path) -> None:
    folder = _episode(tmp_path)
    before = _files(folder)
    assert check_edit(folder, {"op": "merge", "step": 1}) == parse_edit({"op": "merge", "step": 1})
    assert _files(folder) == before


def test_importing_the_episode_package_leaves_the_edit_module_for_first_use() -> None:
    check = ("import sys, gui_agent.episode as e; assert 'gui_agent.episode.edit' not in sys.modules; "
             "from gui_agent.episode import apply_edit, EditError; "
             "assert issubclass(EditError, ValueError) and apply_edit.__module__ == 'gui_agent.episode.edit'; "
             "from gui_agent.episode import edit; assert edit.undo is e.undo; print('ok')")
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
