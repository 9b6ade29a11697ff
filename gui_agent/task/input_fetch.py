"""Downloading a task's declared inputs into a cache, resumably, then into the task's folder.

``gui-agent import-osworld --fetch`` uses it: each URL is downloaded once into the cache
(``~/.cache/gui-agent/inputs`` unless told otherwise), under a folder named by a hash of
the URL, first as ``NAME.part``; an interrupted download continues where it stopped (an
HTTP ``Range`` request) the next time. A finished file is copied to ``inputs/NAME`` next
to the task file. Only http(s) URLs are fetched.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from gui_agent.errors import InputFetchError

#: Bytes read per chunk (the progress callback is called after each).
CHUNK = 256 * 1024
#: Seconds a connection may be silent before the download counts as failed.
TIMEOUT_S = 60.0

Progress = Callable[[int, int | None], None]


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/gui-agent/inputs`` (``~/.cache/...`` by default)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gui-agent" / "inputs"


def cached_path(cache_dir: Path, url: str, name: str) -> Path:
    """Where ``url`` is kept in the cache: one folder per URL (a hash), the file's own name in it."""
    key = hashlib.sha256(url.encode()).hexdigest()[:20]
    return cache_dir / key / Path(name).name


def download(url: str, target: Path, *, on_progress: Progress | None = None, timeout_s: float = TIMEOUT_S) -> bool:
    """Download ``url`` to ``target`` (resuming ``target.part``); False when it was already there.

    Raises:
        InputFetchError: not an http(s) URL, the server refused or the connection broke
            (what arrived stays in ``.part`` for the next try).
    """
    if urlsplit(url).scheme not in ("http", "https"):
        raise InputFetchError(f"{url}: only http and https addresses are downloaded")
    if target.is_file():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    offset = part.stat().st_size if part.is_file() else 0
    request = urllib.request.Request(url, headers={"User-Agent": "gui-agent", **({"Range": f"bytes={offset}-"} if offset else {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            resumed = offset > 0 and response.status == 206
            if not resumed:
                offset = 0
            length = response.headers.get("Content-Length")
            total = offset + int(length) if length and length.isdigit() else None
            done = offset
            with part.open("ab" if resumed else "wb") as out:
                while chunk := response.read(CHUNK):
                    out.write(chunk)
                    done += len(chunk)
                    if on_progress is not None:
                        on_progress(done, total)
            if total is not None and done < total:
                raise InputFetchError(f"{url}: the connection closed after {done} of {total} bytes (run again to resume)")
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and offset:  # nothing after the offset: the part is whole
            part.replace(target)
            return True
        raise InputFetchError(f"{url}: the server answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise InputFetchError(f"{url}: {reason} (what arrived is kept; run again to resume)") from None
    part.replace(target)
    return True


def fetch_input(url: str, destination: Path, *, cache_dir: Path, on_progress: Progress | None = None) -> bool:
    """Put ``url``'s file at ``destination`` through the cache; False when the cache already had it.

    Raises:
        InputFetchError: the download failed.
    """
    cached = cached_path(cache_dir, url, destination.name)
    fresh = download(url, cached, on_progress=on_progress)
    destination.parent.mkdir(parents=True, exist_ok=True)
    if not destination.exists():
        shutil.copyfile(cached, destination)
    return fresh


__all__ = ["cached_path", "default_cache_dir", "download", "fetch_input"]
