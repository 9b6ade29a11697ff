"""``push_dataset``: an exported folder -> a dataset repo on the hub, in resumable chunks.

With ``huggingface_hub``: the repo is created if missing (``exist_ok``; ``private`` makes
an existing one private too), then the shards go up in several commits of at most
``chunk_files`` files / ``chunk_bytes`` bytes each, and a last commit adds the card and
deletes shards an earlier export left on the repo that this one no longer has (so the
card's ``data_files`` patterns match exactly what is there). The card goes last: the
dataset is announced only once its data is complete.

Resuming is re-running the same push (``gui-agent export`` run again as it was: a failed
push leaves :data:`~gui_agent.export.layout.PENDING_PUSH_FILE` in the folder, so the same
command pushes the export it made instead of exporting again). Before uploading, the hub says which files it
already holds with the same content (``preupload``), and ``huggingface_hub`` drops those:
the chunks committed before an interruption are not sent again, and content already
uploaded for a chunk whose commit did not happen is not re-sent either (the LFS batch
answer, or Xet's deduplication, says it is there).

The token comes from ``token=``, else ``HF_TOKEN`` or the user's login
(``huggingface_hub.get_token``). It is never printed: every message that leaves this
module goes through :func:`redact`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gui_agent.episode.writer import write_json_atomic
from gui_agent.errors import ExportError
from gui_agent.export.layout import CARD_FILE, DATA_DIR, PENDING_PUSH_FILE

DEFAULT_CHUNK_FILES = 50
DEFAULT_CHUNK_BYTES = 4 * 1024**3
_REPO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$|^[A-Za-z0-9][A-Za-z0-9._-]*$")


def redact(text: str, *secrets: str | None) -> str:
    """``text`` with every secret (the token) replaced by ``***``."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text


@dataclass
class PushReport:
    """What a push did."""

    repo_id: str
    url: str
    commits: list[str] = field(default_factory=list)  # commit ids, in order
    uploaded: list[str] = field(default_factory=list)  # files sent (new or changed)
    unchanged: list[str] = field(default_factory=list)  # files the hub already had
    deleted: list[str] = field(default_factory=list)  # stale files removed from the repo


def mark_push_pending(folder: str | Path, command: Mapping[str, Any]) -> None:
    """Remember in the export ``folder`` that pushing it failed, and which ``command`` made it.

    ``gui-agent export`` run again with the same ``command`` then pushes this export
    again (:func:`pending_push`) instead of refusing a folder that already holds one.
    """
    write_json_atomic(Path(folder) / PENDING_PUSH_FILE, dict(command))


