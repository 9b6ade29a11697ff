"""The one rule for episode folders: an episode folder, or a folder searched at any depth for them."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui_agent.actions import Click
from gui_agent.episode.finder import episodes_in, find_episode_dirs, find_one_episode, is_episode_dir
from gui_agent.errors import EpisodeNotFoundError
from tests.synthetic_episodes import write_synthetic


def _eval_out(root: Path) -> list[Path]:
    """An eval's --out layout: episodes/<task>/repeat-NNN/<episode_id>/, plus the run's own files."""
    (root / "run.json").parent.mkdir(parents=True, exist_ok=True)
    (root / "run.json").write_text("{}")
    (root / "ledger.jsonl").write_text("")
    return [write_synthetic(root / "episodes" / task / f"repeat-{repeat:03d}", f"{task}-{repeat}", [Click(1, 1)])
            for task in ("miniwob-click-tab", "miniwob-enter-text") for repeat in (0, 1)]


def test_an_episode_folder_is_itself(tmp_path: Path) -> None:
    episode = write_synthetic(tmp_path, "ep", [Click(1, 1)])
    assert is_episode_dir(episode) and not is_episode_dir(tmp_path)
    assert episodes_in(episode) == [episode]
    assert episodes_in(episode / "episode.json") == [episode]  # the file stands for its folder


def test_a_folder_is_searched_at_any_depth_as_an_eval_lays_it_out(tmp_path: Path) -> None:
    """make-reward-data used to look one level down only: an eval's --out (or its episodes/) was 'not an episode folder'."""
    episodes = _eval_out(tmp_path / "runs" / "oracle")
    assert episodes_in(tmp_path / "runs" / "oracle") == sorted(episodes)
    assert episodes_in(tmp_path / "runs" / "oracle" / "episodes") == sorted(episodes)
    assert episodes_in(tmp_path / "runs") == sorted(episodes)


def test_an_episode_folder_is_not_searched_inside(tmp_path: Path) -> None:
    outer = write_synthetic(tmp_path, "outer", [Click(1, 1)])
    write_synthetic(outer / "attachments", "inner", [Click(1, 1)])
    assert episodes_in(tmp_path) == [outer]


def test_several_paths_give_each_episode_once_in_the_order_given(tmp_path: Path) -> None:
    a = write_synthetic(tmp_path / "b-folder", "a", [Click(1, 1)])
    b = write_synthetic(tmp_path / "a-folder", "b", [Click(1, 1)])
    assert find_episode_dirs([a.parent, b.parent, a, tmp_path]) == [a, b]


def test_a_symlink_loop_does_not_hang_the_search(tmp_path: Path) -> None:
    episode = write_synthetic(tmp_path / "runs", "ep", [Click(1, 1)])
    (tmp_path / "runs" / "loop").symlink_to(tmp_path / "runs")
    assert episodes_in(tmp_path / "runs") == [episode]
    assert episodes_in(tmp_path / "runs" / "loop" / "ep") == [tmp_path / "runs" / "loop" / "ep"]  # named directly: followed


def test_what_is_not_there_is_named(tmp_path: Path) -> None:
    with pytest.raises(EpisodeNotFoundError, match="no such file or folder"):
        episodes_in(tmp_path / "missing")
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(EpisodeNotFoundError, match="not an episode folder"):
        episodes_in(tmp_path / "notes.txt")
    with pytest.raises(EpisodeNotFoundError, match="holds no episode"):
        episodes_in(tmp_path)
    with pytest.raises(EpisodeNotFoundError, match="no episode folder given"):
        find_episode_dirs([])


def test_one_episode_is_found_in_a_folder_holding_only_it_and_several_are_counted(tmp_path: Path) -> None:
    only = write_synthetic(tmp_path / "run" / "deep", "only", [Click(1, 1)])
    assert find_one_episode(tmp_path / "run") == only
    episodes = _eval_out(tmp_path / "eval")
    with pytest.raises(EpisodeNotFoundError, match=r"holds 4 episodes, and this takes one") as info:
        find_one_episode(tmp_path / "eval")
    assert str(sorted(episodes)[0]) in str(info.value)
