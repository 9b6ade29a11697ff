"""The image checks on pictures the tests draw (Pillow, numpy) in real folders, judged as
OSWorld's image metrics judge them; and the SSIM they share against scikit-image's
values and a window-by-window computation of the definition."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageEnhance, ImageFilter

from gui_agent.checks.image_measures import ssim
from tests.checks.check_helpers import FolderProbe, check, passes
from tests.task.osworld_gimp_inputs import photo


@pytest.fixture
def probe(tmp_path: Path) -> FolderProbe:
    (tmp_path / "home").mkdir()
    (tmp_path / "task").mkdir()
    return FolderProbe(tmp_path / "home", tmp_path / "task")


def save(probe: FolderProbe, path: str, image: Image.Image, *, shipped: bool = False, **options: Any) -> str:
    target = (probe.task_dir if shipped else probe.home) / path
    target.parent.mkdir(parents=True, exist_ok=True)
    image.save(target, **options)
    return path


def gimp(spec: dict[str, Any], probe: FolderProbe) -> bool:
    return passes(spec, probe, apps="gimp")


def report(spec: dict[str, Any], probe: FolderProbe) -> dict[str, Any]:
    found = check(spec, probe, apps="gimp")
    assert "error" not in found, found
    return found


# ---------------------------------------------------------------------- SSIM


def pattern() -> tuple[np.ndarray, np.ndarray]:
    i, j, c = np.meshgrid(np.arange(40), np.arange(50), np.arange(3), indexing="ij")
    a = ((i * 7 + j * 13 + c * 29) % 256).astype(np.uint8)
    return a, ((a.astype(int) + (i * j) % 31) % 256).astype(np.uint8)


def by_definition(x: np.ndarray, y: np.ndarray) -> float:
    """SSIM window by window (7 samples a side, sample variances), the mean over the windows."""
    x, y = x.astype(float), y.astype(float)
    c1, c2, scores = (0.01 * 255) ** 2, (0.03 * 255) ** 2, []
    for corner in np.ndindex(*(n - 6 for n in x.shape)):
        window = tuple(slice(k, k + 7) for k in corner)
        a, b = x[window].ravel(), y[window].ravel()
        cov = ((a - a.mean()) * (b - b.mean())).sum() / (a.size - 1)
        scores.append((2 * a.mean() * b.mean() + c1) * (2 * cov + c2)
                      / ((a.mean() ** 2 + b.mean() ** 2 + c1) * (a.var(ddof=1) + b.var(ddof=1) + c2)))
    return float(np.mean(scores))


def test_ssim_gives_scikit_images_values() -> None:
    """scikit-image 0.26.0's structural_similarity on the same arrays gave these."""
    a, b = pattern()
    assert ssim(a, b, channel_axis=-1) == pytest.approx(0.6705568370569169, abs=1e-12)
    assert ssim(a[..., 0], b[..., 0], channel_axis=-1) == pytest.approx(0.6961830837731843, abs=1e-12)  # columns as channels
    assert ssim(a[..., 1], b[..., 1]) == pytest.approx(0.676330513198542, abs=1e-12)
    assert ssim(a, a, channel_axis=-1) == 1.0


def test_ssim_follows_its_definition_window_by_window() -> None:
    a, b = pattern()
    small_a, small_b = a[:12, :15], b[:12, :15]
    assert ssim(small_a[..., 2], small_b[..., 2]) == pytest.approx(by_definition(small_a[..., 2], small_b[..., 2]), abs=1e-12)
    per_channel = np.mean([by_definition(small_a[..., c], small_b[..., c]) for c in range(3)])
    assert ssim(small_a, small_b, channel_axis=-1) == pytest.approx(per_channel, abs=1e-12)
    per_column = np.mean([by_definition(small_a[:, j, 0], small_b[:, j, 0]) for j in range(15)])
    assert ssim(small_a[..., 0], small_b[..., 0], channel_axis=-1) == pytest.approx(per_column, abs=1e-12)


