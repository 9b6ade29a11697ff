"""Locally made inputs for the imported OSWorld gimp tasks the end-to-end tests run (the
real ones are on the internet), written where the import declares them (``inputs/NAME``).

The pictures are drawn with Pillow and numpy from a fixed seed: a sky, a ground, a sun
and a berry placed off-centre (so a flip either way moves it), with some texture, like a
small photo.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw


def photo(width: int = 320, height: int = 240, seed: int = 7, noise: float = 6.0) -> Image.Image:
    """A small, photo-like RGB picture (``noise``: the grain's standard deviation): nothing in it is symmetric."""
    rows = np.linspace(0.0, 1.0, height)[:, None]
    sky = np.stack([90 + 80 * rows, 140 + 60 * rows, 230 - 40 * rows], axis=-1) * np.ones((1, width, 1))
    noise = np.random.default_rng(seed).normal(0, noise, (height, width, 3))
    picture = Image.fromarray(np.clip(sky + noise, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(picture)
    draw.rectangle((0, int(height * 0.7), width, height), fill=(70, 130, 60))
    draw.ellipse((int(width * 0.72), 18, int(width * 0.72) + 40, 58), fill=(250, 220, 90))
    draw.ellipse((40, int(height * 0.35), 110, int(height * 0.35) + 70), fill=(150, 20, 60))
    draw.line((75, int(height * 0.35), 90, int(height * 0.2)), fill=(40, 90, 30), width=5)
    return picture


def _save(picture: Image.Image, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    picture.save(path)


def berry(inputs: Path) -> None:
    """72f83cdc: berry.png, to mirror horizontally."""
    _save(photo(), inputs / "berry.png")


def woman_by_the_tree(inputs: Path) -> None:
    """7a4deb26: woman_sitting_by_the_tree.png, to make darker."""
    _save(photo(seed=11), inputs / "woman_sitting_by_the_tree.png")


def nothing(inputs: Path) -> None:
    """d52d6308: GIMP alone, no file."""


#: OSWorld id -> the maker of its inputs.
MAKERS: dict[str, Callable[[Path], None]] = {
    "72f83cdc-bf76-4531-9a1b-eb893a13f8aa": berry,
    "7a4deb26-d57d-4ea9-9a73-630f66a7b568": woman_by_the_tree,
    "d52d6308-ec58-42b7-a2c9-de80e4837b2b": nothing,
}
