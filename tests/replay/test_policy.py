"""The replay policy's decisions on given screens (no environment): play, re-anchor, refuse."""

from __future__ import annotations

from pathlib import Path

from gui_agent.actions import Click, Done, Scroll, Type, Wait
from gui_agent.envs.base import Observation
from gui_agent.episode import (
    ActorInfo,
    EnvInfo,
    Outcome,
    ScreenSize,
    read_episode,
)
from gui_agent.policy import TaskContext
from gui_agent.replay.policy import AnchoredReplayPolicy
from tests.replay.test_anchor import _screen
from tests.synthetic_episodes import write_synthetic


def _episode(tmp_path: Path, actions, frames) -> Path:  # type: ignore[no-untyped-def]
    return write_synthetic(
        tmp_path, None, actions, task_id="t/x", instruction="do it", task_source="human",
        env=EnvInfo(kind="browser", screen=ScreenSize(width=320, height=240)), actor=ActorInfo(type="human", name="a"),
        labels={}, frames=frames, thoughts=[None] * len(actions), step_details=False, final=frames[-1],
        outcome=Outcome(success=True, reward=1.0, termination="done"),
    )


def test_moves_clicks_keeps_typing_and_refuses_a_lost_click_but_not_a_scroll(tmp_path: Path) -> None:
    recorded = _screen(at=(100, 80))
    path = _episode(tmp_path, [Click(130, 92), Type("hi"), Scroll(300, 200, dy=3), Click(300, 30)], [recorded] * 4)
    policy = AnchoredReplayPolicy(read_episode(path))
    policy.reset(TaskContext(task_id="t/x", instruction="do it"))
    live = _screen(360, 300, at=(157, 141))  # the page moved and grew
    see = lambda: policy.act(Observation(screenshot=live)).actions
    assert see() == [Click(187, 153)]
    assert see() == [Type("hi")]
    assert see() == [Scroll(300, 200, dy=3)]  # blank spot, nothing to find: a wheel turn is played as recorded
    # the target is not there (yet): the page gets three moments to settle, then the click is refused
    assert [see(), see(), see()] == [[Wait(0.1)], [Wait(0.3)], [Wait(0.6)]]
    assert see() == [Done(success=False)]
    assert policy.refused and "step 3" in policy.refused and "featureless" in policy.refused
    assert [r.moved_by for r in policy.reports[:1]] == [(57, 61)]
    assert policy.reports[0].similarity is not None and policy.reports[0].similarity < 0.8
