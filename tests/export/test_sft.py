"""--format sft: chat rows whose assistant turns read back (with the project's own parsers) as the actions."""

from __future__ import annotations

from pathlib import Path

import datasets
import numpy as np
import pytest

from gui_agent.action_formats import parse_pyautogui, parse_uitars
from gui_agent.actions import (
    Click,
    Done,
    Drag,
    Hotkey,
    Move,
    Scroll,
    Type,
    Wait,
    action_from_dict,
    action_space_prompt,
    action_to_text,
)
from gui_agent.export import ExportError, ExportOptions, SftOptions, export_dataset
from gui_agent.action_formats.uitars import UITARS_ACTION_SPACE
from tests.synthetic_episodes import frame, write_synthetic

ACTIONS = [Click(100, 50), Click(10, 20, button="right"), Move(30, 3), Drag(1, 2, 400, 300), Scroll(20, 20, dy=5),
           Type("hello\n"), Hotkey(("ctrl", "c")), Wait(5.0), Done(success=True, answer="42")]
SIZE = (640, 400)


def _export(tmp_path: Path, options: SftOptions, actions=ACTIONS) -> datasets.Dataset:  # type: ignore[no-untyped-def]
    source = tmp_path / "in"
    write_synthetic(source, "ep", actions, size=SIZE, thoughts=[f"thinking about step {i}" for i in range(len(actions))])
    out = tmp_path / f"ds-{options.action_format}-{options.images}"
    export_dataset([source], out, ExportOptions(formats=("sft",), sft=options))
    return datasets.load_dataset(str(out), "sft", split="train", cache_dir=str(tmp_path / "c"))


@pytest.mark.parametrize("version", ["uitars", "uitars-v1"])
def test_uitars_rows_parse_back_to_the_recorded_actions(tmp_path: Path, version: str) -> None:
    rows = _export(tmp_path, SftOptions(action_format=version))  # type: ignore[arg-type]
    assert len(rows) == len(ACTIONS)
    for row, expected in zip(rows, ACTIONS):
        system, user, assistant = row["messages"]
        assert [m["role"] for m in row["messages"]] == ["system", "user", "assistant"]
        assert UITARS_ACTION_SPACE in system["content"][0]["text"]
        assert user["content"][0]["text"].startswith("Task: Do every kind of action once")
        assert [part["type"] for part in user["content"]] == ["text", "image"]
        reply = parse_uitars(assistant["content"][0]["text"], screen_width=SIZE[0], screen_height=SIZE[1],
                             version="1.5" if version == "uitars" else "v1")
        assert reply.thought == f"thinking about step {row['step_index']}"
        (action,) = reply.actions
        if version == "uitars" or not hasattr(expected, "x"):
            assert action == expected  # 1.5 coordinates are exact
        else:  # v1's 0..1000 grid is off by at most a pixel on this screen
            assert abs(action.x - expected.x) <= 1 and abs(action.y - expected.y) <= 1
        assert np.array_equal(np.asarray(row["images"][0]), frame(*SIZE, row["step_index"]))


def test_pyautogui_rows_parse_back_and_unsayable_actions_are_left_out_and_counted(tmp_path: Path) -> None:
    rows = _export(tmp_path, SftOptions(action_format="pyautogui"))
    # Done(answer=...) has no pyautogui form: left out, not approximated.
    assert [r["step_index"] for r in rows] == list(range(len(ACTIONS) - 1))
    for row in rows:
        text = row["messages"][2]["content"][0]["text"]
        assert text.startswith(f"Thought: thinking about step {row['step_index']}\nAction: ")
        assert parse_pyautogui(text.split("Action: ", 1)[1]) == [ACTIONS[row["step_index"]]]
    card = (tmp_path / "ds-pyautogui-1" / "README.md").read_text()
    assert "sft steps left out" in card and "no pyautogui form" in card


def test_canonical_rows_use_the_action_space_prompt_and_history(tmp_path: Path) -> None:
    rows = _export(tmp_path, SftOptions(action_format="canonical", images=3, history=2))
    assert action_space_prompt() in rows[0]["messages"][0]["content"][0]["text"]
    assert [len(r["images"]) for r in rows] == [1, 2, 3, 3, 3, 3, 3, 3, 3]
    user = rows[4]["messages"][1]["content"]
    assert sum(part["type"] == "image" for part in user) == 3
    assert "Previous actions:\n1. move(30, 3)\n2. drag(1, 2, 400, 300)" in user[0]["text"]
    # oldest first: the last image is the current screen
    assert np.array_equal(np.asarray(rows[4]["images"][-1]), frame(*SIZE, 4))
    assert np.array_equal(np.asarray(rows[4]["images"][0]), frame(*SIZE, 2))
    for row in rows:
        expected = f"Thought: thinking about step {row['step_index']}\nAction: {action_to_text(ACTIONS[row['step_index']])}"
        assert row["messages"][2]["content"][0]["text"] == expected


def test_uitars_cannot_say_a_middle_click(tmp_path: Path) -> None:
    rows = _export(tmp_path, SftOptions(action_format="uitars"), actions=[Click(5, 5, button="middle"), Click(6, 6)])
    assert rows["step_index"] == [1]
    assert action_from_dict({"kind": "click", "x": 6, "y": 6}) == parse_uitars(
        rows[0]["messages"][2]["content"][0]["text"], screen_width=SIZE[0], screen_height=SIZE[1], version="1.5").actions[0]


def test_bad_sft_options_are_clear() -> None:
    with pytest.raises(ExportError, match="unknown action format 'tars'"):
        SftOptions(action_format="tars")  # type: ignore[arg-type]
    with pytest.raises(ExportError, match="--sft-images must be at least 1"):
        SftOptions(images=0)


def test_previous_actions_are_listed_as_the_format_writes_them_without_the_thought(tmp_path: Path) -> None:
    """A thought that mentions 'Action: ' stays out of the next prompt's list of previous actions."""
    source = tmp_path / "in"
    write_synthetic(source, "ep", [Click(100, 50), Move(30, 3)], size=SIZE, thoughts=["the next Action: a click", None])
    out = tmp_path / "ds"
    export_dataset([source], out, ExportOptions(formats=("sft",), sft=SftOptions(action_format="pyautogui")))
    rows = datasets.load_dataset(str(out), "sft", split="train", cache_dir=str(tmp_path / "c"))
    assert rows[0]["messages"][2]["content"][0]["text"] == "Thought: the next Action: a click\nAction: pyautogui.click(100, 50)"
    assert rows[1]["messages"][1]["content"][0]["text"] == "Task: Do every kind of action once\n\nPrevious actions:\n1. pyautogui.click(100, 50)"


def test_the_export_writes_rows_only_in_the_sft_formats() -> None:
    """json, qwen2.5, qwen3 and opencua prompt as their makers do; a policy builds those prompts, the export does not."""
    for name in ("json", "qwen3", "opencua"):
        with pytest.raises(ExportError, match=f"sft rows are written in uitars-v1, uitars, pyautogui, canonical, not '{name}'"):
            ExportOptions(formats=("sft",), sft=SftOptions(action_format=name)).configs()
    assert ExportOptions(formats=("steps",), sft=SftOptions(action_format="json")).configs() == ["steps", "episodes"]
