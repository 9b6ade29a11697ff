"""Every way a user can get a VLM policy or fine-tuning run wrong gets a clear ModelError.

Through the CLI the same cases exit with status 2, print the reason, and write nothing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gui_agent.cli import main
from gui_agent.errors import GuiAgentError, ModelError
from gui_agent.registry import load_policy
from tests.paths import REPO

TASK_DIR = REPO / "datasets" / "tasks" / "miniwob"


def _copy_with_config(source: Path, target: Path, **changes: object) -> Path:
    shutil.copytree(source, target)
    config = json.loads((target / "config.json").read_text())
    config.update(changes)
    (target / "config.json").write_text(json.dumps(config))
    return target


def test_a_folder_without_config_is_not_a_model(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ModelError, match="not a model: no config.json"):
        load_policy(f"hf:{tmp_path}")


def test_a_file_is_not_a_model_folder(tmp_path: Path) -> None:
    file = tmp_path / "model.safetensors"
    file.write_bytes(b"x")
    with pytest.raises(ModelError, match="not a model folder"):
        load_policy(f"hf:{file}")


def test_missing_folder_and_uncached_hub_id(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no such folder, and not a hub id"):
        load_policy(f"hf:{tmp_path}/missing/../x y")
    with pytest.raises(ModelError, match="no such model in the hub cache.*HF_HUB_OFFLINE"):
        load_policy("hf:nobody-here/no-such-model-xyz")


def test_a_hub_id_loads_from_the_hub_cache_offline(tiny_model_dirs: dict[str, Path], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The hub's servers cannot be reached here; its cache layout can: a repo in the cache
    loads by id with HF_HUB_OFFLINE=1, through huggingface_hub's own resolution."""
    import huggingface_hub.constants

    repo = tmp_path / "hub" / "models--tiny-org--tiny-idefics3"
    shutil.copytree(tiny_model_dirs["idefics3"], repo / "snapshots" / ("a" * 40))
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("a" * 40)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    policy = load_policy("hf:tiny-org/tiny-idefics3?max_new_tokens=4")
    assert policy.vlm.family.name == "idefics3" and policy.action_format == "pyautogui"
    with pytest.raises(ModelError, match="no such model in the hub cache"):
        load_policy("hf:tiny-org/another-one")


def test_unsupported_model_type_lists_the_supported_ones(tiny_model_dirs: dict[str, Path], tmp_path: Path) -> None:
    model = _copy_with_config(tiny_model_dirs["qwen2_vl"], tmp_path / "m", model_type="llava")
    with pytest.raises(ModelError) as caught:
        load_policy(f"hf:{model}")
    message = str(caught.value)
    assert "'llava' is not supported" in message
    for model_type in ("idefics3", "qwen2_5_vl", "qwen2_vl"):
        assert model_type in message
    assert "?family=" in message


def test_family_override_serves_an_unknown_model_type(tiny_model_dirs: dict[str, Path], tmp_path: Path) -> None:
    """A config whose model_type no family lists is served when the spec names the family."""
    config = json.loads((tiny_model_dirs["qwen2_vl"] / "config.json").read_text())
    from gui_agent.models.vlm.loading import choose_family

    assert choose_family({**config, "model_type": "my_gui_model"}, source="x", override="qwen2_vl").name == "qwen2_vl"
    with pytest.raises(ModelError, match="unknown family 'qwen3'"):
        choose_family(config, source="x", override="qwen3")


def test_quantised_checkpoint_needs_a_gpu(tiny_model_dirs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)  # a CPU-only machine, even on a GPU host
    model = _copy_with_config(tiny_model_dirs["qwen2_vl"], tmp_path / "m",
                              quantization_config={"quant_method": "awq", "bits": 4})
    with pytest.raises(ModelError, match=r"quantised \(awq\).*need a CUDA GPU"):
        load_policy(f"hf:{model}")
    with pytest.raises(ModelError, match="no CUDA GPU"):
        load_policy(f"hf:{tiny_model_dirs['qwen2_vl']}?device=cuda")


