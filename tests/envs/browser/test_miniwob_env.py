"""MiniWobEnv against real Chromium and the pages the `miniwob` package ships."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from gui_agent.actions import Click, Done, Wait
from gui_agent.envs.browser.miniwob import TASK_HEIGHT, TASK_WIDTH, MiniWobEnv
from gui_agent.envs.browser.miniwob_pages import miniwob_task_names as list_tasks

BBOX_JS = "(sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }"


def center(box: list[float]) -> tuple[int, int]:
    x, y, w, h = box
    return int(x + w / 2), int(y + h / 2)


@pytest.fixture(scope="module")
def click_test() -> Iterator[MiniWobEnv]:
    env = MiniWobEnv(task="click-test")
    try:
        yield env
    finally:
        env.close()


@pytest.fixture(scope="module")
def click_button() -> Iterator[MiniWobEnv]:
    env = MiniWobEnv(task="click-button", observe_dom=True, reload_every_reset=True)
    try:
        yield env
    finally:
        env.close()


def subbtn_box(env: MiniWobEnv) -> list[float]:
    return env.call_in_browser(lambda page: page.evaluate(BBOX_JS, "#subbtn"))


def test_reset_gives_the_task_area_with_its_instruction(click_test: MiniWobEnv) -> None:
    obs, info = click_test.reset(seed=0)
    assert obs.instruction == "Click the button."
    assert obs.screenshot.shape == (TASK_HEIGHT, TASK_WIDTH, 3) and obs.screenshot.dtype == np.uint8
    # The yellow instruction bar starts at page pixel (0, 0): screenshot pixels are page pixels.
    assert tuple(obs.screenshot[0, 0]) == (255, 255, 0) and tuple(obs.screenshot[40, 150]) == (255, 255, 0)
    assert info["seed"] == 0 and info["task"] == "click-test"
    assert click_test.env_info().app == "miniwob:click-test"
    assert click_test.evaluate_js("core.EPISODE_MAX_TIME") == 2**31 - 1  # time limit disabled


def test_same_seed_same_layout_different_seed_different_layout(click_test: MiniWobEnv) -> None:
    first, _ = click_test.reset(seed=7)
    box7 = subbtn_box(click_test)
    other, _ = click_test.reset(seed=8)
    box8 = subbtn_box(click_test)
    again, _ = click_test.reset(seed=7)
    assert subbtn_box(click_test) == box7 != box8
    assert np.array_equal(first.screenshot, again.screenshot)
    assert not np.array_equal(first.screenshot, other.screenshot)


def test_clicking_the_button_gives_reward_1_and_terminates(click_test: MiniWobEnv) -> None:
    click_test.reset(seed=3)
    obs, reward, terminated, truncated, info = click_test.step(Click(*center(subbtn_box(click_test))))
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["done"] is True and info["raw_reward"] == 1
    with pytest.raises(RuntimeError, match="reset"):
        click_test.step(Click(5, 5))


def test_a_miss_is_not_done_and_agent_done_ends_with_zero(click_test: MiniWobEnv) -> None:
    click_test.reset(seed=4)
    x, y, w, h = subbtn_box(click_test)
    _, reward, terminated, _, _ = click_test.step(Click(min(159, int(x + w) + 5) if x + w + 5 < 160 else 0, 205))
    assert (reward, terminated) == (0.0, False)
    _, reward, terminated, _, info = click_test.step(Done(success=False))
    assert (reward, terminated) == (0.0, True) and "before the page" in info["reason"]


def test_page_time_limit_can_be_switched_back_on(click_test: MiniWobEnv) -> None:
    click_test.episode_time_limit_s = 0.2
    try:
        click_test.reset(seed=5)
        _, reward, terminated, _, info = click_test.step(Wait(0.4))
    finally:
        click_test.episode_time_limit_s = None
    assert terminated and reward == -1.0 and info["reason"] == "timed out"


def test_click_button_deterministic_across_page_loads_and_solved_by_dom(click_button: MiniWobEnv) -> None:
    obs1, _ = click_button.reset(seed=11)
    obs2, _ = click_button.reset(seed=11)  # reload_every_reset: a fresh page load
    assert obs1.instruction == obs2.instruction and obs1.instruction.startswith("Click on the")
    assert np.array_equal(obs1.screenshot, obs2.screenshot)
    assert [e["bbox"] for e in obs1.dom] == [e["bbox"] for e in obs2.dom]
    target = obs2.instruction.split('"')[1]
    button = next(e for e in obs2.dom if e["tag"] == "button" and e["text"] == target)
    _, reward, terminated, _, _ = click_button.step(Click(*center(button["bbox"])))
    assert (reward, terminated) == (1.0, True)


def test_click_button_wrong_button_gives_minus_one(click_button: MiniWobEnv) -> None:
    obs, _ = click_button.reset(seed=12)
    target = obs.instruction.split('"')[1]
    wrong = next(e for e in obs.dom if e["tag"] == "button" and e["text"] != target)
    _, reward, terminated, _, _ = click_button.step(Click(*center(wrong["bbox"])))
    assert (reward, terminated) == (-1.0, True)


def test_the_final_screen_shows_the_task_not_the_start_cover(click_button: MiniWobEnv) -> None:
    # MiniWoB++ lays a black "START" cover over the task the moment an episode ends, won or
    # lost; the final frame must show what the last action left instead.
    obs, _ = click_button.reset(seed=13)
    target = obs.instruction.split('"')[1]
    button = next(e for e in obs.dom if e["tag"] == "button" and e["text"] == target)
    final, reward, terminated, _, _ = click_button.step(Click(*center(button["bbox"])))
    assert (reward, terminated) == (1.0, True)
    assert click_button.evaluate_js("getComputedStyle(document.getElementById('sync-task-cover')).display") == "none"
    assert np.array_equal(final.screenshot[:50], obs.screenshot[:50])  # the instruction strip is still there
    assert (final.screenshot.max(axis=2) < 40).mean() < 0.5  # the cover is near black all over


def test_unknown_task_names_the_problem() -> None:
    assert "click-test" in list_tasks() and len(list_tasks()) > 100
    with pytest.raises(ValueError, match="unknown MiniWoB"):
        MiniWobEnv(task="click-tset")
    with pytest.raises(ValueError, match="FlightWoB"):
        MiniWobEnv(task="flight.Alaska")


def test_a_reused_page_starts_an_episode_as_a_fresh_page_does() -> None:
    """The pointer left over a row by the last episode must not start the next one hovered.

    email-inbox highlights the row under the pointer; before the pointer went back to
    the corner at reset, the second episode's first screen differed from a fresh page's
    (4,886 pixels here), and replays of its recordings refused to start.
    """
    reused, fresh = MiniWobEnv(task="email-inbox-delete"), MiniWobEnv(task="email-inbox-delete")
    try:
        reused.reset(seed=10)
        reused.step(Click(70, 130))  # the second row of the inbox; the pointer stays there
        again, _ = reused.reset(seed=11)
        first, _ = fresh.reset(seed=11)
        assert again.instruction == first.instruction
        changed = np.abs(again.screenshot.astype(np.int16) - first.screenshot.astype(np.int16)).max(axis=2) > 16
        assert not changed.any(), f"{int(changed.sum())} pixels differ from a fresh page's first screen"
    finally:
        reused.close()
        fresh.close()
