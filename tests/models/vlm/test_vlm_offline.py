"""A model that is not there fails at once with the reason, instead of after the hub's retries.

A mistyped local folder (``runs/my-sft`` reads like a hub id) and a hub id on a machine
that cannot reach the hub used to spend about 23 s in the hub client's retries. Here the
hub is a real TCP port on 127.0.0.1 with nothing listening (refused at once), as an
unreachable hub is from a machine without a network.
"""

from __future__ import annotations

import shutil
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from gui_agent.cli import main
from gui_agent.errors import ModelError
from gui_agent.registry import load_policy


@pytest.fixture
def unreachable_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Online as far as the settings go, with the hub's endpoint a closed local port."""
    import huggingface_hub.constants

    with socket.socket() as holder:  # a port nobody listens on once the socket is closed
        holder.bind(("127.0.0.1", 0))
        port = holder.getsockname()[1]
    endpoint = f"http://127.0.0.1:{port}"
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(huggingface_hub.constants, "ENDPOINT", endpoint)
    yield endpoint


def test_a_missing_local_folder_that_reads_like_a_hub_id_is_named_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    with pytest.raises(ModelError, match=r"runs/my-sft: no such folder \(runs/ is here, runs/my-sft is not\)"):
        load_policy("hf:runs/my-sft")


def test_an_uncached_hub_id_with_the_hub_out_of_reach_says_so(unreachable_hub: str, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    with pytest.raises(ModelError, match=f"no such model in the hub cache.*the hub at {unreachable_hub} cannot be reached"):
        load_policy("hf:some-org/not-cached-anywhere")


def test_train_vlm_says_so_too(unreachable_hub: str, tmp_path: Path, click_button_demo: Path,
                               capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    out = tmp_path / "model"
    code = main(["train", "vlm", str(click_button_demo), "--model", "some-org/not-cached-anywhere", "--out", str(out), "--quiet"])
    printed = capsys.readouterr().out
    assert code == 2 and "cannot be reached" in printed and "connect" in printed
    assert not out.exists() or not any(out.iterdir())


def test_a_cached_hub_id_loads_from_the_cache_when_the_hub_is_out_of_reach(unreachable_hub: str, tiny_model_dirs: dict[str, Path],
                                                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import huggingface_hub.constants

    repo = tmp_path / "hub" / "models--tiny-org--tiny-qwen"
    shutil.copytree(tiny_model_dirs["qwen2_vl"], repo / "snapshots" / ("b" * 40))
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("b" * 40)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    policy = load_policy("hf:tiny-org/tiny-qwen?max_new_tokens=4")
    assert policy.vlm.family.name == "qwen2_vl"
