"""Two photos that show the same picture: one a crop, a zoom, a turn or a re-save of the other.

The look-alike check (:mod:`printdeck.artwork.lookalike`) compares drawings pixel by pixel at
their best pose, which tells a photo from another of the same colours, but not a photo from
a tighter crop of itself: every photo prints as the same disc, and the two crops put the
same subject at different sizes and places. Players still see one picture twice (a family
deck made from a burst of shots, a photo and its edited copy), and the game breaks.

So two photos are also compared by their content: ORB keypoints and binary descriptors
(Rublee et al. 2011, "ORB: an efficient alternative to SIFT or SURF", ICCV) of each photo
at :data:`FEATURE_PX`, taken only where its crop prints, matched by Hamming distance with
Lowe's ratio test (Lowe 2004, "Distinctive image features from scale-invariant keypoints",
IJCV 60), one match a detail; then the matches that one similarity transform (turn, uniform
scale and shift) carries onto each other, found by RANSAC (OpenCV's
``estimateAffinePartial2D``). Two photos with :data:`SAME_PICTURE_INLIERS` or more such
matches, matched from each to the other (:func:`shared_scene`), share a scene; they show
the same picture when, besides, moved onto each other by that transform, their printed
rasters agree in colour (:func:`aligned_colour_difference`, as the pixel comparison judges
colours): another person before the same wall shares the wall's details, not the picture.

Measured by ``bench/bench_same_picture.py`` (bench/RESULTS.md, "Same picture"): 810 pairs
of photos of different pictures agreed on at most 2 matches either way, and none was found
alike; 28 of 30 re-crops (zoom up to 1.4), turns and re-saves of one picture were (the two
missed: 9 and 6 matches). Found less often or not at all: a much tighter crop (a quarter of
a picture blown up to a whole photo, 10 of 16 times); a crop of a panorama wider than 4:1
(the printed part is then a few dozen pixels of the 512); one picture in frames of two
colours that fill over a quarter of both crops (the colours differ there); a mirrored copy
(the pixel comparison finds one with the same crop). A different subject before the same
background that covers under a quarter of what the two share is taken for the same picture.

Features are kept in the disk cache (folder ``features``) by the drawing's key and this
module's code, so a build of photos compared before draws none of them again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

from printdeck.artwork.drawing import Drawing
from printdeck.artwork.look_raster import read_arrays, write_arrays
from printdeck.cache import cache_dir, code_digest, entry_key

FEATURE_PX = 512
"""Longer side, pixels, of a photo (its whole picture: the crop is a mask) as its features
are found."""
N_FEATURES = 300
"""Most ORB keypoints kept a photo (the strongest)."""
RATIO = 0.75
"""Lowe's ratio: a match counts when its distance is under this share of the second best's."""
RANSAC_PX = 3.0
"""Largest distance, pixels, a match may lie from where the transform puts it."""
MAX_DISTANCE_BITS = 64
"""Largest Hamming distance (of 256 bits) of a match: beyond it two details differ."""
MAX_ZOOM = 4.0
"""Largest scale between two crops of one picture that the transform may take (either way)."""
SAME_PICTURE_INLIERS = 8
"""Least matches one similarity transform must carry onto each other for the same picture
(chance gave at most 2 over 810 pairs of different pictures; 28 of 30 re-crops reach it)."""
BLUR_PX = 1.5
"""Gaussian sigma, pixels of the printed rasters, both are blurred by before their colours are
compared: a pixel's worth of misalignment or a softer resampling is no difference."""
ALIGNED_SHARE = 0.2
"""Least share of a photo's printed crop the other must cover, once aligned, for their colours
to be compared there."""
_LAYOUT = [("<i4", (1,)), ("<f4", (N_FEATURES, 2)), ("<u1", (N_FEATURES, 32)), ("<f4", (3,))]


