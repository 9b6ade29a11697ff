"""Editing a finished episode after review, keeping the original as it was recorded.

An edit is a typed operation (:data:`Edit`) on the current steps: delete steps, trim to a
range, merge a step with the next one, correct a ``type`` step's text, mark a step as a
mistake, set a step's note or the episode's notes. The first edit of an episode keeps the
original beside it; every edit is appended to a log and the episode is re-derived from the
original and the whole log, so edits never compound damage, :func:`undo` drops the last
one and :func:`reset` gives the recorded files back (byte for byte unless given ``labels=``)::

    <episode>/
      episode.json, steps.jsonl, frames/   the edited episode, a valid episode like any other
      edits.jsonl                          one line per edit: {"edit": {...}, "by", "at"}
      original.episode.json                the files as they were before the first edit
      original.steps.jsonl
      original.frames/                     every original frame (hard links where the disk allows)

None of the kept files is named ``episode.json`` and ``original.frames/`` holds none, so
tools that find episodes by searching for ``episode.json`` (export) never take the
original for a second episode; readers look only at ``frames/``, which after an edit holds
exactly the frames the steps name, renumbered to stay dense (the frame after the last step
is still ``frames/<len(steps)>``).

What the operations mean:

* ``delete``: the steps go; every other step keeps its own frame. Deleting the last step
  makes the frame before it the final screen (the screen after the step before).
  A deleted middle step that changed the screen leaves its effect in the next frame:
  for that, trim or mark the step as a mistake instead.
* ``trim``: keep steps ``[start, end)``; the frame before step ``end`` is the final screen.
* ``merge``: step ``i`` and step ``i + 1`` become one step with step ``i``'s time and frame
  before. Two ``type`` steps become one with the texts joined; two scrolls at one point add
  their wheel clicks; any other pair keeps the second action (the first is taken as its
  preparation: a move before a click, a click that missed and was redone). Both actions
  are kept in the merged step's ``info["merged"]``.
* ``set_text``: a ``type`` step's text, corrected.
* ``mistake``: ``info["mistake"] = True`` (``value: false`` removes it): a step the person
  should not have taken. Reward data labels it (``gui_agent.replay.labels``).
* ``note``: ``info["note"]`` of a step; ``notes``: the episode's ``labels["notes"]``
  (an empty text removes either).

An edited episode carries ``labels["edited"] = {"edits", "by", "at", "original_steps"}``.
The steps and ``labels["notes"]`` are derived from the original and the log; everything
else in episode.json is taken from the current episode.json, so episode-level changes made
in between by other means (a review verdict, ``relabel`` of the outcome or of other
labels) stay. The notes are the original's ``labels["notes"]`` unless the log holds a
``notes`` edit, and then the last one's: :func:`undo` of a ``notes`` edit brings back the
notes before it. :func:`gui_agent.recorder.edit.relabel` therefore sets an edited episode's notes
through a ``notes`` edit; a write of ``labels["notes"]`` by other means lasts only until
the next edit, :func:`undo`, :func:`rebuild` or :func:`reset`. For the same reason the ``labels=`` that :func:`apply_edit`, :func:`undo`
and :func:`reset` take cannot name ``notes`` or ``edited``.

Writes go through temp files and renames; the log line is written (and synced) before the
episode's files, so a crash mid-edit is repaired by :func:`rebuild`. An edit or undo
that raises (a frame missing from the original, a full disk) puts the log back as it was;
the new frames and steps are prepared beside the live ones before any of those is
replaced, so a failure while preparing leaves the episode as it was too (and a first edit
drops the original it kept), and one while replacing is repaired by :func:`rebuild`.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter, ValidationError

from gui_agent.actions import action_from_dict
from gui_agent.episode.format import (
    EPISODE_FILE,
    FRAMES_DIR,
    STEPS_FILE,
    TEMP_SUFFIX,
    EpisodeMeta,
    Stats,
    StepRecord,
    frame_format_of,
    frame_path,
)
from gui_agent.episode.labels import EDITED, NOTES
from gui_agent.episode.reader import Episode, read_episode, read_meta
from gui_agent.episode.writer import write_meta
from gui_agent.errors import ActionError, EditError, EpisodeFormatError

EDITS_FILE = "edits.jsonl"
ORIGINAL_PREFIX = "original."
ORIGINAL_EPISODE_FILE = ORIGINAL_PREFIX + EPISODE_FILE
ORIGINAL_STEPS_FILE = ORIGINAL_PREFIX + STEPS_FILE
ORIGINAL_FRAMES_DIR = ORIGINAL_PREFIX + FRAMES_DIR
#: The longest typed text and note an edit takes (a person's correction, not a document).
MAX_TEXT = 10_000
MAX_NOTE = 4_000
_NEW_FRAMES = FRAMES_DIR + ".new"
_OLD_FRAMES = FRAMES_DIR + ".old"


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Delete(_Op):
    """Delete these steps (indices of the current steps)."""

    op: Literal["delete"] = "delete"
    steps: list[Annotated[StrictInt, Field(ge=0)]] = Field(min_length=1, max_length=10_000)


class Trim(_Op):
    """Keep steps ``[start, end)``; ``end`` None: to the last."""

    op: Literal["trim"] = "trim"
    start: StrictInt = Field(0, ge=0)
    end: StrictInt | None = Field(None, ge=1)


class Merge(_Op):
    """Merge step ``step`` with step ``step + 1``."""

    op: Literal["merge"] = "merge"
    step: StrictInt = Field(ge=0)


class SetText(_Op):
    """Correct the text of the ``type`` step ``step``."""

    op: Literal["set_text"] = "set_text"
    step: StrictInt = Field(ge=0)
    text: StrictStr = Field(min_length=1, max_length=MAX_TEXT)


class Mistake(_Op):
    """Mark (or, ``value`` False, unmark) step ``step`` as a mistake."""

    op: Literal["mistake"] = "mistake"
    step: StrictInt = Field(ge=0)
    value: StrictBool = True


class Note(_Op):
    """Set step ``step``'s note (empty: remove it)."""

    op: Literal["note"] = "note"
    step: StrictInt = Field(ge=0)
    text: StrictStr = Field(max_length=MAX_NOTE)


