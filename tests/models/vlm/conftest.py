"""Shared fixtures of the VLM tests: offline hub, one torch thread, oracle demonstrations.

Nothing downloads: ``HF_HUB_OFFLINE=1`` for the whole session, and every model is a tiny
one built from a config (:mod:`gui_agent.models.vlm.tiny`) and saved to a temporary folder, so it is
loaded back through the real ``from_pretrained`` path.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.models.vlm.vlm_support import run_oracle


@pytest.fixture(scope="session", autouse=True)
def _offline_single_thread() -> Iterator[None]:
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    import huggingface_hub.constants

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HUB_OFFLINE", "1")
        patch.setenv("TRANSFORMERS_OFFLINE", "1")
        # huggingface_hub reads the variable once, at import, which may have happened already.
        patch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
        yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="session")
def click_button_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One oracle episode: click-button, seed 0 (one click)."""
    out = tmp_path_factory.mktemp("demo-click-button")
    run_oracle(out, [("click-button", 0)])
    return out


@pytest.fixture(scope="session")
def enter_text_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One oracle episode: enter-text, seed 0 (click, type, click submit)."""
    out = tmp_path_factory.mktemp("demo-enter-text")
    run_oracle(out, [("enter-text", 0)])
    return out


@pytest.fixture(scope="session")
def tiny_model_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An untrained tiny model of every family, saved with save_pretrained."""
    from gui_agent.models.vlm.families import FAMILIES
    from gui_agent.models.vlm.tiny import save_tiny_model

    root = tmp_path_factory.mktemp("tiny-models")
    return {family: save_tiny_model(family, root / family) for family in FAMILIES}