@dataclass(frozen=True)
class Features:
    """A photo's keypoints and descriptors as printed.

    Attributes:
        points: ``(k, 2) float32`` keypoint positions, pixels of the :data:`FEATURE_PX` raster.
        descriptors: ``(k, 32) uint8`` ORB descriptors (256 bits each), row for row.
        crop: ``(3,) float32``: the printed square in those pixels (left, top, side), so a
            printed raster of the photo (its look) maps onto them.
    """

    points: np.ndarray
    descriptors: np.ndarray
    crop: np.ndarray


def picture_features(art: Drawing) -> Features:
    """The ORB features of a photo where it prints, kept in the disk cache: inside its crop's
    disc or rounded square (:func:`~printdeck.artwork.picture.photo_mask`; see-through parts
    and a removed background are not left out: the colour comparison, on the printed
    rasters, sees them).

    Args:
        art: The photo's drawing (:func:`printdeck.artwork.drawing`).

    Raises:
        ValueError: ``art`` is not a photo's (it has no crop).
        PrintdeckError: The picture cannot be drawn.
    """
    if art.crop is None:
        raise ValueError(f"picture_features: {art.symbol.name!r} is not a photo (its drawing has no crop)")
    entry = _entry(art)
    arrays = read_arrays(entry, _LAYOUT) if entry is not None else None
    if arrays is None:
        points, descriptors, crop = _found(art)
        count = np.array([len(points)], dtype=np.int32)
        padded_points = np.zeros((N_FEATURES, 2), dtype=np.float32)
        padded_descriptors = np.zeros((N_FEATURES, 32), dtype=np.uint8)
        padded_points[: len(points)], padded_descriptors[: len(points)] = points, descriptors
        arrays = [count, padded_points, padded_descriptors, np.asarray(crop, dtype=np.float32)]
        if entry is not None:
            write_arrays(entry, arrays, _LAYOUT)
    k = int(arrays[0][0])
    return Features(np.asarray(arrays[1][:k]), np.asarray(arrays[2][:k]), np.asarray(arrays[3]))


def _entry(art: Drawing) -> Path | None:
    folder = cache_dir("features")
    return folder / f"{entry_key(art.key, FEATURE_PX, _code())}.orb" if folder is not None else None


def _found(art: Drawing) -> tuple[np.ndarray, np.ndarray, tuple[float, float, float]]:
    """Keypoints ``(k, 2)`` and descriptors ``(k, 32)`` of what the drawing prints, and the
    printed square (left, top, side) in their pixels."""
    from printdeck.artwork.faces import opencv  # noqa: PLC0415 - OpenCV only for photos

    cv2 = opencv()
    grey, inner, crop = _in_crop(art, cv2)
    orb = cv2.ORB_create(nfeatures=N_FEATURES, fastThreshold=10)
    keypoints, descriptors = orb.detectAndCompute(grey, inner)
    if descriptors is None or not keypoints:
        return np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8), crop
    points = np.array([kp.pt for kp in keypoints], dtype=np.float32)
    return points[:N_FEATURES], descriptors[:N_FEATURES], crop


def _in_crop(art: Drawing, cv2: ModuleType) -> tuple[np.ndarray, np.ndarray, tuple[float, float, float]]:
    """A photo at :data:`FEATURE_PX` on its longer side, grey (area-averaged), and the mask
    of its crop (the disc or rounded square that prints): keypoints are taken where it
    prints, at the scale of the whole photo, so a tight crop of a face and a wide one of
    the same photo show the face at one size."""
    from printdeck.artwork.decode import oriented_size, upright_decoded  # noqa: PLC0415
    from printdeck.artwork.picture import photo_mask  # noqa: PLC0415

    assert art.crop is not None
    path = Path(art.symbol.path or "")
    width, _ = oriented_size(path)
    full = upright_decoded(path, FEATURE_PX, f"symbol {art.symbol.name!r}")  # the crop search's decode
    scale = FEATURE_PX / max(full.size)
    size = (max(1, round(full.width * scale)), max(1, round(full.height * scale)))
    grey = cv2.resize(np.asarray(full.convert("L")), size, interpolation=cv2.INTER_AREA)
    scale = grey.shape[1] / width
    left, top, side = art.crop.left * scale, art.crop.top * scale, art.crop.side * scale
    side_px = max(1, round(side))
    inner = _placed(photo_mask(art.symbol.photo_shape, side_px, side_px), grey.shape, left, top)
    return grey, inner, (left, top, side)


