"""What OSWorld's image metrics (gimp.py, compare_images) and the gimp_config_file getter
become: the checks, their thresholds, which file is the reference, and the errors of
configs of the wrong shape."""

from __future__ import annotations

from typing import Any

import pytest

from gui_agent.checks.osworld import METRICS, NO_EQUIVALENT
from gui_agent.checks.osworld import image as osworld_image
from gui_agent.checks.osworld.getters import GETTERS
from gui_agent.errors import OsworldConfigError
from gui_agent.task.osworld_import import convert_osworld


def vm(name: str) -> dict[str, str]:
    return {"type": "vm_file", "path": f"/home/user/Desktop/{name}", "dest": name}


def config(func: Any, result: Any, expected: Any = None, downloads: tuple[str, ...] = ()) -> dict[str, Any]:
    files = [{"url": f"https://example.com/{name}", "path": f"/home/user/Desktop/{name}"} for name in downloads]
    return {
        "id": "0000-image", "instruction": "Edit the picture.", "snapshot": "gimp", "related_apps": ["gimp"],
        "config": [{"type": "download", "parameters": {"files": files}}] if files else [],
        "evaluator": {"func": func, "result": result, **({"expected": expected} if expected is not None else {})},
    }


def evaluator(func: Any, result: Any, expected: Any = None, downloads: tuple[str, ...] = ()) -> Any:
    conversion = convert_osworld(config(func, result, expected, downloads))
    assert conversion.complete, conversion.unsupported
    return conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)["evaluator"]


def test_every_gimp_metric_and_compare_images_is_converted_or_said_to_have_no_equivalent() -> None:
    gimp_metrics = {
        "compare_image_list", "check_file_exists", "increase_saturation", "decrease_brightness", "compare_triangle_positions",
        "check_brightness_decrease_and_structure_sim", "check_saturation_increase_and_structure_sim",
        "check_file_exists_and_structure_sim", "check_triangle_position", "check_structure_sim", "check_structure_sim_resized",
        "check_contrast_increase_and_structure_sim", "check_config_status", "check_image_size", "check_palette_and_structure_sim",
        "check_textbox_on_leftside", "check_image_mirror", "check_green_background", "check_sharper", "check_image_file_size",
        "get_gimp_export_path", "compare_images",
    }
    assert gimp_metrics <= set(METRICS) | set(NO_EQUIVALENT)
    assert all(NO_EQUIVALENT[name].startswith("no equivalent: ") for name in osworld_image.NO_EQUIVALENT)


def test_a_reference_in_the_vm_is_read_from_the_home_folder_as_the_check_runs() -> None:
    got = evaluator("check_image_mirror", vm("berry_mirror.png"), vm("berry.png"), downloads=("berry.png",))
    assert got == {"image_similar": {"path": "Desktop/berry_mirror.png", "expected_at": "Desktop/berry.png", "min_ssim": 0.99, "mirror": True}}


def test_a_downloaded_reference_is_a_declared_input() -> None:
    cloud = {"type": "cloud_file", "path": "https://example.com/cropped_gold.png", "dest": "cropped_gold.png"}
    assert evaluator("check_structure_sim", vm("cropped.png"), cloud) == {
        "image_similar": {"path": "Desktop/cropped.png", "expected": "inputs/cropped_gold.png", "min_ssim": 0.9}}
    assert evaluator("compare_images", vm("interstellar.png"), cloud) == {
        "image_looks_like": {"path": "Desktop/interstellar.png", "expected": "inputs/cropped_gold.png", "min_score": 1.0}}


@pytest.mark.parametrize(("func", "checks"), [
    ("check_brightness_decrease_and_structure_sim", [
        {"image_measure": {"measure": "brightness", "relation": "lower"}}, {"image_close": {"max_mse": 0.03, "brightness": 128.0}}]),
    ("check_saturation_increase_and_structure_sim", [
        {"image_measure": {"measure": "saturation", "relation": "higher"}}, {"image_similar": {"min_ssim": 0.9, "bands": ["H", "V"]}}]),
    ("check_contrast_increase_and_structure_sim", [
        {"image_measure": {"measure": "contrast", "relation": "higher"}}, {"image_similar": {"min_ssim": 0.65}}]),
    ("check_palette_and_structure_sim", [{"image_mode": {"mode": "P"}}, {"image_similar": {"min_ssim": 0.9, "as_rgb": True}}]),
    ("check_sharper", [{"image_measure": {"measure": "sharpness", "relation": "higher"}}]),
    ("increase_saturation", [{"image_measure": {"measure": "saturation", "relation": "lower"}}]),
    ("decrease_brightness", [{"image_measure": {"measure": "brightness", "relation": "higher"}}]),
    ("check_file_exists_and_structure_sim", [{"image_similar": {"min_ssim": 0.9}}]),
    ("check_structure_sim_resized", [{"image_similar": {"min_ssim": 0.9, "resize": True}}]),
    ("check_green_background", [{"image_green_background": {}}]),
])
def test_comparisons_keep_osworlds_thresholds_and_order(func: str, checks: list[dict[str, Any]]) -> None:
    got = evaluator(func, vm("edited.png"), vm("photo.png"), downloads=("photo.png",))
    listed = got["all_of"] if "all_of" in got else [got]
    assert [next(iter(c)) for c in listed] == [next(iter(c)) for c in checks]
    for made, wanted in zip(listed, checks):
        (name, args), = made.items()
        assert args.items() >= wanted[name].items(), (made, wanted)
        assert args["path"] == "Desktop/edited.png"
        assert args.get("expected_at", "Desktop/photo.png") == "Desktop/photo.png"


