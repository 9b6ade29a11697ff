"""Measures of images, as OSWorld's image evaluators take them: structural similarity
(SSIM), brightness, saturation, contrast and sharpness.

SSIM is computed here with numpy, as scikit-image's ``structural_similarity`` computes it
with its defaults (a 7-pixel uniform window, K1 0.01, K2 0.03, the sample covariance,
the data range of the pixels' integer type, the mean over windows wholly inside the
image); scikit-image is not a dependency. With ``channel_axis=-1`` it treats the last
axis as channels even on a 2-D (one-band) image, as scikit-image does: each column is
then a 1-D signal. OSWorld's checks compare one-band images that way, and so do these.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageStat

# ---------------------------------------------------------------------- SSIM (scikit-image's, in numpy)

#: scikit-image's defaults: window side, K1, K2.
SSIM_WINDOW, SSIM_K1, SSIM_K2 = 7, 0.01, 0.03


def _data_range(dtype: np.dtype[Any]) -> float:
    """The range of the pixels' type, as scikit-image takes it when none is given."""
    if dtype == np.bool_:
        return 1.0
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return float(int(info.max) - int(info.min))
    raise ValueError(f"pixels of type {dtype} are not integers, and SSIM then needs a data range OSWorld does not give")


def _window_means(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """Means over every window of SSIM_WINDOW samples along each of ``axes`` that lies wholly
    inside ``x`` (what a uniform filter gives once the border SSIM crops is cut off)."""
    for axis in axes:
        total = np.cumsum(np.moveaxis(x, axis, 0), axis=0, dtype=np.float64)
        total = np.concatenate([np.zeros_like(total[:1]), total])
        x = np.moveaxis((total[SSIM_WINDOW:] - total[:-SSIM_WINDOW]) / SSIM_WINDOW, 0, axis)
    return x


def _ssim_mean(x: np.ndarray, y: np.ndarray, axes: tuple[int, ...], data_range: float) -> float:
    """The mean SSIM index over the windows along ``axes`` (the other axes are channels)."""
    samples = SSIM_WINDOW ** len(axes)
    cov_norm = samples / (samples - 1)
    ux, uy = _window_means(x, axes), _window_means(y, axes)
    vx = cov_norm * (_window_means(x * x, axes) - ux * ux)
    vy = cov_norm * (_window_means(y * y, axes) - uy * uy)
    vxy = cov_norm * (_window_means(x * y, axes) - ux * uy)
    c1, c2 = (SSIM_K1 * data_range) ** 2, (SSIM_K2 * data_range) ** 2
    index = ((2 * ux * uy + c1) * (2 * vxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2))
    channel_axes = tuple(a for a in range(x.ndim) if a not in axes)
    per_channel = index.mean(axis=axes, dtype=np.float64) if channel_axes else np.array([index.mean(dtype=np.float64)])
    return float(np.mean(per_channel))


def ssim(a: np.ndarray, b: np.ndarray, *, channel_axis: int | None = None) -> float:
    """scikit-image's ``structural_similarity(a, b, channel_axis=...)`` with its defaults.

    Raises:
        ValueError: the arrays differ in shape, are smaller than the window, or are not integers.
    """
    if a.shape != b.shape:
        raise ValueError(f"the images differ in shape ({'x'.join(map(str, a.shape))} and {'x'.join(map(str, b.shape))})")
    data_range = _data_range(a.dtype)
    x, y = a.astype(np.float64), b.astype(np.float64)
    if channel_axis is not None:
        x, y = np.moveaxis(x, channel_axis, -1), np.moveaxis(y, channel_axis, -1)
    axes = tuple(range(x.ndim - 1)) if channel_axis is not None else tuple(range(x.ndim))
    if any(x.shape[axis] < SSIM_WINDOW for axis in axes):
        raise ValueError(f"the images ({'x'.join(map(str, a.shape))}) are smaller than SSIM's {SSIM_WINDOW}-pixel window")
    if channel_axis is not None and x.ndim == 3:  # one channel at a time: less memory, the same mean
        return float(np.mean([_ssim_mean(x[..., c], y[..., c], (0, 1), data_range) for c in range(x.shape[-1])]))
    return _ssim_mean(x, y, axes, data_range)


# ---------------------------------------------------------------------- measures


def brightness(image: Image.Image) -> float:
    """The mean of the image in grayscale (Pillow's ``L``)."""
    return float(ImageStat.Stat(image.convert("L")).mean[0])


def saturation(image: Image.Image) -> float:
    """The mean of the S band of the image in Pillow's HSV."""
    return float(np.mean(np.array(image.convert("HSV").split()[1])))


def contrast(image: Image.Image) -> float:
    """The standard deviation of every pixel value (all bands, as float32)."""
    return float(np.std(np.asarray(image, dtype=np.float32)))


def sharpness(path: Path) -> float:
    """The variance of the Laplacian of the image read in grayscale by OpenCV."""
    import cv2

    gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if gray is None:
        raise ValueError(f"OpenCV cannot read {path.name} as an image")
    return float(np.var(cv2.Laplacian(gray, cv2.CV_64F)))


def normalized_brightness(image: Image.Image, target: float) -> Image.Image:
    """Every band scaled so the mean brightness becomes ``target`` (values cut to 0..255)."""
    factor = target / brightness(image)
    return image.point(lambda v: min(255, max(0, int(v * factor))))