def test_ssim_refuses_what_scikit_image_refuses() -> None:
    a, b = pattern()
    with pytest.raises(ValueError, match="differ in shape"):
        ssim(a[:30], b, channel_axis=-1)
    with pytest.raises(ValueError, match="smaller than"):
        ssim(a[:6, :6], b[:6, :6], channel_axis=-1)
    with pytest.raises(ValueError, match="not integers"):
        ssim(a.astype(float), b.astype(float))


# ---------------------------------------------------------------------- likeness


def test_mirror_passes_the_left_right_flip_only(probe: FolderProbe) -> None:
    original = save(probe, "Desktop/berry.png", photo())
    save(probe, "Desktop/right.png", photo().transpose(Image.Transpose.FLIP_LEFT_RIGHT))
    save(probe, "Desktop/wrong.png", photo().transpose(Image.Transpose.FLIP_TOP_BOTTOM))
    spec = {"image_similar": {"path": "Desktop/right.png", "expected_at": original, "min_ssim": 0.99, "mirror": True}}
    assert gimp(spec, probe)
    wrong = report({"image_similar": {**spec["image_similar"], "path": "Desktop/wrong.png"}}, probe)
    assert not wrong["passed"] and wrong["observed"]["ssim"]["ssim"] < 0.5, wrong
    assert not gimp({"image_similar": {**spec["image_similar"], "mirror": False}}, probe)  # unflipped, it differs


def test_similarity_reads_the_shipped_reference_and_fails_other_shapes(probe: FolderProbe) -> None:
    save(probe, "inputs/gold.png", photo(), shipped=True)
    save(probe, "cut.png", photo().filter(ImageFilter.GaussianBlur(0.6)))
    assert gimp({"image_similar": {"path": "cut.png", "expected": "inputs/gold.png"}}, probe)
    save(probe, "rgba.png", photo().convert("RGBA"))
    found = report({"image_similar": {"path": "rgba.png", "expected": "inputs/gold.png"}}, probe)
    assert not found["passed"] and "differ in shape (240x320x4 and 240x320x3)" in found["reason"]
    missing = report({"image_similar": {"path": "nowhere.png", "expected": "inputs/gold.png"}}, probe)
    assert not missing["passed"] and missing["observed"] == {"exists": False}


def test_resized_similarity_scales_to_the_reference(probe: FolderProbe) -> None:
    original = save(probe, "dog.png", photo(640, 480, noise=0))
    save(probe, "resized.png", photo(640, 480, noise=0).resize((320, 240)))
    assert gimp({"image_similar": {"path": "resized.png", "expected_at": original, "resize": True}}, probe)
    assert not gimp({"image_similar": {"path": "resized.png", "expected_at": original}}, probe)


def test_palette_is_a_mode_and_a_likeness_in_rgb(probe: FolderProbe) -> None:
    original = save(probe, "computer.png", photo())
    save(probe, "palette.png", photo().quantize(256))
    save(probe, "posterized.png", photo().quantize(2))
    assert gimp({"image_mode": {"path": "palette.png", "mode": "P"}}, probe)
    assert not gimp({"image_mode": {"path": original, "mode": "P"}}, probe)
    assert gimp({"image_similar": {"path": "palette.png", "expected_at": original, "as_rgb": True}}, probe)
    assert not gimp({"image_similar": {"path": "posterized.png", "expected_at": original, "as_rgb": True}}, probe)


def test_images_identical_means_pixel_for_pixel(probe: FolderProbe) -> None:
    save(probe, "inputs/a.png", photo(), shipped=True)
    save(probe, "copy/a.png", photo())
    touched = photo()
    touched.putpixel((5, 5), (0, 0, 0))
    save(probe, "copy/b.png", touched)
    pair = {"path": "copy/a.png", "expected": "inputs/a.png"}
    assert gimp({"images_identical": {"images": [pair]}}, probe)
    found = report({"images_identical": {"images": [pair, {"path": "copy/b.png", "expected": "inputs/a.png"}]}}, probe)
    assert not found["passed"] and "copy/b.png differs from its reference within [5, 5, 6, 6]" in found["reason"]


