"""``anthropic:`` and ``openai-cua:`` against loopback stand-ins of their APIs, through the official SDKs.

Request bodies are checked against the documented schemas; answers are documented example
responses. Scaling: the screen is 1920x1080, the declared display smaller.
"""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from PIL import Image

from gui_agent.action_formats._gestures import DisplayScale
from gui_agent.actions import Click, Done, Type
from gui_agent.envs.base import Observation
from gui_agent.errors import PolicyRequestError, PolicyServiceError
from gui_agent.policy import TaskContext
from gui_agent.registry import load_policy
from gui_agent.models.http.pricing import PRICES
from tests.models.http.standin import (
    Reply,
    anthropic_error,
    anthropic_message,
    computer_call,
    openai_response,
    output_message,
    reasoning,
    stand_in,
    text_block,
    tool_use,
)

KEY = "sk-ant-test-0123456789abcdef"
SCREEN = (1920, 1080)


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def _screen(value: int = 0) -> Observation:
    pixels = np.zeros((SCREEN[1], SCREEN[0], 3), np.uint8)
    pixels[..., 1] = value
    return Observation(screenshot=pixels)


def _png(data: str) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(data)))


def _claude(url: str, options: str = "", model: str = "claude-sonnet-4-5-20250929"):  # type: ignore[no-untyped-def]
    policy = load_policy(f"anthropic:{model}?base_url={url}&key_env=ANTHROPIC_API_KEY&retries=2&backoff=0.01{options}")
    policy.reset(TaskContext(task_id="t", instruction="Save the report"))
    return policy


def _images_in(body: dict) -> list[dict]:
    found = []
    for message in body["messages"]:
        for block in message["content"] if isinstance(message["content"], list) else []:
            if block["type"] == "image":
                found.append(block)
            for inner in block.get("content", []) if block["type"] == "tool_result" else []:
                if inner["type"] == "image":
                    found.append(inner)
    return found


# -------------------------------------------------------------------------------- Anthropic
def test_claude_request_is_the_documented_computer_use_body() -> None:
    with stand_in([Reply(body=anthropic_message(tool_use("left_click", coordinate=[715, 402])))]) as server:
        output = _claude(server.url, model="claude-opus-4-5").act(_screen())
    request = server.requests[0]
    assert request.path.startswith("/v1/messages")
    # The key in the SDK's own header (x-api-key, or a bearer token in newer SDKs), and the tool's beta.
    assert KEY in (request.headers.get("x-api-key"), request.headers.get("authorization", "").removeprefix("Bearer "))
    assert "computer-use-2025-11-24" in request.headers["anthropic-beta"] and request.headers["anthropic-version"]
    body = request.body
    assert body["model"] == "claude-opus-4-5" and body["max_tokens"] == 1024 and "FAIL:" in body["system"]
    assert body["tools"] == [{"type": "computer_20251124", "name": "computer", "display_width_px": 1429, "display_height_px": 804}]
    (message,) = body["messages"]
    assert message["role"] == "user" and message["content"][0] == {"type": "text", "text": "Task: Save the report"}
    image = message["content"][1]
    assert image["type"] == "image" and image["source"]["type"] == "base64" and image["source"]["media_type"] == "image/png"
    assert _png(image["source"]["data"]).size == (1429, 804)  # resized to the declared display
    scale = DisplayScale(1429, 804, *SCREEN)
    assert output.actions == [Click(*scale.to_screen(715, 402))]
    assert output.info["display"] == [1429, 804]


