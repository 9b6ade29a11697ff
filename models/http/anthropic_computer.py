"""``--policy anthropic:MODEL``: Claude with Anthropic's computer-use tool.

The episode is one Messages API conversation. The first user turn holds the task and the
screen; Claude answers with ``tool_use`` calls of the ``computer`` tool (tool versions
``computer_20250124`` and ``computer_20251124``, ``tool=``), each read into canonical
actions by :mod:`gui_agent.action_formats.anthropic_computer`; the next turn answers every
call with a ``tool_result`` holding the screen the actions led to. Calls that only look (a
screenshot, the pointer position, a zoomed region) are answered at once, without a step.
A turn without a tool call ends the episode: ``done`` with Claude's text as the answer, or
``done(success=False)`` when the text starts with ``FAIL`` (the system prompt asks for
that when a task cannot be done).

The tool version (and its beta header) is the one Anthropic's computer-use page gives
for the model (:func:`tool_version_for`): ``computer_20251124`` for Claude Opus 4.5 and
the models after it, ``computer_20250124`` for Claude Sonnet 4.5, Haiku 4.5, Opus 4.1,
Sonnet 4, Opus 4 and Sonnet 3.7; a model the table does not know (a newer one) gets the
newest. ``tool=`` in the spec chooses another.

Screenshots are resized to the declared display (by default fitted to Anthropic's
documented limits, ``display=WxH`` to choose) and coordinates scaled back to the screen.
Only the last ``images`` screenshots stay in the conversation (older ones become a line
of text), as Anthropic's reference implementation does, so a long episode does not resend
every screen; when the API still says the prompt is too long, one more is left out.
"""

from __future__ import annotations

import json
import re
from contextlib import nullcontext
from typing import Any

from gui_agent.action_formats._gestures import DisplayScale, ObservationRequest
from gui_agent.action_formats.anthropic_computer import AnthropicComputerReader, anthropic_computer_tool, anthropic_display_scale
from gui_agent.actions import Done
from gui_agent.envs.base import Observation
from gui_agent.errors import ModelError, PolicyRequestError
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.models.http.calls import ContextTooLong, call_with_retries, classify_sdk_error, require_fields, within_deadline
from gui_agent.models.http.computer_use import MAX_LOOKS_PER_STEP, Screen, finished, split_items, too_many_looks
from gui_agent.models.http.concurrency import EndpointSlots
from gui_agent.models.http.pricing import metered_usage
from gui_agent.models.http.settings import Endpoint, display_size, endpoint_from, parse_spec
from gui_agent.models.spec_options import Options, text, whole

#: The beta flag each tool version is enabled with.
TOOL_BETAS = {"computer_20250124": "computer-use-2025-01-24", "computer_20251124": "computer-use-2025-11-24"}
#: The newest tool version: what a model the table below does not know gets.
NEWEST_TOOL = "computer_20251124"
#: The tool version each Claude model takes, by model family (Anthropic's computer-use page).
TOOL_BY_MODEL = {
    "claude-opus-4-7": "computer_20251124", "claude-opus-4-6": "computer_20251124", "claude-sonnet-4-6": "computer_20251124",
    "claude-opus-4-5": "computer_20251124",
    "claude-sonnet-4-5": "computer_20250124", "claude-haiku-4-5": "computer_20250124", "claude-opus-4-1": "computer_20250124",
    "claude-opus-4": "computer_20250124", "claude-sonnet-4": "computer_20250124", "claude-3-7-sonnet": "computer_20250124",
}


def tool_version_for(model: str) -> str:
    """The computer tool version ``model`` takes: by its family, the date and any vendor prefix
    left out (``claude-opus-4-20250514`` is ``claude-opus-4``, not ``claude-opus-4-5``); the
    newest for a model the table does not know."""
    name = model.rsplit("/", 1)[-1].lower().removeprefix("anthropic.")
    family = re.sub(r"(?:[-@]\d{8}.*|-latest|-v\d+(?::\d+)?)$", "", name)
    return TOOL_BY_MODEL.get(family, NEWEST_TOOL)

#: Options of ``anthropic:`` besides the common ones (:mod:`gui_agent.models.http.settings`).
OPTIONS: Options = {"tool": text, "display": display_size, "images": whole(1), "max_tokens": whole(1)}
SYSTEM = (
    "You operate a Linux computer through the computer tool to do the user's task. Look at the screen, act, and "
    "check the result. When the task is done, reply without calling a tool, with the answer if the task asks a "
    "question. If the task cannot be done, reply without calling a tool, starting with 'FAIL:' and the reason."
)
_LEFT_OUT = "(an earlier screenshot, left out to keep the conversation short)"


