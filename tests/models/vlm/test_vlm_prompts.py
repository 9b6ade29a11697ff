"""Training and inference ask the same question: the policy's prompts are the SFT rows' prompts.

Fed the frames of an oracle episode, the policy builds, step after step, exactly the system
and user turns (and images) the trainer builds from that episode -- with history of
previous actions and of screenshots -- and the trainer reads an ``--format sft`` export
into the very same rows, recognising its reply format. Also: spec options, usage figures,
sampling without side effects, the chat templates of each family.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from gui_agent.actions import action_from_dict
from gui_agent.cli import main
from gui_agent.envs.base import Observation
from gui_agent.episode import read_episode
from gui_agent.errors import ActionParseError
from gui_agent.export.sft import SftOptions
from gui_agent.policy import PolicyOutput, SamplingPolicy, TaskContext
from gui_agent.registry import load_policy
from gui_agent.models.vlm.settings import ServeSettings, parse_spec, read_settings, write_settings
from gui_agent.models.vlm.sft_data import encode_row, load_rows


def _frames(episode_dir: Path) -> list[np.ndarray]:
    episode = read_episode(episode_dir)
    return [np.asarray(Image.open(episode_dir / s.frame_before).convert("RGB")) for s in episode.steps]


def _episode_dir(root: Path) -> Path:
    return next(p.parent for p in root.rglob("episode.json"))


def _png_pixels(image: object) -> np.ndarray:
    if isinstance(image, dict):
        return np.asarray(Image.open(io.BytesIO(image["bytes"])).convert("RGB"))
    return np.asarray(image)


@pytest.mark.parametrize("family, images, history", [("qwen2_vl", 1, 5), ("qwen2_5_vl", 2, 1), ("idefics3", 3, 0)])
def test_policy_prompts_equal_the_training_rows(family: str, images: int, history: int, enter_text_demo: Path,
                                                tiny_model_dirs: dict[str, Path]) -> None:
    episode_dir = _episode_dir(enter_text_demo)
    episode = read_episode(episode_dir)
    policy = load_policy(f"hf:{tiny_model_dirs[family]}?images={images}&history={history}")
    rows = load_rows([episode_dir], SftOptions(action_format=policy.action_format, images=images, history=history)).rows
    assert len(rows) == len(episode.steps) == 3
    policy.reset(TaskContext(task_id=episode.meta.task.id, instruction=episode.meta.task.instruction, seed=0))
    for step, frame, row in zip(episode.steps, _frames(episode_dir), rows, strict=True):
        observation = Observation(screenshot=frame)
        messages, prompt_images = policy.prompt(observation)
        assert messages == row["messages"][:-1]
        assert len(prompt_images) == len(row["images"]) == min(images, step.index + 1)
        for ours, theirs in zip(prompt_images, row["images"], strict=True):
            assert np.array_equal(_png_pixels(ours), _png_pixels(theirs))
        # The tokens the trainer feeds as prompt are the tokens generation is given.
        from gui_agent.models.vlm.generation import prepare_inputs

        encoded = encode_row(policy.vlm, row)
        asked = prepare_inputs(policy.vlm, messages, prompt_images)
        assert encoded.inputs["input_ids"][0, : encoded.prompt_tokens].tolist() == asked["input_ids"][0].tolist()
        assert (encoded.inputs["labels"][0, : encoded.prompt_tokens] == -100).all()
        assert (encoded.inputs["labels"][0, encoded.prompt_tokens :] >= 0).all()
        policy.accept(observation, PolicyOutput(actions=[action_from_dict(step.action)]))
    if history:
        assert "Previous actions:\n1. " in messages[1]["content"][0]["text"]


def test_sft_export_reads_back_as_the_same_rows(enter_text_demo: Path, click_button_demo: Path, tmp_path: Path) -> None:
    out = tmp_path / "export"
    assert main(["export", str(enter_text_demo), str(click_button_demo), "--out", str(out), "--format", "sft",
                 "--action-format", "uitars-v1", "--sft-images", "2", "--sft-history", "3"]) == 0
    with pytest.raises(Exception, match="pass --format uitars-v1 or --format uitars"):
        load_rows([out], SftOptions())
    with pytest.raises(Exception, match="rows are in UI-TARS form, not 'pyautogui'"):
        load_rows([out], SftOptions(), declared_format="pyautogui")
    exported = load_rows([out], SftOptions(), declared_format="uitars-v1")
    assert exported.action_format == "uitars-v1" and exported.images == 2 and exported.history == 2
    built = load_rows([enter_text_demo, click_button_demo], SftOptions(action_format="uitars-v1", images=2, history=3))

    def by_text(rows: list[dict]) -> list:
        return sorted((r["messages"] for r in rows), key=repr)

    assert by_text(exported.rows) == by_text(built.rows)
    with pytest.raises(Exception, match="give either episode folders or sft export folders"):
        load_rows([out, enter_text_demo], SftOptions())
    canonical = tmp_path / "canonical"
    assert main(["export", str(click_button_demo), "--out", str(canonical), "--format", "sft", "--action-format", "canonical"]) == 0
    with pytest.raises(Exception, match="'canonical' cannot be parsed back"):
        load_rows([canonical], SftOptions())


def test_usage_and_sampling_leave_history_alone(tiny_model_dirs: dict[str, Path], click_button_demo: Path) -> None:
    episode_dir = _episode_dir(click_button_demo)
    policy = load_policy(f"hf:{tiny_model_dirs['qwen2_vl']}?max_new_tokens=6")
    assert isinstance(policy, SamplingPolicy)
    policy.reset(TaskContext(task_id="t", instruction="Click on the okay button."))
    observation = Observation(screenshot=_frames(episode_dir)[0])
    before = policy.prompt(observation)[0]
    from gui_agent.models.vlm.generation import generate

    answer = generate(policy.vlm, *policy.prompt(observation), max_new_tokens=6, num_samples=3, temperature=1.0)
    assert len(answer.texts) == 3
    assert answer.usage.images == 1 and answer.usage.input_tokens > 100
    assert 3 <= answer.usage.output_tokens <= 18 and answer.usage.latency_s > 0
    with pytest.raises(ValueError, match="temperature"):
        generate(policy.vlm, *policy.prompt(observation), num_samples=2)
    with pytest.raises(ActionParseError):  # an untrained model's samples are all noise
        policy.sample(observation, 2, temperature=1.0)
    assert policy.prompt(observation)[0] == before  # asking never changes the episode's history
    policy.accept(observation, PolicyOutput(actions=[action_from_dict({"kind": "click", "x": 5, "y": 6})]))
    assert policy.prompt(observation)[0] != before


def test_spec_options_and_settings_file(tmp_path: Path) -> None:
    source, options = parse_spec("runs/m?images=2&history=0&format=pyautogui&max_new_tokens=64")
    assert source == "runs/m"
    assert options == {"images": 2, "history": 0, "format": "pyautogui", "max_new_tokens": 64}
    assert read_settings(tmp_path) == ServeSettings()
    write_settings(tmp_path, ServeSettings(family="idefics3", format="pyautogui", images=2, history=3))
    settings = read_settings(tmp_path)
    assert (settings.family, settings.format, settings.images, settings.history) == ("idefics3", "pyautogui", 2, 3)
    assert settings.merged(options).history == 0
    (tmp_path / "gui_agent_vlm.json").write_text('{"imagez": 2}')
    with pytest.raises(Exception, match="unknown key"):
        read_settings(tmp_path)


def test_chat_templates_of_each_family(tiny_model_dirs: dict[str, Path]) -> None:
    from gui_agent.models.vlm.generation import prompt_text
    from gui_agent.models.vlm.loading import load_vlm

    messages = [{"role": "system", "content": [{"type": "text", "text": "S"}]},
                {"role": "user", "content": [{"type": "text", "text": "U"}, {"type": "image", "text": None}]}]
    qwen = prompt_text(load_vlm(str(tiny_model_dirs["qwen2_5_vl"])), messages)
    assert qwen == ("<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|vision_start|><|image_pad|><|vision_end|>"
                    "<|im_end|>\n<|im_start|>assistant\n")
    idefics = prompt_text(load_vlm(str(tiny_model_dirs["idefics3"])), messages)
    assert idefics == "<|im_start|>System: S<end_of_utterance>\nUser: U<image><end_of_utterance>\nAssistant:"


def test_replies_are_read_by_the_foundation_parsers() -> None:
    from gui_agent.action_formats import FORMATS
    from gui_agent.actions import Click, Drag, Type

    code = "Thought: drag it\nAction: pyautogui.moveTo(10, 20)\npyautogui.dragTo(30, 40, duration=1.0, button='left')"
    parsed = FORMATS["pyautogui"].parse(code, screen_width=160, screen_height=210)
    assert parsed.thought == "drag it" and parsed.actions == [Drag(10, 20, 30, 40)]
    v1 = FORMATS["uitars-v1"].parse("Action: click(start_box='<|box_start|>(500,500)<|box_end|>')\n\ntype(content='hi')",
                                    screen_width=160, screen_height=210)
    assert v1.thought is None and v1.actions == [Click(80, 105), Type("hi")]
    # UI-TARS-1.5 pixels are of the smart_resize'd image, with the bounds the model was served with.
    served = FORMATS["uitars"].with_pixels(min_pixels=56 * 56, max_pixels=400 * 28 * 28).parse(
        "Action: click(start_box='(84,112)')", screen_width=160, screen_height=210)
    default = FORMATS["uitars"].parse("Action: click(start_box='(126,168)')", screen_width=160, screen_height=210)
    assert served.actions == default.actions == [Click(80, 105)]
    for text, fmt in [("pyautogui.click(1, 2)", "pyautogui"), ("Action: pyautogui.launch('x')", "pyautogui"),
                      ("Thought: hm", "uitars")]:
        with pytest.raises(ActionParseError) as caught:
            FORMATS[fmt].parse(text, screen_width=160, screen_height=210)
        assert caught.value.raw == text


def test_training_rows_from_a_station_dataset_use_only_accepted_episodes(tmp_path: Path) -> None:
    """train-vlm reads a station's DATASET as gui-agent export does: reviewer-accepted only."""
    from tests.export.test_station_datasets import station_dataset

    dataset = station_dataset(tmp_path / "annotations", {"ep-accepted": "accepted", "ep-rejected": "rejected", "ep-unreviewed": None})
    built = load_rows([dataset], SftOptions())
    assert {row["episode_id"] for row in built.rows} == {"ep-accepted"}
    assert len(built.rows) == 2  # both steps of the accepted episode


