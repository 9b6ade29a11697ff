"""A human-paced recording from the real recorder replays to success, in page pixels.

The speed-up over the recorded pace is measured by ``scripts/bench_replay.py``, not here.

``gui-agent record --browser miniwob:enter-text --seed 3`` records on its own Xvfb while
xdotool plays a person (a pause to read, 0.5-1.5 s between actions, ~6.7 characters a
second); the recording's points are screen pixels of a headed Chromium window, the
replay runs in the headless MiniWoB++ environment from the same task file and seed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.actions import Click, Type
from gui_agent.cli import main
from gui_agent.episode import read_episode
from gui_agent.replay.replayer import replay_episode
from gui_agent.replay.simulator import Simulator
from gui_agent.replay.source import load_source
from tests.replay.human_player import MINIWOB_TASKS, record_human, recorded_duration_s


@pytest.fixture(scope="module")
def human_recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return record_human("enter-text", 3, tmp_path_factory.mktemp("human"))


@pytest.mark.slow
def test_a_human_paced_recording_replays_to_success_from_the_task_start(human_recording: Path, tmp_path: Path) -> None:
    recorded = read_episode(human_recording)
    # the recorder named the task and seed, and the page's own reward is the verdict
    assert recorded.meta.task.id == "miniwob/enter-text" and recorded.meta.labels["seed"] == 3
    assert recorded.meta.outcome.success is True and recorded.meta.labels["miniwob"]["verdict"]["raw_reward"] == 1
    assert recorded.meta.env.screen.width == 800  # the whole recorded screen, not the page
    source = load_source(human_recording)
    assert source.task.id == "miniwob/enter-text" and source.seed == 3
    # screen pixels -> page pixels: every recorded click lands inside its recorded element
    assert source.origin is not None and source.origin[1] > 0  # the window's toolbar is above the page
    for action, step in zip(source.actions, recorded.steps):
        if isinstance(action, Click):
            x, y, w, h = step.target["bbox"]
            assert x <= action.x <= x + w and y <= action.y <= y + h
    assert [type(a) for a in source.actions] == [Click, Type, Click]

    result = replay_episode(source, out_dir=tmp_path / "replay")
    assert result.success and result.refused is None, result.refused
    # the keyframes were cut to the page: the live page matches what the person saw
    assert result.first_divergent_step is None and min(r.similarity for r in result.steps) > 0.9
    # played blind (recorded points moved to the page, no re-finding) it succeeds too
    blind = replay_episode(source, out_dir=tmp_path / "blind", anchoring=False)
    assert blind.success
    assert recorded_duration_s(human_recording) > 2.5  # a person's pace: reading, aiming, typing


def _env(source):  # type: ignore[no-untyped-def]
    from gui_agent.envs.factory import make_env

    return make_env(source.task)


@pytest.mark.slow
def test_the_simulator_varies_a_human_recording_in_page_pixels(human_recording: Path, tmp_path: Path) -> None:
    source = load_source(human_recording)
    assert source.screen == (160, 210)  # offsets are drawn on the page, not on the recorded screen
    with _env(source) as env:
        simulator = Simulator(source, env=env, seed=0)
        small = simulator.run(simulator.plan("click_offset_small"), tmp_path / "variants")
        wrong = simulator.run(simulator.plan("wrong_text"), tmp_path / "variants")
    assert small.run.success and not wrong.run.success
    assert any(v.label == "harmful" for v in wrong.verdicts)


def test_record_names_a_miniwob_task_or_says_what_is_wrong(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "rec"
    assert main(["record", "--browser", "miniwob:enter-txt", "--out", str(out)]) == 2
    assert "enter-text" in capsys.readouterr().err  # close matches named
    assert main(["record", "--browser", "https://example.invalid/", "--seed", "3", "--task", "t", "--out", str(out)]) == 2
    assert "--seed applies to MiniWoB++ pages only" in capsys.readouterr().err
    assert not out.exists()
    assert (MINIWOB_TASKS / "enter-text.yaml").is_file()
