"""``openai:MODEL`` against a loopback stand-in of the OpenAI chat API, through the official SDK.

The request bodies the SDK sends are checked against the documented schema; answers are
documented example responses or injected faults. No browser: observations are arrays.
"""

from __future__ import annotations

import base64
import io
import time

import numpy as np
import pytest
from PIL import Image

from gui_agent.action_formats.image_size import smart_resize
from gui_agent.actions import Click, Hotkey, Type
from gui_agent.envs.base import Observation
from gui_agent.errors import ActionParseError, ModelError, PolicyRequestError, PolicyServiceError
from gui_agent.policy import TaskContext
from gui_agent.registry import load_policy
from gui_agent.models.http.pricing import PRICES
from tests.models.http.standin import Reply, chat_completion, openai_error, stand_in

KEY = "sk-test-not-a-real-key-0123456789"
SCREEN = (1920, 1080)


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def _screen(width: int = SCREEN[0], height: int = SCREEN[1], value: int = 0) -> Observation:
    pixels = np.zeros((height, width, 3), np.uint8)
    pixels[..., 0] = value
    pixels[100:200, 300:500] = (255, 255, 255)
    return Observation(screenshot=pixels)


def _policy(url: str, options: str = "", model: str = "gpt-4o-2024-08-06"):  # type: ignore[no-untyped-def]
    policy = load_policy(f"openai:{model}?base_url={url}/v1&key_env=OPENAI_API_KEY&retries=3&timeout=2&backoff=0.01{options}")
    policy.reset(TaskContext(task_id="t/x", instruction="Save the file", seed=0))
    return policy


def _images(body: dict) -> list[Image.Image]:
    found = []
    for message in body["messages"]:
        if isinstance(message["content"], list):
            for part in message["content"]:
                if part["type"] == "image_url":
                    url = part["image_url"]["url"]
                    assert url.startswith("data:image/png;base64,")
                    found.append(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))))
    return found


UITARS_REPLY = "Thought: The save button is at the top.\nAction: click(start_box='(966,546)')"


def test_the_request_is_the_documented_chat_body_with_the_screenshot_and_the_key_in_the_header() -> None:
    with stand_in([Reply(body=chat_completion("Thought: t\nAction: pyautogui.click(400, 150)"))]) as server:
        policy = _policy(server.url, "&format=pyautogui&max_tokens=64")
        output = policy.act(_screen())
    request = server.requests[0]
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    body = request.body
    assert body["model"] == "gpt-4o-2024-08-06" and body["max_tokens"] == 64 and body["temperature"] == 0
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert isinstance(body["messages"][0]["content"], str) and "pyautogui" in body["messages"][0]["content"]
    texts = [p["text"] for p in body["messages"][1]["content"] if p["type"] == "text"]
    assert texts and texts[0].startswith("Task: Save the file")
    (image,) = _images(body)
    assert image.size == SCREEN and np.array_equal(np.asarray(image.convert("RGB")), _screen().screenshot)  # lossless
    assert output.actions == [Click(400, 150)] and output.thought == "t"
    assert KEY not in repr(policy.endpoint) and KEY not in policy.name


def test_uitars_screenshots_are_sent_at_their_smart_resize_size_and_points_map_back_exactly() -> None:
    height, width = smart_resize(SCREEN[1], SCREEN[0])
    with stand_in([Reply(body=chat_completion(UITARS_REPLY))]) as server:
        output = _policy(server.url, "&format=uitars").act(_screen())
    (image,) = _images(server.requests[0].body)
    assert image.size == (width, height) != SCREEN
    assert output.actions == [Click(round(966 * SCREEN[0] / width), round(546 * SCREEN[1] / height))]
    assert output.thought == "The save button is at the top."


def test_with_the_servers_own_bounds_previous_actions_are_listed_in_the_frame_the_model_answers_in() -> None:
    """The model saw a 1316x728 image and clicked its middle: the next prompt lists that click as it wrote it."""
    reply = "Thought: the middle\nAction: click(start_box='<|box_start|>(658,364)<|box_end|>')"
    with stand_in([Reply(body=chat_completion(reply)), Reply(body=chat_completion(reply))]) as server:
        policy = _policy(server.url, "&format=uitars&max_pixels=1003520")
        first = policy.act(_screen())
        policy.act(_screen())
    assert [image.size for image in _images(server.requests[0].body)] == [(1316, 728)]
    assert first.actions == [Click(960, 540)]
    history = server.requests[1].body["messages"][1]["content"][0]["text"]
    assert history.endswith("Previous actions:\n1. click(start_box='<|box_start|>(658,364)<|box_end|>')")


