"""A loopback stand-in for services that cannot be reached from here (OpenAI, Anthropic).

It speaks their documented wire format: the official SDKs are pointed at it with
``base_url``, every request body they send is kept for the test to check against the
documented schema, and each answer is taken from a script: a documented example
response, or a fault (429 with ``Retry-After``, 500, a hang past the client's timeout, a
dropped connection, a malformed body, a reply trickled byte by byte, a proxy's HTML page,
a context-length error).

Before the script is consulted, a request is checked as the real API checks it
(:func:`vendor_refusal`): OpenAI refuses ``max_tokens`` and a non-default ``temperature``
for its reasoning models, Anthropic refuses a computer tool version the model does not
take or whose beta header is missing. A refused request is answered with the vendor's
error body and does not use up a scripted answer.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted answer: a status with a JSON body (and headers), or a fault.

    ``fault``: ``hang`` (answer nothing for ``hang_s``), ``drop`` (close the connection
    without an answer), ``garbage`` (200 with a body that is not JSON), ``trickle`` (the
    JSON body a byte at a time, spread over ``trickle_s``, so no single read waits long).
    ``html``: the body is this HTML page (``text/html``), as a proxy or a web UI answers.
    """

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    fault: str | None = None
    hang_s: float = 5.0
    trickle_s: float = 6.0
    html: str | None = None


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: Any


class StandIn:
    """The server: ``script`` answers in order (the last one repeats); ``requests`` is what came."""

    def __init__(self, script: list[Reply]) -> None:
        self.script = list(script)
        self.requests: list[Request] = []
        #: Requests being answered right now, and the most there ever were at once.
        self.in_flight = 0
        self.max_in_flight = 0
        #: Seconds every answer takes (to see requests overlap).
        self.delay_s = 0.0
        self._lock = threading.Lock()
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"null")
                except json.JSONDecodeError:
                    body = raw.decode("utf-8", "replace")
                request = Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                refusal = vendor_refusal(request)
                with stand_in._lock:
                    stand_in.requests.append(request)
                    if refusal is not None:
                        reply = refusal
                    else:
                        reply = stand_in.script.pop(0) if len(stand_in.script) > 1 else stand_in.script[0]
                    stand_in.in_flight += 1
                    stand_in.max_in_flight = max(stand_in.max_in_flight, stand_in.in_flight)
                try:
                    self._answer(reply)
                finally:
                    with stand_in._lock:
                        stand_in.in_flight -= 1

            def _answer(self, reply: Reply) -> None:
                time.sleep(stand_in.delay_s)
                if reply.fault == "hang":
                    time.sleep(reply.hang_s)
                    return
                if reply.fault == "drop":
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                if reply.html is not None:
                    data, content_type = reply.html.encode(), "text/html; charset=utf-8"
                else:
                    data, content_type = (b"{not json" if reply.fault == "garbage" else json.dumps(reply.body).encode()), "application/json"
                self.send_response(reply.status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(data)))
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                if reply.fault != "trickle":
                    self.wfile.write(data)
                    return
                # Headers at once, then the body in 12 pieces at even intervals: every
                # read gets bytes well within a client's per-read timeout.
                pieces = 12
                size = -(-len(data) // pieces)
                try:
                    for start in range(0, len(data), size):
                        time.sleep(reply.trickle_s / pieces)
                        self.wfile.write(data[start:start + size])
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):  # the client gave up
                    self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> StandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(5)


@contextmanager
def stand_in(script: list[Reply]) -> Iterator[StandIn]:
    with StandIn(script) as server:
        yield server


def chat_completion(content: str | None, *, tool_calls: list[dict[str, Any]] | None = None, prompt_tokens: int = 1200,
                    completion_tokens: int = 30, cached_tokens: int = 0, model: str = "gpt-4o-2024-08-06") -> dict[str, Any]:
    """A chat completion as OpenAI's API reference shows one."""
    message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None}
    if tool_calls:
        message["tool_calls"] = [
            {"id": f"call_{i}", "type": "function", "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
            for i, c in enumerate(tool_calls)
        ]
    return {
        "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG", "object": "chat.completion", "created": 1741570283, "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": "tool_calls" if tool_calls else "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens,
                  "prompt_tokens_details": {"cached_tokens": cached_tokens, "audio_tokens": 0},
                  "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                                                "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}},
        "service_tier": "default",
    }


def openai_error(message: str, *, kind: str = "invalid_request_error", code: str | None = None) -> dict[str, Any]:
    """An error body as OpenAI's API documents it."""
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def anthropic_message(*blocks: dict[str, Any], stop_reason: str | None = None, input_tokens: int = 2000, output_tokens: int = 60,
                      cache_read: int = 0, model: str = "claude-sonnet-4-5-20250929") -> dict[str, Any]:
    """A Messages API response as Anthropic's reference shows one (``blocks``: text / tool_use)."""
    if stop_reason is None:
        stop_reason = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return {"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant", "model": model,
            "content": list(blocks), "stop_reason": stop_reason, "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens, "cache_creation_input_tokens": 0,
                      "cache_read_input_tokens": cache_read}}


def tool_use(action: str, index: int = 0, **fields: Any) -> dict[str, Any]:
    """A ``tool_use`` block of the computer tool."""
    return {"type": "tool_use", "id": f"toolu_01A09q90qw90lq917835lq9{index}", "name": "computer", "input": {"action": action, **fields}}