def test_dtype_defaults_bf16_on_gpu_fp32_on_cpu(monkeypatch: pytest.MonkeyPatch, tiny_model_dirs: dict[str, Path]) -> None:
    import torch

    from gui_agent.models.vlm.loading import choose_dtype

    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: True)
    assert choose_dtype(None, "cuda") == "bfloat16"
    assert choose_dtype(None, "cpu") == "float32"
    with pytest.raises(ModelError, match="unknown dtype 'fp8'"):
        choose_dtype("fp8", "cpu")
    policy = load_policy(f"hf:{tiny_model_dirs['idefics3']}?dtype=bfloat16&device=cpu")
    assert next(policy.vlm.model.parameters()).dtype == torch.bfloat16


@pytest.mark.parametrize("options, message", [
    ("foo=1", "unknown option 'foo'"),
    ("images=0", "images must be at least 1"),
    ("history=many", "history must be a whole number"),
    ("format=", "format needs a value"),
    ("format=canonical", "cannot be parsed"),
])
def test_bad_spec_options(tiny_model_dirs: dict[str, Path], options: str, message: str) -> None:
    with pytest.raises(ModelError, match=message):
        load_policy(f"hf:{tiny_model_dirs['qwen2_vl']}?{options}")


def test_hf_without_a_path() -> None:
    with pytest.raises(ModelError, match="needs a model folder or hub id"):
        load_policy("hf:")


def test_cli_run_with_a_bad_model_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", str(TASK_DIR / "click-button.yaml"), "--policy", f"hf:{tmp_path}", "--out", str(tmp_path / "runs")])
    assert code == 2
    assert "no config.json" in capsys.readouterr().out
    assert not (tmp_path / "runs").exists()


# ----------------------------------------------------------------------------- training
def test_train_cli_errors_exit_2_and_write_nothing(tmp_path: Path, click_button_demo: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    failed = tmp_path / "failed"
    shutil.copytree(click_button_demo, failed)
    meta_file = next(failed.rglob("episode.json"))
    meta = json.loads(meta_file.read_text())
    meta["outcome"]["success"] = False
    meta_file.write_text(json.dumps(meta))
    out = tmp_path / "out"
    cases = [
        ([str(empty)], ["--model", "tiny:qwen2_vl"], "holds no episode"),
        ([str(failed)], ["--model", "tiny:qwen2_vl"], "no training rows: failed episode"),
        ([str(click_button_demo)], ["--model", "tiny:llama"], "unknown family 'llama'"),
        ([str(click_button_demo)], ["--model", str(empty)], "no config.json"),
        ([str(click_button_demo)], ["--model", "tiny:qwen2_vl", "--epochs", "0"], "--epochs"),
        ([str(click_button_demo)], ["--model", "tiny:qwen2_vl", "--lr", "-1"], "--lr must be positive"),
    ]
    for inputs, options, message in cases:
        code = main(["train", "vlm", *inputs, "--out", str(out), "--quiet", *options])
        assert code == 2, message
        assert message in capsys.readouterr().out
        assert not out.exists()
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "keep.txt").write_text("mine")
    assert main(["train", "vlm", str(click_button_demo), "--out", str(taken), "--model", "tiny:qwen2_vl", "--quiet"]) == 2
    assert "not empty" in capsys.readouterr().out
    assert [p.name for p in taken.iterdir()] == ["keep.txt"]


def test_uitars_rows_need_the_frame_the_processor_makes(click_button_demo: Path) -> None:
    """UI-TARS-1.5 rows give pixels of smart_resize with UI-TARS' bounds; a processor that
    resizes otherwise would learn coordinates it later misreads."""
    from gui_agent.export.sft import SftOptions
    from gui_agent.models.vlm.families import FAMILIES
    from gui_agent.models.vlm.loading import LoadedVlm
    from gui_agent.models.vlm.sft_data import check_frames, load_rows
    from gui_agent.models.vlm.tiny import build_tiny

    model, processor = build_tiny("qwen2_5_vl")
    processor.image_processor.size.shortest_edge = 56 * 56  # Qwen's own default, not UI-TARS'
    vlm = LoadedVlm(model, processor, FAMILIES["qwen2_5_vl"], "tiny", "cpu", "float32")
    data = load_rows([click_button_demo], SftOptions(action_format="uitars"))
    with pytest.raises(ModelError, match="resizes a 160x210 screen to 168x224.*252x336"):
        check_frames(data, vlm)
    assert isinstance(ModelError("x"), GuiAgentError)