def test_a_policy_built_without_bounds_uses_its_models_own() -> None:
    from gui_agent.action_formats import FORMATS
    from gui_agent.models.http.openai_chat import OpenAIChatPolicy
    from gui_agent.models.http.settings import Endpoint

    for name in ("uitars", "qwen2.5", "opencua"):
        policy = OpenAIChatPolicy("m", endpoint=Endpoint(base_url="http://127.0.0.1:9/v1"), action_format=name, client=object())
        assert policy.reply_format.image_size == FORMATS[name].image_size


def test_uitars_replies_written_after_a_chinese_prompt_are_read() -> None:
    reply = "Thought：保存按钮在顶部。\nAction：click(start_box='<|box_start|>(500，500)<|box_end|>')"
    with stand_in([Reply(body=chat_completion(reply))]) as server:
        output = _policy(server.url, "&format=uitars-v1").act(_screen())
    assert output.actions == [Click(960, 540)]  # 0..1000 of the screenshot
    assert output.thought == "保存按钮在顶部。"


def test_json_tool_calls_of_the_canonical_actions() -> None:
    calls = [{"name": "click", "arguments": {"x": 310, "y": 120}}, {"name": "type", "arguments": {"text": "report\n"}},
             {"name": "hotkey", "arguments": {"keys": ["ctrl", "s"]}}]
    with stand_in([Reply(body=chat_completion("I click the name field.", tool_calls=calls))]) as server:
        output = _policy(server.url, "&format=json").act(_screen())
    body = server.requests[0].body
    names = [tool["function"]["name"] for tool in body["tools"]]
    assert names == ["click", "move", "drag", "scroll", "type", "hotkey", "wait", "done"]
    assert all(tool["type"] == "function" and tool["function"]["parameters"]["type"] == "object" for tool in body["tools"])
    assert body["tool_choice"] == "required"
    assert output.actions == [Click(310, 120), Type("report\n"), Hotkey(("ctrl", "s"))]
    assert output.thought == "I click the name field."


def test_usage_tokens_images_retries_latency_and_cost() -> None:
    script = [Reply(status=500, body=openai_error("overloaded", kind="server_error")),
              Reply(body=chat_completion(UITARS_REPLY, prompt_tokens=1200, completion_tokens=30, cached_tokens=200))]
    with stand_in(script) as server:
        usage = _policy(server.url, "&format=uitars").act(_screen()).usage
    price = PRICES["gpt-4o"]
    assert (usage.input_tokens, usage.output_tokens, usage.cached_tokens, usage.images, usage.retries) == (1200, 30, 200, 1, 1)
    assert usage.cost_usd == pytest.approx((1000 * price.input + 200 * price.cached_input + 30 * price.output) / 1e6)
    assert usage.latency_s is not None and usage.latency_s > 0


def test_a_self_hosted_model_has_no_price_unless_given_one() -> None:
    with stand_in([Reply(body=chat_completion(UITARS_REPLY, prompt_tokens=1000, completion_tokens=100))]) as server:
        assert _policy(server.url, "&format=uitars", model="ByteDance-Seed/UI-TARS-1.5-7B").act(_screen()).usage.cost_usd is None
        priced = _policy(server.url, "&format=uitars&price_in=0.2&price_out=0.8", model="ByteDance-Seed/UI-TARS-1.5-7B")
        assert priced.act(_screen()).usage.cost_usd == pytest.approx((1000 * 0.2 + 100 * 0.8) / 1e6)
    with pytest.raises(ModelError, match="give both price_in and price_out"):
        load_policy("openai:my-model?base_url=http://127.0.0.1:9/v1&price_in=1")


@pytest.mark.parametrize("fault", [
    Reply(status=429, body=openai_error("Rate limit reached", kind="requests", code="rate_limit_exceeded"), headers={"retry-after": "1"}),
    Reply(status=503, body=openai_error("The server is overloaded", kind="server_error")),
    Reply(fault="hang", hang_s=4.0),
    Reply(fault="drop"),
    Reply(fault="garbage"),
    Reply(fault="trickle", trickle_s=6.0, body=chat_completion(UITARS_REPLY)),  # timeout=2: a deadline, not a per-read wait
    Reply(html="<!DOCTYPE html><html><head><title>Open WebUI</title></head><body>Sign in</body></html>"),
    Reply(body={"detail": "Not Found"}),
    Reply(body={"id": "chatcmpl-1", "object": "chat.completion", "created": 1741570283, "model": "gpt-4o", "choices": []}),
], ids=["429-retry-after", "503", "hang-past-timeout", "dropped-connection", "malformed-body", "trickled-past-timeout",
        "200-html-page", "200-json-without-choices", "200-no-choice"])
