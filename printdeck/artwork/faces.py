"""Faces in photos, people's and cats' (issues #14, #26), and crops that keep them.

* :func:`find_faces` -- people's faces in an ``(H, W, 3) uint8`` RGB image, in pixels.
* :func:`find_cat_faces` -- cats' faces, the same way.
* :func:`face_crop` -- people's faces then :func:`~printdeck.artwork.crop_geometry.crop_window`.

The detectors are OpenCV's Viola-Jones Haar cascades, all bundled in the OpenCV wheel
(``opencv-contrib-python-headless`` 4.x on PyPI; OpenCV 5 no longer ships them) under
``cv2.data.haarcascades``, so nothing is downloaded at run time:
``haarcascade_frontalface_alt2.xml`` and ``haarcascade_profileface.xml`` for people (the
profile one run on the image and on its mirror, so profiles facing either way are
found), ``haarcascade_frontalcatface_extended.xml`` for cats. They find upright faces
whose box is at least ~5 % of the photo's longest side: people's frontal, three-quarter
and profile faces; cats' faces seen from the front, ears and all (a close-up whose face
fills the frame is not a "face" to it; the subject map of
:mod:`printdeck.artwork.saliency` finds that). Tilted faces (beyond ~20 degrees), faces
seen from behind and very small faces are not found. Dogs: no offline dog detector ships
inside a package on PyPI or Debian (see README, "Photos"), so a dog is found as the
photo's subject.

The crop geometry (:class:`FaceBox`, :class:`CropWindow`, :func:`crop_window`,
:func:`pad_face`) lives in :mod:`printdeck.artwork.crop_geometry` and is re-exported here.
Coordinates are pixels of the full-size image, x to the right, y down, origin at the
top-left corner of the top-left pixel (so an image spans ``[0, W] x [0, H]``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np

from printdeck.artwork.crop_geometry import (
    PAD_BOTTOM,
    PAD_SIDE,
    PAD_TOP,
    CropShape,
    CropWindow,
    FaceBox,
    crop_window,
    pad_face,
)
from printdeck.choices import PhotoShape

__all__ = [
    "DETECT_LONGEST_SIDE",
    "MIN_FACE_PX",
    "PAD_BOTTOM",
    "PAD_SIDE",
    "PAD_TOP",
    "CropShape",
    "CropWindow",
    "FaceBox",
    "crop_window",
    "detection_gray",
    "face_crop",
    "find_cat_faces",
    "find_faces",
    "opencv",
    "pad_face",
]

#: Detection runs on a copy whose longest side is at most this many pixels.
DETECT_LONGEST_SIDE = 512
#: Smallest face box searched for, in pixels of that copy (~5 % of its longest side).
MIN_FACE_PX = 24

_FRONTAL_FILE = "haarcascade_frontalface_alt2.xml"
_PROFILE_FILE = "haarcascade_profileface.xml"
_CAT_FILE = "haarcascade_frontalcatface_extended.xml"
# Scale steps of the detection pyramids (the profile cascade is the slower one).
_FRONTAL_STEP = 1.1
_PROFILE_STEP = 1.1
_CAT_STEP = 1.1
# Neighbours a detection needs (overlapping hits at nearby positions and scales):
# the profile cascade is the noisier one, so it must agree with itself more often.
_FRONTAL_NEIGHBOURS = 3
_PROFILE_NEIGHBOURS = 5
_CAT_NEIGHBOURS = 4
# Two detections are one face when their overlap covers this share of the smaller.
_SAME_FACE_OVERLAP = 0.5


# --------------------------------------------------------------------------- detection

_local = threading.local()
_import_lock = threading.Lock()  # OpenCV's bootstrap swaps modules in sys.modules: not safe from two threads


def _cv2() -> ModuleType:
    """OpenCV, imported on first use (it takes a moment and only photos need it)."""
    try:
        with _import_lock:
            import cv2  # noqa: PLC0415 - OpenCV only for photos
            import cv2.data  # noqa: PLC0415
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise ImportError("face detection needs OpenCV: pip install 'opencv-contrib-python-headless<5'") from exc
    if not hasattr(cv2, "CascadeClassifier"):  # pragma: no cover - OpenCV 5 dropped them
        raise ImportError(f"OpenCV {cv2.__version__} has no Haar cascades; install 'opencv-contrib-python-headless<5'")
    return cv2


def opencv() -> ModuleType:
    """OpenCV (``cv2``), imported once, safely from any thread.

    Raises:
        ImportError: OpenCV 4.x is not installed.
    """
    return _cv2()


def _cascades() -> tuple[Any, Any, Any]:
    """This thread's (frontal, profile, cat) classifiers, loaded once a thread (they are not thread-safe)."""
    loaded = getattr(_local, "cascades", None)
    if loaded is None:
        cv2 = _cv2()
        found = []
        for name in (_FRONTAL_FILE, _PROFILE_FILE, _CAT_FILE):
            classifier = cv2.CascadeClassifier(cv2.data.haarcascades + name)
            if classifier.empty():  # pragma: no cover - a broken install
                raise RuntimeError(f"OpenCV's bundled {name} is missing from {cv2.data.haarcascades}")
            found.append(classifier)
        loaded = _local.cascades = (found[0], found[1], found[2])
    return loaded


