"""The subject of a photo without a face: a box around what stands out (issue #26).

:func:`find_subject` finds the part of a photo that draws the eye (a toy, a cake, a car,
a dog) with OpenCV contrib's fine-grained static saliency (``cv2.saliency``, in the
``opencv-contrib-python-headless`` wheel: Montabone and Soto's centre-surround
differences over several scales, "Human detection using a mobile platform and novel
features derived from a visual saliency mechanism", Image and Vision Computing 28(3),
2010). It is computed on a small copy of the photo, so it costs a few milliseconds.

Photos with nothing standing out (a flat colour, a gradient, noise, an even texture
such as grass or a wall) give no subject, and their crop stays centred. How the settings
were chosen: bench/RESULTS.md, "Subjects and pet faces".
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from printdeck.artwork.crop_geometry import FaceBox
from printdeck.artwork.faces import opencv

__all__ = [
    "BACKGROUND_PERCENTILE",
    "CORE_TAIL",
    "MIN_EXCESS_SHARE",
    "SALIENCY_PX",
    "SUBJECT_MAX_AREA",
    "find_subject",
    "saliency_map",
    "subject_boxes",
]

SALIENCY_PX = 192
"""Longest side, pixels, of the copy the saliency map is computed on."""
BACKGROUND_PERCENTILE = 30.0
"""The map's background level: this percentile of its values (a subject covers less than 70 %)."""
MIN_EXCESS_SHARE = 0.05
"""Least share of the map's mass that must stand above the background for a subject to exist."""
SUBJECT_MAX_AREA = 0.6
"""A "subject" covering more than this share of the photo is the whole photo: no subject."""
_EDGE = 0.03  # share of each side ignored at the borders (the map's filters wrap there)
_BLUR = 3.0  # Gaussian sigma, pixels of the small copy: one blob per object, not per edge
_SPREAD = 3.0  # the excess starts this many (background - 5th percentile) above the background
_TAIL = 0.03  # the box leaves out this share of the excess mass on each side (stray specks)
CORE_TAIL = 0.2
"""The subject's core leaves out this share of the salient mass on each side (its middle 60 %)."""

_local = threading.local()


def _saliency() -> Any:
    """This thread's fine-grained saliency object (OpenCV's objects are not thread-safe)."""
    found = getattr(_local, "fine_grained", None)
    if found is None:
        cv2 = opencv()
        if not hasattr(cv2, "saliency"):  # pragma: no cover - the plain wheel instead of contrib
            raise ImportError("subject detection needs OpenCV contrib: pip install 'opencv-contrib-python-headless<5'")
        found = _local.fine_grained = cv2.saliency.StaticSaliencyFineGrained_create()
    return found


def saliency_map(rgb: np.ndarray) -> tuple[np.ndarray, float]:
    """The smoothed saliency map of a reduced copy of ``rgb`` (``(h, w) float32``, borders
    zeroed) and the copy's scale (its pixels per pixel of ``rgb``)."""
    cv2 = opencv()
    height, width = rgb.shape[:2]
    scale = min(1.0, SALIENCY_PX / max(height, width))
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    small = cv2.resize(np.ascontiguousarray(rgb), size, interpolation=cv2.INTER_AREA)
    ok, sal = _saliency().computeSaliency(cv2.cvtColor(small, cv2.COLOR_RGB2BGR))
    if not ok:  # pragma: no cover - OpenCV reports failure only on empty input
        return np.zeros(small.shape[:2], np.float32), scale
    sal = cv2.GaussianBlur(np.asarray(sal, np.float32), (0, 0), _BLUR)
    edge = max(1, round(_EDGE * max(size)))
    sal[:edge], sal[-edge:], sal[:, :edge], sal[:, -edge:] = 0, 0, 0, 0
    return sal, scale


def find_subject(rgb: np.ndarray) -> FaceBox | None:
    """The box of the photo's subject, in pixels of ``rgb``; ``None`` when nothing stands out.

    Args:
        rgb: ``(H, W, 3) uint8`` RGB array, rows top to bottom.

    Returns:
        A :class:`~printdeck.artwork.crop_geometry.FaceBox` (any object, not only a
        face) holding all but 3 % of the salient mass on each side, or ``None``.

    How: the fine-grained saliency map of a copy :data:`SALIENCY_PX` pixels long
    (:func:`saliency_map`); its background level is its :data:`BACKGROUND_PERCENTILE`
    percentile, and what stands above that level by three times the spread below it
    is the subject's mass. No subject when that mass is under :data:`MIN_EXCESS_SHARE`
    of the map (flat, noisy or evenly textured photos) or its box covers more than
    :data:`SUBJECT_MAX_AREA` of the photo (a gradient, a busy photo with no one
    subject).

    Raises:
        ValueError: ``rgb`` is not an ``(H, W, 3) uint8`` array.
        ImportError: OpenCV contrib 4.x is not installed.
    """
    boxes = subject_boxes(rgb)
    return None if boxes is None else boxes[0]


def subject_boxes(rgb: np.ndarray) -> tuple[FaceBox, FaceBox] | None:
    """:func:`find_subject`'s box and the subject's core (all but :data:`CORE_TAIL` of
    the salient mass on each side), pixels of ``rgb``; ``None`` when nothing stands out.

    Raises:
        ValueError: ``rgb`` is not an ``(H, W, 3) uint8`` array.
        ImportError: OpenCV contrib 4.x is not installed.
    """
    if not isinstance(rgb, np.ndarray) or rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        raise ValueError("the subject is found in an (H, W, 3) uint8 RGB array")
    if min(rgb.shape[:2]) < 16:
        return None
    sal, scale = saliency_map(rgb)
    inner = sal[sal > 0] if np.any(sal > 0) else sal.ravel()
    level = float(np.percentile(inner, BACKGROUND_PERCENTILE))
    spread = level - float(np.percentile(inner, 5.0)) + 1e-6
    excess = np.clip(sal - level - _SPREAD * spread, 0.0, None)
    total = float(excess.sum())
    if total <= 0.0 or total < MIN_EXCESS_SHARE * float(sal.sum()):
        return None
    columns, rows = excess.sum(axis=0), excess.sum(axis=1)
    boxes = []
    for tail in (_TAIL, CORE_TAIL):
        (x0, x1), (y0, y1) = _span(columns, total, tail), _span(rows, total, tail)
        boxes.append(FaceBox(x0 / scale, y0 / scale, x1 / scale, y1 / scale))
    if boxes[0].area * scale * scale > SUBJECT_MAX_AREA * sal.size:
        return None
    return boxes[0], boxes[1]


def _span(profile: np.ndarray, total: float, tail: float) -> tuple[float, float]:
    """The pixel range holding all but ``tail`` of ``profile``'s mass at each end."""
    cumulative = np.cumsum(profile)
    start = int(np.searchsorted(cumulative, tail * total))
    stop = int(np.searchsorted(cumulative, (1.0 - tail) * total)) + 1
    return float(start), float(min(stop, len(profile)))
