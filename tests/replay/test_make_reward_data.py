"""gui-agent make-reward-data end to end: the layout the reward model reads, resume, workers, export."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import datasets
import pytest

from gui_agent.cli import main
from gui_agent.cli.make_reward_data import KINDS
from gui_agent.episode import read_episode
from gui_agent.episode.format import frame_path
from gui_agent.export.reward import (
    read_outcomes,
    read_preferences,
    read_reward_samples,
    resolve_episode,
)
from gui_agent.replay.perturb import VARIANT_KINDS

pytestmark = pytest.mark.slow  # real Chromium

FIRST_KINDS = "click_offset_small,click_offset_large,wrong_text"


def test_the_cli_lists_the_simulators_kinds() -> None:
    assert KINDS == VARIANT_KINDS


def _check_layout(out: Path) -> tuple[list, list, list]:
    samples, outcomes, pairs = list(read_reward_samples(out)), list(read_outcomes(out)), list(read_preferences(out))
    for kind, ids in (("samples", [s.sample_id for s in samples]), ("outcomes", [o.sample_id for o in outcomes]),
                      ("pairs", [p.pair_id for p in pairs])):
        assert len(ids) == len(set(ids)), f"duplicate {kind}"
    episodes = {}
    for outcome in outcomes:
        episode = read_episode(resolve_episode(out, outcome.episode))
        assert episode.meta.outcome.success is outcome.success  # the evaluator's verdict on the executed episode
        assert episode.meta.task.instruction == outcome.instruction
        episodes[outcome.episode] = episode
    for sample in samples:
        episode = episodes[sample.episode]
        step = episode.steps[sample.step_index]
        assert step.action == sample.action
        frame_format = episode.meta.frame_format
        assert (episode.path / frame_path(sample.step_index, frame_format)).is_file()  # screen before
        assert (episode.path / frame_path(sample.step_index + 1, frame_format)).is_file()  # screen after
        assert sample.reward == {"progress": 1.0, "neutral": 0.5, "harmful": 0.0}[sample.label]
    by_episode = {o.episode: o for o in outcomes}
    for pair in pairs:
        chosen, rejected = by_episode[pair.chosen], by_episode[pair.rejected]
        assert chosen.task_id == rejected.task_id == pair.task_id
        assert (chosen.success and not rejected.success) or (
            chosen.success and rejected.success and chosen.detail["steps"] < rejected.detail["steps"])
    assert sorted(p.name for p in (out / "episodes").iterdir()) == sorted(Path(o.episode).name for o in outcomes)
    return samples, outcomes, pairs


def test_builds_resumes_and_exports(oracle_episodes, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "rd"
    sources = [str(oracle_episodes["enter-text"][1]), str(oracle_episodes["click-button"][1])]
    assert main(["make-reward-data", *sources, "--out", str(out), "--kinds", FIRST_KINDS, "--quiet"]) == 0
    samples, outcomes, pairs = _check_layout(out)
    assert Counter(o.perturbation for o in outcomes) == {None: 2, "click_offset_small": 2, "click_offset_large": 2, "wrong_text": 1}
    assert all(o.success for o in outcomes if o.perturbation in (None, "click_offset_small"))
    assert {s.label for s in samples} >= {"progress", "harmful"}
    assert pairs and any(p.reason.startswith("the task's evaluator accepted") for p in pairs)
    first_ids = {o.sample_id: o.episode for o in outcomes}

    # a torn last line from a killed run is dropped; the rest is resumed, not redone
    with open(out / "reward.jsonl", "a") as handle:
        handle.write('{"sample_id": "torn')
    capsys.readouterr()
    assert main(["make-reward-data", *sources, "--out", str(out), "--quiet"]) == 0
    assert "7 episodes were already done" in capsys.readouterr().out
    samples, outcomes, pairs = _check_layout(out)
    assert {o.sample_id: o.episode for o in outcomes if o.sample_id in first_ids} == first_ids
    assert len(outcomes) == 2 + 9 + 7  # enter-text: every kind; click-button (one click): no text to mistype, nothing to swap
    kinds = Counter(o.perturbation for o in outcomes)
    assert kinds["wrong_text"] == 1 and kinds["recovery"] == 2 and kinds["splice_other"] == 2

    # nothing left to do: a third run executes nothing
    assert main(["make-reward-data", *sources, "--out", str(out), "--quiet"]) == 0
    assert "0 variants executed" in capsys.readouterr().out
    assert len(list(read_outcomes(out))) == len(outcomes)

    export = tmp_path / "export"
    assert main(["export", str(out), "--format", "reward", "--out", str(export), "--quiet"]) == 0
    rows = datasets.load_dataset(str(export), "reward", split="train", cache_dir=str(tmp_path / "cache"))
    assert rows.num_rows == len(samples) and set(rows["label"]) <= {"progress", "neutral", "harmful"}
    episode_rows = datasets.load_dataset(str(export), "outcomes", split="train", cache_dir=str(tmp_path / "cache"))
    assert sorted(episode_rows["sample_id"]) == sorted(o.sample_id for o in outcomes)
    assert all(row["final_image"] is not None for row in episode_rows)
    pair_rows = datasets.load_dataset(str(export), "preferences", split="train", cache_dir=str(tmp_path / "cache"))
    assert pair_rows.num_rows == len(pairs)
    ids = {Path(o.episode).name for o in outcomes}
    assert set(pair_rows["chosen_episode_id"]) | set(pair_rows["rejected_episode_id"]) <= ids


def test_workers_give_the_same_outcomes_as_one_process(oracle_episodes, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    sources = [str(oracle_episodes["click-button"][2]), str(oracle_episodes["click-checkboxes"][0])]
    kinds = "click_offset_small,click_offset_large,skip_step"
    assert main(["make-reward-data", *sources, "--out", str(tmp_path / "one"), "--kinds", kinds, "--quiet"]) == 0
    assert main(["make-reward-data", *sources, "--out", str(tmp_path / "two"), "--kinds", kinds, "--workers", "2", "--quiet"]) == 0
    one = {(o.sample_id, o.success) for o in read_outcomes(tmp_path / "one")}
    two = {(o.sample_id, o.success) for o in read_outcomes(tmp_path / "two")}
    assert one == two and len(one) == 2 * 4
    labels = lambda d: sorted((s.sample_id, s.label) for s in read_reward_samples(d))
    assert labels(tmp_path / "one") == labels(tmp_path / "two")
    _check_layout(tmp_path / "two")


@pytest.mark.slow
def test_ray_actors_build_the_same_reward_data(oracle_episodes, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """--ray runs the sources on the evaluation's RayPool (a local Ray started and shut down by it)."""
    import ray

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    sources = [str(oracle_episodes["click-button"][3]), str(oracle_episodes["enter-text"][0])]
    kinds = "click_offset_small,click_offset_large"
    assert main(["make-reward-data", *sources, "--out", str(tmp_path / "ray"), "--kinds", kinds,
                 "--ray", "--workers", "2", "--quiet"]) == 0
    assert not ray.is_initialized()  # started by the pool and shut down by it
    outcomes = {(Path(o.group or "").name, o.perturbation): o.success for o in read_outcomes(tmp_path / "ray")}
    names = [Path(s).name for s in sources]
    assert set(outcomes) == {(n, kind) for n in names for kind in (None, "click_offset_small", "click_offset_large")}
    assert all(ok for (_, kind), ok in outcomes.items() if kind != "click_offset_large")
    assert outcomes[(names[0], "click_offset_large")] is False  # click-button: the one click misses
    _check_layout(tmp_path / "ray")


