"""Export -> datasets.load_dataset(DIR), offline: every config and split, with the declared features."""

from __future__ import annotations

import io
import json
from pathlib import Path

import datasets
import numpy as np
import pyarrow.parquet as pq
import pytest
from huggingface_hub import DatasetCard
from PIL import Image

from gui_agent.actions import Click, Done, Drag, Hotkey, Move, Scroll, Type, Wait
from gui_agent.cli import main
from gui_agent.episode import read_episode
from gui_agent.export import ExportOptions, SplitSpec, export_dataset
from gui_agent.export.features import config_features
from tests.synthetic_episodes import write_synthetic

ALL_ACTIONS = [
    Click(10, 20), Click(5, 6, button="right"), Move(30, 3), Drag(1, 2, 40, 30), Scroll(20, 20, dy=5),
    Type("hello world\n"), Hotkey(("ctrl", "s")), Wait(5.0), Done(success=True, answer="42"),
]


def _declared(out: Path) -> dict[str, datasets.Features]:
    data = DatasetCard.load(out / "README.md").data.to_dict()
    infos = data["dataset_info"] if isinstance(data["dataset_info"], list) else [data["dataset_info"]]
    return {info["config_name"]: datasets.Features._from_yaml_list(info["features"]) for info in infos}


def _split_sizes(out: Path) -> dict[tuple[str, str], int]:
    data = DatasetCard.load(out / "README.md").data.to_dict()
    return {(info["config_name"], s["name"]): s["num_examples"] for info in data["dataset_info"] for s in info["splits"]}