def test_images_identical_with_alpha_compares_what_pillows_bounding_box_sees(probe: FolderProbe) -> None:
    """Pillow's getbbox of an RGBA difference looks at its alpha: two opaque images that
    differ in colour have an empty one, so OSWorld's compare_image_list finds them identical."""
    save(probe, "red.png", Image.new("RGBA", (20, 20), (255, 0, 0, 255)))
    save(probe, "blue.png", Image.new("RGBA", (20, 20), (0, 0, 255, 255)))
    save(probe, "half.png", Image.new("RGBA", (20, 20), (255, 0, 0, 128)))
    assert gimp({"images_identical": {"images": [{"path": "red.png", "expected_at": "blue.png"}]}}, probe)
    assert not gimp({"images_identical": {"images": [{"path": "red.png", "expected_at": "half.png"}]}}, probe)


def test_looks_like_scores_grayscale_ssim_at_the_smaller_size(probe: FolderProbe) -> None:
    save(probe, "inputs/gold.png", photo(), shipped=True)
    save(probe, "shot.png", photo(640, 480))  # the same picture, twice as large
    save(probe, "same.png", photo())
    found = report({"image_looks_like": {"path": "same.png", "expected": "inputs/gold.png"}}, probe)
    assert found["passed"] and found["observed"]["score"] == 1.0
    scaled = report({"image_looks_like": {"path": "shot.png", "expected": "inputs/gold.png", "min_score": 0.5}}, probe)
    assert scaled["observed"]["compared_at"] == [320, 240] and 0.5 < scaled["observed"]["score"] < 1.0, scaled
    assert not report({"image_looks_like": {"path": "shot.png", "expected": "inputs/gold.png"}}, probe)["passed"]


# ---------------------------------------------------------------------- adjustments


def test_darker_with_the_same_structure(probe: FolderProbe) -> None:
    original = save(probe, "photo.png", photo())
    save(probe, "darker.png", ImageEnhance.Brightness(photo()).enhance(0.7))
    save(probe, "brighter.png", ImageEnhance.Brightness(photo()).enhance(1.2))
    save(probe, "other.png", photo().rotate(90, expand=False).transpose(Image.Transpose.FLIP_LEFT_RIGHT))
    darker = {"image_measure": {"path": "darker.png", "expected_at": original, "measure": "brightness", "relation": "lower"}}
    assert gimp(darker, probe)
    brighter = report({"image_measure": {**darker["image_measure"], "path": "brighter.png"}}, probe)
    assert not brighter["passed"] and brighter["observed"]["brightness"] > brighter["observed"]["reference"]
    assert gimp({"image_close": {"path": "darker.png", "expected_at": original}}, probe)
    other = report({"image_close": {"path": "other.png", "expected_at": original}}, probe)
    assert not other["passed"] and other["observed"]["mse"] >= 0.03, other
    black = save(probe, "black.png", Image.new("RGB", (320, 240)))
    assert "all black" in report({"image_close": {"path": black, "expected_at": original}}, probe)["reason"]


def test_saturation_up_with_hue_and_value_kept(probe: FolderProbe) -> None:
    original = save(probe, "photo.png", photo())
    save(probe, "vivid.png", ImageEnhance.Color(photo()).enhance(1.5))
    save(probe, "dull.png", ImageEnhance.Color(photo()).enhance(0.5))
    up = {"image_measure": {"path": "vivid.png", "expected_at": original, "measure": "saturation", "relation": "higher"}}
    assert gimp(up, probe)
    assert not gimp({"image_measure": {**up["image_measure"], "path": "dull.png"}}, probe)
    bands = {"image_similar": {"path": "vivid.png", "expected_at": original, "bands": ["H", "V"]}}
    found = report(bands, probe)
    assert found["passed"] and set(found["observed"]["ssim"]) == {"H", "V"}
    save(probe, "flipped.png", ImageEnhance.Color(photo()).enhance(1.5).transpose(Image.Transpose.FLIP_TOP_BOTTOM))
    assert not gimp({"image_similar": {**bands["image_similar"], "path": "flipped.png"}}, probe)


