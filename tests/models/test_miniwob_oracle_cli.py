"""``python -m gui_agent.models.policies.miniwob_oracle``: task names checked, ``--seeds`` a range as everywhere."""

from __future__ import annotations

import pytest

from gui_agent.models.policies.miniwob_oracle.__main__ import main


def test_a_misspelt_task_is_refused_with_the_close_names(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["click-tabb"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "no MiniWoB++ task file 'click-tabb'" in err and "did you mean click-tab" in err
    assert "Traceback" not in err


def test_seeds_take_a_range_and_a_bad_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["click-test", "--seeds", "3-4"]) == 0
    out = capsys.readouterr().out
    assert "miniwob/click-test" in out and "2/2" in out
    with pytest.raises(SystemExit) as stopped:
        main(["click-test", "--seeds", "5-2"])
    assert stopped.value.code == 2 and "runs backwards" in capsys.readouterr().err