class AnthropicComputerPolicy:
    """Claude with the computer tool as a :class:`gui_agent.policy.Policy`.

    Args:
        model: the Claude model id.
        endpoint: URL, key, retries, concurrency, price (see :mod:`gui_agent.models.http.settings`).
        tool: the computer tool version (None: the one the model takes, :func:`tool_version_for`).
        display: the display to declare (None: fitted to the screen by Anthropic's limits).
        images: screenshots kept in the conversation.
        max_tokens: longest answer.
        client: an ``anthropic.Anthropic`` client to use instead of building one.
    """

    def __init__(self, model: str, *, endpoint: Endpoint, tool: str | None = None, display: tuple[int, int] | None = None,
                 images: int = 3, max_tokens: int = 1024, client: Any = None) -> None:
        tool = tool or tool_version_for(model)
        if tool not in TOOL_BETAS:
            raise ModelError(f"anthropic:{model}: tool={tool!r}; expected one of {', '.join(TOOL_BETAS)}")
        self.model, self.endpoint, self.tool = model, endpoint, tool
        self.display, self.images, self.max_tokens = display, images, max_tokens
        self.name = f"anthropic:{model}"
        self._client = client if client is not None else _client(endpoint)
        self._slots = EndpointSlots(str(self._client.base_url), endpoint.max_concurrent) if endpoint.max_concurrent else None
        self._task: TaskContext | None = None
        self._messages: list[dict[str, Any]] = []
        self._pending: list[dict[str, Any]] = []  # tool_use blocks whose results the next turn gives
        self._reader: AnthropicComputerReader | None = None
        self._scale: DisplayScale | None = None

    @property
    def base_url(self) -> str:
        """Where the requests go (the SDK's default when neither the spec nor the environment names one)."""
        return str(self._client.base_url)

    # -- Policy ---------------------------------------------------------------------------
    def reset(self, task: TaskContext) -> None:
        self._task = task
        self._messages, self._pending = [], []
        self._reader = self._scale = None

    def act(self, observation: Observation) -> PolicyOutput:
        if self._task is None:
            raise RuntimeError("reset(task) must be called before act()")
        screen = self._screen(observation)
        if not self._messages:
            self._messages.append({"role": "user", "content": [{"type": "text", "text": f"Task: {self._task.instruction}"},
                                                               _image_block(screen.base64_png())]})
        else:
            self._messages.append({"role": "user", "content": self._results(screen, self._pending, [])})
        totals = {"input": 0, "output": 0, "cached": 0, "retries": 0, "latency": 0.0, "images": 0}
        thoughts: list[str] = []
        for _ in range(MAX_LOOKS_PER_STEP):
            response = self._call(totals)
            content = [block.model_dump(exclude_none=True) for block in response.content]
            self._messages.append({"role": "assistant", "content": content})
            text = "\n".join(block["text"] for block in content if block.get("type") == "text").strip()
            if text:
                thoughts.append(text)
            calls = [block for block in content if block.get("type") == "tool_use"]
            if not calls:
                self._pending = []
                done = _final(text)
                return self._output([done], thoughts, totals, content)
            items = self._reader.read([call["input"] for call in calls])  # type: ignore[union-attr]
            actions, looks = split_items(items)
            if actions:
                self._pending = calls
                return self._output(actions, thoughts, totals, content)
            # Only looking (or a button pressed and not yet released): answer now, no step.
            self._messages.append({"role": "user", "content": self._results(screen, calls, looks)})
        raise too_many_looks(json.dumps(self._messages[-2]["content"]))

    # -- internals ----------------------------------------------------------------------------
    def _screen(self, observation: Observation) -> Screen:
        height, width = observation.screenshot.shape[:2]
        if self._scale is None:
            self._scale = (DisplayScale(*self.display, width, height) if self.display
                           else anthropic_display_scale(width, height))
            self._reader = AnthropicComputerReader(scale=self._scale, version=self.tool)  # type: ignore[arg-type]
        return Screen(observation.screenshot, self._scale)

    def _results(self, screen: Screen, calls: list[dict[str, Any]], looks: list[ObservationRequest]) -> list[dict[str, Any]]:
        """One ``tool_result`` per call: what it asked to see, else the screen now."""
        by_kind = {look.kind: look for look in looks}
        results = []
        for call in calls:
            action = call["input"].get("action")
            if action == "cursor_position":
                content: list[dict[str, Any]] = [{"type": "text", "text": screen.cursor_text(self._reader.pointer)}]  # type: ignore[union-attr]
            elif action == "zoom" and "zoom" in by_kind and by_kind["zoom"].region is not None:
                from gui_agent.models.http.openai_chat import png_data_url

                content = [_image_block(png_data_url(screen.zoom(by_kind["zoom"].region)).split(",", 1)[1])]
            else:
                content = [_image_block(screen.base64_png())]
            results.append({"type": "tool_result", "tool_use_id": call["id"], "content": content})
        return results

    def _call(self, totals: dict[str, Any]) -> Any:
        import anthropic

        keep = self.images
        failed = 0
        while True:
            messages = _keep_recent_images(self._messages, keep)
            body = {"model": self.model, "max_tokens": self.max_tokens, "system": SYSTEM, "messages": messages,
                    "tools": [anthropic_computer_tool(self._scale, version=self.tool)], "betas": [TOOL_BETAS[self.tool]]}  # type: ignore[arg-type]
            try:
                answer = call_with_retries(lambda: self._send(body), policy=self.endpoint.retry,
                                           classify=lambda exc: classify_sdk_error(exc, anthropic, secrets=(self.endpoint.api_key,)),
                                           what=f"the Anthropic API at {self._client.base_url}")
                break
            except ContextTooLong as exc:
                sent = sum(1 for message in messages for block in _blocks(message) if block.get("type") == "image")
                if sent <= 1:
                    raise PolicyRequestError(f"the prompt is too long even with one screenshot: {exc}") from None
                keep, failed = sent - 1, failed + exc.failed_requests
        usage = answer.value.usage
        cache_read = int(getattr(usage, "cache_read_input_tokens", 0) or 0)
        cache_write = int(getattr(usage, "cache_creation_input_tokens", 0) or 0)
        totals["input"] += int(usage.input_tokens) + cache_read + cache_write
        totals["cached"] += cache_read
        totals["output"] += int(usage.output_tokens)
        totals["retries"] += answer.retries + failed
        totals["latency"] += answer.latency_s
        totals["images"] += sum(1 for message in messages for block in _blocks(message) if block.get("type") == "image")
        return answer.value

    def _send(self, body: dict[str, Any]) -> Any:
        """One request, within the timeout as a whole; an answer that is not a message is the service's fault."""
        with self._slots.slot() if self._slots is not None else nullcontext():
            response = within_deadline(lambda: self._client.beta.messages.create(**body), self.endpoint.retry.timeout_s)
        return require_fields(response, "message", ("content", "usage"))

    def _output(self, actions: list[Any], thoughts: list[str], totals: dict[str, Any], content: list[dict[str, Any]]) -> PolicyOutput:
        usage = metered_usage(self.endpoint.price, input_tokens=totals["input"], output_tokens=totals["output"],
                              cached_tokens=totals["cached"], images=totals["images"], latency_s=totals["latency"],
                              retries=totals["retries"])
        return PolicyOutput(actions=actions, thought="\n".join(thoughts) or None, usage=usage, raw=json.dumps(content),
                            info={"tool": self.tool, "display": list(self._scale.display_size)})  # type: ignore[union-attr]