def test_each_fault_is_retried_and_the_step_records_it(fault: Reply) -> None:
    with stand_in([fault, Reply(body=chat_completion(UITARS_REPLY))]) as server:
        started = time.monotonic()
        output = _policy(server.url, "&format=uitars").act(_screen())
        elapsed = time.monotonic() - started
    assert len(server.requests) == 2 and output.usage.retries == 1
    assert output.actions and isinstance(output.actions[0], Click)
    if fault.headers.get("retry-after"):
        assert elapsed >= 1.0  # the service's Retry-After was honoured


@pytest.mark.parametrize(("fault", "said"), [
    (Reply(html="<html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>"), "not a chat completion but a page of text: '<html><body><h1>502"),
    (Reply(body={"status": "ok"}), "not a chat completion: it has no 'choices'"),
    (Reply(fault="trickle", trickle_s=6.0, body=chat_completion(UITARS_REPLY)), "no answer within the timeout (no complete answer within 2 s)"),
], ids=["html", "json-without-choices", "trickle"])
def test_a_200_that_is_not_a_chat_completion_is_a_service_failure_not_the_agents(fault: Reply, said: str) -> None:
    with stand_in([fault]) as server:
        policy = load_policy(f"openai:gpt-4o?base_url={server.url}/v1&key_env=OPENAI_API_KEY&retries=1&timeout=2&backoff=0.01&format=uitars")
        policy.reset(TaskContext(task_id="t/x", instruction="Save the file", seed=0))
        with pytest.raises(PolicyServiceError, match=r"did not answer \(2 tries") as info:
            policy.act(_screen())
    assert said in str(info.value) and not isinstance(info.value, PolicyRequestError)
    assert len(server.requests) == 2


@pytest.mark.parametrize("model", ["o3", "o4-mini-2025-04-16", "o1", "gpt-5", "gpt-5-mini-2025-08-07", "openai/gpt-5-nano"])
def test_reasoning_models_get_max_completion_tokens_and_no_sampling_parameters(model: str) -> None:
    """The stand-in refuses ``max_tokens`` and ``temperature: 0`` for these models, as OpenAI's API does."""
    with stand_in([Reply(body=chat_completion(UITARS_REPLY))]) as server:
        _policy(server.url, "&format=uitars", model=model).act(_screen())
        _policy(server.url, "&format=uitars&max_tokens=4000&reasoning_effort=low", model=model).act(_screen())
    default, chosen = (request.body for request in server.requests)
    assert default["max_completion_tokens"] == 25_000 and "reasoning_effort" not in default
    assert chosen["max_completion_tokens"] == 4000 and chosen["reasoning_effort"] == "low"
    for body in (default, chosen):
        assert "max_tokens" not in body and "temperature" not in body and "top_p" not in body


def test_chat_models_keep_max_tokens_and_greedy_sampling_and_the_effort_is_checked() -> None:
    with stand_in([Reply(body=chat_completion(UITARS_REPLY))]) as server:
        for model in ("gpt-4.1-mini", "gpt-5-chat-latest", "ByteDance-Seed/UI-TARS-1.5-7B"):
            _policy(server.url, "&format=uitars", model=model).act(_screen())
        _policy(server.url, "&format=uitars&reasoning_effort=high", model="openai/gpt-oss-120b").act(_screen())  # a served reasoner
    for request in server.requests:
        assert request.body["max_tokens"] == 256 and request.body["temperature"] == 0 and "max_completion_tokens" not in request.body
    assert server.requests[-1].body["reasoning_effort"] == "high"
    with pytest.raises(ModelError, match=r"reasoning_effort must be one of none, minimal, low, medium, high, xhigh, got 'hard'"):
        load_policy("openai:o3?reasoning_effort=hard")


def test_a_service_that_stays_down_is_a_policy_service_failure_after_bounded_retries() -> None:
    with stand_in([Reply(status=502, body=openai_error("bad gateway", kind="server_error"))]) as server:
        with pytest.raises(PolicyServiceError, match=r"did not answer \(4 tries.*HTTP 502: bad gateway"):
            _policy(server.url, "&format=uitars").act(_screen())
    assert len(server.requests) == 4  # the first request and retries=3


def test_a_refused_request_fails_at_once_with_the_services_words_and_never_the_key() -> None:
    masked = "Incorrect API key provided: sk-test-********6789. You can find your API key at the usual place."
    with stand_in([Reply(status=401, body=openai_error(masked, code="invalid_api_key"))]) as server:
        with pytest.raises(PolicyRequestError) as info:
            _policy(server.url, "&format=uitars").act(_screen())
    assert len(server.requests) == 1
    assert "HTTP 401: Incorrect API key provided" in str(info.value)
    assert KEY not in str(info.value) and "sk-test-****" not in str(info.value)


