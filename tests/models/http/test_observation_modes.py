"""``openai:MODEL?observation=...`` on a real desktop (Chromium showing buttons), against the
loopback stand-in of the OpenAI chat API: each mode sends what OSWorld's baseline agent
sends, and in ``som`` the model's ``click(mark=N)`` presses button N on the page."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from gui_agent.actions import Click, Wait
from gui_agent.envs.base import Observation
from gui_agent.envs.desktop.env import DesktopEnv
from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep
from gui_agent.policy import TaskContext
from gui_agent.registry import load_policy
from tests.envs.desktop.test_accessibility_som import COMMAND
from tests.models.http.standin import Reply, chat_completion, stand_in
from tests.models.http.test_openai_chat import _images

KEY = "sk-test-not-a-real-key-0123456789"


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


@pytest.fixture(scope="module")
def desktop() -> Iterator[DesktopEnv]:
    env = DesktopEnv(screen=(1280, 800), observe_a11y_tree=True, step_timeout_s=20)
    try:
        env.reset(options={"setup": [LaunchStep(launch=LaunchArgs(command=COMMAND, window="Marks"))]})
        yield env
    finally:
        env.close()


def _act(url: str, mode: str, obs: Observation, reply: Reply, action_format: str = "json"):  # type: ignore[no-untyped-def]
    policy = load_policy(f"openai:gpt-4o-2024-08-06?base_url={url}/v1&key_env=OPENAI_API_KEY&format={action_format}"
                         f"&observation={mode}")
    policy.reset(TaskContext(task_id="t/marks", instruction="Press Bravo", seed=0))
    return policy.act(obs)


def _user_texts(body: dict) -> list[str]:
    return [p["text"] for m in body["messages"] if m["role"] == "user" for p in m["content"] if p["type"] == "text"]


CLICK = Reply(body=chat_completion("I press it.", tool_calls=[{"name": "click", "arguments": {"x": 5, "y": 5}}]))


@pytest.mark.slow
def test_each_mode_sends_what_osworlds_agent_sends(desktop: DesktopEnv) -> None:
    obs, *_ = desktop.step(Wait(1.0))
    with stand_in([CLICK, CLICK, CLICK]) as server:
        plain = _act(server.url, "screenshot", obs, CLICK)
        tree_only = _act(server.url, "a11y_tree", obs, CLICK)
        both = _act(server.url, "screenshot+a11y_tree", obs, CLICK)
    bodies = [request.body for request in server.requests]
    assert len(_images(bodies[0])) == 1 and not any("accessibility tree" in t for t in _user_texts(bodies[0]))
    assert "observed" not in plain.info
    assert _images(bodies[1]) == []  # the tree instead of the screenshot
    (table,) = [t for t in _user_texts(bodies[1]) if t.startswith("Given the info from accessibility tree as below:\ntag\tname")]
    assert "push-button\tBravo\t" in table
    assert tree_only.info["observed"]["observation"] == "a11y_tree" and "push-button\tBravo" in tree_only.info["observed"]["table"]
    (image,) = _images(bodies[2])
    assert np.array_equal(np.asarray(image.convert("RGB")), obs.screenshot)  # the screenshot as it is
    assert any(t.startswith("Given the screenshot and info from accessibility tree") for t in _user_texts(bodies[2]))
    assert both.actions == [Click(5, 5)]


def _reply(action_format: str, number: int) -> Reply:
    if action_format == "json":
        return Reply(body=chat_completion("It is that mark.", tool_calls=[{"name": "click", "arguments": {"mark": number}}]))
    return Reply(body=chat_completion(f"Thought: it is that mark.\nAction: pyautogui.click(tag_{number})"))


@pytest.mark.slow
@pytest.mark.parametrize(("action_format", "button", "hint"), [("json", "Bravo", "click(mark=N)"),
                                                               ("pyautogui", "Delta", "pyautogui.click(tag_2)")])
def test_in_som_the_model_sees_tagged_marks_and_its_mark_click_presses_that_button(
        desktop: DesktopEnv, action_format: str, button: str, hint: str) -> None:
    obs, *_ = desktop.step(Wait(0.5))
    bravo = next(mark for mark in obs.marks or [] if mark.name == button)
    reply = _reply(action_format, bravo.number)
    with stand_in([reply]) as server:
        output = _act(server.url, "som", obs, reply, action_format)
    body = server.requests[0].body
    (image,) = _images(body)
    tagged = np.asarray(image.convert("RGB"))
    assert tuple(tagged[bravo.y, bravo.x + bravo.width // 2]) == (255, 0, 0) and not np.array_equal(tagged, obs.screenshot)
    (text,) = [t for t in _user_texts(body) if t.startswith("Given the tagged screenshot")]
    assert f"\n{bravo.number}\tpush-button\t{button}\t{button}\n" in text and hint in text
    if action_format == "json":
        click = body["tools"][0]["function"]
        assert click["name"] == "click" and "mark" in click["parameters"]["properties"]
    assert output.actions == [Click(mark=bravo.number)]
    obs, *_ = desktop.step(output.actions[0])
    assert obs.last_action_error is None
    obs, *_ = desktop.step(Wait(0.5))
    assert obs.window_title and obs.window_title.startswith(f"Pressed {button}"), obs.window_title


def test_a_tree_mode_without_a_tree_is_refused_with_what_to_do() -> None:
    from gui_agent.errors import PolicyTaskError
    from gui_agent.models.http.observation_modes import seen

    with pytest.raises(PolicyTaskError, match="--observe a11y_tree"):
        seen(Observation(screenshot=np.zeros((10, 10, 3), np.uint8)), "som")
    with pytest.raises(Exception, match="observation"):
        load_policy("openai:gpt-4o?base_url=http://127.0.0.1:9/v1&key_env=OPENAI_API_KEY&observation=dom")