def _final(text: str) -> Done:
    if text.upper().startswith("FAIL"):
        return Done(success=False, answer=text.split(":", 1)[-1].strip() or None)
    return finished(text)


def _image_block(base64_png: str) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": base64_png}}


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Every content block of a message, the ones inside tool results included."""
    out = []
    for block in message["content"] if isinstance(message["content"], list) else []:
        out.append(block)
        if block.get("type") == "tool_result" and isinstance(block.get("content"), list):
            out.extend(block["content"])
    return out


def _keep_recent_images(messages: list[dict[str, Any]], keep: int) -> list[dict[str, Any]]:
    """The conversation with all but its ``keep`` most recent screenshots replaced by a line of text."""
    total = sum(1 for message in messages for block in _blocks(message) if block.get("type") == "image")
    drop = max(0, total - keep)
    if not drop:
        return messages

    def thin(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        nonlocal drop
        out = []
        for block in blocks:
            if block.get("type") == "image" and drop:
                drop -= 1
                out.append({"type": "text", "text": _LEFT_OUT})
            elif block.get("type") == "tool_result" and isinstance(block.get("content"), list):
                out.append({**block, "content": thin(block["content"])})
            else:
                out.append(block)
        return out

    return [{**message, "content": thin(message["content"])} if isinstance(message["content"], list) else message
            for message in messages]


def _client(endpoint: Endpoint) -> Any:
    try:
        import anthropic
    except ModuleNotFoundError:
        raise ModelError("anthropic: policies need the anthropic SDK: pip install -e '.[http]'") from None
    return anthropic.Anthropic(base_url=endpoint.base_url, api_key=endpoint.api_key or "not-needed",
                               timeout=endpoint.retry.timeout_s, max_retries=0)


def load_anthropic_policy(argument: str) -> AnthropicComputerPolicy:
    """The policy of an ``anthropic:`` spec's argument: ``MODEL[?options]`` (see the module docstring)."""
    model, options = parse_spec("anthropic", argument, OPTIONS)
    endpoint = endpoint_from(options, model=model, default_key_env="ANTHROPIC_API_KEY", default_base_url=None,
                             base_url_env="ANTHROPIC_BASE_URL", needs_key=not options.get("base_url") or "key_env" in options)
    return AnthropicComputerPolicy(model, endpoint=endpoint, tool=options.get("tool"),
                                   display=options.get("display"), images=options.get("images", 3),
                                   max_tokens=options.get("max_tokens", 1024))


__all__ = ["OPTIONS", "SYSTEM", "TOOL_BETAS", "TOOL_BY_MODEL", "AnthropicComputerPolicy", "load_anthropic_policy", "tool_version_for"]
