"""Screen pixels to network input, one function for training and inference.

Large screens are shrunk so their longer side is at most ``max_side`` (coordinates scale
with them); MiniWoB++'s 160x210 screens pass unchanged. The input has four channels:
RGB in [0, 1] and the previous clicks drawn as small disks (last 1.0, older 0.5).
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

#: Radius, in input pixels, of a previous click's disk.
CLICK_RADIUS = 3


def screen_scale(height: int, width: int, max_side: int) -> float:
    """Factor from screen pixels to input pixels (<= 1)."""
    return min(1.0, max_side / max(height, width))


def frame_tensor(screenshot: np.ndarray, max_side: int) -> torch.Tensor:
    """An RGB uint8 ``(H, W, 3)`` array as a uint8 ``(3, h, w)`` tensor, shrunk if needed."""
    if screenshot.ndim != 3 or screenshot.shape[2] < 3:
        raise ValueError(f"expected an RGB screenshot of shape (H, W, 3), got {screenshot.shape}")
    image = torch.from_numpy(np.array(screenshot[:, :, :3], dtype=np.uint8)).permute(2, 0, 1)
    scale = screen_scale(image.shape[1], image.shape[2], max_side)
    if scale < 1.0:
        size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[2] * scale)))
        image = F.interpolate(image[None].float(), size=size, mode="area")[0].round().clamp(0, 255).to(torch.uint8)
    return image


def click_map(height: int, width: int, clicks: list[tuple[float, float]]) -> torch.Tensor:
    """A ``(1, H, W)`` map with disks at ``clicks`` (input pixels); the last one brightest."""
    canvas = torch.zeros(1, height, width)
    if not clicks:
        return canvas
    ys = torch.arange(height).view(-1, 1).float()
    xs = torch.arange(width).view(1, -1).float()
    for position, (x, y) in enumerate(clicks):
        value = 1.0 if position == len(clicks) - 1 else 0.5
        disk = ((xs - x) ** 2 + (ys - y) ** 2) <= CLICK_RADIUS**2
        canvas[0] = torch.where(disk, torch.maximum(canvas[0], torch.tensor(value)), canvas[0])
    return canvas


def network_input(frame: torch.Tensor, clicks: list[tuple[float, float]]) -> torch.Tensor:
    """A uint8 ``(3, H, W)`` frame and previous clicks (input pixels) as the ``(4, H, W)`` input."""
    return torch.cat([frame.float() / 255.0, click_map(frame.shape[1], frame.shape[2], clicks)], dim=0)