def test_a_step_marked_as_a_mistake_is_no_training_target(tmp_path: Path) -> None:
    """A reviewer's mistake mark keeps the step out of the replies to learn, in train-vlm's rows
    and in an export's sft config alike; it stays in the history of the next prompt."""
    import datasets

    from gui_agent.episode import apply_edit
    from tests.export.test_station_datasets import station_dataset

    dataset = station_dataset(tmp_path / "annotations", {"ep-1": "accepted"})
    episode_dir = dataset / "ep-1"
    apply_edit(episode_dir, {"op": "mistake", "step": 0}, by="reviewer")
    from gui_agent.recorder.edit import relabel

    relabel(episode_dir, labels={"review": {"decision": "accepted", "by": "reviewer"}})  # accepted again after the edit
    built = load_rows([dataset], SftOptions(history=2))
    assert [row["step_index"] for row in built.rows] == [1]
    assert built.skipped["marked as a mistake in review"] == 1
    prompt = built.rows[0]["messages"][1]["content"]
    assert any("click" in part.get("text", "").lower() for part in prompt if part["type"] == "text")  # step 0 in the history
    out = tmp_path / "hf"
    assert main(["export", str(dataset), "--out", str(out), "--format", "sft", "--quiet"]) == 0
    rows = datasets.load_dataset(str(out), "sft", split="train", cache_dir=str(tmp_path / "cache"))
    assert rows["step_index"] == [1]


def test_each_family_is_prompted_in_a_registered_format_a_policy_can_read() -> None:
    from gui_agent.action_formats import format_names
    from gui_agent.models.vlm.families import FAMILIES

    assert {family.action_format for family in FAMILIES.values()} == set(format_names(sft=True, parses=True))