def test_bad_input_is_refused_before_anything_is_written(oracle_episodes, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "rd"
    assert main(["make-reward-data", str(tmp_path), "--out", str(out)]) == 2
    assert "not an episode folder" in capsys.readouterr().out
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "episode.json").write_text("{not json")
    assert main(["make-reward-data", str(oracle_episodes["click-button"][0]), str(broken), "--out", str(out)]) == 2
    assert "not a readable episode" in capsys.readouterr().out
    assert main(["make-reward-data", str(oracle_episodes["click-button"][0]), "--out", str(out), "--workers", "0"]) == 2
    (tmp_path / "a-file").write_text("x")
    assert main(["make-reward-data", str(oracle_episodes["click-button"][0]), "--out", str(tmp_path / "a-file")]) == 2
    assert "exists and is not a folder" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        main(["make-reward-data", str(oracle_episodes["click-button"][0]), "--out", str(out), "--kinds", "typo"])
    assert exit_info.value.code == 2 and "unknown variant kind(s) typo" in capsys.readouterr().err
    assert not out.exists()


def test_a_killed_build_resumes_without_redoing_or_duplicating(oracle_episodes, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import os
    import signal
    import subprocess
    import sys
    import time

    from gui_agent.envs.browser.chromium import kill_orphaned_browsers

    out = tmp_path / "rd"
    command = [sys.executable, "-m", "gui_agent", "make-reward-data", str(oracle_episodes["enter-text"][0]),
               "--out", str(out), "--quiet"]
    process = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if (out / "outcomes.jsonl").is_file() and len((out / "outcomes.jsonl").read_text().splitlines()) >= 3:
                break
            time.sleep(0.05)
        assert process.poll() is None, "the build finished before it could be killed"
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)  # the build and the browser it started
        process.wait(10)
        kill_orphaned_browsers(process.pid)
    before = {o.sample_id: o.episode for o in read_outcomes(out)}
    assert 3 <= len(before) < 9
    assert main(["make-reward-data", str(oracle_episodes["enter-text"][0]), "--out", str(out), "--quiet"]) == 0
    _, outcomes, _ = _check_layout(out)
    assert len(outcomes) == 9 and {o.sample_id: o.episode for o in outcomes if o.sample_id in before} == before  # no donor: no splice
    assert not (out / ".work").exists()
