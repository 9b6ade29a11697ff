"""``--policy openai-cua:MODEL``: OpenAI's computer-use model through the Responses API.

The episode is one chain of responses (``previous_response_id``). The first request holds
the task and the screen; the model answers with ``computer_call`` items, each ``action``
read into canonical actions by :mod:`gui_agent.action_formats.openai_computer`; the next
request answers the call with a ``computer_call_output`` holding the screen the actions led
to. A ``screenshot`` action is answered at once, without a step. A response without a
``computer_call`` ends the episode: ``done``, its message the answer (``done(success=False)``
when the message starts with ``FAIL``).

Safety checks. A ``computer_call`` may carry ``pending_safety_checks`` (a suspected prompt
injection, an irreversible action, a sensitive domain). They are never acknowledged
silently: by default the episode ends there with ``done(success=False)`` and the checks
recorded in the step (``info.safety_checks``, ``acknowledged: false``); with
``acknowledge_safety_checks=1`` in the spec (``--acknowledge-safety-checks`` on the command
line) they are acknowledged in the next request and recorded with ``acknowledged: true``.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from typing import Any

from gui_agent.action_formats._gestures import DisplayScale
from gui_agent.action_formats.openai_computer import openai_computer_tool, openai_display_scale, parse_openai_computer
from gui_agent.actions import Done
from gui_agent.envs.base import Observation
from gui_agent.errors import ModelError
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.models.http.calls import call_with_retries, classify_sdk_error, require_fields, within_deadline
from gui_agent.models.http.computer_use import MAX_LOOKS_PER_STEP, Screen, finished, split_items, too_many_looks
from gui_agent.models.http.concurrency import EndpointSlots
from gui_agent.models.http.pricing import metered_usage
from gui_agent.models.http.settings import Endpoint, display_size, endpoint_from, parse_spec
from gui_agent.models.spec_options import Options, text, whole

#: Options of ``openai-cua:`` besides the common ones (:mod:`gui_agent.models.http.settings`).
OPTIONS: Options = {"environment": text, "display": display_size, "acknowledge_safety_checks": whole(0),
                    "max_output_tokens": whole(1)}
INSTRUCTIONS = (
    "You operate a computer to do the user's task. When it is done, answer without a computer call, with the answer "
    "if the task asks a question. If it cannot be done, answer starting with 'FAIL:' and the reason."
)


class OpenAIComputerPolicy:
    """OpenAI's computer-use model as a :class:`gui_agent.policy.Policy`.

    Args:
        model: the model (``computer-use-preview``).
        endpoint: URL, key, retries, concurrency, price (see :mod:`gui_agent.models.http.settings`).
        environment: the tool's ``environment`` (``linux``, ``browser``, ...).
        display: the display to declare (None: the screen's own size).
        acknowledge_safety_checks: acknowledge pending safety checks instead of refusing.
        max_output_tokens: longest answer (None: the API's default).
        client: an ``openai.OpenAI`` client to use instead of building one.
    """

    def __init__(self, model: str, *, endpoint: Endpoint, environment: str = "linux", display: tuple[int, int] | None = None,
                 acknowledge_safety_checks: bool = False, max_output_tokens: int | None = None, client: Any = None) -> None:
        self.model, self.endpoint, self.environment, self.display = model, endpoint, environment, display
        self.acknowledge_safety_checks = acknowledge_safety_checks
        self.max_output_tokens = max_output_tokens
        self.name = f"openai-cua:{model}"
        openai_computer_tool(DisplayScale(1, 1, 1, 1), environment=environment)  # ValueError now, not mid-episode
        self._client = client if client is not None else _client(endpoint)
        self._slots = EndpointSlots(str(self._client.base_url), endpoint.max_concurrent) if endpoint.max_concurrent else None
        self._task: TaskContext | None = None
        self._scale: DisplayScale | None = None
        self._previous: str | None = None
        self._pending: dict[str, Any] | None = None  # the computer_call the next request answers

    @property
    def base_url(self) -> str:
        """Where the requests go (the SDK's default when neither the spec nor the environment names one)."""
        return str(self._client.base_url)

    # -- Policy ---------------------------------------------------------------------------
    def reset(self, task: TaskContext) -> None:
        self._task = task
        self._scale = self._previous = self._pending = None

    def act(self, observation: Observation) -> PolicyOutput:
        if self._task is None:
            raise RuntimeError("reset(task) must be called before act()")
        height, width = observation.screenshot.shape[:2]
        if self._scale is None:
            self._scale = DisplayScale(*self.display, width, height) if self.display else openai_display_scale(width, height)
        screen = Screen(observation.screenshot, self._scale)
        if self._pending is None:
            request = [{"role": "user", "content": [{"type": "input_text", "text": f"Task: {self._task.instruction}"},
                                                    {"type": "input_image", "image_url": screen.data_url()}]}]
        else:
            request = [self._answer(self._pending, screen)]
        totals = {"input": 0, "output": 0, "cached": 0, "retries": 0, "latency": 0.0, "images": 0}
        thoughts: list[str] = []
        for _ in range(MAX_LOOKS_PER_STEP):
            response = self._call(request, totals)
            self._previous = response.id
            output = [item.model_dump(exclude_none=True) for item in response.output]
            thoughts += _texts(output)
            calls = [item for item in output if item.get("type") == "computer_call"]
            if not calls:
                self._pending = None
                message = "\n".join(_message_texts(output)).strip()
                done = Done(success=False, answer=message.split(":", 1)[-1].strip() or None) if message.upper().startswith("FAIL") else finished(message)
                return self._output([done], thoughts, totals, output, [])
            call = calls[-1]  # the model makes one computer call per response
            checks = [dict(check) for check in call.get("pending_safety_checks") or []]
            if checks and not self.acknowledge_safety_checks:
                self._pending = None
                refused = Done(success=False, answer="refused: the model's action needs a safety check to be acknowledged: "
                               + "; ".join(str(c.get("message") or c.get("code")) for c in checks))
                return self._output([refused], thoughts, totals, output, [{**c, "acknowledged": False} for c in checks])
            action = call.get("action") if "action" in call else call.get("actions")
            items = parse_openai_computer(action, scale=self._scale)  # type: ignore[arg-type]
            actions, _looks = split_items(items)
            self._pending = call
            if actions:
                return self._output(actions, thoughts, totals, output, [{**c, "acknowledged": True} for c in checks])
            request = [self._answer(call, screen)]  # a screenshot asked for: answered without a step
        raise too_many_looks(json.dumps(output))

    # -- internals ----------------------------------------------------------------------------
    def _answer(self, call: dict[str, Any], screen: Screen) -> dict[str, Any]:
        answer: dict[str, Any] = {"type": "computer_call_output", "call_id": call["call_id"],
                                  "output": {"type": "computer_screenshot", "image_url": screen.data_url()}}
        checks = call.get("pending_safety_checks") or []
        if checks:  # only reached when they are to be acknowledged (see act)
            answer["acknowledged_safety_checks"] = [{"id": c["id"], "code": c.get("code"), "message": c.get("message")} for c in checks]
        return answer

    def _call(self, request: list[dict[str, Any]], totals: dict[str, Any]) -> Any:
        import openai

        body: dict[str, Any] = {"model": self.model, "instructions": INSTRUCTIONS, "input": request, "truncation": "auto",
                                "tools": [openai_computer_tool(self._scale, environment=self.environment)]}  # type: ignore[arg-type]
        if self._previous is not None:
            body["previous_response_id"] = self._previous
        if self.max_output_tokens is not None:
            body["max_output_tokens"] = self.max_output_tokens
        answer = call_with_retries(lambda: self._send(body), policy=self.endpoint.retry,
                                   classify=lambda exc: classify_sdk_error(exc, openai, secrets=(self.endpoint.api_key,)),
                                   what=f"the OpenAI Responses API at {self._client.base_url}")
        usage = answer.value.usage
        totals["input"] += int(getattr(usage, "input_tokens", 0) or 0)
        totals["cached"] += int(getattr(getattr(usage, "input_tokens_details", None), "cached_tokens", 0) or 0)
        totals["output"] += int(getattr(usage, "output_tokens", 0) or 0)
        totals["retries"] += answer.retries
        totals["latency"] += answer.latency_s
        totals["images"] += 1
        return answer.value

    def _send(self, body: dict[str, Any]) -> Any:
        """One request, within the timeout as a whole; an answer that is not a response is the service's fault."""
        with self._slots.slot() if self._slots is not None else nullcontext():
            response = within_deadline(lambda: self._client.responses.create(**body), self.endpoint.retry.timeout_s)
        return require_fields(response, "response", ("id", "output"))

    def _output(self, actions: list[Any], thoughts: list[str], totals: dict[str, Any], output: list[dict[str, Any]],
                checks: list[dict[str, Any]]) -> PolicyOutput:
        usage = metered_usage(self.endpoint.price, input_tokens=totals["input"], output_tokens=totals["output"],
                              cached_tokens=totals["cached"], images=totals["images"], latency_s=totals["latency"],
                              retries=totals["retries"])
        info: dict[str, Any] = {"display": list(self._scale.display_size)}  # type: ignore[union-attr]
        if checks:
            info["safety_checks"] = checks
        return PolicyOutput(actions=actions, thought="\n".join(thoughts) or None, usage=usage, raw=json.dumps(output), info=info)


def _texts(output: list[dict[str, Any]]) -> list[str]:
    """The reasoning summaries of a response (the model's thought)."""
    return [part.get("text", "") for item in output if item.get("type") == "reasoning" for part in item.get("summary") or []
            if part.get("text")]


def _message_texts(output: list[dict[str, Any]]) -> list[str]:
    return [part.get("text", "") for item in output if item.get("type") == "message" for part in item.get("content") or []
            if part.get("type") == "output_text"]


def _client(endpoint: Endpoint) -> Any:
    try:
        import openai
    except ModuleNotFoundError:
        raise ModelError("openai-cua: policies need the openai SDK: pip install -e '.[http]'") from None
    return openai.OpenAI(base_url=endpoint.base_url, api_key=endpoint.api_key or "not-needed",
                         timeout=endpoint.retry.timeout_s, max_retries=0)


def load_openai_computer_policy(argument: str) -> OpenAIComputerPolicy:
    """The policy of an ``openai-cua:`` spec's argument: ``MODEL[?options]`` (see the module docstring)."""
    model, options = parse_spec("openai-cua", argument, OPTIONS)
    endpoint = endpoint_from(options, model=model, default_key_env="OPENAI_API_KEY", default_base_url=None,
                             base_url_env="OPENAI_BASE_URL", needs_key=not options.get("base_url") or "key_env" in options)
    try:
        return OpenAIComputerPolicy(model, endpoint=endpoint, environment=options.get("environment", "linux"),
                                    display=options.get("display"),
                                    acknowledge_safety_checks=bool(options.get("acknowledge_safety_checks", 0)),
                                    max_output_tokens=options.get("max_output_tokens"))
    except ValueError as exc:
        raise ModelError(f"openai-cua:{model}: {exc}") from None


__all__ = ["INSTRUCTIONS", "OPTIONS", "OpenAIComputerPolicy", "load_openai_computer_policy"]