class Notes(_Op):
    """Set the episode's notes, ``labels["notes"]`` (empty: remove them)."""

    op: Literal["notes"] = "notes"
    text: StrictStr = Field(max_length=MAX_NOTE)


Edit = Annotated[Delete | Trim | Merge | SetText | Mistake | Note | Notes, Field(discriminator="op")]
_EDIT = TypeAdapter(Edit)
OPS = ("delete", "trim", "merge", "set_text", "mistake", "note", "notes")


def parse_edit(data: Any) -> Edit:
    """An edit from its JSON form (``{"op": "delete", "steps": [3]}``).

    Raises:
        EditError: not an object, an unknown op, or a field missing, unknown or of the wrong type or size.
    """
    if not isinstance(data, Mapping):
        raise EditError(f"an edit is a JSON object with an 'op' ({', '.join(OPS)}), got {type(data).__name__}")
    if data.get("op") not in OPS:
        raise EditError(f"unknown edit op {data.get('op')!r}; expected one of {', '.join(OPS)}")
    try:
        return _EDIT.validate_python(dict(data))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "edit"
        raise EditError(f"{data['op']}: field '{where}': {first['msg']}") from None


@dataclass(frozen=True)
class EditEntry:
    """One line of ``edits.jsonl``."""

    edit: Edit
    by: str
    at: str


# ---------------------------------------------------------------------------------- applying


@dataclass
class _State:
    """Steps being edited; frame paths are relative to the folder holding the original frames."""

    steps: list[StepRecord]
    final: str | None
    notes: Any  # labels["notes"] (None: none): the original's, then the last notes edit's


def _step(state: _State, index: int, what: str) -> StepRecord:
    if not 0 <= index < len(state.steps):
        raise EditError(f"{what}: no step {index}; the episode has steps 0..{len(state.steps) - 1}")
    return state.steps[index]


def _with_info(step: StepRecord, key: str, value: Any) -> StepRecord:
    info = {k: v for k, v in step.info.items() if k != key}
    if value not in (None, False, ""):
        info[key] = value
    return step.model_copy(update={"info": info})