def test_a_prompt_too_long_for_the_context_drops_the_oldest_screenshot_and_asks_again() -> None:
    too_long = openai_error("This model's maximum context length is 8192 tokens. However, you requested 9001 tokens.",
                            code="context_length_exceeded")
    script = [Reply(body=chat_completion(UITARS_REPLY)), Reply(status=400, body=too_long), Reply(body=chat_completion(UITARS_REPLY))]
    with stand_in(script) as server:
        policy = _policy(server.url, "&format=uitars&images=2")
        policy.act(_screen(value=10))
        second = policy.act(_screen(value=20))
    counts = [len(_images(r.body)) for r in server.requests]
    assert counts == [1, 2, 1]
    assert second.info["images_sent"] == 1 and second.usage.images == 1 and second.usage.retries == 1
    # The screenshot kept is the current one, not the older one.
    assert np.asarray(_images(server.requests[2].body)[0])[0, 0, 0] == 20


def test_an_unreadable_reply_is_the_agents_error_with_the_raw_text() -> None:
    with stand_in([Reply(body=chat_completion("I would like to click somewhere nice."))]) as server:
        with pytest.raises(ActionParseError) as info:
            _policy(server.url, "&format=uitars").act(_screen())
    assert info.value.raw == "I would like to click somewhere nice."


def test_keys_come_from_the_environment_only(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ModelError, match="API keys are read from the environment only"):
        load_policy("openai:gpt-4o?api_key=sk-123")
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(ModelError, match="set the environment variable OPENAI_API_KEY"):
        load_policy("openai:gpt-4o")
    monkeypatch.setenv("MY_GATEWAY_KEY", "gw-secret-abcdef")
    with stand_in([Reply(body=chat_completion(UITARS_REPLY))]) as server:
        policy = load_policy(f"openai:gpt-4o?base_url={server.url}/v1&key_env=MY_GATEWAY_KEY")
        policy.reset(TaskContext(task_id="t", instruction="x"))
        policy.act(_screen())
    assert server.requests[0].headers["authorization"] == "Bearer gw-secret-abcdef"
    with pytest.raises(ModelError, match="unknown option 'colour'"):
        load_policy("openai:gpt-4o?colour=red")


def test_a_base_url_of_the_spec_gets_no_vendor_key_unless_key_env_names_one() -> None:
    with stand_in([Reply(body=chat_completion(UITARS_REPLY))]) as server:
        policy = load_policy(f"openai:ui-tars?base_url={server.url}/v1")  # a self-hosted server
        policy.reset(TaskContext(task_id="t", instruction="x"))
        policy.act(_screen())
    assert KEY not in str(server.requests[0].headers)


def test_base_url_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    with stand_in([Reply(body=chat_completion(UITARS_REPLY))]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", f"{server.url}/v1")
        policy = load_policy("openai:gpt-4o")
        policy.reset(TaskContext(task_id="t", instruction="x"))
        policy.act(_screen())
    assert len(server.requests) == 1 and server.requests[0].headers["authorization"] == f"Bearer {KEY}"  # configured together
    assert len(_images(server.requests[0].body)) == 1


def test_qwen_and_opencua_are_prompted_their_own_way_and_read_in_their_frames() -> None:
    from gui_agent.action_formats.opencua import opencua_system_prompt
    from gui_agent.action_formats.image_size import QWEN25_MAX_PIXELS, QWEN25_MIN_PIXELS
    from gui_agent.action_formats.qwen_computer import qwen_computer_system_prompt

    width, height = SCREEN
    frame_h, frame_w = smart_resize(height, width, min_pixels=QWEN25_MIN_PIXELS, max_pixels=QWEN25_MAX_PIXELS)
    qwen25 = '<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [%d, %d]}}\n</tool_call>' % (frame_w // 2, frame_h // 2)
    qwen3 = 'I click the middle.\n<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [500, 500]}}\n</tool_call>'
    opencua = "## Thought:\nThe middle.\n\n## Action:\nClick the middle.\n\n## Code:\n```python\npyautogui.click(x=%d, y=%d)\n```" % (frame_w // 2, frame_h // 2)
    for version, reply, sent in (("qwen2.5", qwen25, (frame_w, frame_h)), ("qwen3", qwen3, SCREEN), ("opencua", opencua, (frame_w, frame_h))):
        with stand_in([Reply(body=chat_completion(reply))]) as server:
            output = _policy(server.url, f"&format={version}").act(_screen())
        body = server.requests[0].body
        expected = (opencua_system_prompt("l2") if version == "opencua" else
                    qwen_computer_system_prompt(screen_width=width, screen_height=height, version=version.removeprefix("qwen")))
        assert body["messages"][0] == {"role": "system", "content": expected}
        (image,) = _images(body)
        assert image.size == sent, version
        (click,) = output.actions
        assert isinstance(click, Click) and abs(click.x - width // 2) <= 2 and abs(click.y - height // 2) <= 2, (version, click)
