"""How far apart two colours look: CIE76 and CIEDE2000 differences in CIE L*a*b*.

Why two: ``run_format``'s tolerance was CIE76 from the start; OSWorld's
``evaluate_colored_words_in_tables`` gives its threshold (3.5) in CIEDE2000, which weighs
hue and chroma differences differently, so its conversion asks for that formula.
"""

from __future__ import annotations

import math
from typing import Literal

#: The colour-difference formulas a check may name.
Formula = Literal["cie76", "ciede2000"]


def lab(hex_color: str) -> tuple[float, float, float]:
    """sRGB hex (``"FF0000"``, ``"#ff0000"``) -> CIE L*a*b* (D65)."""
    text = hex_color.removeprefix("#").upper()
    channels = []
    for i in (0, 2, 4):
        c = int(text[i:i + 2], 16) / 255
        channels.append(((c + 0.055) / 1.055) ** 2.4 if c > 0.04045 else c / 12.92)
    r, g, b = channels
    xyz = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def delta_e_2000(one: tuple[float, float, float], other: tuple[float, float, float]) -> float:
    """CIEDE2000 ΔE between two L*a*b* colours (Sharma, Wu and Dalal's formulation)."""
    (l1, a1, b1), (l2, a2, b2) = one, other
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p) - 360 * ((h2p - h1p) > 180) + 360 * ((h2p - h1p) < -180)
    d_hue = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * cp_mean, 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * theta)) * r_c
    dl, dc, dhh = (l2 - l1) / s_l, (c2p - c1p) / s_c, d_hue / s_h
    return math.sqrt(dl ** 2 + dc ** 2 + dhh ** 2 + r_t * dc * dhh)


def color_distance(a: str, b: str, formula: Formula = "cie76") -> float:
    """ΔE between two hex colours (0 = the same; about 2.3 is just noticeable in CIE76)."""
    la, lb = lab(a), lab(b)
    if formula == "ciede2000":
        return delta_e_2000(la, lb)
    return sum((x - y) ** 2 for x, y in zip(la, lb)) ** 0.5


__all__ = ["Formula", "color_distance", "delta_e_2000", "lab"]
