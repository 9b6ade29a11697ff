"""A loopback stand-in for services that cannot be reached from here (OpenAI, Anthropic).

It speaks their documented wire format: the official SDKs are pointed at it with
``base_url``, every request body they send is kept for the test to check against the
documented schema, and each answer is taken from a script: a documented example
response, or a fault (429 with ``Retry-After``, 500, a hang past the client's timeout, a
dropped connection, a malformed body, a context-length error).
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
    without an answer), ``garbage`` (200 with a body that is not JSON).
    """

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    fault: str | None = None
    hang_s: float = 5.0


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
                with stand_in._lock:
                    stand_in.requests.append(Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    reply = stand_in.script.pop(0) if len(stand_in.script) > 1 else stand_in.script[0]
                if reply.fault == "hang":
                    time.sleep(reply.hang_s)
                    return
                if reply.fault == "drop":
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                data = b"{not json" if reply.fault == "garbage" else json.dumps(reply.body).encode()
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

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
