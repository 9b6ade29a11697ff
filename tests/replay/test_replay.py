"""gui-agent replay on real Chromium: same outcome, re-anchoring on a moved page, refusal,
selectors, timed mode, bad input."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from gui_agent.cli import main
from gui_agent.episode import read_episode, read_meta
from gui_agent.replay.errors import ReplayError
from gui_agent.replay.replayer import replay_episode
from gui_agent.replay.source import load_source
from tests.paths import REPO
from tests.replay.conftest import (
    MINIWOB,
    REMOVED_SETUP,
    RESTYLED_SETUP,
    SHIFTED_SETUP,
    task_variant,
)

pytestmark = pytest.mark.slow  # real Chromium: seconds per test


def test_oracle_episodes_replay_to_the_same_outcome_with_identical_screens(oracle_episodes, tmp_path: Path) -> None:
    sources = [p for paths in oracle_episodes.values() for p in paths]
    assert main(["replay", *map(str, sources), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    replays = sorted((tmp_path / "out").iterdir())
    assert len(replays) == len(sources)
    for folder in replays:
        meta = read_meta(folder)
        report = meta.labels["replay"]
        original = read_meta(Path(report["source_episode"]))
        assert meta.outcome.success is original.outcome.success is True
        assert meta.task.instruction == original.task.instruction and meta.labels["seed"] == original.labels["seed"]
        assert report["first_divergent_step"] is None and report["refused"] is None
        assert report["min_similarity"] > 0.99 and report["reanchored_steps"] == []
        recorded = [s.action for s in read_episode(Path(report["source_episode"])).steps]
        assert [s.action for s in read_episode(folder).steps][: len(recorded)] == recorded


def test_moved_and_scrolled_page_still_replays_by_re_anchoring(oracle_episodes, tmp_path: Path, capsys) -> None:
    shifted = task_variant(MINIWOB / "click-button.yaml", tmp_path / "shifted.yaml", script=SHIFTED_SETUP, viewport=(320, 300))
    sources = oracle_episodes["click-button"]
    code = main(["replay", *map(str, sources), "--task", str(shifted), "--out", str(tmp_path / "anchored")])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "first divergent step=0" in printed and "re-anchored" in printed
    for folder in (tmp_path / "anchored").iterdir():
        steps = read_meta(folder).labels["replay"]["steps"]
        assert steps[0]["anchor"]["method"] == "template" and steps[0]["moved_by"] is not None
    # the same replays without re-anchoring click where the buttons were, and fail
    assert main(["replay", *map(str, sources), "--task", str(shifted), "--out", str(tmp_path / "blind"), "--no-anchor", "--quiet"]) == 1
    assert not any(read_meta(f).outcome.success for f in (tmp_path / "blind").iterdir())


def test_a_removed_target_stops_the_replay_with_the_reason(oracle_episodes, tmp_path: Path) -> None:
    from gui_agent.envs.factory import make_env

    removed = task_variant(MINIWOB / "click-button.yaml", tmp_path / "removed.yaml", script=REMOVED_SETUP)
    sources = [load_source(path, task_file=removed) for path in oracle_episodes["click-button"]]
    with make_env(sources[0].task) as env:
        results = [replay_episode(source, out_dir=tmp_path / "out", env=env) for source in sources]
    for result in results:
        assert result.refused is not None and "step 0: the recorded target is not on the screen" in result.refused
        assert not result.success
        steps = read_episode(result.episode_path).steps
        assert [s.action["kind"] for s in steps] == ["wait", "wait", "wait", "done"]  # settle waits, nothing clicked
        assert read_meta(result.episode_path).labels["replay"]["refused"] == result.refused


_SELECTOR_OF_POINT = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  const index = Array.from(el.parentElement.children).indexOf(el) + 1;
  const r = el.getBoundingClientRect();
  return {tag: el.tagName.toLowerCase(), selector: `#area > :nth-child(${index})`, bbox: [r.left, r.top, r.width, r.height]};
}"""


