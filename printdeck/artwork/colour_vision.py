"""Colour as players see it: CIELAB, the CIEDE2000 colour difference, grey and colour-vision
deficiency simulations (numpy only).

Sources:
    - IEC 61966-2-1 (sRGB): the transfer function and the D65 RGB -> XYZ matrix.
    - CIE 15:2004: XYZ -> CIELAB with the D65 white.
    - G. Sharma, W. Wu, E. N. Dalal, "The CIEDE2000 color-difference formula: implementation
      notes, supplementary test data, and mathematical observations", Color Research and
      Application 30(1), 2005 (the formula as implemented; its 34 test pairs are in the tests).
    - G. M. Machado, M. M. Oliveira, L. A. F. Fernandes, "A physiologically-based model for
      simulation of color vision deficiency", IEEE TVCG 15(6), 2009: the severity 1.0 matrices
      (protanopia, deuteranopia, tritanopia), applied to linear RGB.
    - Grey: the luminance Y of linear sRGB (ITU-R BT.709 weights), the tone a grey printer aims for.
"""

from __future__ import annotations

from enum import Enum

import numpy as np

_SRGB_TO_XYZ = np.array(
    [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
)
_D65_WHITE = np.array([0.95047, 1.0, 1.08883])

_MACHADO_SEVERITY_1 = {
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    ),
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    ),
    "tritanopia": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
    ),
}


class Vision(str, Enum):
    """How the colours are seen: as printed in colour, printed in grey, or with a colour-vision deficiency."""

    NORMAL = "normal"
    GREY = "grey"
    PROTANOPIA = "protanopia"
    DEUTERANOPIA = "deuteranopia"
    TRITANOPIA = "tritanopia"


def srgb_to_linear(rgb: np.ndarray) -> np.ndarray:
    """sRGB values in [0, 1] to linear light (IEC 61966-2-1), any shape."""
    rgb = np.asarray(rgb, dtype=np.float64)
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(linear: np.ndarray) -> np.ndarray:
    """Linear light in [0, 1] to sRGB values (clipped to [0, 1]), any shape."""
    linear = np.clip(np.asarray(linear, dtype=np.float64), 0.0, 1.0)
    return np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)


def relative_luminance(rgb: np.ndarray) -> np.ndarray:
    """The relative luminance Y (linear, [0, 1]; WCAG 2's, IEC 61966-2-1's weights) of
    ``rgb`` (``(..., 3)`` sRGB in [0, 1])."""
    return srgb_to_linear(rgb) @ _SRGB_TO_XYZ[1]


def grey_level(rgb: np.ndarray) -> np.ndarray:
    """The grey (sRGB-encoded, [0, 1]) of the same luminance as ``rgb`` (``(..., 3)`` in [0, 1])."""
    return linear_to_srgb(relative_luminance(rgb))


def simulate(rgb: np.ndarray, vision: Vision | str) -> np.ndarray:
    """``rgb`` (``(..., 3)`` sRGB in [0, 1]) as seen with ``vision``: grey (equal luminance) or
    Machado et al.'s (2009) severity 1.0 dichromacy, on linear RGB."""
    vision = Vision(vision)
    rgb = np.asarray(rgb, dtype=np.float64)
    if vision is Vision.NORMAL:
        return rgb
    if vision is Vision.GREY:
        return np.repeat(grey_level(rgb)[..., None], 3, axis=-1)
    return linear_to_srgb(srgb_to_linear(rgb) @ _MACHADO_SEVERITY_1[vision.value].T)


def srgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB (``(..., 3)`` in [0, 1]) to CIELAB (D65), ``(..., 3)``: L* in [0, 100]."""
    xyz = srgb_to_linear(rgb) @ _SRGB_TO_XYZ.T / _D65_WHITE
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """The CIEDE2000 colour difference ΔE00 of two CIELAB arrays ``(..., 3)`` (kL = kC = kH = 1),
    as Sharma, Wu and Dalal (2005) give it (hue angles in degrees, their mean and difference
    taken the short way round; a neutral colour's hue counts as 0)."""
    lab1, lab2 = np.asarray(lab1, dtype=np.float64), np.asarray(lab2, dtype=np.float64)
    l1, a1, b1 = lab1[..., 0], lab1[..., 1], lab1[..., 2]
    l2, a2, b2 = lab2[..., 0], lab2[..., 1], lab2[..., 2]
    c_mean7 = ((np.hypot(a1, b1) + np.hypot(a2, b2)) / 2) ** 7
    g = 0.5 * (1 - np.sqrt(c_mean7 / (c_mean7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    neutral = (c1p * c2p) == 0
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(neutral, 0.0, dh)
    d_big_h = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh) / 2)
    h_sum = h1p + h2p
    h_mean = np.where(np.abs(h1p - h2p) > 180, np.where(h_sum < 360, (h_sum + 360) / 2, (h_sum - 360) / 2), h_sum / 2)
    h_mean = np.where(neutral, h_sum, h_mean)
    t = (
        1
        - 0.17 * np.cos(np.radians(h_mean - 30))
        + 0.24 * np.cos(np.radians(2 * h_mean))
        + 0.32 * np.cos(np.radians(3 * h_mean + 6))
        - 0.20 * np.cos(np.radians(4 * h_mean - 63))
    )
    l_mean, c_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * c_mean
    s_h = 1 + 0.015 * c_mean * t
    c_mean7p = c_mean**7
    r_t = -2 * np.sqrt(c_mean7p / (c_mean7p + 25.0**7)) * np.sin(np.radians(60 * np.exp(-(((h_mean - 275) / 25) ** 2))))
    dl, dc, dhh = (l2 - l1) / s_l, (c2p - c1p) / s_c, d_big_h / s_h
    return np.sqrt(dl**2 + dc**2 + dhh**2 + r_t * dc * dhh)


def hex_difference(first: str, second: str, vision: Vision | str = Vision.NORMAL) -> float:
    """The CIEDE2000 difference of two ``#rrggbb`` colours as seen with ``vision``
    (:func:`simulate`): how far apart two inks print, to a player.

    Examples:
        >>> round(hex_difference("#ffb000", "#e69f00"), 1), hex_difference("#0072b2", "#0072b2")
        (5.2, 0.0)
    """
    rgb = np.array([[int(c[i : i + 2], 16) / 255.0 for i in (1, 3, 5)] for c in (first, second)])
    seen = srgb_to_lab(simulate(rgb, vision))
    return float(ciede2000(seen[0], seen[1]))
