"""Episode labels: the declared keys, their typed access, the documentation's table, and
undeclared keys kept through every rewrite of episode.json."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from gui_agent.actions import Click, Type
from gui_agent.episode import apply_edit, read_episode, recover, reset
from gui_agent.episode.format import EPISODE_FILE
from gui_agent.episode.labels import EDITED, LABELS, NOTES, PAGE_ORIGIN, RECOVERY_PROBLEMS, REVIEW, SEED
from gui_agent.recorder.edit import relabel
from tests.paths import REPO
from tests.synthetic_episodes import write_synthetic

#: What a user or another version of gui-agent may have put in labels: nothing here declares these.
UNDECLARED = {"quality": "low", "session": 3, "vendor": {"batch": [1, 2, {"ü": None}], "ok": True}}


def _doc_rows() -> list[list[str]]:
    """The rows of the table under "## Labels" in docs/trajectory-format.md."""
    text = (REPO / "docs" / "trajectory-format.md").read_text(encoding="utf-8")
    section = text.split("\n## Labels\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("| ")][1:]  # the header left out
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines]


def _declared_rows() -> list[list[str]]:
    return [[f"`{label.name}`", f"`{label.type_name}`", label.written_by, label.meaning] for label in LABELS.values()]


def test_the_documentation_lists_exactly_the_declared_labels() -> None:
    expected = "\n".join("| " + " | ".join(row) + " |" for row in _declared_rows())
    assert _doc_rows() == _declared_rows(), f"docs/trajectory-format.md's labels table should be:\n{expected}"


def _is_labels(node: ast.expr) -> bool:
    """``labels``, ``meta.labels``, ``self.config.labels``: an expression that names a labels object."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name == "labels" or name.endswith("_labels")


def _spelled_keys(tree: ast.AST) -> list[tuple[int, str]]:
    """Declared label names written as strings where labels are read or built."""
    found = []
    for node in ast.walk(tree):
        keys: list[ast.expr | None] = []
        if isinstance(node, ast.Subscript) and _is_labels(node.value):
            keys = [node.slice]  # labels["seed"]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_labels(node.func.value) and node.args:
            keys = [node.args[0]]  # labels.get("seed"), labels.pop("notes")
        elif isinstance(node, ast.keyword) and node.arg == "labels" and isinstance(node.value, ast.Dict):
            keys = list(node.value.keys)  # finish(labels={"notes": ...})
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            values = [node.value.body, node.value.orelse] if isinstance(node.value, ast.IfExp) else [node.value]
            if any(_is_labels(t) for t in targets):  # labels = {"seed": ...} (if ... else ...)
                keys = [key for value in values if isinstance(value, ast.Dict) for key in value.keys]
        found += [(node.lineno, key.value) for key in keys
                  if isinstance(key, ast.Constant) and key.value in LABELS]  # type: ignore[attr-defined]
    return found


def test_no_code_spells_a_declared_label_by_its_name() -> None:
    # Each would be a second definition of a key that gui_agent/episode/labels.py declares.
    offenders = [f"{path.relative_to(REPO)}:{line}: {key!r}"
                 for folder in ("gui_agent", "recorder", "replay", "models", "station", "scripts")
                 for path in sorted((REPO / folder).rglob("*.py"))
                 for line, key in _spelled_keys(ast.parse(path.read_text(encoding="utf-8")))]
    assert not offenders, "read and write labels through gui_agent.episode.labels:\n" + "\n".join(offenders)


def test_get_is_typed_and_set_keeps_the_key_in_place() -> None:
    labels = {"seed": "three", "page_origin": [0, 87], "review": {"decision": "accepted"}, "notes": ["not", "text"]}
    assert SEED.get(labels) is None and SEED.get(labels, 0) == 0 and SEED.stored(labels) == "three"
    assert PAGE_ORIGIN.get(labels) == [0, 87] and PAGE_ORIGIN.get({"page_origin": [0, "87"]}) is None
    assert REVIEW.get(labels) == {"decision": "accepted"} and REVIEW.get({"review": None}) is None
    assert NOTES.get(labels) is None and NOTES.get({}, "") == ""
    SEED.set(labels, 3)
    assert list(labels) == ["seed", "page_origin", "review", "notes"] and labels["seed"] == 3
    assert NOTES.pop(labels) == ["not", "text"] and NOTES.pop(labels) is None
    assert SEED.item(7) == {"seed": 7}


def test_undeclared_labels_survive_relabel_edits_and_reset(tmp_path: Path) -> None:
    folder = write_synthetic(tmp_path, "ep", [Click(10, 20), Type("abc"), Click(30, 40)], labels={**UNDECLARED, "seed": 4})
    assert read_episode(folder).meta.labels == {**UNDECLARED, "seed": 4}

    relabel(folder, labels=REVIEW.item({"decision": "accepted", "by": "reviewer"}), notes="fine")
    labels = read_episode(folder).meta.labels
    assert labels == {**UNDECLARED, "seed": 4, "review": {"decision": "accepted", "by": "reviewer"}, "notes": "fine"}
    before_edits = (folder / EPISODE_FILE).read_bytes()

    apply_edit(folder, {"op": "delete", "steps": [1]}, by="reviewer")
    labels = read_episode(folder).meta.labels
    assert {key: labels[key] for key in UNDECLARED} == UNDECLARED and SEED.get(labels) == 4
    assert EDITED.get(labels) is not None and EDITED.get(labels)["original_steps"] == 3
    reset(folder)
    assert (folder / EPISODE_FILE).read_bytes() == before_edits


def test_undeclared_labels_survive_recovery(tmp_path: Path) -> None:
    folder = write_synthetic(tmp_path, "crashed", [Click(1, 2), Click(3, 4)], labels=UNDECLARED, finalize=False)
    with open(folder / "steps.jsonl", "a", encoding="utf-8") as handle:
        handle.write('{"index": 2, "t": 0.5, "act')  # a line cut by the crash
    episode = recover(folder)
    assert episode.meta.status == "recovered"
    assert {key: episode.meta.labels[key] for key in UNDECLARED} == UNDECLARED
    assert RECOVERY_PROBLEMS.get(episode.meta.labels)


def test_a_version_1_episode_with_undeclared_labels_reads_and_keeps_them(tmp_path: Path) -> None:
    folder = write_synthetic(tmp_path, "old", [Click(5, 6)], labels={})
    meta = json.loads((folder / EPISODE_FILE).read_text(encoding="utf-8"))
    meta.update(format_version=1, labels={**UNDECLARED, "seed": 2, "notes": "written by version 1"})
    (folder / EPISODE_FILE).write_text(json.dumps(meta), encoding="utf-8")
    episode = read_episode(folder)
    assert episode.meta.format_version == 1 and SEED.get(episode.meta.labels) == 2
    assert NOTES.get(episode.meta.labels) == "written by version 1"
    relabel(folder, success=False)
    rewritten = json.loads((folder / EPISODE_FILE).read_text(encoding="utf-8"))
    assert rewritten["labels"] == meta["labels"] and rewritten["format_version"] == 1