def test_claude_looks_without_a_step_then_acts_then_is_answered_with_the_new_screen_then_finishes() -> None:
    script = [
        Reply(body=anthropic_message(text_block("Let me look."), tool_use("screenshot", 0), input_tokens=1000, output_tokens=10)),
        Reply(body=anthropic_message(tool_use("type", 1, text="Q3 report"), input_tokens=1500, output_tokens=20, cache_read=500)),
        Reply(body=anthropic_message(text_block("Saved the report as Q3 report."))),
    ]
    with stand_in(script) as server:
        policy = _claude(server.url)
        first = policy.act(_screen(10))
        second = policy.act(_screen(20))
    assert first.actions == [Type("Q3 report")] and first.thought == "Let me look."
    assert second.actions == [Done(success=True, answer="Saved the report as Q3 report.")]
    # The screenshot call was answered at once, in the same step, with a tool_result image.
    looked = server.requests[1].body["messages"]
    assert looked[-1]["content"][0]["type"] == "tool_result" and looked[-1]["content"][0]["tool_use_id"] == "toolu_01A09q90qw90lq917835lq90"
    # The type call is answered in the next step, with the screen after the action.
    answered = server.requests[2].body["messages"][-1]["content"][0]
    assert answered["tool_use_id"] == "toolu_01A09q90qw90lq917835lq91"
    assert np.asarray(_png(answered["content"][0]["source"]["data"]).convert("RGB"))[0, 0, 1] == 20
    usage = first.usage  # both calls of the first step
    assert (usage.input_tokens, usage.output_tokens, usage.cached_tokens) == (1000 + 1500 + 500, 30, 500)
    price = PRICES["claude-sonnet-4-5"]
    assert usage.cost_usd == pytest.approx((2500 * price.input + 500 * price.cached_input + 30 * price.output) / 1e6)


def test_claude_saying_the_task_cannot_be_done_is_done_false() -> None:
    with stand_in([Reply(body=anthropic_message(text_block("FAIL: there is no printer on this machine")))]) as server:
        output = _claude(server.url).act(_screen())
    assert output.actions == [Done(success=False, answer="there is no printer on this machine")]


def test_only_the_most_recent_screenshots_stay_in_the_conversation() -> None:
    script = [Reply(body=anthropic_message(tool_use("left_click", i, coordinate=[10, 10]))) for i in range(4)]
    with stand_in(script) as server:
        policy = _claude(server.url, "&images=2")
        for step in range(4):
            policy.act(_screen(step))
    assert [len(_images_in(r.body)) for r in server.requests] == [1, 2, 2, 2]
    assert "left out" in str(server.requests[-1].body["messages"][0]["content"][1])


def test_claude_overloaded_is_retried_and_a_too_long_prompt_keeps_fewer_screenshots() -> None:
    script = [Reply(body=anthropic_message(tool_use("left_click", 0, coordinate=[10, 10]))),
              Reply(status=529, body=anthropic_error("Overloaded", "overloaded_error")),
              Reply(status=400, body=anthropic_error("prompt is too long: 210345 tokens > 200000 maximum")),
              Reply(body=anthropic_message(tool_use("left_click", 1, coordinate=[20, 20])))]
    with stand_in(script) as server:
        policy = _claude(server.url, "&images=3")
        policy.act(_screen())
        second = policy.act(_screen())
    assert [len(_images_in(r.body)) for r in server.requests] == [1, 2, 2, 1]
    assert second.usage.retries == 2  # the 529 and the too-long request


def test_the_older_tool_version_and_its_beta() -> None:
    with stand_in([Reply(body=anthropic_message(tool_use("double_click", coordinate=[100, 100])))]) as server:
        output = _claude(server.url, "&tool=computer_20250124&display=1280x720").act(_screen())
    request = server.requests[0]
    assert "computer-use-2025-01-24" in request.headers["anthropic-beta"]
    assert request.body["tools"][0] == {"type": "computer_20250124", "name": "computer", "display_width_px": 1280, "display_height_px": 720}
    assert output.actions == [Click(150, 150, count=2)]


