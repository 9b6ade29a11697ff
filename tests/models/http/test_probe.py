"""The endpoint probe: an unknown host or a refused connection fails before any worker starts
(exit 2, with the cause); a server that is there passes without being sent a request."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gui_agent.envs.base import Observation
from gui_agent.errors import ModelError, PolicyServiceError
from gui_agent.policy import TaskContext
from gui_agent.registry import check_policy, load_policy
from gui_agent.models.http.probe import probe_endpoint
from tests.models.http.standin import Reply, openai_error, stand_in
from tests.paths import MINIWOB_TASKS, REPO

KEY = "sk-test-probe-key-0123456789"
UNKNOWN_HOST = "http://no-such-host.invalid:8000/v1"  # .invalid never resolves (RFC 2606)


@pytest.fixture(autouse=True)
def no_proxy_or_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_unknown_host_and_a_refused_connection_fail_with_their_cause() -> None:
    with pytest.raises(ModelError, match=r"the host name 'no-such-host.invalid' does not resolve .*check base_url"):
        probe_endpoint(UNKNOWN_HOST)
    port = _closed_port()
    with pytest.raises(ModelError, match=rf"127.0.0.1:{port}.*the connection was refused"):
        probe_endpoint(f"http://127.0.0.1:{port}/v1")


def test_a_server_that_is_there_passes_whatever_it_would_answer_and_is_sent_nothing() -> None:
    with stand_in([Reply(status=401, body=openai_error("Incorrect API key provided", code="invalid_api_key"))]) as server:
        probe_endpoint(f"{server.url}/v1")
        for spec in (f"openai:gpt-4o?base_url={server.url}/v1&key_env=OPENAI_API_KEY", f"anthropic:claude-sonnet-4-5?base_url={server.url}",
                     f"openai-cua:computer-use-preview?base_url={server.url}/v1"):
            check_policy(spec)
    assert server.requests == []  # no request: nothing paid, no key needed


def test_each_http_policy_is_probed_by_its_check() -> None:
    for spec in (f"openai:ui-tars?base_url={UNKNOWN_HOST}", "anthropic:claude-sonnet-4-5?base_url=http://no-such-host.invalid",
                 f"openai-cua:computer-use-preview?base_url={UNKNOWN_HOST}"):
        with pytest.raises(ModelError, match="does not resolve"):
            check_policy(spec)


def test_behind_a_proxy_the_proxy_is_probed(monkeypatch: pytest.MonkeyPatch) -> None:
    with stand_in([Reply(body={})]) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        probe_endpoint(UNKNOWN_HOST)  # the name is the proxy's to resolve
        monkeypatch.setenv("NO_PROXY", "no-such-host.invalid")
        with pytest.raises(ModelError, match="does not resolve"):
            probe_endpoint(UNKNOWN_HOST)
    monkeypatch.delenv("NO_PROXY")
    port = _closed_port()
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{port}")
    with pytest.raises(ModelError, match=rf"through the proxy 127.0.0.1:{port}.*refused"):
        probe_endpoint(UNKNOWN_HOST)


def test_a_connection_failure_mid_run_says_its_cause() -> None:
    policy = load_policy(f"openai:ui-tars?base_url=http://127.0.0.1:{_closed_port()}/v1&retries=0&format=uitars")
    policy.reset(TaskContext(task_id="t", instruction="x"))
    with pytest.raises(PolicyServiceError, match=r"connection failed: Connection error\. \(.*Connection refused\)"):
        policy.act(Observation(screenshot=np.zeros((40, 60, 3), np.uint8)))


@pytest.mark.parametrize("command", ["run", "eval"])
def test_run_and_eval_stop_at_once_with_exit_2_on_a_bad_host(command: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    for base_url, cause in ((UNKNOWN_HOST, "does not resolve"), (f"http://127.0.0.1:{_closed_port()}/v1", "connection was refused")):
        done = subprocess.run([sys.executable, "-m", "gui_agent", command, str(MINIWOB_TASKS / "click-button.yaml"), "--policy",
                               f"openai:ui-tars?base_url={base_url}&format=uitars", "--out", str(out), "--quiet"],
                              capture_output=True, text=True, timeout=120, cwd=REPO, env={**os.environ, "OPENAI_API_KEY": KEY})
        said = done.stdout + done.stderr
        assert done.returncode == 2 and cause in said and "Traceback" not in said, said
        assert not out.exists() or not any(out.rglob("episode.json"))  # no episode was started
