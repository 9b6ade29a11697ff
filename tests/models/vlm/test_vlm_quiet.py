"""``--quiet`` hushes transformers too: its progress bars, log records and Python warnings."""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

import pytest

from gui_agent.cli import main
from gui_agent.cli.quiet import libraries_quieted
from tests.paths import MINIWOB_TASKS


def test_a_quiet_run_of_an_hf_policy_prints_only_its_outcome(tiny_model_dirs: dict[str, Path], tmp_path: Path,
                                                               capfd: pytest.CaptureFixture[str]) -> None:
    model = tiny_model_dirs["idefics3"]
    args = ["run", str(MINIWOB_TASKS / "click-button.yaml"), "--policy", f"hf:{model}?max_new_tokens=4", "--out", str(tmp_path)]
    main(args)  # not quiet: transformers shows its "Loading weights" bar
    assert "Loading weights" in capfd.readouterr().err
    main([*args, "--quiet"])
    out, err = capfd.readouterr()
    assert err == "", err
    assert [line.split()[0] for line in out.splitlines() if not line.startswith(" ")] in (["FAILURE"], ["SUCCESS"])


def test_library_logging_and_warnings_are_silenced_then_restored() -> None:
    from transformers.utils import logging as hf_logging

    heard: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: heard.append(record.getMessage())  # type: ignore[method-assign]
    library = logging.getLogger("transformers")
    library.addHandler(handler)
    level = library.level
    try:
        logger = hf_logging.get_logger("transformers.modeling_utils")
        with libraries_quieted(), warnings.catch_warnings(record=True) as caught:
            logger.warning("a transformers warning")
            warnings.warn("a library's UserWarning", UserWarning, stacklevel=1)
            assert not hf_logging.is_progress_bar_enabled()
        assert heard == [] and caught == []
        assert library.level == level and hf_logging.is_progress_bar_enabled()
        logger.warning("heard again")
        assert heard == ["heard again"]
    finally:
        library.removeHandler(handler)