def text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def anthropic_error(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


def openai_response(*items: dict[str, Any], response_id: str = "resp_67cc", input_tokens: int = 1500, output_tokens: int = 40,
                    cached_tokens: int = 0, model: str = "computer-use-preview-2025-03-11") -> dict[str, Any]:
    """A Responses API response as OpenAI's computer-use guide shows one."""
    return {"id": response_id, "object": "response", "created_at": 1741476542, "status": "completed", "error": None,
            "incomplete_details": None, "instructions": None, "max_output_tokens": None, "model": model,
            "output": list(items), "parallel_tool_calls": True, "previous_response_id": None,
            "reasoning": {"effort": None, "summary": None}, "store": True, "temperature": 1.0,
            "text": {"format": {"type": "text"}}, "tool_choice": "auto", "tools": [], "top_p": 1.0, "truncation": "auto",
            "usage": {"input_tokens": input_tokens, "input_tokens_details": {"cached_tokens": cached_tokens},
                      "output_tokens": output_tokens, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": input_tokens + output_tokens},
            "user": None, "metadata": {}}


def computer_call(action: dict[str, Any], call: str = "call_02", checks: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"type": "computer_call", "id": f"cu_{call}", "call_id": call, "action": action,
            "pending_safety_checks": checks or [], "status": "completed"}


def reasoning(text: str) -> dict[str, Any]:
    return {"type": "reasoning", "id": "rs_67cc", "summary": [{"type": "summary_text", "text": text}]}


def output_message(text: str) -> dict[str, Any]:
    return {"type": "message", "id": "msg_67cc", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


# ------------------------------------------------------------------ what the real APIs refuse
#: OpenAI's reasoning models by family (o-series, the GPT-5 family but its chat model), as
#: OpenAI's API reference and reasoning guide list them: they take ``max_completion_tokens``,
#: never ``max_tokens``, and only the default sampling (``temperature``/``top_p`` 1).
OPENAI_REASONING_FAMILIES = ("o1", "o3", "o4-mini", "gpt-5")
#: Chat models inside those families that are not reasoning models.
OPENAI_NON_REASONING = ("gpt-5-chat",)
#: The computer tool versions each Claude model takes, as Anthropic's computer-use page
#: lists them, and the beta header each version needs.
ANTHROPIC_COMPUTER_TOOLS = {
    "claude-opus-4-7": "computer_20251124", "claude-opus-4-6": "computer_20251124", "claude-sonnet-4-6": "computer_20251124",
    "claude-opus-4-5": "computer_20251124",
    "claude-sonnet-4-5": "computer_20250124", "claude-haiku-4-5": "computer_20250124", "claude-opus-4-1": "computer_20250124",
    "claude-sonnet-4": "computer_20250124", "claude-opus-4": "computer_20250124", "claude-3-7-sonnet": "computer_20250124",
}
ANTHROPIC_COMPUTER_BETAS = {"computer_20250124": "computer-use-2025-01-24", "computer_20251124": "computer-use-2025-11-24"}


def _family(model: str, families: Any) -> str | None:
    """The family a dated or prefixed model id belongs to (``claude-opus-4-20250514`` -> ``claude-opus-4``)."""
    import re

    name = model.rsplit("/", 1)[-1].lower()
    name = re.sub(r"(?:[-@]\d{8}.*|-latest)$", "", name)
    return name if name in families else None


def vendor_refusal(request: Request) -> Reply | None:
    """The 400 the real API answers this request with, or None when it would take it."""
    body = request.body if isinstance(request.body, dict) else {}
    model = str(body.get("model") or "")
    if request.path.endswith("/chat/completions"):
        name = model.rsplit("/", 1)[-1].lower()
        reasoning = name.startswith(OPENAI_REASONING_FAMILIES) and not name.startswith(OPENAI_NON_REASONING)
        if reasoning and "max_tokens" in body:
            return Reply(status=400, body={"error": {
                "message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
                "type": "invalid_request_error", "param": "max_tokens", "code": "unsupported_parameter"}})
        for sampling in ("temperature", "top_p"):
            if reasoning and sampling in body and body[sampling] != 1:
                return Reply(status=400, body={"error": {
                    "message": f"Unsupported value: '{sampling}' does not support {body[sampling]} with this model. "
                               "Only the default (1) value is supported.",
                    "type": "invalid_request_error", "param": sampling, "code": "unsupported_value"}})
        if name.startswith(("gpt-4", "gpt-3.5")) and "reasoning_effort" in body:
            return Reply(status=400, body={"error": {
                "message": "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
                "type": "invalid_request_error", "param": "reasoning_effort", "code": "unsupported_parameter"}})
    if request.path.startswith("/v1/messages"):
        family = _family(model, ANTHROPIC_COMPUTER_TOOLS)
        betas = [beta.strip() for beta in request.headers.get("anthropic-beta", "").split(",")]
        for index, tool in enumerate(body.get("tools") or []):
            kind = str(tool.get("type", ""))
            if not kind.startswith("computer_"):
                continue
            if family is not None and ANTHROPIC_COMPUTER_TOOLS[family] != kind:
                return Reply(status=400, body=anthropic_error(f"'{model}' does not support tool types: {kind}."))
            if ANTHROPIC_COMPUTER_BETAS.get(kind) not in betas:
                return Reply(status=400, body=anthropic_error(
                    f"tools.{index}: the tool type '{kind}' needs the beta header '{ANTHROPIC_COMPUTER_BETAS.get(kind)}'"))
    return None
