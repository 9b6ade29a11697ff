"""Is the endpoint there at all? One connection, before any worker starts.

A wrong host in ``base_url`` otherwise shows up only once the episodes run: every
request fails, is retried with backoff, and each episode ends as a service failure
after many seconds, its cause buried in "Connection error.". :func:`probe_endpoint` opens
one TCP connection to where the requests would go and fails at once when the host name
does not resolve or nothing listens there.

The probe sends no HTTP request, so it costs nothing at a paid API, needs no key, and
works the same for OpenAI, Anthropic and any OpenAI-compatible server (vLLM, SGLang,
TGI, Ollama, ``transformers serve``), whatever they answer on ``/models`` (a 401 without
a key, a 404 on a server without that route). A timeout, or any other network error, is
left to the calls' own retries: it may pass, and it is not what a typo looks like.

With ``HTTPS_PROXY``/``HTTP_PROXY``/``ALL_PROXY`` set (and the host not in ``NO_PROXY``)
the SDKs connect to the proxy, so the proxy is what is probed.
"""

from __future__ import annotations

import socket
import urllib.request
from urllib.parse import urlsplit

from gui_agent.errors import ModelError

#: Seconds the probe waits for the connection: a slow network is left to the calls.
PROBE_TIMEOUT_S = 5.0


def _target(url: str) -> tuple[str, int, str]:
    """(host, port, how it is reached) of a request to ``url``: the proxy when one applies."""
    parts = urlsplit(url)
    scheme = parts.scheme or "https"
    host = parts.hostname or ""
    proxies = urllib.request.getproxies()
    proxy = proxies.get(scheme) or proxies.get("all")
    if proxy and host and not urllib.request.proxy_bypass(host):
        proxied = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        if proxied.hostname:
            default = 443 if proxied.scheme == "https" else 1080 if proxied.scheme.startswith("socks") else 80
            return proxied.hostname, proxied.port or default, f"through the proxy {proxied.hostname}:{proxied.port or default}"
    return host, parts.port or (443 if scheme == "https" else 80), ""


def probe_endpoint(url: str, *, timeout_s: float = PROBE_TIMEOUT_S) -> None:
    """Fail when ``url``'s host does not resolve or refuses the connection; anything else passes.

    Raises:
        ModelError: the host name is unknown, or nothing listens at its port (the cause in the message).
    """
    host, port, via = _target(url)
    if not host:
        raise ModelError(f"the endpoint {url!r} names no host; base_url must look like http://HOST:PORT/v1")
    where = f"{url} ({host}:{port}{', ' + via if via else ''})"
    try:
        connection = socket.create_connection((host, port), timeout=timeout_s)
    except socket.gaierror as exc:
        raise ModelError(f"cannot reach the model endpoint {where}: the host name {host!r} does not resolve ({exc.strerror or exc}); "
                         "check base_url") from None
    except ConnectionRefusedError as exc:
        raise ModelError(f"cannot reach the model endpoint {where}: the connection was refused ({exc.strerror or exc}): is the "
                         "server running, on that port?") from None
    except OSError:
        return  # a timeout, an unreachable network: maybe passing, left to the calls' retries
    connection.close()


def connection_problem(url: str, *, timeout_s: float = PROBE_TIMEOUT_S) -> str | None:
    """Why no TCP connection to ``url``'s host (or its proxy) opens within ``timeout_s``, or
    None when one does. Unlike :func:`probe_endpoint`, a timeout counts: for a client that
    would spend many seconds retrying anyway (the hub's downloads), no answer is an answer."""
    host, port, via = _target(url)
    if not host:
        return f"{url!r} names no host"
    where = f"{host}:{port}{' ' + via if via else ''}"
    try:
        connection = socket.create_connection((host, port), timeout=timeout_s)
    except socket.gaierror as exc:
        return f"the host name {host!r} does not resolve ({exc.strerror or exc})"
    except TimeoutError:
        return f"no answer from {where} within {timeout_s:g} s"
    except OSError as exc:
        return f"cannot connect to {where} ({exc.strerror or exc})"
    connection.close()
    return None


__all__ = ["PROBE_TIMEOUT_S", "connection_problem", "probe_endpoint"]
