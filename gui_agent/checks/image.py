"""Checks of image files: how alike two images are (SSIM, pixel identity, a brightness-
normalised MSE), how one compares with another (brightness, saturation, contrast,
sharpness), and what one is (its size, mode, file size, where its dark pixels or one of
its colours lie), plus a setting in GIMP's Lisp-like config files.

They cover OSWorld's image evaluators (``desktop_env/evaluators/metrics/gimp.py`` and
``compare_images``), judging as those do: the same Pillow and OpenCV calls on the same
pixels, the same thresholds, and the same outcome where OSWorld's code cannot go on
(images of different shapes for SSIM, a missing file) - a failed check, with the reason.

The measures themselves (SSIM, brightness, contrast...) are in :mod:`gui_agent.checks.image_measures`.

``path`` is the image the agent made (relative to the home folder). The reference is
``expected`` (a file shipped with the task) or ``expected_at`` (a file in the home
folder, read when the check runs, as OSWorld reads a ``vm_file`` it compares with).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal

import numpy as np
from PIL import Image, ImageChops
from pydantic import Field, model_validator

from gui_agent.checks.family import CheckType
from gui_agent.checks.image_measures import brightness, contrast, normalized_brightness, saturation, sharpness, ssim
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, missing
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import NonBlank, PositiveInt, SingleKey, StrictModel, exactly_one

# ---------------------------------------------------------------------- what a task file writes


class ImagePair(StrictModel):
    """The image at ``path`` and its reference: ``expected`` (shipped with the task) or
    ``expected_at`` (in the home folder, as it is when the check runs)."""

    path: HomePath
    expected: TaskPath | None = None
    expected_at: HomePath | None = None

    @model_validator(mode="after")
    def _one_reference(self) -> ImagePair:
        exactly_one(self, ("expected", "expected_at"))
        return self


class ImageSimilarArgs(ImagePair):
    """SSIM of the image (changed first as asked) and the reference is at least ``min_ssim``.

    ``as_rgb``: converted to RGB; ``resize``: scaled to the reference's size (Pillow's default
    filter); ``mirror``: flipped left to right; ``bands``: both images in HSV, each named band
    compared alone (each must reach ``min_ssim``). Pixels are compared as Pillow gives them
    (an RGBA image has four channels, a one-band image is compared column by column).
    """

    min_ssim: float = Field(default=0.9, ge=-1.0, le=1.0)
    as_rgb: bool = False
    resize: bool = False
    mirror: bool = False
    bands: list[Literal["H", "S", "V"]] = Field(default_factory=list)


class ImageCloseArgs(ImagePair):
    """Both images scaled to a mean brightness of ``brightness``; the mean squared difference
    of their pixels (0..1 each) is below ``max_mse``: the same picture, whatever its exposure."""

    max_mse: float = Field(default=0.03, gt=0)
    brightness: float = Field(default=128.0, gt=0)


class ImageMeasureArgs(ImagePair):
    """The image's ``measure`` is ``lower`` or ``higher`` than the reference's (strictly).

    ``brightness``: mean grayscale value; ``saturation``: mean HSV saturation;
    ``contrast``: standard deviation of all pixel values; ``sharpness``: variance of the
    Laplacian of the grayscale image (OpenCV's).
    """

    measure: Literal["brightness", "saturation", "contrast", "sharpness"]
    relation: Literal["lower", "higher"]


class ImageLooksLikeArgs(ImagePair):
    """SSIM of the two images in grayscale, both scaled (Lanczos) to the size of the one with
    the smaller width (then height): OSWorld's score. The check passes when it reaches
    ``min_score`` (default 1: OSWorld's full marks, the same picture); when it is a task's
    whole evaluator the episode's reward is that score."""

    min_score: float = Field(default=1.0, ge=-1.0, le=1.0)


class ImageGreenBackgroundArgs(ImagePair):
    """Every pixel that is not black in the reference is green in the image (its G above
    both R and B). Read as OSWorld reads them, pixel ``[x, y]`` as row x and column y, so a
    reference that is not square fails."""


class ImagesIdenticalArgs(StrictModel):
    """Each image is pixel for pixel its reference (Pillow's difference has no bounding box)."""

    images: list[ImagePair] = Field(min_length=1)


class ImageModeArgs(StrictModel):
    """The image's Pillow mode is ``mode`` (``P``: palette-based)."""

    path: HomePath
    mode: NonBlank


class ImageSizeArgs(StrictModel):
    """The image is ``width`` and/or ``height`` pixels (neither: it is an image)."""

    path: HomePath
    width: PositiveInt | None = None
    height: PositiveInt | None = None


class ImageFileSizeArgs(StrictModel):
    """The file is smaller than ``max_bytes``."""

    path: HomePath
    max_bytes: PositiveInt


class ImageColorCenteredArgs(StrictModel):
    """The pixels of the image's second-rarest colour are centred: their centroid is within
    ``tolerance`` of the image's size from its centre on both axes. (OSWorld's check of a
    shape placed in the middle: in a picture of a background and one shape, that colour is
    the background, whose centroid is central when the shape is.)"""

    path: HomePath
    tolerance: float = Field(default=0.05, gt=0, lt=1)


class ImageDarkLeftArgs(StrictModel):
    """The leftmost dark pixel (grayscale below ``dark_below``) is within the image's first
    ``within`` of its width: the text is on the left."""

    path: HomePath
    within: float = Field(default=0.05, gt=0, le=1)
    dark_below: int = Field(default=128, ge=1, le=256)


class GimpConfigArgs(StrictModel):
    """A line of the GIMP config file at ``path`` (``gimprc``, ``sessionrc``, ``action-history``)
    sets ``key`` (or a ``[key, first word]`` pair) with ``value`` as its last word, read as
    OSWorld's ``check_config_status`` reads it: line by line, first match wins."""

    path: HomePath
    key: NonBlank | list[NonBlank] = Field(union_mode="left_to_right")
    value: NonBlank

    @model_validator(mode="after")
    def _pair(self) -> GimpConfigArgs:
        if isinstance(self.key, list) and len(self.key) != 2:
            raise ValueError("key: expected a word or a [key, first word] pair")
        return self


class ImageSimilarCheck(SingleKey):
    name: ClassVar[str] = "image_similar"
    image_similar: ImageSimilarArgs


class ImageCloseCheck(SingleKey):
    name: ClassVar[str] = "image_close"
    image_close: ImageCloseArgs


class ImageMeasureCheck(SingleKey):
    name: ClassVar[str] = "image_measure"
    image_measure: ImageMeasureArgs


class ImageLooksLikeCheck(SingleKey):
    name: ClassVar[str] = "image_looks_like"
    image_looks_like: ImageLooksLikeArgs


class ImageGreenBackgroundCheck(SingleKey):
    name: ClassVar[str] = "image_green_background"
    image_green_background: ImageGreenBackgroundArgs


class ImagesIdenticalCheck(SingleKey):
    name: ClassVar[str] = "images_identical"
    images_identical: ImagesIdenticalArgs


class ImageModeCheck(SingleKey):
    name: ClassVar[str] = "image_mode"
    image_mode: ImageModeArgs


class ImageSizeCheck(SingleKey):
    name: ClassVar[str] = "image_size"
    image_size: ImageSizeArgs


class ImageFileSizeCheck(SingleKey):
    name: ClassVar[str] = "image_file_size"
    image_file_size: ImageFileSizeArgs


class ImageColorCenteredCheck(SingleKey):
    name: ClassVar[str] = "image_color_centered"
    image_color_centered: ImageColorCenteredArgs


class ImageDarkLeftCheck(SingleKey):
    name: ClassVar[str] = "image_dark_left"
    image_dark_left: ImageDarkLeftArgs


class GimpConfigCheck(SingleKey):
    name: ClassVar[str] = "gimp_config"
    gimp_config: GimpConfigArgs


# ---------------------------------------------------------------------- reading the files


def _file(probe: DesktopProbe, path: str, report: Report, *, shipped: bool = False) -> Path | None:
    """The file at ``path`` (home-relative, or shipped with the task), or None with the report filled."""
    found = probe.task_file(path) if shipped else probe.resolve_path(path)
    if not found.is_file():
        missing(report, path)
        return None
    return found


def _image(found: Path, label: str, report: Report) -> Image.Image | None:
    """The image Pillow reads from ``found``, or None with the report filled (not an image)."""
    try:
        image = Image.open(found)
        image.load()
    except OSError as exc:
        report.update(observed={"exists": True}, reason=f"{label} is not an image Pillow can read ({exc})")
        return None
    return image


def _pair(args: ImagePair, probe: DesktopProbe, report: Report) -> tuple[Image.Image, Image.Image, Path, Path] | None:
    """The image, its reference and their files; None with the report filled if one is missing."""
    made = _file(probe, args.path, report)
    if made is None:
        return None
    label = args.expected if args.expected is not None else args.expected_at
    assert label is not None  # the model holds exactly one
    reference = _file(probe, label, report, shipped=args.expected is not None)
    if reference is None:
        return None
    image, other = _image(made, args.path, report), _image(reference, label, report)
    if image is None or other is None:
        return None
    return image, other, made, reference


def _single(path: str, probe: DesktopProbe, report: Report) -> Image.Image | None:
    found = _file(probe, path, report)
    return _image(found, path, report) if found is not None else None


def _shape(image: Image.Image) -> str:
    return f"{image.width}x{image.height} {image.mode}"


# ---------------------------------------------------------------------- judging


def _image_similar(args: ImageSimilarArgs, probe: DesktopProbe, report: Report) -> None:
    pair = _pair(args, probe, report)
    if pair is None:
        return
    image, reference = pair[0], pair[1]
    if args.as_rgb:
        image = image.convert("RGB")
    if args.resize:
        image = image.resize(reference.size)
    if args.mirror:
        image = image.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    report["observed"] = {"image": _shape(image), "reference": _shape(reference)}
    try:
        if args.bands:
            ours, theirs = image.convert("HSV"), reference.convert("HSV")
            scores = {band: ssim(np.array(ours.getchannel(band)), np.array(theirs.getchannel(band)), channel_axis=-1)
                      for band in args.bands}
        else:
            scores = {"ssim": ssim(np.array(image), np.array(reference), channel_axis=-1)}
    except ValueError as exc:
        report["reason"] = f"{args.path} cannot be compared with its reference: {exc}"
        return
    report["observed"]["ssim"] = {k: round(v, 4) for k, v in scores.items()}
    low = {k: v for k, v in scores.items() if v < args.min_ssim}
    changed = ", ".join(n for n, on in (("as RGB", args.as_rgb), ("resized", args.resize), ("mirrored", args.mirror)) if on)
    what = f"{args.path}{f' ({changed})' if changed else ''}"
    shown = ", ".join(f"{k} {v:.4f}" for k, v in scores.items())
    if low:
        report["reason"] = f"SSIM of {what} and its reference is {shown}, below {args.min_ssim:g}"
    else:
        report.update(passed=True, reason=f"SSIM of {what} and its reference is {shown}, at least {args.min_ssim:g}")


def _image_close(args: ImageCloseArgs, probe: DesktopProbe, report: Report) -> None:
    pair = _pair(args, probe, report)
    if pair is None:
        return
    image, reference = pair[0], pair[1]
    report["observed"] = {"image": _shape(image), "reference": _shape(reference)}
    try:
        ours = np.array(normalized_brightness(image, args.brightness), dtype=np.float32) / 255
        theirs = np.array(normalized_brightness(reference, args.brightness), dtype=np.float32) / 255
        mse = float(np.mean((ours - theirs) ** 2))
    except ZeroDivisionError:
        report["reason"] = f"{args.path} or its reference is all black: it cannot be scaled to brightness {args.brightness:g}"
        return
    except (ValueError, TypeError) as exc:
        report["reason"] = f"{args.path} cannot be compared with its reference at brightness {args.brightness:g}: {exc}"
        return
    report["observed"]["mse"] = round(mse, 6)
    ok = mse < args.max_mse
    report.update(passed=ok, reason=f"at brightness {args.brightness:g}, {args.path} and its reference differ by "
                                    f"MSE {mse:.5f}, {'below' if ok else 'not below'} {args.max_mse:g}")


def _measured(args: ImageMeasureArgs, image: Image.Image, path: Path) -> float:
    if args.measure == "brightness":
        return brightness(image)
    if args.measure == "saturation":
        return saturation(image)
    if args.measure == "contrast":
        return contrast(image)
    return sharpness(path)


def _image_measure(args: ImageMeasureArgs, probe: DesktopProbe, report: Report) -> None:
    pair = _pair(args, probe, report)
    if pair is None:
        return
    image, reference, made, shipped = pair
    try:
        ours, theirs = _measured(args, image, made), _measured(args, reference, shipped)
    except ValueError as exc:
        report["reason"] = f"the {args.measure} of {args.path} cannot be measured: {exc}"
        return
    report["observed"] = {args.measure: round(ours, 4), "reference": round(theirs, 4)}
    ok = ours < theirs if args.relation == "lower" else ours > theirs
    report.update(passed=ok, reason=f"the {args.measure} of {args.path} is {ours:.4f}, the reference's {theirs:.4f}: "
                                    f"{'' if ok else 'not '}{args.relation} as asked")


def _image_looks_like(args: ImageLooksLikeArgs, probe: DesktopProbe, report: Report) -> None:
    pair = _pair(args, probe, report)
    if pair is None:
        return
    image, reference = pair[0].convert("L"), pair[1].convert("L")
    size = min(image.size, reference.size)  # OSWorld compares the sizes as tuples: the smaller width wins
    report["observed"] = {"image": _shape(pair[0]), "reference": _shape(pair[1]), "compared_at": list(size)}
    try:
        score = ssim(np.array(image.resize(size, Image.Resampling.LANCZOS)), np.array(reference.resize(size, Image.Resampling.LANCZOS)))
    except ValueError as exc:
        report["reason"] = f"{args.path} cannot be compared with its reference: {exc}"
        return
    report["observed"]["score"] = round(score, 6)
    ok = score >= args.min_score - 1e-9
    report.update(passed=ok, reason=f"grayscale SSIM of {args.path} and its reference at {size[0]}x{size[1]} is "
                                    f"{score:.4f}, {'at least' if ok else 'below'} {args.min_score:g}")


def looks_like_reward(report: Report) -> float:
    """The episode's reward under ``image_looks_like``: the SSIM (OSWorld's score), 0 without one."""
    observed = report.get("observed")
    return float(observed.get("score", 0.0)) if isinstance(observed, dict) else 0.0


def _image_green_background(args: ImageGreenBackgroundArgs, probe: DesktopProbe, report: Report) -> None:
    pair = _pair(args, probe, report)
    if pair is None:
        return
    ours, theirs = np.array(pair[0]), np.array(pair[1])
    report["observed"] = {"image": _shape(pair[0]), "reference": _shape(pair[1])}
    if theirs.ndim != 3:
        report["reason"] = "the reference has one band; OSWorld's check reads colour pixels"
        return
    if pair[1].width != pair[1].height:
        report["reason"] = ("the reference is not square; OSWorld's check reads pixel [x, y] as row x, column y, "
                            "which runs off any other shape")
        return
    side = pair[1].width
    background = np.any(theirs[..., :3] != 0, axis=-1) if theirs.shape[2] >= 3 else np.ones(theirs.shape[:2], bool)
    if not background.any():
        report.update(passed=True, reason="the reference is all black: no background to check")
        return
    if ours.ndim != 3 or ours.shape[2] < 3 or ours.shape[0] < side or ours.shape[1] < side:
        report["reason"] = f"{args.path} ({_shape(pair[0])}) has no RGB pixel for every pixel of the {side}x{side} reference"
        return
    red, green, blue = (ours[:side, :side, i] for i in range(3))
    wrong = background & ~((green > red) & (green > blue))
    report["observed"].update(background_pixels=int(background.sum()), not_green=int(wrong.sum()))
    ok = not wrong.any()
    report.update(passed=ok, reason=f"{int(wrong.sum())} of the {int(background.sum())} background pixels of {args.path} are not green")


def _images_identical(args: ImagesIdenticalArgs, probe: DesktopProbe, report: Report) -> None:
    problems = []
    for pair in args.images:
        sub: Report = {}
        got = _pair(pair, probe, sub)
        if got is None:
            problems.append(sub["reason"])
            continue
        try:
            box = ImageChops.difference(got[0], got[1]).getbbox()
        except ValueError as exc:
            problems.append(f"{pair.path} ({_shape(got[0])}) cannot be compared with its reference ({_shape(got[1])}): {exc}")
            continue
        if box is not None:
            problems.append(f"{pair.path} differs from its reference within {list(box)}")
    report["observed"] = {"images": len(args.images), "differing": len(problems)}
    report.update(passed=not problems, reason="; ".join(problems) or f"{len(args.images)} image(s) identical to their references")


def _image_mode(args: ImageModeArgs, probe: DesktopProbe, report: Report) -> None:
    image = _single(args.path, probe, report)
    if image is None:
        return
    report.update(observed={"mode": image.mode}, passed=image.mode == args.mode,
                  reason=f"{args.path} is in mode {image.mode}, expected {args.mode}")


def _image_size(args: ImageSizeArgs, probe: DesktopProbe, report: Report) -> None:
    image = _single(args.path, probe, report)
    if image is None:
        return
    ok = args.width in (None, image.width) and args.height in (None, image.height)
    wanted = " and ".join(f"{k} {v}" for k, v in (("width", args.width), ("height", args.height)) if v is not None) or "any size"
    report.update(observed={"width": image.width, "height": image.height}, passed=ok,
                  reason=f"{args.path} is {image.width}x{image.height}, expected {wanted}")


def _image_file_size(args: ImageFileSizeArgs, probe: DesktopProbe, report: Report) -> None:
    found = _file(probe, args.path, report)
    if found is None:
        return
    size = found.stat().st_size
    report.update(observed={"bytes": size}, passed=size < args.max_bytes,
                  reason=f"{args.path} is {size} bytes, expected fewer than {args.max_bytes}")


def _image_color_centered(args: ImageColorCenteredArgs, probe: DesktopProbe, report: Report) -> None:
    image = _single(args.path, probe, report)
    if image is None:
        return
    pixels = np.array(image)
    if pixels.ndim != 3:
        report.update(observed={"mode": image.mode}, reason=f"{args.path} has one band; the check reads colour pixels")
        return
    colors, counts = np.unique(pixels.reshape(-1, pixels.shape[2]), axis=0, return_counts=True)
    if len(colors) < 2:
        report.update(observed={"colors": 1}, reason=f"{args.path} has a single colour")
        return
    color = colors[np.argsort(counts)][1]  # as OSWorld: counts ascending, the second
    rows_cols = np.argwhere(np.all(pixels == color, axis=2)).mean(axis=0)
    center = np.array(pixels.shape[:2]) / 2
    ok = bool(np.all(np.abs(rows_cols - center) < args.tolerance * np.array(pixels.shape[:2])))
    centroid = [round(float(rows_cols[1]), 1), round(float(rows_cols[0]), 1)]
    report.update(observed={"color": color.tolist(), "centroid": centroid, "center": [float(center[1]), float(center[0])]},
                  passed=ok, reason=f"the colour {color.tolist()} of {args.path} has its centroid at (x, y) {centroid}, "
                                    f"{'within' if ok else 'not within'} {args.tolerance:g} of the size from the centre")


def _image_dark_left(args: ImageDarkLeftArgs, probe: DesktopProbe, report: Report) -> None:
    image = _single(args.path, probe, report)
    if image is None:
        return
    columns = np.nonzero((np.array(image.convert("L")) < args.dark_below).any(axis=0))[0]
    leftmost = int(columns[0]) if columns.size else image.width
    ok = leftmost < image.width * args.within
    report.update(observed={"leftmost_dark_x": leftmost if columns.size else None, "width": image.width}, passed=ok,
                  reason=(f"the leftmost dark pixel of {args.path} is at x {leftmost} of {image.width}" if columns.size
                          else f"{args.path} has no dark pixel") + f", expected below {image.width * args.within:g}")


def config_line_words(line: str) -> list[str] | None:
    """The words of one line of a GIMP config file as OSWorld splits them (outer parentheses
    stripped), or None for a line it skips (a comment, an empty line)."""
    if line.startswith("#") or line == "\n":
        return None
    return line.strip().lstrip("(").rstrip(")\n").split()


def _gimp_config(args: GimpConfigArgs, probe: DesktopProbe, report: Report) -> None:
    found = _file(probe, args.path, report)
    if found is None:
        return
    with found.open(encoding="utf-8", errors="replace") as handle:
        lines = handle.readlines()
    keys = [args.key] if isinstance(args.key, str) else list(args.key)
    seen = []
    for number, line in enumerate(lines, 1):
        words = config_line_words(line)
        if words is None:
            continue
        if not words or (len(keys) == 2 and words[0] == keys[0] and len(words) < 2):
            report.update(observed={"lines": len(lines), "same_key": seen[:10]},
                          reason=f"line {number} of {args.path} ({line.strip()!r}) stops OSWorld's reading before any match")
            return
        if words[:len(keys)] == keys:
            if words[-1] == args.value:
                report.update(observed={"line": line.strip()}, passed=True, reason=f"line {number} of {args.path}: {line.strip()}")
                return
            seen.append(line.strip())
    report.update(observed={"lines": len(lines), "same_key": seen[:10]},
                  reason=f"no line of {args.path} sets {' '.join(keys)} to {args.value}"
                         + (f" (it has: {'; '.join(seen[:5])})" if seen else ""))


#: This family's checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (
    CheckType(ImageSimilarCheck, _image_similar),
    CheckType(ImageCloseCheck, _image_close),
    CheckType(ImageMeasureCheck, _image_measure),
    CheckType(ImageLooksLikeCheck, _image_looks_like, reward=looks_like_reward),
    CheckType(ImageGreenBackgroundCheck, _image_green_background),
    CheckType(ImagesIdenticalCheck, _images_identical),
    CheckType(ImageModeCheck, _image_mode),
    CheckType(ImageSizeCheck, _image_size),
    CheckType(ImageFileSizeCheck, _image_file_size),
    CheckType(ImageColorCenteredCheck, _image_color_centered),
    CheckType(ImageDarkLeftCheck, _image_dark_left),
    CheckType(GimpConfigCheck, _gimp_config),
)
