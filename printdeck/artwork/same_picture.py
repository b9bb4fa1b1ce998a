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
matches show the same scene. Measured by ``bench/bench_same_picture.py`` (bench/RESULTS.md,
"Same picture"): 810 pairs of photos of different pictures agreed on at most 2 matches;
re-crops (zoom up to 1.4), turns and re-saves of one picture on 11 or more. A much
tighter crop is found less often (a quarter of a picture blown up to a whole photo, 11 of
16 times), and a mirrored copy not at all here (the pixel comparison finds one with the
same crop).

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
are found; of any other drawing, as printed."""
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
RIM_PX = 4
"""No keypoint within this many pixels of the crop's edge (whose outside is filled in)."""
SAME_PICTURE_INLIERS = 8
"""Least matches one similarity transform must carry onto each other for the same picture
(chance gave at most 2 over 810 pairs of different pictures, re-crops 11 or more)."""
_LAYOUT = [("<i4", (1,)), ("<f4", (N_FEATURES, 2)), ("<u1", (N_FEATURES, 32))]


@dataclass(frozen=True)
class Features:
    """A photo's keypoints and descriptors as printed.

    Attributes:
        points: ``(k, 2) float32`` keypoint positions, pixels of the :data:`FEATURE_PX` raster.
        descriptors: ``(k, 32) uint8`` ORB descriptors (256 bits each), row for row.
    """

    points: np.ndarray
    descriptors: np.ndarray


def picture_features(art: Drawing) -> Features:
    """The ORB features of a drawing as it prints (its crop, ink only), kept in the disk
    cache.

    Args:
        art: The photo's drawing (:func:`printdeck.artwork.drawing`).

    Raises:
        PrintdeckError: The picture cannot be drawn.
    """
    entry = _entry(art)
    arrays = read_arrays(entry, _LAYOUT) if entry is not None else None
    if arrays is None:
        points, descriptors = _found(art)
        count = np.array([len(points)], dtype=np.int32)
        padded_points = np.zeros((N_FEATURES, 2), dtype=np.float32)
        padded_descriptors = np.zeros((N_FEATURES, 32), dtype=np.uint8)
        padded_points[: len(points)], padded_descriptors[: len(points)] = points, descriptors
        arrays = [count, padded_points, padded_descriptors]
        if entry is not None:
            write_arrays(entry, arrays, _LAYOUT)
    k = int(arrays[0][0])
    return Features(np.asarray(arrays[1][:k]), np.asarray(arrays[2][:k]))


def _entry(art: Drawing) -> Path | None:
    folder = cache_dir("features")
    return folder / f"{entry_key(art.key, FEATURE_PX, _code())}.orb" if folder is not None else None


def _found(art: Drawing) -> tuple[np.ndarray, np.ndarray]:
    """Keypoints ``(k, 2)`` and descriptors ``(k, 32)`` of what the drawing prints."""
    from printdeck.artwork.faces import opencv  # noqa: PLC0415 - OpenCV only for photos

    cv2 = opencv()
    grey, inner = _in_crop(art, cv2) if art.crop is not None else _printed(art, cv2)
    orb = cv2.ORB_create(nfeatures=N_FEATURES, fastThreshold=10)
    keypoints, descriptors = orb.detectAndCompute(grey, inner)
    if descriptors is None or not keypoints:
        return np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8)
    points = np.array([kp.pt for kp in keypoints], dtype=np.float32)
    return points[:N_FEATURES], descriptors[:N_FEATURES]


def _in_crop(art: Drawing, cv2: ModuleType) -> tuple[np.ndarray, np.ndarray]:
    """A photo at :data:`FEATURE_PX` on its longer side, grey (area-averaged), and the mask
    of its crop (the disc or square that prints): keypoints are taken where it prints, at
    the scale of the whole photo, so a tight crop of a face and a wide one of the same
    photo show the face at one size."""
    from printdeck.artwork.decode import oriented_size, upright_decoded  # noqa: PLC0415

    assert art.crop is not None
    path = Path(art.symbol.path or "")
    width, _ = oriented_size(path)
    full = upright_decoded(path, FEATURE_PX, f"symbol {art.symbol.name!r}")  # the crop search's decode
    scale = FEATURE_PX / max(full.size)
    size = (max(1, round(full.width * scale)), max(1, round(full.height * scale)))
    grey = cv2.resize(np.asarray(full.convert("L")), size, interpolation=cv2.INTER_AREA)
    scale = grey.shape[1] / width
    left, top, side = art.crop.left * scale, art.crop.top * scale, art.crop.side * scale
    inner = np.zeros(grey.shape, dtype=np.uint8)
    if art.symbol.photo_shape == "circle":
        cv2.circle(inner, (round(left + side / 2), round(top + side / 2)), max(1, round(side / 2)), 255, -1)
    else:
        cv2.rectangle(inner, (round(left), round(top)), (round(left + side) - 1, round(top + side) - 1), 255, -1)
    return grey, inner


def _printed(art: Drawing, cv2: ModuleType) -> tuple[np.ndarray, np.ndarray]:
    """The drawing rasterised at :data:`FEATURE_PX` on its longer side, grey, and the mask
    of its ink less :data:`RIM_PX` (the area outside the ink filled in from the picture, so
    its edge is no detail)."""
    from printdeck.artwork.raster import rasterise  # noqa: PLC0415

    scale = FEATURE_PX / max(art.size)
    w, h = max(1, round(art.size[0] * scale)), max(1, round(art.size[1] * scale))
    rgba = np.asarray(rasterise(art, w, h).convert("RGBA"), dtype=np.uint8)
    grey = cv2.cvtColor(np.ascontiguousarray(rgba[:, :, :3]), cv2.COLOR_RGB2GRAY)
    ink = np.where(rgba[:, :, 3] >= 128, 255, 0).astype(np.uint8)
    grey = cv2.inpaint(grey, 255 - ink, RIM_PX, cv2.INPAINT_TELEA)
    return grey, cv2.erode(ink, np.ones((2 * RIM_PX + 1, 2 * RIM_PX + 1), np.uint8))


def agreeing_matches(a: Features, b: Features) -> int:
    """How many of the two photos' feature matches one similarity transform (turn, uniform
    scale and shift) carries onto each other: :data:`SAME_PICTURE_INLIERS` or more, and
    the two show the same picture; 0 when fewer matches than that pass the ratio test.

    Matches are each feature's nearest by Hamming distance that passes Lowe's :data:`RATIO`
    test; the transform is found by RANSAC within :data:`RANSAC_PX` (OpenCV's fixed seed:
    the same photos give the same count).
    """
    if len(a.descriptors) < 2 or len(b.descriptors) < 2:
        return 0
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
        return 0
    src, dst = a.points[query], b.points[nearest[query, 0]]
    transform, inliers = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=RANSAC_PX)
    if transform is None or inliers is None:
        return 0
    scale = float(np.hypot(transform[0, 0], transform[1, 0]))
    return int(inliers.sum()) if 1 / MAX_ZOOM <= scale <= MAX_ZOOM else 0


def _code() -> str:
    return code_digest(__name__, "printdeck.artwork.binary_entry")
