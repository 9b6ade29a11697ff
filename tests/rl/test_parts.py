"""The RL run's bookkeeping: the scheduler's groups and lag bound, the group buffer's drops,
reward mixes, frames dropped from a real episode, and the run's report files."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from gui_agent.actions import Click, Done
from gui_agent.episode import ActorInfo, EpisodeWriter, Outcome, TaskInfo
from gui_agent.episode.format import EnvInfo, ScreenSize
from gui_agent.episode.reader import read_episode
from gui_agent.models.rl.frames import drop_frames
from gui_agent.models.rl.groups import GroupBuffer, Rollout, TrainGroup, group_of, still_fresh
from gui_agent.models.rl.report import per_task, plot_curve
from gui_agent.models.rl.rewards import RewardScorer, RewardSpec, parse_mix
from gui_agent.models.rl.scheduler import RolloutItem, RolloutScheduler, TaskRef
from gui_agent.models.rl.worker import ROLLOUT_KEY

TASKS = [TaskRef("/t/a.yaml", "a", 30.0), TaskRef("/t/b.yaml", "b", 30.0)]


def test_the_scheduler_hands_out_groups_with_the_newest_weights_and_bounds_what_is_open() -> None:
    scheduler = RolloutScheduler(TASKS, group_size=3, max_groups_out=2, seed=1, seed_base=500, keep_frames_every=2)
    assert len(scheduler) == 1  # never runs out while training goes on
    first = [scheduler.take(None) for _ in range(3)]
    assert all(isinstance(i, RolloutItem) for i in first)
    assert len({(i.task_id, i.seed, i.group) for i in first}) == 1 and first[0].seed == 500  # one task, one seed: a group
    assert [i.repeat for i in first] == [0, 1, 2] and [i.keep_frames for i in first] == [True, False, True]
    scheduler.publish(4, "/w/v4.pt")
    second = [scheduler.take(None) for _ in range(3)]
    assert {(i.version, i.weights) for i in second} == {(4, "/w/v4.pt")} and second[0].seed == 501
    assert scheduler.take(None) is None  # two groups open: the actors wait for the learner
    scheduler.group_closed(0)
    third = scheduler.take(None)
    assert third is not None and third.group == 2
    # A rollout given back (its worker was lost) runs again while its group is open, not after.
    scheduler.add(second[1], front=True)
    assert scheduler.take("nothing").key == second[1].key
    scheduler.group_closed(1)
    scheduler.add(second[2])
    assert all(i.group == 2 for i in (scheduler.take(None), scheduler.take(None)))
    scheduler.close()
    assert len(scheduler) == 0 and scheduler.take(None) is None
    scheduler.abort()
    with pytest.raises(RuntimeError):
        len(scheduler)


def test_the_scheduler_draws_the_tasks_still_being_learnt_more_often() -> None:
    scheduler = RolloutScheduler(TASKS, group_size=1, max_groups_out=1000, seed=0)
    for _ in range(50):
        scheduler.observe("a", True)  # 'a' is solved; 'b' is at 50 %
    drawn = Counter(scheduler.take(None).task_id for _ in range(400))
    assert drawn["b"] > 4 * drawn["a"] > 0


def _record(group: int, member: int, reward: float | None, version: int = 0, **extra) -> dict:
    record = {"key": f"t#g{group:06d}r{member}", "task_id": "t", "group": group, "repeat": member, "version": version,
              "success": None if reward is None else reward > 0, "reward": reward or 0.0, **extra}
    if reward is not None:
        record[ROLLOUT_KEY] = [f"step-{group}-{member}"]
    return record


def test_the_buffer_drops_broken_stale_and_late_rollouts_and_never_waits_past_its_deadline() -> None:
    buffer = GroupBuffer(4, max_lag=1, deadline_s=10.0)
    buffer.add(_record(0, 0, 1.0), now=0.0)
    buffer.add(_record(0, 1, 0.0), now=1.0)
    buffer.add(_record(0, 2, None, fault="hung", termination="env_error"), now=2.0)
    assert buffer.ready(0, now=5.0) == []  # one member still out, deadline not reached
    [group] = buffer.ready(0, now=10.5)  # past the deadline with two usable: used without the slow one
    assert [r.reward for r in group.rollouts] == [1.0, 0.0] and group.advantages == [1.0, -1.0]
    assert buffer.closed_groups() == [0] and buffer.closed_groups() == []
    buffer.add(_record(0, 3, 1.0), now=11.0)  # the slow one, after its group was used
    # A group of four whose first member acted with weights two versions old.
    for member, (reward, version) in enumerate([(1.0, 0), (0.0, 2), (1.0, 2), (0.0, 2)]):
        buffer.add(_record(1, member, reward, version), now=12.0)
    [fresh] = buffer.ready(2, now=12.0)
    assert len(fresh.rollouts) == 3
    # A group with one usable rollout has no baseline.
    buffer.add(_record(2, 0, 1.0, version=2), now=13.0)
    for member in (1, 2, 3):
        buffer.add(_record(2, member, None, fault="dead", termination="env_error"), now=13.0)
    assert buffer.ready(2, now=13.0) == []
    buffer.add({"key": "t#g000009r0", "task_id": "t", "success": None, "fault": "worker_lost", "termination": "env_error"})
    assert dict(buffer.dropped) == {"hung": 1, "late": 1, "stale": 1, "small_group": 1, "dead": 3, "worker_lost": 1}
    assert group_of({"key": "x/y#g000042r3"}) == 42


def test_a_group_whose_rewards_are_all_equal_is_not_handed_to_the_learner() -> None:
    buffer = GroupBuffer(3, max_lag=1, deadline_s=10.0)
    for group, rewards in ((0, (1.0, 1.0, 1.0)), (1, (0.0, 0.0, 0.0)), (2, (1.0, 0.0, 1.0))):
        for member, reward in enumerate(rewards):
            buffer.add(_record(group, member, reward), now=0.0)
    assert [g.number for g in buffer.ready(0, now=0.0)] == [2]  # the two uniform groups teach nothing
    assert buffer.closed_groups() == [0, 1, 2] and buffer.dropped == {"uniform": 6}  # room for new groups at once
    kept = GroupBuffer(3, max_lag=1, deadline_s=10.0, skip_uniform=False)
    for member in range(3):
        kept.add(_record(0, member, 1.0), now=0.0)
    assert [g.informative for g in kept.ready(0, now=0.0)] == [False]
    # A mastered suite: after `uniform_patience` uniform groups in a row they flow again, so updates go on.
    patient = GroupBuffer(2, max_lag=1, deadline_s=10.0, uniform_patience=2)
    for group, rewards in enumerate([(1.0, 1.0)] * 3 + [(1.0, 0.0), (1.0, 1.0)]):
        for member, reward in enumerate(rewards):
            patient.add(_record(group, member, reward), now=0.0)
    assert [g.number for g in patient.ready(0, now=0.0)] == [2, 3]  # the third in a row, then one that differs
    assert patient.dropped == {"uniform": 6}  # groups 0, 1 and (the streak broken) 4


def test_groups_that_waited_for_an_update_lose_what_became_stale() -> None:
    rollouts = [Rollout({"reward": r, "version": v}, []) for r, v in [(1, 0), (0, 1), (1, 1), (0, 1)]]
    dropped: Counter[str] = Counter()
    [group] = still_fresh([TrainGroup(0, "t", rollouts, [0.0] * 4)], version=2, max_lag=1, dropped=dropped)
    assert len(group.rollouts) == 3 and dropped == {"stale": 1}


def test_reward_mixes_are_parsed_and_refused_as_a_user_would_write_them() -> None:
    assert parse_mix(None).weights == {"evaluator": 1.0}
    assert parse_mix(None, reward_model="ckpt").weights == {"reward-model": 1.0}
    assert parse_mix(None, judge="hf:x").weights == {"judge": 1.0}
    mix = parse_mix("evaluator=0.5,reward_model=0.5", reward_model="ckpt", reward_model_scores="both")
    assert mix.weights == {"evaluator": 0.5, "reward-model": 0.5} and mix.learned == ["reward-model"]
    for text, problem in [("evaluater", "unknown source"), ("evaluator=x", "must be a number"), ("evaluator=0", "> 0"),
                          ("reward-model", "needs --reward-model"), ("judge", "needs --judge")]:
        with pytest.raises(ValueError, match=problem):
            parse_mix(text)


def _episode(tmp_path: Path, steps: int = 2) -> Path:
    writer = EpisodeWriter.create(tmp_path, task=TaskInfo(id="t", instruction="Click OK"),
                                  env=EnvInfo(kind="browser", screen=ScreenSize(width=160, height=210)),
                                  actor=ActorInfo(type="policy", name="pixel-rl:v0"))
    screen = np.zeros((210, 160, 3), dtype=np.uint8)
    for index in range(steps):
        writer.add_step(Click(10 * index, 20), frame_before=screen + index)
    writer.add_step(Done(), frame_before=screen)
    writer.add_final_frame(screen)
    writer.finalize(Outcome(success=True, reward=1.0, termination="done"))
    return writer.path


def test_dropping_frames_leaves_a_valid_episode_without_screens(tmp_path: Path) -> None:
    path = _episode(tmp_path)
    assert drop_frames(path) == 4
    episode = read_episode(path)  # strict: a step naming a missing frame would fail here
    assert len(episode.steps) == 3 and all(s.frame_before is None for s in episode.steps)
    assert episode.final_frame is None and not (path / "frames").exists()
    assert episode.meta.outcome.success is True


def test_the_evaluator_source_clips_miniwob_rewards_and_learned_verdicts_are_compared(tmp_path: Path) -> None:
    scorer = RewardScorer(RewardSpec())
    failed = scorer.score(_episode(tmp_path), evaluator_reward=-1.0, evaluator_success=False)
    assert failed["reward"] == 0.0 and failed["success"] is False and failed["disagreement"] == {}
    with pytest.raises(ValueError, match="no reward source"):
        scorer.score(_episode(tmp_path), evaluator_reward=None, evaluator_success=None)


def test_the_report_counts_success_per_task_and_the_learned_rewards_false_successes(tmp_path: Path) -> None:
    records = ([{"task_id": "a", "success": False, "reward": 0.0}] * 4 + [{"task_id": "a", "success": True, "reward": 1.0}] * 4
               + [{"task_id": "b", "success": None, "env_failures": [{"fault": "dead"}]}]
               + [{"task_id": "b", "success": True, "reward": 1.0, "learned": {"reward-model": True}, "evaluator_success": True},
                  {"task_id": "b", "success": False, "reward": 0.9, "learned": {"reward-model": True}, "evaluator_success": False,
                   "disagreement": {"reward-model": True}}])
    figures = per_task(records)
    a, b = figures["tasks"]["a"], figures["tasks"]["b"]
    assert a["success"] == 0.5 and a["success_first_quarter"] == 0.0 and a["success_last_quarter"] == 1.0
    assert b["unscored"] == 1 and b["env_failures"] == 1 and b["learned_success_evaluator_failed"] == 1 and b["hacking_rate"] == 0.5
    updates = [{"update": i, "env_steps": 10 * i, "success_rate": i / 10, "suite_success": i / 10, "mean_reward": 0.1, "kl": 0.01 * i,
                "entropy": 1.0} for i in range(1, 8)]
    path = plot_curve(updates, tmp_path / "curve.png")
    from PIL import Image

    assert Image.open(path).size[0] > 500
    json.dumps(figures)  # plain JSON