def _placed(mask: np.ndarray, shape: tuple[int, ...], left: float, top: float) -> np.ndarray:
    """``shape`` ``uint8``: ``mask`` (a crop's, 255 where it prints) with its top-left corner at
    (``left``, ``top``), cut to the frame, thresholded at half; 0 elsewhere."""
    out = np.zeros(shape[:2], dtype=np.uint8)
    x0, y0 = round(left), round(top)
    xs = slice(max(0, x0), min(shape[1], x0 + mask.shape[1]))
    ys = slice(max(0, y0), min(shape[0], y0 + mask.shape[0]))
    out[ys, xs] = np.where(mask[ys.start - y0 : ys.stop - y0, xs.start - x0 : xs.stop - x0] >= 128, 255, 0)
    return out


def agreeing_matches(a: Features, b: Features) -> int:
    """How many of the two photos' feature matches one similarity transform (turn, uniform
    scale and shift) carries onto each other (:func:`shared_scene`)."""
    return shared_scene(a, b)[0]


def shared_scene(a: Features, b: Features) -> tuple[int, np.ndarray | None]:
    """:func:`matched_transform` from ``a`` to ``b`` and from ``b`` to ``a``: the fewer of
    their agreeing matches (0 unless both reach :data:`SAME_PICTURE_INLIERS`), and the
    transform from ``a``'s feature pixels to ``b``'s. Matching picks each feature's nearest
    in the other photo, so the two ways differ a little; a chance alignment of a few flat
    shapes holds one way only, one picture's details hold both ways."""
    forth, transform = matched_transform(a, b)
    if forth < SAME_PICTURE_INLIERS or transform is None:
        return 0, None
    back, _ = matched_transform(b, a)
    return (min(forth, back), transform) if back >= SAME_PICTURE_INLIERS else (0, None)


def matched_transform(a: Features, b: Features) -> tuple[int, np.ndarray | None]:
    """The similarity transform (turn, uniform scale and shift, a ``(2, 3)`` matrix from
    ``a``'s feature pixels to ``b``'s) that carries the most of the two photos' feature
    matches onto each other, and how many it carries: :data:`SAME_PICTURE_INLIERS` or
    more, and their details are one picture's. ``(0, None)`` when fewer matches than that
    pass the ratio test, or the transform zooms more than :data:`MAX_ZOOM`.

    Matches are each feature's nearest by Hamming distance that passes Lowe's :data:`RATIO`
    test and is under :data:`MAX_DISTANCE_BITS`, one a feature of ``b`` (its closest); the
    transform is found by RANSAC within :data:`RANSAC_PX` (OpenCV's fixed seed: the same
    photos give the same count).
    """
    if len(a.descriptors) < 2 or len(b.descriptors) < 2:
        return 0, None
    from printdeck.artwork.faces import opencv  # noqa: PLC0415 - OpenCV only for photos

    cv2 = opencv()
    distance, nearest = cv2.batchDistance(a.descriptors, b.descriptors, -1, K=2, normType=cv2.NORM_HAMMING)
    best, second = distance[:, 0], distance[:, 1]
    query = np.nonzero((best < RATIO * second) & (best < MAX_DISTANCE_BITS))[0]
    order = np.lexsort((query, best[query]))  # closest first, then by a's feature
    query = query[order]
    _, first = np.unique(nearest[query, 0], return_index=True)  # one match a feature of b: its closest
    query = query[np.sort(first)]
    if len(query) < SAME_PICTURE_INLIERS:
        return 0, None
    src, dst = a.points[query], b.points[nearest[query, 0]]
    transform, inliers = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=RANSAC_PX)
    if transform is None or inliers is None:
        return 0, None
    scale = float(np.hypot(transform[0, 0], transform[1, 0]))
    return (int(inliers.sum()), transform) if 1 / MAX_ZOOM <= scale <= MAX_ZOOM else (0, None)


