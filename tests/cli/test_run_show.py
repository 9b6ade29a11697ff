"""`gui-agent run` and `gui-agent show` as a user calls them."""

from __future__ import annotations

from pathlib import Path

from gui_agent.cli import main
from tests.paths import MINIWOB_TASKS

TASK = MINIWOB_TASKS / "click-tab.yaml"


def test_run_then_show(tmp_path: Path, capsys) -> None:
    assert main(["run", str(TASK), "--policy", "oracle", "--seeds", "0-1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("SUCCESS miniwob/click-tab") == 2
    episodes = sorted(p for p in tmp_path.iterdir() if p.is_dir())
    assert len(episodes) == 2
    assert main(["show", str(episodes[0])]) == 0
    shown = capsys.readouterr().out
    assert "miniwob/click-tab" in shown and "success" in shown and "click(" in shown


def test_run_with_a_random_policy_reports_failure_in_the_exit_code(tmp_path: Path, capsys) -> None:
    code = main(["run", str(TASK), "--policy", "random:1", "--out", str(tmp_path), "--quiet"])
    out = capsys.readouterr().out
    assert (code, "FAILURE" in out) in {(1, True), (0, False)}  # exit code agrees with the verdict


def test_run_rejects_a_bad_task_file_without_a_traceback(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: x\ninstruction: y\nenvironment: {kind: browser, url: 'miniwob:nope'}\n")
    assert main(["run", str(bad), "--out", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert "bad.yaml:3" in out and "nope" in out


def test_run_rejects_an_unknown_policy(tmp_path: Path, capsys) -> None:
    assert main(["run", str(TASK), "--policy", "genius", "--out", str(tmp_path)]) == 2
    assert "unknown policy 'genius'" in capsys.readouterr().out


def test_show_on_a_non_episode(tmp_path: Path, capsys) -> None:
    assert main(["show", str(tmp_path)]) == 2
    assert "not an episode" in capsys.readouterr().out


def test_show_prints_markup_like_text_from_the_episode_verbatim(tmp_path: Path, capsys) -> None:
    """A VLM's thought such as "[/INST] ..." or an instruction with "[/b]" used to crash `show` (rich MarkupError)."""
    import json

    assert main(["run", str(TASK), "--policy", "oracle", "--seeds", "0", "--out", str(tmp_path), "--quiet"]) == 0
    capsys.readouterr()
    (episode,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    meta = json.loads((episode / "episode.json").read_text())
    meta["task"]["instruction"] = "Switch to tab [/b] [bold]2[/bold]"
    (episode / "episode.json").write_text(json.dumps(meta))
    lines = (episode / "steps.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["thought"] = "[/INST] the tab is on the left"
    (episode / "steps.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    assert main(["show", str(episode)]) == 0
    shown = capsys.readouterr().out
    assert "Switch to tab [/b] [bold]2[/bold]" in shown
    assert "[/INST] the tab is on the left" in shown