def find_faces(rgb: np.ndarray) -> list[FaceBox]:
    """The faces in an RGB image, as boxes in its pixels, largest first.

    Args:
        rgb: ``(H, W, 3) uint8`` array, RGB, rows top to bottom. Callers convert other
            images first: a grayscale ``(H, W)`` array with
            ``np.repeat(gray[..., None], 3, axis=2)`` (or Pillow's
            ``image.convert("RGB")``); an RGBA image by dropping or flattening its
            alpha (``image.convert("RGB")``, or composite it over a plain colour
            first when transparent parts hide junk). Colour is not used: detection
            runs on luminance, so grayscale photos work as well as colour ones.

    Returns:
        One :class:`FaceBox` a face, in pixels of ``rgb`` (floats, y down), sorted by
        area, largest first; ``[]`` when there is none.

    How: the luminance is reduced with area averaging so its longest side is at most
    :data:`DETECT_LONGEST_SIDE` pixels (no upscaling), then OpenCV's bundled Haar
    cascades run on it: ``haarcascade_frontalface_alt2`` (3 neighbours) and, only when
    that finds no face, ``haarcascade_profileface`` on the image and its mirror (5
    neighbours): a photo whose faces look at the camera is searched in a third of the time. Boxes under
    :data:`MIN_FACE_PX` pixels of that copy are not searched for, so faces under
    ~5 % of the photo's longest side are missed (too small to matter on a card).
    Detections overlapping by half of the smaller one are merged into their union
    (the same face seen by two cascades). How the settings were tuned, and the
    time a photo takes: bench/RESULTS.md, "Face crops".

    Raises:
        ValueError: ``rgb`` is not an ``(H, W, 3) uint8`` array.
        ImportError: OpenCV (``opencv-contrib-python-headless`` 4.x) is not installed.
    """
    gray = detection_gray(rgb)
    if gray is None:
        return []
    frontal, profile, _ = _cascades()
    small_w = gray.shape[1]
    min_size = (MIN_FACE_PX, MIN_FACE_PX)
    found: list[tuple[float, float, float, float]] = []
    for x, y, w, h in frontal.detectMultiScale(gray, _FRONTAL_STEP, _FRONTAL_NEIGHBOURS, minSize=min_size):
        found.append((x, y, x + w, y + h))
    if not found:  # no face seen from the front: look for faces in profile, both ways (2/3 of the time)
        for x, y, w, h in profile.detectMultiScale(gray, _PROFILE_STEP, _PROFILE_NEIGHBOURS, minSize=min_size):
            found.append((x, y, x + w, y + h))
        mirror = np.ascontiguousarray(gray[:, ::-1])
        for x, y, w, h in profile.detectMultiScale(mirror, _PROFILE_STEP, _PROFILE_NEIGHBOURS, minSize=min_size):
            found.append((small_w - x - w, y, small_w - x, y + h))
    return _in_pixels(found, rgb, gray)


def find_cat_faces(rgb: np.ndarray) -> list[FaceBox]:
    """Cats' faces in an RGB image, as boxes in its pixels, largest first.

    Args:
        rgb: ``(H, W, 3) uint8`` array, RGB (as for :func:`find_faces`).

    Returns:
        One :class:`FaceBox` a face (forehead between the ears to the chin), pixels of
        ``rgb``, largest first; ``[]`` when there is none.

    How: the same reduced luminance as :func:`find_faces`, searched by OpenCV's bundled
    ``haarcascade_frontalcatface_extended`` (4 neighbours, faces of at least
    :data:`MIN_FACE_PX` pixels of that copy); overlapping hits are merged.

    Raises:
        ValueError: ``rgb`` is not an ``(H, W, 3) uint8`` array.
        ImportError: OpenCV 4.x is not installed.
    """
    gray = detection_gray(rgb)
    if gray is None:
        return []
    cats = _cascades()[2]
    hits = cats.detectMultiScale(gray, _CAT_STEP, _CAT_NEIGHBOURS, minSize=(MIN_FACE_PX, MIN_FACE_PX))
    return _in_pixels([(x, y, x + w, y + h) for x, y, w, h in hits], rgb, gray)


