"""OSWorld's image evaluators (``desktop_env/evaluators/metrics/gimp.py``, and
``compare_images`` of ``vlc.py``) as checks of the image family, and its GIMP getter.

OSWorld calls each metric as ``metric(result, expected)``: the first image is the agent's
(``result``), the second the reference (``expected``). A ``vm_file`` reference is read
in the VM when the evaluation runs, so it becomes ``expected_at`` (the home folder's file
then); a ``cloud_file`` one is a declared input (``expected``). What each metric judges,
and its thresholds, are in the conversions' docstrings; the checks compute as OSWorld's
code does (:mod:`gui_agent.checks.image`).

``gimp_config_file`` (the getter) is a file of GIMP's profile, ``~/.config/GIMP/2.10/NAME``,
which this desktop's GIMP writes in the episode's home: :func:`gimp_config_path`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from gui_agent.checks.osworld import presentation
from gui_agent.checks.osworld.config import home_path
from gui_agent.checks.osworld.getters.gimp import gimp_config_path
from gui_agent.checks.osworld.metric import Check, Files, Metric, kind_of
from gui_agent.errors import OsworldConfigError

def _references(metric: Metric) -> list[dict[str, str]]:
    """The reference images: ``expected_at`` (a ``vm_file``, read as the check runs) or
    ``expected`` (a downloaded ``cloud_file``)."""
    expected = metric.expected
    if isinstance(expected, dict) and expected.get("type") == "vm_file":
        paths = expected.get("path")
        listed = paths if isinstance(paths, list) else [paths]
        if not listed or not all(isinstance(p, str) and p for p in listed):
            raise OsworldConfigError(f"{metric.where}.expected.path", "expected a path (or a list of paths with multi)")
        return [{"expected_at": home_path(p)} for p in listed]
    return [{"expected": path} for path in metric.expected_files()]


def _pair(metric: Metric, **options: Any) -> dict[str, Any]:
    return {"path": metric.result_path(), **_references(metric)[0], **options}


def _rule_number(rules: dict[str, Any], key: str, where: str) -> int | float | None:
    value = rules.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0):
        raise OsworldConfigError(f"{where}.expected.rules.{key}", f"expected a positive number, got {kind_of(value)} {value!r}")
    return value


# ---------------------------------------------------------------------- similarity


def structure_sim(metric: Metric) -> list[Check]:
    """``check_structure_sim`` (and ``check_file_exists_and_structure_sim``): SSIM of the two
    images as Pillow reads them, channels last, at least 0.9; images of different shapes fail."""
    return [{"image_similar": _pair(metric, min_ssim=0.9)}]


def structure_sim_resized(metric: Metric) -> list[Check]:
    """``check_structure_sim_resized``: the same once the result is scaled to the reference's size."""
    return [{"image_similar": _pair(metric, min_ssim=0.9, resize=True)}]


def image_mirror(metric: Metric) -> list[Check]:
    """``check_image_mirror``: the result flipped left to right has SSIM at least 0.99 with the original."""
    return [{"image_similar": _pair(metric, min_ssim=0.99, mirror=True)}]


def palette_and_structure_sim(metric: Metric) -> list[Check]:
    """``check_palette_and_structure_sim``: the result is palette-based (mode P) and, in RGB,
    has SSIM at least 0.9 with the reference."""
    path = metric.result_path()
    return [{"image_mode": {"path": path, "mode": "P"}}, {"image_similar": _pair(metric, min_ssim=0.9, as_rgb=True)}]


def compare_image_list(metric: Metric) -> list[Check]:
    """``compare_image_list``: each result image is pixel for pixel its reference (pairs in order,
    as many as the shorter list has)."""
    pairs = [{"path": path, **reference} for path, reference in zip(metric.result_paths(), _references(metric))]
    return [{"images_identical": {"images": pairs}}]


def compare_images(metric: Metric) -> list[Check]:
    """``compare_images``: OSWorld's score is the grayscale SSIM of the two images scaled to
    the smaller's size; the check passes at full marks (1) and gives the SSIM as reward. A
    picture taken off a slide (``background_image_in_slide``) is judged by the presentation
    family, in the presentation."""
    if isinstance(metric.result, dict) and metric.result.get("type") == "background_image_in_slide":
        return presentation.compare_background_image(metric)
    return [{"image_looks_like": _pair(metric, min_score=1.0)}]


# ---------------------------------------------------------------------- adjustments


def brightness_decrease_and_structure_sim(metric: Metric) -> list[Check]:
    """``check_brightness_decrease_and_structure_sim``: the result is darker than the reference,
    and both, scaled to a mean brightness of 128, differ by an MSE below 0.03."""
    return [{"image_measure": _pair(metric, measure="brightness", relation="lower")},
            {"image_close": _pair(metric, max_mse=0.03, brightness=128.0)}]


def saturation_increase_and_structure_sim(metric: Metric) -> list[Check]:
    """``check_saturation_increase_and_structure_sim``: the result is more saturated, and its
    H and V bands each have SSIM at least 0.9 with the reference's."""
    return [{"image_measure": _pair(metric, measure="saturation", relation="higher")},
            {"image_similar": _pair(metric, min_ssim=0.9, bands=["H", "V"])}]


