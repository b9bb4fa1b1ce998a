"""A drawing made ready for the look-alike comparison (:mod:`printdeck.artwork.lookalike`):
rasterised with ``RASTER_PX`` on its longer side, padded, measured (centroid, RMS radius,
radial profile, compactness) and its coarse ink turned to every angle; a picture's are kept
in the disk cache (folder ``looks``) by its drawing key, read back exactly as made."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from printdeck.artwork.binary_entry import EntryError, pack_entry, unpack_entry
from printdeck.artwork.drawing import Drawing
from printdeck.artwork.faces import opencv
from printdeck.cache import cache_dir, code_digest, entry_key, read_entry_bytes, write_entry

GRID = 64
"""Side of the normalised silhouette, pixels."""
RMS_SPAN = 4.8
"""The normalised square spans this many RMS radii of the ink (a long word's ends fit)."""
RASTER_PX = 128
"""Longest side of the drawing as rasterised for the comparison, pixels."""
ANGLE_STEP_DEG = 5
COARSE_GRID = 24
"""Side of the coarse, softened silhouettes whose cosine similarity (never below the overlap)
picks the turns worth comparing finely."""


def turn_angles() -> np.ndarray:
    """``(N_ANGLES,)`` the turns compared, degrees: 0, ``ANGLE_STEP_DEG``, ... below 360."""
    return np.arange(0, 360, ANGLE_STEP_DEG, dtype=np.float64)


def warp(premult: np.ndarray, cx: float, cy: float, rms: float, angle: float, grid: int = GRID) -> np.ndarray:
    """The raster moved, scaled and turned ``angle`` degrees into the normalised ``grid`` square."""
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    m = cv2.getRotationMatrix2D((cx, cy), angle, grid / (RMS_SPAN * rms))
    m[:, 2] += np.array([grid / 2.0 - cx, grid / 2.0 - cy])
    return cv2.warpAffine(premult, m, (grid, grid), flags=cv2.INTER_AREA, borderValue=0)


def ink_frame(alpha: np.ndarray) -> tuple[float, float, float]:
    """Centroid x, y and RMS radius of the ink, pixels (from the ink's column and row sums)."""
    columns, rows = alpha.sum(axis=0, dtype=np.float64), alpha.sum(axis=1, dtype=np.float64)
    xs, ys = np.arange(alpha.shape[1], dtype=np.float64), np.arange(alpha.shape[0], dtype=np.float64)
    total = float(columns.sum())
    cx, cy = float(columns @ xs) / total, float(rows @ ys) / total
    rms = math.sqrt(float(columns @ (xs - cx) ** 2 + rows @ (ys - cy) ** 2) / total)
    return cx, cy, max(rms, 1e-6)


def ink_profile(alpha: np.ndarray, cx: float, cy: float, rms: float) -> np.ndarray:
    """``(16,)`` the share of the ink in each ring around its centroid (``cx``, ``cy``),
    the rings spanning ``RMS_SPAN / 2`` RMS radii ``rms`` (pixels)."""
    ys, xs = np.indices(alpha.shape)
    rings = np.minimum((np.hypot(xs - cx, ys - cy) / (rms * RMS_SPAN / 2) * 16).astype(int), 15)
    return np.bincount(rings.ravel(), weights=alpha.ravel(), minlength=16)[:16] / float(alpha.sum())


PAD_PX = RASTER_PX // 4
"""Transparent margin around the raster, pixels (a drawing turned about its centroid stays in)."""
N_ANGLES = 360 // ANGLE_STEP_DEG


COARSE_LAYOUT = ("<f4", (N_ANGLES, COARSE_GRID * COARSE_GRID))
"""A kept coarse ink's dtype (little-endian) and shape."""


@dataclass(frozen=True)
class LookData:
    """What :func:`look_of` takes from a drawing: its pixels and measures, and where they are kept."""

    pixels: np.ndarray
    frames: np.ndarray
    profile: np.ndarray
    compactness: float
    kept: Path | None


def look_data(art: Drawing) -> LookData:
    """The drawing rasterised with :data:`RASTER_PX` on its longer side, and its measures.

    A picture's or an SVG's are kept in the disk cache (folder ``looks``, a ``.look`` by its
    drawing key and this module's code; the coarse ink of :meth:`Look.coarse` beside it,
    once made), so a new seed's deck, comparing symbols drawn before in other company,
    neither draws nor measures them again: what is read back is exactly what was made
    (a word's pixels depend on its colour, which the key leaves out: made each time).
    """
    from printdeck.artwork.raster import rasterise  # noqa: PLC0415 - resvg and Pillow only when drawn

    scale = RASTER_PX / max(art.size)
    w, h = max(1, round(art.size[0] * scale)), max(1, round(art.size[1] * scale))
    folder = cache_dir("looks") if art.kind != "text" else None
    entry = folder / f"{entry_key(art.key, RASTER_PX, w, h, _look_code())}.look" if folder is not None else None
    layout = [("<u1", (h, w, 4)), ("<f8", (2, 3)), ("<f8", (16,)), ("<f8", ())]
    arrays = read_arrays(entry, layout) if entry is not None else None
    if arrays is None:
        pixels = np.asarray(rasterise(art, w, h).convert("RGBA"), dtype=np.uint8)
        arrays = [pixels, *measures(pixels)]
        if entry is not None:
            write_arrays(entry, arrays, layout)
    return LookData(arrays[0], arrays[1], arrays[2], float(arrays[3]), entry)


def write_arrays(entry: Path, arrays: Sequence[np.ndarray], layout: Sequence[tuple[str, tuple[int, ...]]]) -> None:
    """Keep ``arrays`` in ``entry`` (:func:`~printdeck.artwork.binary_entry.pack_entry`), each
    in the dtype ``layout`` gives it."""
    parts = {f"a{k}": np.asarray(a, dtype=dtype) for k, (a, (dtype, _)) in enumerate(zip(arrays, layout))}
    write_entry(entry, pack_entry({}, parts))


def read_arrays(entry: Path, layout: Sequence[tuple[str, tuple[int, ...]]]) -> list[np.ndarray] | None:
    """The arrays kept in ``entry`` (dtypes and shapes: ``layout``), read without a copy;
    None when not kept, or not as :func:`write_arrays` writes them."""
    data = read_entry_bytes(entry)
    expected = {f"a{k}": (dtype, len(shape)) for k, (dtype, shape) in enumerate(layout)}
    try:
        _, parts = unpack_entry(data, expected, copy=False) if data is not None else (None, {})
    except EntryError:
        return None
    arrays = [parts[name] for name in expected if name in parts]
    if len(arrays) != len(layout) or any(a.shape != shape for a, (_, shape) in zip(arrays, layout)):
        return None
    return arrays


@lru_cache(maxsize=1)
def _look_code() -> str:
    return code_digest(
        "printdeck.artwork.lookalike", "printdeck.artwork.look", __name__, "printdeck.artwork.binary_entry"
    )


def padded(pixels: np.ndarray) -> np.ndarray:
    """``(h + 2 PAD_PX, w + 2 PAD_PX, 4) float32``: the pixels as 0..1, in a transparent margin."""
    h, w = pixels.shape[:2]
    rgba = np.zeros((h + 2 * PAD_PX, w + 2 * PAD_PX, 4), dtype=np.float32)
    rgba[PAD_PX : PAD_PX + h, PAD_PX : PAD_PX + w] = pixels.astype(np.float32) / 255.0
    return rgba


def padded_alpha(pixels: np.ndarray) -> np.ndarray:
    """The alpha of :func:`padded` (the same values), contiguous."""
    h, w = pixels.shape[:2]
    alpha = np.zeros((h + 2 * PAD_PX, w + 2 * PAD_PX), dtype=np.float32)
    alpha[PAD_PX : PAD_PX + h, PAD_PX : PAD_PX + w] = pixels[..., 3].astype(np.float32) / 255.0
    return alpha


def premultiplied(rgba: np.ndarray) -> np.ndarray:
    """``(2, H, W, 4) float32``: the padded raster premultiplied, unmirrored and mirrored."""
    rasters = np.zeros((2, *rgba.shape), dtype=np.float32)
    for mirror in (0, 1):
        src = rgba[:, ::-1] if mirror else rgba
        rasters[mirror] = np.dstack([src[..., :3] * src[..., 3:4], src[..., 3]])
    return rasters


def measures(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The padded raster's frames (``(2, 3)``, unmirrored and mirrored), its ``(16,)`` radial
    profile and its compactness (a ``()`` float64; see :class:`Look`)."""
    rgba = padded(pixels)
    frames = np.zeros((2, 3))
    for mirror in (0, 1):
        src = rgba[:, ::-1] if mirror else rgba
        frames[mirror] = ink_frame(src[..., 3])
    profile = ink_profile(rgba[..., 3], *frames[0])
    compactness = float(rgba[..., 3].sum()) / frames[0][2] ** 2
    return frames, profile, np.asarray(compactness, dtype=np.float64)


def coarse_rows(alpha: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """``(n_angles, COARSE_GRID ** 2) float32``: unit vectors of the ink ``alpha`` (centroid
    and RMS radius ``frame``) softened, at every angle."""
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    cx, cy, rms = frame
    small = cv2.resize(alpha, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    rows = []
    for angle in turn_angles():
        turned = warp(small, cx / 4, cy / 4, rms / 4, float(angle), COARSE_GRID)
        soft = cv2.GaussianBlur(turned, (0, 0), 0.7).ravel()
        rows.append(soft / max(float(np.linalg.norm(soft)), 1e-9))
    return np.stack(rows)


def coarse_picture_rows(premult: np.ndarray, frame: np.ndarray, turn_deg: float = 180.0) -> np.ndarray:
    """``(n_angles, 3 * COARSE_GRID ** 2) float32``: unit vectors of the picture ``premult``
    (``(H, W, 4)`` premultiplied RGBA; centroid and RMS radius ``frame``) softened like
    :func:`coarse_rows`, its colour's mean over the square taken away, at every angle up to
    ``turn_deg`` either way (zero rows beyond): what tells a photo from its mirror image
    where their silhouettes are one disc."""
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    cx, cy, rms = frame
    small = cv2.resize(np.ascontiguousarray(premult[..., :3]), None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    angles = turn_angles()
    rows = np.zeros((len(angles), 3 * COARSE_GRID * COARSE_GRID), dtype=np.float32)
    for k, angle in enumerate(angles):
        if abs((angle + 180) % 360 - 180) > turn_deg + ANGLE_STEP_DEG / 2:
            continue
        turned = warp(small, cx / 4, cy / 4, rms / 4, float(angle), COARSE_GRID)
        soft = cv2.GaussianBlur(turned, (0, 0), 0.7).reshape(-1, 3)
        centred = (soft - soft.mean(axis=0)).ravel()
        rows[k] = centred / max(float(np.linalg.norm(centred)), 1e-9)
    return rows
