"""--push against a loopback stand-in of the hub: the real huggingface_hub up to the socket."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import huggingface_hub.constants
import pytest

from gui_agent.actions import Click, Type
from gui_agent.export import (
    ExportError,
    ExportOptions,
    export_dataset,
    import_dataset,
    push_dataset,
)
from tests.export.hub_server import FakeHub
from tests.synthetic_episodes import write_synthetic

TOKEN = "hf_TestTokenThatMustNeverLeak0123456789"


@pytest.fixture
def online(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process talks to the loopback hub: not offline, LFS transfers (the server speaks no Xet)."""
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_XET", True)


def _episodes(root: Path, n: int = 4) -> Path:
    for i in range(n):
        write_synthetic(root, f"ep{i}", [Click(i, i), Type(f"text {i}")], task_id=f"t/{i % 2}")
    return root


def _cli_env(hub: FakeHub, tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")}
    env.update(HF_ENDPOINT=hub.url, HF_TOKEN=TOKEN, HF_HUB_DISABLE_XET="1", HF_HOME=str(tmp_path / "hf-home"))
    return env


def _repo_files(hub: FakeHub, repo_id: str) -> dict[str, bytes]:
    return {path: file.data for path, file in hub.repos[repo_id].files.items()}


def _local_files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}


def test_export_and_push_from_the_cli_then_import_from_the_repo(tmp_path: Path, online: None) -> None:
    source = _episodes(tmp_path / "in")
    out = tmp_path / "ds"
    with FakeHub(TOKEN) as hub:
        result = subprocess.run(
            [sys.executable, "-m", "gui_agent", "export", str(source), "--out", str(out), "--split", "train=0.5,test=0.5",
             "--push", "my-org/demos", "--private", "--message", "Add demos", "--quiet"],
            env=_cli_env(hub, tmp_path), capture_output=True, text=True, timeout=120, check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert "pushed to" in result.stdout
        repo = hub.repos["my-org/demos"]
        assert repo.private
        assert _repo_files(hub, "my-org/demos") == _local_files(out)  # everything, byte for byte
        assert [c["summary"] for c in repo.commits] == ["Add demos (part 1/1)", "Add demos"]
        assert repo.commits[-1]["paths"] == ["README.md"]  # the card goes last
        assert all(f.lfs for p, f in repo.files.items() if p.endswith(".parquet"))
        # The token travels in the Authorization header and nowhere else.
        assert TOKEN not in result.stdout + result.stderr
        for request in hub.requests:
            assert TOKEN.encode() not in request.body and TOKEN not in request.path
            assert all(TOKEN not in v for k, v in request.headers.items() if k != "authorization")
        assert any(r.headers.get("authorization") == f"Bearer {TOKEN}" for r in hub.requests)
        assert TOKEN not in (out / "README.md").read_text()

        # ... and back: the private repo downloaded and imported, bit-exact.
        report = import_dataset("my-org/demos", tmp_path / "back", endpoint=hub.url, token=TOKEN, cache_dir=tmp_path / "cache")
        assert sorted(p.name for p in report.episodes) == ["ep0", "ep1", "ep2", "ep3"]
        for name in ("ep0", "ep3"):
            assert _local_files(source / name) == _local_files(tmp_path / "back" / name)
        with pytest.raises(ExportError, match="no such dataset on the hub, or it is private"):
            import_dataset("my-org/demos", tmp_path / "back2", endpoint=hub.url, token=False, cache_dir=tmp_path / "c2")  # type: ignore[arg-type]


def test_an_interrupted_push_resumes_without_sending_anything_twice(tmp_path: Path, online: None) -> None:
    source = _episodes(tmp_path / "in", n=6)
    out = tmp_path / "ds"
    export_dataset([source], out, ExportOptions(shard_bytes=1, row_group_rows=2))
    shards = sorted(p for p in out.rglob("*.parquet"))
    assert len(shards) >= 6  # one row group per shard
    with FakeHub(TOKEN) as hub:
        hub.fail_commits = {2}  # the second chunk's commit dies (a 500 from the hub)
        with pytest.raises(ExportError, match="500") as failure:
            push_dataset(out, "me/resume", token=TOKEN, endpoint=hub.url, chunk_files=2)
        assert TOKEN not in str(failure.value)
        first = list(hub.lfs_puts)
        assert len(hub.repos["me/resume"].commits) == 1 and len(first) == 4  # chunk 1 committed, chunk 2 uploaded

        report = push_dataset(out, "me/resume", token=TOKEN, endpoint=hub.url, chunk_files=2)
        assert len(hub.lfs_puts) == len(set(hub.lfs_puts)) == len(shards)  # every shard sent exactly once
        assert sorted(report.unchanged) == sorted(p.relative_to(out).as_posix() for p in shards[:2])
        assert _repo_files(hub, "me/resume") == _local_files(out)

        # Pushing again changes nothing: no upload, no commit.
        commits = len(hub.repos["me/resume"].commits)
        again = push_dataset(out, "me/resume", token=TOKEN, endpoint=hub.url, chunk_files=2)
        assert again.uploaded == [] and again.commits == [] and len(hub.repos["me/resume"].commits) == commits


def test_an_update_removes_shards_the_new_export_no_longer_has(tmp_path: Path, online: None) -> None:
    source = _episodes(tmp_path / "in", n=4)
    out = tmp_path / "ds"
    with FakeHub(TOKEN) as hub:
        export_dataset([source], out, ExportOptions(shard_bytes=1, row_group_rows=2))
        push_dataset(out, "me/update", token=TOKEN, endpoint=hub.url)
        before = set(hub.repos["me/update"].files)
        export_dataset([source / "ep0"], out, ExportOptions(overwrite=True))
        report = push_dataset(out, "me/update", token=TOKEN, endpoint=hub.url)
        assert _repo_files(hub, "me/update") == _local_files(out)
        assert set(report.deleted) == before - set(_local_files(out))


def test_the_token_is_redacted_from_errors_and_required(tmp_path: Path, online: None) -> None:
    source = _episodes(tmp_path / "in", n=1)
    out = tmp_path / "ds"
    with FakeHub(TOKEN) as hub:
        hub.echo_token_on_create = True  # a server that repeats the Authorization header in its error
        result = subprocess.run(
            [sys.executable, "-m", "gui_agent", "export", str(source), "--out", str(out), "--push", "me/x", "--quiet"],
            env=_cli_env(hub, tmp_path), capture_output=True, text=True, timeout=120, check=False,
        )
        assert result.returncode == 1
        assert "push failed" in result.stdout and "***" in result.stdout
        assert TOKEN not in result.stdout + result.stderr
        hub.echo_token_on_create = False
        with pytest.raises(ExportError, match="401.*the token is invalid|the token is invalid.*401"):
            push_dataset(out, "me/x", token="hf_wrong", endpoint=hub.url)
    with pytest.raises(ExportError, match="no hub token"):
        push_dataset(out, "me/x", endpoint="http://127.0.0.1:9")
    with pytest.raises(ExportError, match="not a hub repo id"):
        push_dataset(out, "a/b/c", token=TOKEN)
    with pytest.raises(ExportError, match="not an exported dataset"):
        push_dataset(source, "me/x", token=TOKEN)


def test_a_failed_push_resumes_when_the_same_command_is_run_again(tmp_path: Path, online: None) -> None:
    """The advice after a failed push is "re-run the same command": that used to stop at "pass --overwrite"."""
    source = _episodes(tmp_path / "in", n=4)
    out = tmp_path / "ds"
    command = [sys.executable, "-m", "gui_agent", "export", str(source), "--out", str(out), "--push", "me/again", "--quiet"]
    with FakeHub(TOKEN) as hub:
        hub.fail_commits = {1}  # the first commit dies (a 500 from the hub)
        first = subprocess.run(command, env=_cli_env(hub, tmp_path), capture_output=True, text=True, timeout=120, check=False)
        assert first.returncode == 1, first.stdout + first.stderr
        assert "push failed" in first.stdout and "re-run the same command to resume" in first.stdout
        exported = {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")}

        again = subprocess.run(command, env=_cli_env(hub, tmp_path), capture_output=True, text=True, timeout=120, check=False)
        assert again.returncode == 0, again.stdout + again.stderr
        assert "pushing it again" in again.stdout and "pushed to" in again.stdout
        assert {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")} == exported  # pushed as it was, not exported again
        assert _repo_files(hub, "me/again") == _local_files(out)
        assert len(hub.lfs_puts) == len(set(hub.lfs_puts))  # nothing sent twice

        # Pushed: the folder is an ordinary export again, which the same command does not overwrite.
        third = subprocess.run(command, env=_cli_env(hub, tmp_path), capture_output=True, text=True, timeout=120, check=False)
        assert third.returncode == 2 and "pass --overwrite" in third.stdout