def contrast_increase_and_structure_sim(metric: Metric) -> list[Check]:
    """``check_contrast_increase_and_structure_sim``: the result's pixel values spread more, and
    its SSIM with the reference is at least 0.65."""
    return [{"image_measure": _pair(metric, measure="contrast", relation="higher")},
            {"image_similar": _pair(metric, min_ssim=0.65)}]


def sharper(metric: Metric) -> list[Check]:
    """``check_sharper``: the result's Laplacian varies more than the reference's."""
    return [{"image_measure": _pair(metric, measure="sharpness", relation="higher")}]


def increase_saturation(metric: Metric) -> list[Check]:
    """``increase_saturation(image1, image2)``: 1 when image1 (the result) is less saturated than image2."""
    return [{"image_measure": _pair(metric, measure="saturation", relation="lower")}]


def decrease_brightness(metric: Metric) -> list[Check]:
    """``decrease_brightness(image1, image2)``: 1 when image1 (the result) is brighter than image2."""
    return [{"image_measure": _pair(metric, measure="brightness", relation="higher")}]


# ---------------------------------------------------------------------- what one image is


def triangle_position(metric: Metric) -> list[Check]:
    """``check_triangle_position``: the second-rarest colour's centroid within 5% of the centre."""
    return [{"image_color_centered": {"path": metric.result_path(), "tolerance": 0.05}}]


def textbox_on_leftside(metric: Metric) -> list[Check]:
    """``check_textbox_on_leftside``: the leftmost pixel darker than 128 is in the left 5%."""
    return [{"image_dark_left": {"path": metric.result_path(), "within": 0.05, "dark_below": 128}}]


def green_background(metric: Metric) -> list[Check]:
    """``check_green_background``: every pixel not black in the reference is green in the result."""
    return [{"image_green_background": _pair(metric)}]


def image_size(metric: Metric) -> list[Check]:
    """``check_image_size``: the result's height and/or width are the rule's."""
    rules = metric.rules()
    sizes = {key: _rule_number(rules, key, metric.where) for key in ("width", "height")}
    for key, value in sizes.items():
        if value is not None and value != int(value):
            raise OsworldConfigError(f"{metric.where}.expected.rules.{key}", f"expected a whole number of pixels, got {value!r}")
    return [{"image_size": {"path": metric.result_path(), **{k: int(v) for k, v in sizes.items() if v is not None}}}]


def image_file_size(metric: Metric) -> list[Check]:
    """``check_image_file_size``: the file is smaller than ``max_size`` bytes."""
    limit = _rule_number(metric.rules(), "max_size", metric.where)
    if limit is None:
        raise OsworldConfigError(f"{metric.where}.expected.rules.max_size", "missing: the largest size in bytes")
    return [{"image_file_size": {"path": metric.result_path(), "max_bytes": math.ceil(limit)}}]


def config_status(metric: Metric) -> list[Check]:
    """``check_config_status``: a line of the GIMP config file ends with ``value`` after ``key``
    (a word, or a pair of words)."""
    result = metric.result
    if isinstance(result, dict) and result.get("type") == "gimp_config_file":
        path = gimp_config_path(result, f"{metric.where}.result")
    else:
        path = metric.result_path()
    rules = metric.rules()
    key, value = rules.get("key"), rules.get("value")
    if not (isinstance(key, str) and key) and not (isinstance(key, list) and len(key) == 2 and all(isinstance(k, str) and k for k in key)):
        raise OsworldConfigError(f"{metric.where}.expected.rules.key", "expected a word or a [key, first word] pair")
    if not isinstance(value, str) or not value:
        raise OsworldConfigError(f"{metric.where}.expected.rules.value", f"expected the value as text, got {kind_of(value)}")
    return [{"gimp_config": {"path": path, "key": key, "value": value}}]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    "check_structure_sim": structure_sim,
    "check_file_exists_and_structure_sim": structure_sim,
    "check_structure_sim_resized": structure_sim_resized,
    "check_image_mirror": image_mirror,
    "check_palette_and_structure_sim": palette_and_structure_sim,
    "compare_image_list": compare_image_list,
    "compare_images": compare_images,
    "check_brightness_decrease_and_structure_sim": brightness_decrease_and_structure_sim,
    "check_saturation_increase_and_structure_sim": saturation_increase_and_structure_sim,
    "check_contrast_increase_and_structure_sim": contrast_increase_and_structure_sim,
    "check_sharper": sharper,
    "increase_saturation": increase_saturation,
    "decrease_brightness": decrease_brightness,
    "check_triangle_position": triangle_position,
    "check_textbox_on_leftside": textbox_on_leftside,
    "check_green_background": green_background,
    "check_image_size": image_size,
    "check_image_file_size": image_file_size,
    "check_config_status": config_status,
}
#: OSWorld metric name -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {
    "compare_triangle_positions": "no equivalent: OSWorld's code masks every pixel (its 'yellow' range is 0..255 in all "
                                  "channels), so it compares where the images' outlines centre, i.e. their sizes, not any "
                                  "triangle; no config uses it",
    "check_file_exists": "no equivalent: it takes a folder and a file name, which no getter gives and no config uses "
                         "(the files family's file_exists checks a file)",
    "get_gimp_export_path": "no equivalent: not a metric (it takes no result or expected, and reads the evaluating "
                            "machine's own gimprc)",
}