@pytest.mark.parametrize(("model", "tool", "beta"), [
    ("claude-sonnet-4-5-20250929", "computer_20250124", "computer-use-2025-01-24"),
    ("claude-haiku-4-5", "computer_20250124", "computer-use-2025-01-24"),
    ("claude-opus-4-1-20250805", "computer_20250124", "computer-use-2025-01-24"),
    ("claude-opus-4-20250514", "computer_20250124", "computer-use-2025-01-24"),  # Opus 4, not Opus 4.5
    ("claude-sonnet-4-20250514", "computer_20250124", "computer-use-2025-01-24"),
    ("claude-3-7-sonnet-latest", "computer_20250124", "computer-use-2025-01-24"),
    ("claude-opus-4-5", "computer_20251124", "computer-use-2025-11-24"),
    ("claude-opus-4-6", "computer_20251124", "computer-use-2025-11-24"),
    ("claude-sonnet-4-6", "computer_20251124", "computer-use-2025-11-24"),
])
def test_each_model_gets_the_tool_version_and_beta_anthropic_documents_for_it(model: str, tool: str, beta: str) -> None:
    """The stand-in refuses a tool version the model does not take, as the API does."""
    with stand_in([Reply(body=anthropic_message(tool_use("left_click", coordinate=[10, 10])))]) as server:
        output = _claude(server.url, model=model).act(_screen())
    request = server.requests[-1]
    assert request.body["tools"][0]["type"] == tool and beta in request.headers["anthropic-beta"]
    assert len(server.requests) == 1 and output.info["tool"] == tool


def test_a_tool_version_in_the_spec_overrides_the_models_and_a_mismatch_is_the_apis_refusal() -> None:
    with stand_in([Reply(body=anthropic_message(tool_use("left_click", coordinate=[10, 10])))]) as server:
        with pytest.raises(PolicyRequestError, match="does not support tool types: computer_20251124"):
            _claude(server.url, "&tool=computer_20251124").act(_screen())  # Sonnet 4.5 with the newer tool
    request = server.requests[0]
    assert request.body["tools"][0]["type"] == "computer_20251124" and "computer-use-2025-11-24" in request.headers["anthropic-beta"]


def test_claude_down_past_its_retries_is_a_service_failure() -> None:
    with stand_in([Reply(status=500, body=anthropic_error("Internal server error", "api_error"))]) as server:
        with pytest.raises(PolicyServiceError, match="HTTP 500: Internal server error"):
            _claude(server.url).act(_screen())
    assert len(server.requests) == 3


# -------------------------------------------------------------------------------- OpenAI CUA
def _cua(url: str, options: str = ""):  # type: ignore[no-untyped-def]
    policy = load_policy(f"openai-cua:computer-use-preview?base_url={url}/v1&key_env=OPENAI_API_KEY&retries=1&backoff=0.01&display=1280x720{options}")
    policy.reset(TaskContext(task_id="t", instruction="Open the settings"))
    return policy


CHECK = {"id": "cu_sc_67cb", "code": "malicious_instructions", "message": "We've detected instructions that may cause your application to perform malicious or unauthorized actions."}


def test_openai_cua_request_chain_and_computer_call_outputs() -> None:
    script = [Reply(body=openai_response(reasoning("Clicking the gear icon."), computer_call({"type": "click", "button": "left", "x": 640, "y": 360}),
                                         response_id="resp_1")),
              Reply(body=openai_response(computer_call({"type": "screenshot"}, call="call_03"), response_id="resp_2")),
              Reply(body=openai_response(output_message("The settings are open."), response_id="resp_3"))]
    with stand_in(script) as server:
        policy = _cua(server.url)
        first = policy.act(_screen(1))
        second = policy.act(_screen(2))
    assert first.actions == [Click(960, 540)] and first.thought == "Clicking the gear icon."
    assert second.actions == [Done(success=True, answer="The settings are open.")]
    body = server.requests[0].body
    assert server.requests[0].path == "/v1/responses" and server.requests[0].headers["authorization"] == f"Bearer {KEY}"
    assert body["model"] == "computer-use-preview" and body["truncation"] == "auto" and "previous_response_id" not in body
    assert body["tools"] == [{"type": "computer_use_preview", "display_width": 1280, "display_height": 720, "environment": "linux"}]
    content = body["input"][0]["content"]
    assert content[0] == {"type": "input_text", "text": "Task: Open the settings"} and content[1]["type"] == "input_image"
    assert _png(content[1]["image_url"].split(",", 1)[1]).size == (1280, 720)
    answer = server.requests[1].body
    assert answer["previous_response_id"] == "resp_1"
    (output,) = answer["input"]
    assert output["type"] == "computer_call_output" and output["call_id"] == "call_02"
    assert output["output"]["type"] == "computer_screenshot" and output["output"]["image_url"].startswith("data:image/png;base64,")
    # The screenshot call was answered within the second step, chained to the response that asked.
    assert server.requests[2].body["previous_response_id"] == "resp_2" and server.requests[2].body["input"][0]["call_id"] == "call_03"