def aligned_colour_difference(
    a: Features, b: Features, transform: np.ndarray, a_pixels: np.ndarray, b_pixels: np.ndarray, quantile: float
) -> float | None:
    """The CIEDE2000 difference (``quantile`` of it, pixel by pixel) of two photos' printed
    rasters where they overlap once ``b``'s is moved onto ``a``'s by ``transform`` (from
    :func:`matched_transform`), or the other way round: whichever way the one moved covers
    more of the other's crop; both blurred by :data:`BLUR_PX`, over every other pixel of every
    other row, a few pixels in from the overlap's edge. Two photos whose
    details agree but whose pictures differ where they overlap (another person before the
    same wall) are told apart by it.

    Args:
        a, b: The two photos' features (their ``crop`` places the rasters).
        transform: ``(2, 3)`` from ``a``'s feature pixels to ``b``'s.
        a_pixels, b_pixels: ``(H, W, 4) uint8`` printed rasters (the look-alike check's),
            the crop square stretched over each.
        quantile: Of the per-pixel differences over the overlap.

    Returns:
        The difference, or None when neither covers :data:`ALIGNED_SHARE` of the other.
    """
    from printdeck.artwork.colour_vision import ciede2000, srgb_to_lab  # noqa: PLC0415
    from printdeck.artwork.faces import opencv  # noqa: PLC0415

    cv2 = opencv()
    a_to_b = _in_raster(transform, a, a_pixels, b, b_pixels)  # a's raster pixel -> b's raster pixel
    b_to_a = cv2.invertAffineTransform(a_to_b)
    best: tuple[float, np.ndarray, np.ndarray, np.ndarray] | None = None  # share, mine, moved, overlap
    for mine, other, to_other in ((a_pixels, b_pixels, a_to_b), (b_pixels, a_pixels, b_to_a)):
        flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        moved = cv2.warpAffine(other, to_other, (mine.shape[1], mine.shape[0]), flags=flags, borderValue=(0, 0, 0, 0))
        ink = mine[:, :, 3] >= 250
        both = ink & (moved[:, :, 3] >= 250)
        share = float(both.sum()) / max(1.0, float(ink.sum()))
        if share >= ALIGNED_SHARE and (best is None or share > best[0]):
            best = (share, mine, moved, both)
    if best is None:
        return None
    _, mine, moved, both = best
    both = cv2.erode(both.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)  # off the edges blurred in
    both &= _every_other(both.shape)  # a quarter of the pixels: the quantile barely moves
    mine, moved = (cv2.GaussianBlur(np.ascontiguousarray(x[:, :, :3]), (0, 0), BLUR_PX) for x in (mine, moved))
    lab_mine, lab_moved = srgb_to_lab(mine[both] / 255.0), srgb_to_lab(moved[both] / 255.0)
    return float(np.quantile(ciede2000(lab_mine, lab_moved), quantile))


def _every_other(shape: tuple[int, ...]) -> np.ndarray:
    """``shape`` bool: True on every other row and column."""
    grid = np.zeros(shape, dtype=bool)
    grid[::2, ::2] = True
    return grid


def _in_raster(
    transform: np.ndarray, a: Features, a_pixels: np.ndarray, b: Features, b_pixels: np.ndarray
) -> np.ndarray:
    """``transform`` (feature pixels of ``a`` to those of ``b``) as a map of ``a``'s printed
    raster's pixels to ``b``'s: each raster stretches its photo's crop square over it."""

    def into_features(f: Features, pixels: np.ndarray) -> np.ndarray:  # raster pixel -> feature pixel
        left, top, side = (float(v) for v in f.crop)
        scale = side / max(pixels.shape[:2])
        return np.array([[scale, 0.0, left], [0.0, scale, top], [0.0, 0.0, 1.0]])

    square = np.vstack([transform, [0.0, 0.0, 1.0]])
    return (np.linalg.inv(into_features(b, b_pixels)) @ square @ into_features(a, a_pixels))[:2]


def _code() -> str:
    return code_digest(__name__, "printdeck.artwork.binary_entry")