def detection_gray(rgb: np.ndarray) -> np.ndarray | None:
    """The luminance of ``rgb`` reduced by area averaging so its longest side is at most
    :data:`DETECT_LONGEST_SIDE` (no upscaling), ``(h, w) uint8``; ``None`` when too small
    to hold a :data:`MIN_FACE_PX` face.

    Raises:
        ValueError: ``rgb`` is not an ``(H, W, 3) uint8`` array.
    """
    _check_rgb(rgb)
    height, width = rgb.shape[:2]
    if min(height, width) < MIN_FACE_PX:
        return None
    cv2 = _cv2()
    gray = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2GRAY)
    factor = min(1.0, DETECT_LONGEST_SIDE / max(height, width))
    if factor < 1.0:
        small_size = (max(1, round(width * factor)), max(1, round(height * factor)))
        gray = cv2.resize(gray, small_size, interpolation=cv2.INTER_AREA)
    return gray if min(gray.shape) >= MIN_FACE_PX else None


def _in_pixels(found: list[tuple[float, float, float, float]], rgb: np.ndarray, gray: np.ndarray) -> list[FaceBox]:
    """Boxes found on ``gray`` in pixels of ``rgb``, merged, largest first."""
    sx, sy = rgb.shape[1] / gray.shape[1], rgb.shape[0] / gray.shape[0]
    boxes = [FaceBox(float(x0) * sx, float(y0) * sy, float(x1) * sx, float(y1) * sy) for x0, y0, x1, y1 in found]
    return sorted(_merge(boxes), key=lambda b: (-b.area, b.x0, b.y0))


def _check_rgb(rgb: object) -> None:
    """Raise ValueError unless ``rgb`` is an ``(H, W, 3) uint8`` array."""
    if not isinstance(rgb, np.ndarray) or rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        got = f"{rgb.dtype} array of shape {rgb.shape}" if isinstance(rgb, np.ndarray) else type(rgb).__name__
        raise ValueError(
            f"faces are found in an (H, W, 3) uint8 RGB array, got a {got}; "
            "convert grayscale or RGBA images to RGB first"
        )


def apart_from(cat_faces: Sequence[FaceBox], faces: Sequence[FaceBox]) -> list[FaceBox]:
    """The cat-face boxes that are not a person's face seen again: the cat cascade fires on
    a human face now and then (a group of five counted six faces); a cat box overlapping a
    person's by :data:`_SAME_FACE_OVERLAP` of the smaller is that person's face."""
    return [c for c in cat_faces if not any(_same_face(c, f) for f in faces)]


def _same_face(a: FaceBox, b: FaceBox) -> bool:
    """Whether two boxes overlap by :data:`_SAME_FACE_OVERLAP` of the smaller one."""
    overlap = max(0.0, min(a.x1, b.x1) - max(a.x0, b.x0)) * max(0.0, min(a.y1, b.y1) - max(a.y0, b.y0))
    return overlap >= _SAME_FACE_OVERLAP * min(a.area, b.area)


def _merge(boxes: list[FaceBox]) -> list[FaceBox]:
    """Union the boxes that overlap by :data:`_SAME_FACE_OVERLAP` of the smaller one, transitively."""
    parent = list(range(len(boxes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            if _same_face(a, boxes[j]):
                parent[root(j)] = root(i)
    groups: dict[int, FaceBox] = {}
    for i, b in enumerate(boxes):
        g = groups.get(root(i))
        groups[root(i)] = (
            b if g is None else FaceBox(min(g.x0, b.x0), min(g.y0, b.y0), max(g.x1, b.x1), max(g.y1, b.y1))
        )
    return list(groups.values())


def face_crop(
    rgb: np.ndarray, focus: tuple[float, float] | None = None, zoom: float = 1.0, shape: CropShape = PhotoShape.CIRCLE
) -> CropWindow:
    """The crop of an ``(H, W, 3) uint8`` RGB photo: :func:`find_faces` then :func:`crop_window`.

    With a ``focus`` the faces would be ignored, so detection is skipped. Arguments,
    result and errors as those two functions'; the size is ``(W, H)`` of ``rgb``.
    """
    _check_rgb(rgb)
    size = (int(rgb.shape[1]), int(rgb.shape[0]))
    if focus is not None:
        return crop_window(size, [], focus, zoom, shape)
    return crop_window(size, find_faces(rgb), None, zoom, shape)