def test_a_recorded_selector_finds_a_target_whose_image_changed(oracle_episodes, copy_episode, tmp_path: Path) -> None:
    """A browser-recorder episode carries each click's target selector; replay uses it first."""
    from gui_agent.envs.factory import make_env

    source_path = copy_episode(oracle_episodes["click-button"][0])
    source = load_source(source_path)
    click = source.episode.steps[0].action
    restyled = task_variant(MINIWOB / "click-button.yaml", tmp_path / "restyled.yaml", script=RESTYLED_SETUP, viewport=(320, 300))
    env = make_env(load_source(source_path, task_file=restyled).task)
    try:
        env.reset(seed=source.seed)  # the original page (no setup): where the recorder saw the target
        target = env.call_in_browser(lambda page: page.evaluate(_SELECTOR_OF_POINT, [click["x"], click["y"]]))
        lines = (source_path / "steps.jsonl").read_text().splitlines()
        first = json.loads(lines[0])
        first["target"] = target
        (source_path / "steps.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
        result = replay_episode(load_source(source_path, task_file=restyled), out_dir=tmp_path / "out", env=env)
        # without the selector the restyled button cannot be matched by its picture: refused
        (source_path / "steps.jsonl").write_text("\n".join(lines) + "\n")
        blind = replay_episode(load_source(source_path, task_file=restyled), out_dir=tmp_path / "out", env=env)
    finally:
        env.close()
    assert result.success and result.steps[0].anchor["method"] == "selector"
    assert not blind.success and blind.refused and "not on the screen" in blind.refused


def test_a_renumbered_id_is_re_found_by_the_recorded_tag_and_text(oracle_episodes, copy_episode, tmp_path: Path) -> None:
    """Pages that number ids as they go (jQuery UI's #ui-id-N) give a recorded selector that
    names nothing, or another element, on the replayed page: the element with the recorded
    tag and text is taken instead, and a selector naming an element with other text is not trusted."""
    from gui_agent.envs.factory import make_env

    source_path = copy_episode(oracle_episodes["click-button"][1])
    source = load_source(source_path)
    click = source.episode.steps[0].action
    restyled = task_variant(MINIWOB / "click-button.yaml", tmp_path / "restyled.yaml", script=RESTYLED_SETUP, viewport=(320, 300))
    env = make_env(load_source(source_path, task_file=restyled).task)
    lines = (source_path / "steps.jsonl").read_text().splitlines()
    results = {}
    try:
        env.reset(seed=source.seed)
        target = env.call_in_browser(lambda page: page.evaluate(_SELECTOR_OF_POINT, [click["x"], click["y"]]))
        target["text"] = env.call_in_browser(lambda page: page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).innerText.trim()", [click["x"], click["y"]]))
        for name, selector in (("gone", "#ui-id-99"), ("other", "#query")):
            first = json.loads(lines[0])
            first["target"] = {**target, "selector": selector}
            (source_path / "steps.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
            results[name] = replay_episode(load_source(source_path, task_file=restyled), out_dir=tmp_path / name, env=env)
    finally:
        env.close()
    for name, result in results.items():
        assert result.success, (name, result.refused)
        assert result.steps[0].anchor["method"] == "text", name


def test_timed_mode_keeps_the_recorded_pace(oracle_episodes, copy_episode, tmp_path: Path) -> None:
    source_path = copy_episode(oracle_episodes["enter-text"][0])
    lines = [json.loads(line) for line in (source_path / "steps.jsonl").read_text().splitlines()]
    for index, line in enumerate(lines):
        line["t"] = round(0.6 * index, 3)  # a slow human: 0.6 s between steps
    (source_path / "steps.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    from gui_agent.envs.factory import make_env

    source = load_source(source_path)
    env = make_env(source.task)
    try:
        started = time.monotonic()
        timed = replay_episode(source, out_dir=tmp_path / "timed", mode="timed", env=env)
        timed_s = time.monotonic() - started
        fast = replay_episode(source, out_dir=tmp_path / "fast", env=env)
    finally:
        env.close()
    assert timed.success and timed_s >= 0.6 * (len(lines) - 1)
    # step k starts no earlier than 0.6 k s after the first (its stamp is taken after it ran,
    # on the episode's clock, which starts before the replay's own)
    stamps = [s.t for s in read_episode(timed.episode_path).steps]
    assert all(stamps[k] >= 0.6 * k - 0.05 for k in range(len(lines))), stamps
    fast_stamps = [s.t for s in read_episode(fast.episode_path).steps]
    assert fast.success and fast_stamps[len(lines) - 1] < stamps[len(lines) - 1]  # no waiting in fast mode


def test_bad_input_is_a_clear_error(oracle_episodes, copy_episode, tmp_path: Path, capsys) -> None:
    assert main(["replay", str(tmp_path / "nowhere")]) == 2
    assert "nowhere: no such file or folder" in capsys.readouterr().out  # the episode finder's words, as in every command
    orphan = copy_episode(oracle_episodes["click-button"][0])
    meta = json.loads((orphan / "episode.json").read_text())
    meta["task"]["id"] = "miniwob/no-such-task"
    (orphan / "episode.json").write_text(json.dumps(meta))
    with pytest.raises(ReplayError, match="no task file with id 'miniwob/no-such-task'.*--task FILE"):
        load_source(orphan)
    assert main(["replay", str(orphan), "--out", str(tmp_path / "o")]) == 2
    assert "pass the task file" in capsys.readouterr().out
    desktop_task = REPO / "datasets/tasks/desktop/calc/sum-column.yaml"
    assert main(["replay", str(oracle_episodes["click-button"][0]), "--task", str(desktop_task)]) == 2
    assert "ran in a browser environment but task" in capsys.readouterr().out
    assert main(["replay", str(oracle_episodes["click-button"][0]), "--threshold", "3"]) == 2
    (tmp_path / "a-file").write_text("x")
    assert main(["replay", str(oracle_episodes["click-button"][0]), "--out", str(tmp_path / "a-file")]) == 2
    assert "exists and is not a folder" in capsys.readouterr().out
    assert not (tmp_path / "o").exists()