def test_contrast_and_sharpness(probe: FolderProbe) -> None:
    original = save(probe, "photo.png", photo())
    save(probe, "strong.png", ImageEnhance.Contrast(photo()).enhance(1.5))
    save(probe, "sharp.png", photo().filter(ImageFilter.SHARPEN))
    save(probe, "blurred.png", photo().filter(ImageFilter.GaussianBlur(2)))
    contrast = {"image_measure": {"path": "strong.png", "expected_at": original, "measure": "contrast", "relation": "higher"}}
    assert gimp(contrast, probe)
    assert gimp({"image_similar": {"path": "strong.png", "expected_at": original, "min_ssim": 0.65}}, probe)
    sharper = {"image_measure": {"path": "sharp.png", "expected_at": original, "measure": "sharpness", "relation": "higher"}}
    assert gimp(sharper, probe)
    assert not gimp({"image_measure": {**sharper["image_measure"], "path": "blurred.png"}}, probe)


# ---------------------------------------------------------------------- what one image is


def shape_at(x: int, y: int, half: int = 60, size: tuple[int, int] = (200, 160)) -> Image.Image:
    picture = Image.new("RGB", size, (255, 255, 255))
    ImageDraw.Draw(picture).polygon([(x, y - half), (x - half, y + half * 3 // 4), (x + half, y + half * 3 // 4)], fill=(255, 220, 0))
    return picture


def test_the_second_rarest_colour_centred(probe: FolderProbe) -> None:
    """Counts ascending, the second: with a background and one shape, the background, whose
    centroid moves away from the centre as far as the shape does (times their areas' ratio)."""
    save(probe, "middle.png", shape_at(100, 80))
    save(probe, "side.png", shape_at(55, 75))
    save(probe, "small_side.png", shape_at(30, 40, half=12))
    found = report({"image_color_centered": {"path": "middle.png"}}, probe)
    assert found["passed"] and found["observed"]["color"] == [255, 255, 255], found
    assert not gimp({"image_color_centered": {"path": "side.png"}}, probe)
    assert gimp({"image_color_centered": {"path": "small_side.png"}}, probe)  # as OSWorld's: it hardly moves the background
    save(probe, "plain.png", Image.new("RGB", (50, 50), (9, 9, 9)))
    assert "single colour" in report({"image_color_centered": {"path": "plain.png"}}, probe)["reason"]


def text_at(x: int) -> Image.Image:
    picture = Image.new("RGB", (400, 120), (240, 140, 40))
    ImageDraw.Draw(picture).text((x, 50), "Hello GIMP", fill=(0, 0, 0))
    return picture


def test_dark_pixels_on_the_left(probe: FolderProbe) -> None:
    save(probe, "left.png", text_at(5))
    save(probe, "middle.png", text_at(180))
    save(probe, "none.png", Image.new("RGB", (400, 120), (240, 140, 40)))
    assert gimp({"image_dark_left": {"path": "left.png"}}, probe)
    found = report({"image_dark_left": {"path": "middle.png"}}, probe)
    assert not found["passed"] and found["observed"]["leftmost_dark_x"] >= 180
    assert "no dark pixel" in report({"image_dark_left": {"path": "none.png"}}, probe)["reason"]


def with_object(background: tuple[int, int, int], size: tuple[int, int] = (120, 120)) -> Image.Image:
    picture = Image.new("RGB", size, background)
    ImageDraw.Draw(picture).ellipse((30, 30, 90, 90), fill=(0, 0, 0))
    return picture


def test_green_background_where_the_reference_is_not_black(probe: FolderProbe) -> None:
    """The object is black in the reference (so not background); every other pixel must be green."""
    reference = save(probe, "white.png", with_object((255, 255, 255)))
    save(probe, "green.png", with_object((30, 200, 40)))
    save(probe, "blue.png", with_object((30, 40, 200)))
    assert gimp({"image_green_background": {"path": "green.png", "expected_at": reference}}, probe)
    found = report({"image_green_background": {"path": "blue.png", "expected_at": reference}}, probe)
    assert not found["passed"] and found["observed"]["not_green"] == found["observed"]["background_pixels"] > 0
    wide = save(probe, "wide.png", with_object((255, 255, 255), (160, 120)))
    save(probe, "wide_green.png", with_object((30, 200, 40), (160, 120)))
    assert "not square" in report({"image_green_background": {"path": "wide_green.png", "expected_at": wide}}, probe)["reason"]


def test_sizes_of_the_image_and_of_its_file(probe: FolderProbe) -> None:
    save(probe, "resized.png", photo(128, 128))
    save(probe, "big.jpeg", photo(640, 480), quality=95)
    assert gimp({"image_size": {"path": "resized.png", "width": 128, "height": 128}}, probe)
    assert gimp({"image_size": {"path": "resized.png", "height": 128}}, probe)
    assert not gimp({"image_size": {"path": "resized.png", "height": 512}}, probe)
    size = (probe.home / "big.jpeg").stat().st_size
    assert gimp({"image_file_size": {"path": "big.jpeg", "max_bytes": size + 1}}, probe)
    assert not gimp({"image_file_size": {"path": "big.jpeg", "max_bytes": size}}, probe)  # smaller than, not equal


# ---------------------------------------------------------------------- GIMP's config files

SESSIONRC = """# GIMP sessionrc

(session-info "toplevel"
    (factory-entry "gimp-single-image-window")
    (position 0 0)
    (open-on-exit))
(hide-docks {hidden})
(single-window-mode yes)
"""


def test_gimp_config_lines_as_osworld_reads_them(probe: FolderProbe) -> None:
    probe.write(".config/GIMP/2.10/sessionrc", SESSIONRC.format(hidden="yes"))
    spec = {"gimp_config": {"path": ".config/GIMP/2.10/sessionrc", "key": "hide-docks", "value": "yes"}}
    assert gimp(spec, probe)
    probe.write(".config/GIMP/2.10/sessionrc", SESSIONRC.format(hidden="no"))
    found = report(spec, probe)
    assert not found["passed"] and found["observed"]["same_key"] == ["(hide-docks no)"]
    probe.write(".config/GIMP/2.10/action-history", '(history-item "filters-vignette" 1)\n(history-item "image-flip" 0)\n')
    pair = {"gimp_config": {"path": ".config/GIMP/2.10/action-history", "key": ["history-item", '"filters-vignette"'], "value": "1"}}
    assert gimp(pair, probe)
    assert not gimp({"gimp_config": {**pair["gimp_config"], "key": ["history-item", '"image-flip"']}}, probe)


def test_gimp_config_stops_where_osworlds_reading_breaks(probe: FolderProbe) -> None:
    """A line of blanks (not a bare newline) before the match ends OSWorld's reading (its words run out)."""
    probe.write("gimprc", "(theme \"Dark\")\n   \n(undo-levels 100)\n")
    found = report({"gimp_config": {"path": "gimprc", "key": "undo-levels", "value": "100"}}, probe)
    assert not found["passed"] and "line 2" in found["reason"]
    probe.write("gimprc", "(theme \"Dark\")\n\n# (undo-levels 5)\n(undo-levels 100)\n")
    assert gimp({"gimp_config": {"path": "gimprc", "key": "undo-levels", "value": "100"}}, probe)