def test_every_config_and_split_loads_offline_with_the_declared_features(runner_episodes: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    assert main([
        "export", str(runner_episodes), "--out", str(out), "--format", "steps,sft",
        "--split", "train=0.6,test=0.4", "--license", "apache-2.0", "--quiet",
    ]) == 0
    assert datasets.config.HF_HUB_OFFLINE  # the load below cannot reach anything
    declared = _declared(out)
    sizes = _split_sizes(out)
    assert set(declared) == {"steps", "episodes", "sft"}
    loaded_rows = {}
    for config, features in declared.items():
        assert features == config_features(config)
        dsd = datasets.load_dataset(str(out), config, cache_dir=str(tmp_path / "cache"))
        assert set(dsd) == {"train", "test"}
        for split, ds in dsd.items():
            assert ds.features == features, (config, split)
            assert ds.num_rows == sizes[(config, split)]
            loaded_rows[(config, split)] = ds
    # Default config is steps; the card's counts are the real ones.
    default = datasets.load_dataset(str(out), split="train", cache_dir=str(tmp_path / "cache"))
    assert default.features == declared["steps"]
    n_steps = sum(len(read_episode(p).steps) for p in runner_episodes.iterdir())
    assert sum(loaded_rows[("steps", s)].num_rows for s in ("train", "test")) == n_steps
    assert sum(loaded_rows[("episodes", s)].num_rows for s in ("train", "test")) == 5

    # A decoded screenshot is exactly the recorded frame.
    row = loaded_rows[("steps", "train")][0]
    episode = read_episode(runner_episodes / row["episode_id"])
    recorded = episode.load_frame(episode.steps[row["step_index"]].frame_before)
    assert np.array_equal(np.asarray(row["image"].convert("RGB")), recorded)
    assert row["action_text"] and row["action"]["kind"] in {"click", "type"}

    # No episode is split across splits, in any config.
    for config in ("steps", "episodes", "sft"):
        train = set(loaded_rows[(config, "train")]["episode_id"])
        test = set(loaded_rows[(config, "test")]["episode_id"])
        assert train and test and not train & test

    card = (out / "README.md").read_text()
    for fact in ("| episodes | 5 |", f"| steps | {n_steps} |", "100.0% (5 of 5 judged)", "`miniwob/click-button` (3)",
                 "`miniwob/enter-text` (2)", "`160x210` (5)", "`miniwob-oracle` (5)", "`apache-2.0`"):
        assert fact in card, fact


def test_shards_embed_images_and_carry_the_features(tmp_path: Path) -> None:
    episode = write_synthetic(tmp_path / "in", "ep-all", ALL_ACTIONS)
    out = tmp_path / "ds"
    export_dataset([episode.parent], out, ExportOptions(row_group_rows=4))
    shard = pq.ParquetFile(next((out / "data" / "steps").glob("train-*.parquet")))
    assert shard.metadata.num_row_groups == 3  # 9 rows, row groups of 4
    meta = json.loads(shard.schema_arrow.metadata[b"huggingface"])
    assert datasets.Features.from_dict(meta["info"]["features"]) == config_features("steps")
    cell = shard.read(columns=["image"]).column("image")[0].as_py()
    assert cell["path"] == "frames/000000.png"
    assert cell["bytes"] == (episode / "frames" / "000000.png").read_bytes()  # embedded, not a path
    assert Image.open(io.BytesIO(cell["bytes"])).size == (64, 48)


def test_split_by_task_keeps_each_task_in_one_split_and_is_seeded(tmp_path: Path) -> None:
    source = tmp_path / "in"
    for task in range(6):
        for n in range(3):
            write_synthetic(source, f"t{task}-e{n}", [Click(1, 1)], task_id=f"suite/task-{task}")
    tasks_of = {}
    for seed in (0, 0, 1):
        out = tmp_path / f"ds-{seed}-{len(tasks_of)}"
        export_dataset([source], out, ExportOptions(split=SplitSpec((("train", 0.5), ("test", 0.5)), by="task", seed=seed)))
        by_split = {}
        for split in ("train", "test"):
            rows = datasets.load_dataset(str(out), "episodes", split=split, cache_dir=str(tmp_path / "c"))
            by_split[split] = set(rows["task_id"])
            assert len(rows) == 3 * len(by_split[split])  # all three episodes of a task together
        assert not by_split["train"] & by_split["test"] and len(by_split["train"]) == 3
        tasks_of.setdefault(seed, []).append(by_split["test"])
    assert tasks_of[0][0] == tasks_of[0][1]  # same seed, same split


def test_export_is_deterministic(tmp_path: Path) -> None:
    source = tmp_path / "in"
    for n in range(3):
        write_synthetic(source, f"ep{n}", ALL_ACTIONS[: n + 2])
    a, b = tmp_path / "a", tmp_path / "b"
    export_dataset([source], a, ExportOptions(split=SplitSpec((("train", 0.7), ("test", 0.3)))))
    export_dataset([source], b, ExportOptions(split=SplitSpec((("train", 0.7), ("test", 0.3)))))
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files_a == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for rel in files_a:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def test_an_empty_split_is_left_out_of_the_card_so_the_rest_loads(tmp_path: Path) -> None:
    write_synthetic(tmp_path / "in", "only", [Click(1, 1)])
    out = tmp_path / "ds"
    export_dataset([tmp_path / "in"], out, ExportOptions(split=SplitSpec((("train", 0.5), ("test", 0.5)))))
    for config in ("steps", "episodes"):
        dsd = datasets.load_dataset(str(out), config, cache_dir=str(tmp_path / "c"))
        assert len(dsd) == 1 and next(iter(dsd.values())).num_rows == 1  # datasets cannot load an empty split
    assert len(list((out / "data" / "steps").iterdir())) == 1


@pytest.mark.parametrize("fmt", ["steps", "sft"])
def test_shard_rollover_keeps_the_hub_names(tmp_path: Path, fmt: str) -> None:
    big = [np.random.default_rng(i).integers(0, 255, (120, 160, 3), dtype=np.uint8) for i in range(12)]
    write_synthetic(tmp_path / "in", "big", [Click(i, i) for i in range(12)], size=(160, 120), frames=big)
    out = tmp_path / "ds"
    export_dataset([tmp_path / "in"], out, ExportOptions(formats=(fmt,), shard_bytes=100_000, row_group_rows=2))
    config = "steps" if fmt == "steps" else "sft"
    shards = sorted(p.name for p in (out / "data" / config).iterdir())
    assert len(shards) > 2 and all(name.endswith(f"-of-{len(shards):05d}.parquet") for name in shards)
    ds = datasets.load_dataset(str(out), config, split="train", cache_dir=str(tmp_path / "c"))
    assert ds["step_index"] == list(range(12))