def test_single_image_metrics() -> None:
    assert evaluator("check_triangle_position", vm("Triangle_In_The_Middle.png")) == {
        "image_color_centered": {"path": "Desktop/Triangle_In_The_Middle.png", "tolerance": 0.05}}
    assert evaluator("check_textbox_on_leftside", vm("leftside_textbox.png")) == {
        "image_dark_left": {"path": "Desktop/leftside_textbox.png", "within": 0.05, "dark_below": 128}}
    size = {"type": "rule", "rules": {"height": 128, "width": 128}}
    assert evaluator("check_image_size", vm("resized.png"), size) == {"image_size": {"path": "Desktop/resized.png", "width": 128, "height": 128}}
    limit = {"type": "rule", "rules": {"max_size": 600000.5}}
    assert evaluator("check_image_file_size", vm("compressed.jpeg"), limit) == {
        "image_file_size": {"path": "Desktop/compressed.jpeg", "max_bytes": 600001}}  # size < 600000.5 <=> size < 600001


def test_image_lists_pair_in_order() -> None:
    result = {"type": "vm_file", "path": ["/home/user/Desktop/p/a.jpg", "/home/user/Desktop/p/b.jpg"], "multi": "true"}
    expected = {"type": "cloud_file", "path": ["https://example.com/a.jpg", "https://example.com/b.jpg"], "multi": "true"}
    assert evaluator("compare_image_list", result, expected) == {"images_identical": {"images": [
        {"path": "Desktop/p/a.jpg", "expected": "inputs/a.jpg"}, {"path": "Desktop/p/b.jpg", "expected": "inputs/b.jpg"}]}}


def test_gimp_config_status_reads_the_profile_file() -> None:
    result = {"type": "gimp_config_file", "file_name": "action-history", "dest": "action-history"}
    rule = {"type": "rule", "rules": {"type:": "key-value", "key": ["history-item", "\"filters-vignette\""], "value": "1"}}
    assert evaluator("check_config_status", result, rule) == {"gimp_config": {
        "path": ".config/GIMP/2.10/action-history", "key": ["history-item", "\"filters-vignette\""], "value": "1"}}
    source = GETTERS["gimp_config_file"]({"type": "gimp_config_file", "file_name": "gimprc"}, "result", None)  # type: ignore[arg-type]
    assert source == {"file_text": {"path": ".config/GIMP/2.10/gimprc"}}


@pytest.mark.parametrize(("func", "result", "expected", "key"), [
    ("check_config_status", {"type": "gimp_config_file", "file_name": "../../x"}, {"type": "rule", "rules": {"key": "a", "value": "b"}},
     "evaluator.result.file_name"),
    ("check_config_status", {"type": "gimp_config_file", "file_name": "gimprc"}, {"type": "rule", "rules": {"key": ["a"], "value": "b"}},
     "evaluator.expected.rules.key"),
    ("check_config_status", {"type": "gimp_config_file", "file_name": "gimprc"}, {"type": "rule", "rules": {"key": "a", "value": 100}},
     "evaluator.expected.rules.value"),
    ("check_image_size", vm("a.png"), {"type": "rule", "rules": {"height": "512"}}, "evaluator.expected.rules.height"),
    ("check_image_size", vm("a.png"), {"type": "rule", "rules": {"height": 51.5}}, "evaluator.expected.rules.height"),
    ("check_image_file_size", vm("a.jpeg"), {"type": "rule", "rules": {}}, "evaluator.expected.rules.max_size"),
])
def test_configs_of_the_wrong_shape_name_their_key(func: str, result: Any, expected: Any, key: str) -> None:
    with pytest.raises(OsworldConfigError) as caught:
        convert_osworld(config(func, result, expected))
    assert caught.value.key == key


def test_what_has_no_equivalent_is_left_out_with_its_reason() -> None:
    conversion = convert_osworld(config("compare_triangle_positions", vm("a.png"), vm("b.png")))
    assert not conversion.complete and "masks every pixel" in conversion.unsupported[0]
    wallpaper = convert_osworld(config("compare_images", {"type": "vm_wallpaper", "dest": "bg.png"}, vm("gold.png")))
    assert not wallpaper.complete and "vm_wallpaper" in wallpaper.unsupported[0]