def pending_push(folder: str | Path) -> dict[str, Any] | None:
    """The command whose push of ``folder`` failed (see :func:`mark_push_pending`), or None."""
    try:
        data = json.loads((Path(folder) / PENDING_PUSH_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def clear_pending_push(folder: str | Path) -> None:
    """Forget a failed push of ``folder`` (it has now been pushed, or replaced)."""
    (Path(folder) / PENDING_PUSH_FILE).unlink(missing_ok=True)


def _local_files(folder: Path) -> list[str]:
    if not (folder / CARD_FILE).is_file() or not (folder / DATA_DIR).is_dir():
        raise ExportError(f"{folder}: not an exported dataset (expected {CARD_FILE} and {DATA_DIR}/); run 'gui-agent export' first")
    partial = sorted(p for p in (folder / DATA_DIR).rglob("*.partial"))
    if partial:
        raise ExportError(f"{folder}: holds an unfinished export ({partial[0].name}); export again before pushing")
    return sorted(p.relative_to(folder).as_posix() for p in (folder / DATA_DIR).rglob("*.parquet"))


def _chunks(folder: Path, files: list[str], max_files: int, max_bytes: int) -> list[list[str]]:
    chunks: list[list[str]] = []
    current: list[str] = []
    size = 0
    for rel in files:
        file_size = (folder / rel).stat().st_size
        if current and (len(current) >= max_files or size + file_size > max_bytes):
            chunks.append(current)
            current, size = [], 0
        current.append(rel)
        size += file_size
    if current:
        chunks.append(current)
    return chunks


def push_dataset(
    folder: str | Path,
    repo_id: str,
    *,
    private: bool | None = None,
    message: str = "Upload dataset with gui-agent",
    token: str | None = None,
    endpoint: str | None = None,
    chunk_files: int = DEFAULT_CHUNK_FILES,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    on_chunk: Callable[[int, int, list[str]], None] | None = None,
) -> PushReport:
    """Create or update the dataset repo ``repo_id`` from an exported folder.

    Args:
        folder: what ``export_dataset`` wrote.
        repo_id: ``owner/name`` (or ``name`` under the token's user).
        private: make the repo private (also when it already exists); ``None`` keeps the
            hub's default for a new repo and leaves an existing one as it is.
        message: commit message; chunk commits get `` (part i/n)`` appended.
        token: a hub token; default ``HF_TOKEN`` or the saved login.
        endpoint: the hub's URL (default: ``HF_ENDPOINT`` or huggingface.co).
        chunk_files, chunk_bytes: the most files and bytes one commit carries.
        on_chunk: called before each commit with (part, parts, files).

    Raises:
        ExportError: no token, not an export, a bad repo id, or the hub refused (the message
            says what the hub said, token removed).
    """
    from huggingface_hub import (
        CommitOperationAdd,
        CommitOperationDelete,
        HfApi,
        get_token,
    )
    from huggingface_hub.errors import HfHubHTTPError
    from huggingface_hub.utils import disable_progress_bars

    folder = Path(folder)
    if not _REPO_ID.match(repo_id):
        raise ExportError(f"{repo_id!r} is not a hub repo id; expected owner/name, e.g. my-org/gui-trajectories")
    if not message.strip():
        raise ExportError("the commit message is empty")
    files = _local_files(folder)
    token = token or get_token()
    if not token:
        raise ExportError("no hub token: set HF_TOKEN or log in with 'hf auth login' (write access is needed to push)")
    api = HfApi(endpoint=endpoint, token=token)
    report = PushReport(repo_id=repo_id, url="")
    try:
        with disable_progress_bars():
            url = api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
            report.url = str(url)
            repo_id = getattr(url, "repo_id", None) or repo_id
            report.repo_id = repo_id
            if private:
                api.update_repo_settings(repo_id, private=True, repo_type="dataset")
            remote = set(api.list_repo_files(repo_id, repo_type="dataset"))
            chunks = _chunks(folder, files, max(1, chunk_files), max(1, chunk_bytes))
            parts = len(chunks) + 1
            stale = sorted(r for r in remote if r.startswith(DATA_DIR + "/") and r not in set(files))
            for part, chunk in enumerate([*chunks, [CARD_FILE]], start=1):
                if on_chunk is not None:
                    on_chunk(part, parts, chunk)
                ops: list = [CommitOperationAdd(path_in_repo=rel, path_or_fileobj=str(folder / rel)) for rel in chunk]
                deletions = [CommitOperationDelete(path_in_repo=rel) for rel in stale] if part == parts else []
                info = api.create_commit(
                    repo_id,
                    [*ops, *deletions],
                    commit_message=message if parts == 1 or part == parts else f"{message} (part {part}/{parts - 1})",
                    repo_type="dataset",
                )
                for op in ops:
                    # huggingface_hub drops a file whose remote content is the same (its no-op check).
                    same = op._remote_oid is not None and op._remote_oid == op._local_oid
                    (report.unchanged if same else report.uploaded).append(op.path_in_repo)
                if any(op.path_in_repo in report.uploaded for op in ops) or deletions:
                    report.commits.append(info.oid)
                report.deleted.extend(d.path_in_repo for d in deletions)
    except HfHubHTTPError as exc:
        status = exc.response.status_code if exc.response is not None else None
        hint = {401: " (the token is invalid or expired)", 403: " (the token cannot write to this repo)"}.get(status or 0, "")
        raise ExportError(redact(f"the hub refused the push of {repo_id}{hint}: {exc}", token)) from None
    except Exception as exc:  # noqa: BLE001 -- connection errors, malformed answers: whatever it is, without the token
        raise ExportError(redact(f"pushing {repo_id} failed: {exc.__class__.__name__}: {exc}", token)) from None
    return report