def test_pending_safety_checks_are_refused_by_default_and_recorded() -> None:
    with stand_in([Reply(body=openai_response(computer_call({"type": "click", "button": "left", "x": 10, "y": 10}, checks=[CHECK])))]) as server:
        output = _cua(server.url).act(_screen())
    assert output.actions[0] == Done(success=False, answer=output.actions[0].answer)
    assert output.actions[0].answer.startswith("refused: the model's action needs a safety check")
    assert output.info["safety_checks"] == [{**CHECK, "acknowledged": False}]
    assert len(server.requests) == 1


def test_pending_safety_checks_are_acknowledged_when_asked_and_recorded() -> None:
    script = [Reply(body=openai_response(computer_call({"type": "type", "text": "hello"}, checks=[CHECK]), response_id="resp_1")),
              Reply(body=openai_response(output_message("Done.")))]
    with stand_in(script) as server:
        policy = _cua(server.url, "&acknowledge_safety_checks=1")
        first = policy.act(_screen())
        policy.act(_screen())
    assert first.actions == [Type("hello")] and first.info["safety_checks"] == [{**CHECK, "acknowledged": True}]
    (answer,) = server.requests[1].body["input"]
    assert answer["acknowledged_safety_checks"] == [CHECK]


def test_acknowledging_is_a_command_line_choice_only_for_openai_cua() -> None:
    from gui_agent.cli.arguments import acknowledging_safety_checks

    assert acknowledging_safety_checks("openai-cua:computer-use-preview") == "openai-cua:computer-use-preview?acknowledge_safety_checks=1"
    assert acknowledging_safety_checks("openai-cua:m?display=1024x768").endswith("&acknowledge_safety_checks=1")
    with pytest.raises(ValueError, match="applies to openai-cua:"):
        acknowledging_safety_checks("anthropic:claude-sonnet-4-5")


# -------------------------------------------------------------------------------- answers that are not the API's
PROXY_PAGE = "<!DOCTYPE html><html><head><title>Sign in</title></head><body>Gateway login</body></html>"


@pytest.mark.parametrize("vendor", ["anthropic", "openai-cua"])
def test_a_200_that_is_not_the_apis_answer_is_retried_then_a_service_failure(vendor: str) -> None:
    good = (anthropic_message(tool_use("left_click", coordinate=[10, 10])) if vendor == "anthropic"
            else openai_response(computer_call({"type": "click", "button": "left", "x": 10, "y": 10})))
    script = [Reply(html=PROXY_PAGE), Reply(body={"detail": "Not Found"}), Reply(body=good)]
    with stand_in(script) as server:
        policy = _claude(server.url) if vendor == "anthropic" else _cua(server.url, "&retries=2")
        output = policy.act(_screen())
    assert len(server.requests) == 3 and output.usage.retries == 2 and isinstance(output.actions[0], Click)
    with stand_in([Reply(html=PROXY_PAGE)]) as server:
        policy = _claude(server.url) if vendor == "anthropic" else _cua(server.url)
        with pytest.raises(PolicyServiceError, match="not a (message|response) but a page of text: '<!DOCTYPE html>"):
            policy.act(_screen())