def _merged_action(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    if a.get("kind") == b.get("kind") == "type":
        return {**a, "text": a["text"] + b["text"]}
    if a.get("kind") == b.get("kind") == "scroll" and (a["x"], a["y"]) == (b["x"], b["y"]):
        dx, dy = a.get("dx", 0) + b.get("dx", 0), a.get("dy", 0) + b.get("dy", 0)
        if dx or dy:
            return {**a, "dx": dx, "dy": dy}
    return b


def _merge(a: StepRecord, b: StepRecord) -> StepRecord:
    """Step ``a`` and the next step ``b`` as one (see the module doc)."""
    action = _merged_action(a.action, b.action)
    info = {**a.info, **b.info}
    info["merged"] = [*(a.info.get("merged") or [a.action]), *(b.info.get("merged") or [b.action])]
    notes = [n for n in (a.info.get("note"), b.info.get("note")) if n]
    info.pop("note", None)
    if notes:
        info["note"] = "\n".join(notes)
    info.pop("mistake", None)
    if a.info.get("mistake") or b.info.get("mistake"):
        info["mistake"] = True
    thoughts = [t for t in (a.thought, b.thought) if t]
    events = (a.events[0], b.events[1]) if a.events and b.events else (a.events or b.events)
    timings = {k: round(a.timings.get(k, 0.0) + b.timings.get(k, 0.0), 6) for k in {*a.timings, *b.timings}}
    return a.model_copy(update={
        "action": action, "frame_after": b.frame_after, "target": a.target if action is not b.action else b.target,
        "thought": "\n".join(thoughts) or None, "reward": b.reward, "error": b.error, "timings": timings,
        "events": events, "info": info,
    })


def _apply(state: _State, edit: Edit) -> None:
    n = len(state.steps)
    if isinstance(edit, Delete):
        doomed = set(edit.steps)
        for index in sorted(doomed):
            _step(state, index, "delete")
        if len(doomed) >= n:
            raise EditError(f"delete: deleting {len(doomed)} of {n} steps leaves none; reject the episode instead")
        trailing = n
        while trailing - 1 in doomed:
            trailing -= 1
        if trailing < n:
            state.final = state.steps[trailing].frame_before
        state.steps = [s for i, s in enumerate(state.steps) if i not in doomed]
    elif isinstance(edit, Trim):
        end = n if edit.end is None else edit.end
        if end > n:
            raise EditError(f"trim: end {end} is past the last step (the episode has {n} steps)")
        if edit.start >= end:
            raise EditError(f"trim {edit.start}:{end} keeps no step of {n}")
        if end < n:
            state.final = state.steps[end].frame_before
        state.steps = state.steps[edit.start:end]
    elif isinstance(edit, Merge):
        first = _step(state, edit.step, "merge")
        if edit.step + 1 >= n:
            raise EditError(f"merge: step {edit.step} is the last step; there is no next step to merge it with")
        state.steps[edit.step:edit.step + 2] = [_merge(first, state.steps[edit.step + 1])]
        _check_action(edit, state.steps[edit.step])
    elif isinstance(edit, SetText):
        step = _step(state, edit.step, "set_text")
        if step.action.get("kind") != "type":
            raise EditError(f"set_text: step {edit.step} is a {step.action.get('kind')} step, not a type step")
        state.steps[edit.step] = step.model_copy(update={"action": {**step.action, "text": edit.text}})
        _check_action(edit, state.steps[edit.step])
    elif isinstance(edit, Mistake):
        state.steps[edit.step] = _with_info(_step(state, edit.step, "mistake"), "mistake", edit.value)
    elif isinstance(edit, Note):
        state.steps[edit.step] = _with_info(_step(state, edit.step, "note"), "note", edit.text)
    elif isinstance(edit, Notes):
        state.notes = edit.text or None


def _check_action(edit: Edit, step: StepRecord) -> None:
    """The one step an op changed the action of (merge, set_text) still holds a valid action;
    the others were valid when the original was kept (it is read strictly)."""
    try:
        action_from_dict(step.action)
    except ActionError as exc:
        raise EditError(f"{edit.op}: the result is not a valid action: {exc}") from None


# ---------------------------------------------------------------------------------- files


def is_edited(path: str | Path) -> bool:
    """True when the episode has been edited (its original is kept beside it)."""
    return (Path(path) / ORIGINAL_EPISODE_FILE).is_file()


def read_edits(path: str | Path) -> list[EditEntry]:
    """The edits applied to the episode, oldest first (empty when it was never edited)."""
    file = Path(path) / EDITS_FILE
    if not file.is_file():
        return []
    entries = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            entries.append(EditEntry(edit=parse_edit(data["edit"]), by=str(data["by"]), at=str(data["at"])))
        except (ValueError, KeyError, TypeError) as exc:
            raise EpisodeFormatError(file, f"not an edit: {exc}", line=number) from None
    return entries


def _source_state(folder: Path) -> tuple[_State, int]:
    """The original steps (frame paths as the original names them), and how many there were."""
    if not is_edited(folder):
        episode = read_episode(folder)
        return _State(steps=list(episode.steps), final=episode.final_frame,
                      notes=_notes_of(episode.meta)), len(episode.steps)
    try:
        meta = EpisodeMeta.model_validate_json((folder / ORIGINAL_EPISODE_FILE).read_text(encoding="utf-8"))
        steps = [StepRecord.model_validate_json(line) for line in
                 (folder / ORIGINAL_STEPS_FILE).read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, ValidationError) as exc:
        raise EpisodeFormatError(folder / ORIGINAL_PREFIX, f"the kept original is unreadable: {exc}") from None
    final = frame_path(len(steps), meta.frame_format)
    present = (folder / ORIGINAL_FRAMES_DIR / Path(final).name).is_file()
    return _State(steps=steps, final=final if present else None, notes=_notes_of(meta)), len(steps)


def _notes_of(meta: EpisodeMeta) -> Any:
    notes = NOTES.stored(meta.labels)  # carried over whatever its shape: an edit never drops what it does not read
    return None if notes in (None, "") else notes


def _original_meta(folder: Path) -> EpisodeMeta:
    try:
        return EpisodeMeta.model_validate_json((folder / ORIGINAL_EPISODE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValidationError) as exc:
        raise EpisodeFormatError(folder / ORIGINAL_EPISODE_FILE, f"the kept original is unreadable: {exc}") from None


def _link(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:  # a filesystem without hard links: a copy costs disk, not correctness
        shutil.copy2(src, dst)


def _copy_atomic(src: Path, dst: Path) -> None:
    tmp = dst.with_name(dst.name + TEMP_SUFFIX)
    shutil.copyfile(src, tmp)
    with open(tmp, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(tmp, dst)


def _keep_original(folder: Path) -> None:
    """Keep episode.json, steps.jsonl and every frame as they are now (the first edit)."""
    originals = folder / ORIGINAL_FRAMES_DIR
    if originals.exists():
        shutil.rmtree(originals)  # a copy a crash left half made (the episode file comes last)
    originals.mkdir()
    frames = folder / FRAMES_DIR
    if frames.is_dir():
        for file in sorted(frames.iterdir()):
            if file.is_file() and not file.name.endswith(TEMP_SUFFIX):
                _link(file, originals / file.name)
    _copy_atomic(folder / STEPS_FILE, folder / ORIGINAL_STEPS_FILE)
    _copy_atomic(folder / EPISODE_FILE, folder / ORIGINAL_EPISODE_FILE)


def _swap_frames(folder: Path, new: Path) -> None:
    old = folder / _OLD_FRAMES
    if old.exists():
        shutil.rmtree(old)
    if (folder / FRAMES_DIR).exists():
        os.replace(folder / FRAMES_DIR, old)
    os.replace(new, folder / FRAMES_DIR)
    if old.exists():
        shutil.rmtree(old)


def _fresh_dir(path: Path) -> Path:
    if path.exists():
        shutil.rmtree(path)
    path.mkdir()
    return path


@dataclass
class _Prepared:
    """A derived episode written beside the live one, ready to replace it by renames."""

    frames: Path
    steps: Path
    meta: EpisodeMeta

    def discard(self) -> None:
        shutil.rmtree(self.frames, ignore_errors=True)
        self.steps.unlink(missing_ok=True)


def _prepare(folder: Path, state: _State, entries: list[EditEntry], original_steps: int,
             labels: Mapping[str, Any] | None) -> _Prepared:
    """Write the derived frames (dense, linked from the original) and steps beside the live ones.

    What can fail (a frame missing from the original, a full disk) fails here, before any
    of the episode's files is replaced; the half-written new files are removed.
    """
    meta = read_meta(folder)
    originals = folder / ORIGINAL_FRAMES_DIR
    new = _fresh_dir(folder / _NEW_FRAMES)
    tmp = folder / (STEPS_FILE + TEMP_SUFFIX)
    prepared = _Prepared(frames=new, steps=tmp, meta=meta)

    def place(rel: str | None, name: str) -> str | None:
        if rel is None:
            return None
        _link(originals / Path(rel).name, new / name)
        return f"{FRAMES_DIR}/{name}"

    try:
        lines = []
        for index, step in enumerate(state.steps):
            before = frame_path(index, frame_format_of(step.frame_before) or meta.frame_format) if step.frame_before else None
            after_format = frame_format_of(step.frame_after or "") or meta.frame_format
            record = step.model_copy(update={
                "index": index,
                "frame_before": place(step.frame_before, Path(before).name) if before else None,
                "frame_after": place(step.frame_after, f"{index:06d}.after.{after_format}"),
            })
            lines.append(record.model_dump_json(exclude_defaults=True))
        place(state.final, Path(frame_path(len(state.steps), meta.frame_format)).name)
        tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    except BaseException:
        prepared.discard()
        raise
    new_labels = {**meta.labels, **(labels or {})}
    NOTES.pop(new_labels)
    if state.notes is not None:
        NOTES.set(new_labels, state.notes)
    EDITED.set(new_labels, {"edits": len(entries), "by": entries[-1].by, "at": entries[-1].at, "original_steps": original_steps})
    prepared.meta = meta.model_copy(update={
        "labels": new_labels, "stats": Stats(steps=len(state.steps), duration_s=meta.stats.duration_s)})
    return prepared


def _commit(folder: Path, prepared: _Prepared) -> Episode:
    """Replace the live frames, steps and episode.json (in that order) with the prepared ones."""
    _swap_frames(folder, prepared.frames)
    os.replace(prepared.steps, folder / STEPS_FILE)
    write_meta(folder, prepared.meta)
    return read_episode(folder)


def _derive(folder: Path, entries: list[EditEntry]) -> tuple[_State, int]:
    state, original_steps = _source_state(folder)
    for entry in entries:
        _apply(state, entry.edit)
    return state, original_steps


def _check_editable(folder: Path) -> None:
    meta = read_meta(folder)
    if meta.status == "recording":
        raise EditError(f"{folder}: the episode is still being recorded (status: recording); finish or recover it first")


def _check_labels(labels: Mapping[str, Any] | None) -> None:
    for label in (NOTES, EDITED):
        if labels and label.name in labels:
            raise EditError(f"labels= cannot set {label.name!r}: it is derived from the edits"
                            + (" (use a notes edit)" if label is NOTES else ""))


def _checked(folder: Path, edit: Edit | Mapping[str, Any]) -> tuple[Edit, list[EditEntry], _State, int]:
    """The edit, the log, and the episode derived with the edit applied (nothing is written)."""
    op: Edit = edit if isinstance(edit, BaseModel) else parse_edit(edit)  # type: ignore[assignment]
    _check_editable(folder)
    entries = read_edits(folder)
    state, original_steps = _derive(folder, entries)
    _apply(state, op)
    return op, entries, state, original_steps


def check_edit(path: str | Path, edit: Edit | Mapping[str, Any]) -> Edit:
    """Raise :class:`EditError` when ``edit`` cannot be applied to the episode now; change nothing.

    Lets a caller do what must come first (say, withdraw a review verdict) only for an
    edit that will go through. Returns the parsed edit.
    """
    return _checked(Path(path), edit)[0]


def _log_line(entry: EditEntry) -> str:
    return json.dumps({"edit": entry.edit.model_dump(), "by": entry.by, "at": entry.at}, ensure_ascii=False) + "\n"


def _write_log(folder: Path, entries: list[EditEntry]) -> None:
    tmp = folder / (EDITS_FILE + TEMP_SUFFIX)
    tmp.write_text("".join(_log_line(e) for e in entries), encoding="utf-8")
    os.replace(tmp, folder / EDITS_FILE)


def _drop_kept_original(folder: Path) -> None:
    """Undo :func:`_keep_original` (the episode's own files were never replaced)."""
    (folder / ORIGINAL_EPISODE_FILE).unlink(missing_ok=True)  # the marker first
    (folder / ORIGINAL_STEPS_FILE).unlink(missing_ok=True)
    shutil.rmtree(folder / ORIGINAL_FRAMES_DIR, ignore_errors=True)
    (folder / EDITS_FILE).unlink(missing_ok=True)


def apply_edit(path: str | Path, edit: Edit | Mapping[str, Any], *, by: str,
               labels: Mapping[str, Any] | None = None) -> Episode:
    """Apply one edit to the episode at ``path`` and return the edited episode.

    Args:
        edit: an :data:`Edit` or its JSON form (:func:`parse_edit`); indices refer to the
            episode's current steps.
        by: who edits (kept in the log and in ``labels["edited"]``).
        labels: labels to set in the same write of episode.json (a caller's own state
            that must change together with the steps, such as a withdrawn review); not
            ``notes`` or ``edited``.

    Raises:
        EditError: the edit is malformed or does not fit the episode (nothing is changed).
        EpisodeFormatError: the episode (or its kept original or log) is damaged.
        OSError: writing failed (the log is as it was; a failure before the episode's
            files are replaced leaves them as they were too, one after: :func:`rebuild`).
    """
    folder = Path(path)
    _check_labels(labels)
    op, entries, state, original_steps = _checked(folder, edit)
    entry = EditEntry(edit=op, by=str(by), at=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"))
    first = not is_edited(folder)
    if first:
        read_episode(folder)  # strict: an episode with damaged steps is repaired, not edited
        _keep_original(folder)
    log = folder / EDITS_FILE
    size = log.stat().st_size if log.exists() else 0
    entries.append(entry)
    prepared = None
    try:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(_log_line(entry))
            handle.flush()
            os.fsync(handle.fileno())
        prepared = _prepare(folder, state, entries, original_steps, labels)
    except BaseException:
        if first:
            _drop_kept_original(folder)
        else:
            os.truncate(log, size)
        raise
    try:
        return _commit(folder, prepared)
    except BaseException:
        prepared.discard()
        os.truncate(log, size)
        raise


def rebuild(path: str | Path) -> Episode:
    """Re-derive the episode from its original and its log (after a crash mid-edit).

    With an empty log this is :func:`reset`. An episode never edited is returned as it is.
    """
    folder = Path(path)
    if not is_edited(folder):
        return read_episode(folder)
    entries = read_edits(folder)
    if not entries:
        return reset(folder)
    state, original_steps = _derive(folder, entries)
    prepared = _prepare(folder, state, entries, original_steps, None)
    try:
        return _commit(folder, prepared)
    except BaseException:
        prepared.discard()
        raise


def undo(path: str | Path, *, labels: Mapping[str, Any] | None = None) -> Episode:
    """Drop the last edit; dropping the only one is :func:`reset` (with these ``labels``).

    Args:
        labels: labels to set in the same write of episode.json, as :func:`apply_edit` takes.

    Raises:
        EditError: the episode has no edits.
        OSError: writing failed (the log is as it was).
    """
    folder = Path(path)
    _check_labels(labels)
    entries = read_edits(folder)
    if not is_edited(folder) or not entries:
        raise EditError(f"{folder}: the episode has no edits to undo")
    if len(entries) == 1:
        return reset(folder, labels=labels)
    kept = entries[:-1]
    state, original_steps = _derive(folder, kept)
    prepared = _prepare(folder, state, kept, original_steps, labels)
    try:
        _write_log(folder, kept)
        return _commit(folder, prepared)
    except BaseException:
        prepared.discard()
        _write_log(folder, entries)
        raise


def reset(path: str | Path, *, labels: Mapping[str, Any] | None = None) -> Episode:
    """Give the episode back as it was before its first edit and drop the log and the kept original.

    Without ``labels`` the recorded files come back byte for byte. Labels set after the
    first edit (a review verdict, say) go too: they were set on the original's
    episode.json's successor, which this replaces.

    Args:
        labels: labels merged into the original's episode.json in the same write (a
            caller's own state that must outlive the reset, such as a withdrawn review);
            then episode.json is no longer the original byte for byte (steps and frames are).

    Raises:
        EditError: the episode was never edited.
    """
    folder = Path(path)
    _check_labels(labels)
    if not is_edited(folder):
        raise EditError(f"{folder}: the episode has no edits; it is already the original")
    if labels:
        # Into the kept original before anything else, so that a reset or rebuild after a
        # crash from here on gives these labels back too, never the original's own.
        meta = _original_meta(folder)
        write_meta(folder, meta.model_copy(update={"labels": {**meta.labels, **labels}}))
        _copy_atomic(folder / EPISODE_FILE, folder / ORIGINAL_EPISODE_FILE)
    log = folder / EDITS_FILE
    if log.exists():
        log.unlink()  # first: a crash from here on leaves an empty log, which rebuild() resets
    originals = folder / ORIGINAL_FRAMES_DIR
    new = _fresh_dir(folder / _NEW_FRAMES)
    for file in sorted(originals.iterdir()):
        _link(file, new / file.name)
    _swap_frames(folder, new)
    _copy_atomic(folder / ORIGINAL_STEPS_FILE, folder / STEPS_FILE)
    _copy_atomic(folder / ORIGINAL_EPISODE_FILE, folder / EPISODE_FILE)
    (folder / ORIGINAL_EPISODE_FILE).unlink()  # the marker goes first: the rest is only leftovers
    (folder / ORIGINAL_STEPS_FILE).unlink()
    shutil.rmtree(originals)
    return read_episode(folder)
