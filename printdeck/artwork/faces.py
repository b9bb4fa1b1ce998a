"""Photo crops that keep faces (issue #14).

A photo symbol is shown through a crop: a circle of diameter ``min(w, h)`` or a
square of that side with corners rounded by :data:`PHOTO_CORNER_FRACTION` of the
side (see :func:`printdeck.artwork.picture.photo_mask`). Centred in the image, that
crop can cut off the face of someone standing at the side of a landscape photo. This
module finds the faces and places the crop so they stay inside the crop's shape.

* :func:`find_faces` -- the faces of an ``(H, W, 3) uint8`` RGB image, in pixels.
* :func:`crop_window` -- where the crop square goes, from the faces, or from an
  explicit focus point, with an optional zoom.
* :func:`face_crop` -- both in one call.

The detector is OpenCV's Viola-Jones Haar cascades (``opencv-python-headless`` on
PyPI, 4.x; OpenCV 5 no longer ships them): ``haarcascade_frontalface_alt2.xml``
and ``haarcascade_profileface.xml`` (run on the image and on its mirror, so profiles
facing either way are found), both files bundled in the wheel under
``cv2.data.haarcascades``. Nothing is downloaded at run time. They find upright
faces (frontal, three-quarter and profile) whose box is at least ~5 % of the
photo's longest side; tilted faces (beyond ~20 degrees), faces seen from behind and
very small faces are not found, and then the crop falls back to today's centred one.

Coordinates are pixels of the full-size image, x to the right, y down, origin at the
top-left corner of the top-left pixel (so an image spans ``[0, W] x [0, H]``).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np
import shapely
from shapely.geometry import LineString, Point, box as shapely_box
from shapely.ops import nearest_points

from printdeck.choices import PHOTO_CORNER_FRACTION, PhotoShape

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
    "face_crop",
    "find_faces",
    "pad_face",
]

CropShape = PhotoShape

#: Detection runs on a copy whose longest side is at most this many pixels.
DETECT_LONGEST_SIDE = 512
#: Smallest face box searched for, in pixels of that copy (~5 % of its longest side).
MIN_FACE_PX = 24
#: Padding of a face box for the crop, as fractions of the box's height (above,
#: below) and width (each side). A Haar box runs from mid-forehead to about the
#: chin, so the top padding keeps the hairline and the bottom one the chin.
PAD_TOP = 0.25
PAD_BOTTOM = 0.15
PAD_SIDE = 0.08

_FRONTAL_FILE = "haarcascade_frontalface_alt2.xml"
_PROFILE_FILE = "haarcascade_profileface.xml"
# Scale steps of the detection pyramids (the profile cascade is the slower one).
_FRONTAL_STEP = 1.1
_PROFILE_STEP = 1.1
# Neighbours a detection needs (overlapping hits at nearby positions and scales):
# the profile cascade is the noisier one, so it must agree with itself more often.
_FRONTAL_NEIGHBOURS = 3
_PROFILE_NEIGHBOURS = 5
# Two detections are one face when their overlap covers this share of the smaller.
_SAME_FACE_OVERLAP = 0.5
# Vertices per quarter circle in the polygons of the feasible-centre sets. The
# polygons are inscribed, so a centre found inside them is truly valid; they lose at
# most r * (1 - cos(pi / 256)) ~ 8e-5 of the radius.
_QUAD_SEGS = 64


class FaceBox(NamedTuple):
    """A face's box in image pixels: ``x0 <= x1`` left to right, ``y0 <= y1`` top to bottom.

    A detector's box runs roughly from mid-forehead to the chin and from cheek to
    cheek; :func:`pad_face` adds the margins the crop keeps around it.
    """

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        """Width in pixels."""
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        """Height in pixels."""
        return self.y1 - self.y0

    @property
    def area(self) -> float:
        """Area in square pixels (0 for an empty or inverted box)."""
        return max(self.width, 0.0) * max(self.height, 0.0)

    @property
    def centre(self) -> tuple[float, float]:
        """Centre ``(x, y)`` in pixels."""
        return (self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0


class CropWindow(NamedTuple):
    """The crop square in image pixels: centre ``(cx, cy)`` and ``side``.

    The crop's shape (circle of diameter ``side``, or rounded square of that side) is
    inscribed in the square ``[cx - side/2, cx + side/2] x [cy - side/2, cy + side/2]``,
    which lies inside the image.
    """

    cx: float
    cy: float
    side: float

    @property
    def x0(self) -> float:
        """Left edge of the square, pixels."""
        return self.cx - self.side / 2.0

    @property
    def y0(self) -> float:
        """Top edge of the square, pixels."""
        return self.cy - self.side / 2.0

    @property
    def x1(self) -> float:
        """Right edge of the square, pixels."""
        return self.cx + self.side / 2.0

    @property
    def y1(self) -> float:
        """Bottom edge of the square, pixels."""
        return self.cy + self.side / 2.0


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
        raise ImportError("face detection needs OpenCV: pip install 'opencv-python-headless<5'") from exc
    if not hasattr(cv2, "CascadeClassifier"):  # pragma: no cover - OpenCV 5 dropped them
        raise ImportError(f"OpenCV {cv2.__version__} has no Haar cascades; install 'opencv-python-headless<5'")
    return cv2


def _cascades() -> tuple[Any, Any]:
    """This thread's (frontal, profile) classifiers, loaded once a thread (they are not thread-safe)."""
    pair = getattr(_local, "cascades", None)
    if pair is None:
        cv2 = _cv2()
        loaded = []
        for name in (_FRONTAL_FILE, _PROFILE_FILE):
            classifier = cv2.CascadeClassifier(cv2.data.haarcascades + name)
            if classifier.empty():  # pragma: no cover - a broken install
                raise RuntimeError(f"OpenCV's bundled {name} is missing from {cv2.data.haarcascades}")
            loaded.append(classifier)
        pair = _local.cascades = (loaded[0], loaded[1])
    return pair


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
        ImportError: OpenCV (``opencv-python-headless`` 4.x) is not installed.
    """
    _check_rgb(rgb)
    height, width = rgb.shape[:2]
    if min(height, width) < MIN_FACE_PX:
        return []
    cv2 = _cv2()
    gray = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2GRAY)
    factor = min(1.0, DETECT_LONGEST_SIDE / max(height, width))
    if factor < 1.0:
        small_size = (max(1, round(width * factor)), max(1, round(height * factor)))
        gray = cv2.resize(gray, small_size, interpolation=cv2.INTER_AREA)
    small_h, small_w = gray.shape
    if min(small_h, small_w) < MIN_FACE_PX:
        return []
    frontal, profile = _cascades()
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
    sx, sy = width / small_w, height / small_h
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
            b = boxes[j]
            overlap = max(0.0, min(a.x1, b.x1) - max(a.x0, b.x0)) * max(0.0, min(a.y1, b.y1) - max(a.y0, b.y0))
            if overlap >= _SAME_FACE_OVERLAP * min(a.area, b.area):
                parent[root(j)] = root(i)
    groups: dict[int, FaceBox] = {}
    for i, b in enumerate(boxes):
        g = groups.get(root(i))
        groups[root(i)] = (
            b if g is None else FaceBox(min(g.x0, b.x0), min(g.y0, b.y0), max(g.x1, b.x1), max(g.y1, b.y1))
        )
    return list(groups.values())


# --------------------------------------------------------------------------- placement


def pad_face(face: FaceBox, size_px: tuple[float, float]) -> FaceBox | None:
    """The part of the photo the crop keeps for ``face``: the box grown by
    :data:`PAD_TOP` / :data:`PAD_BOTTOM` of its height above / below and
    :data:`PAD_SIDE` of its width each side, then clipped to the image
    ``[0, W] x [0, H]`` (``size_px = (W, H)``); ``None`` when nothing of it is inside.
    """
    width, height = size_px
    fw, fh = face.width, face.height
    x0 = max(0.0, face.x0 - PAD_SIDE * fw)
    x1 = min(float(width), face.x1 + PAD_SIDE * fw)
    y0 = max(0.0, face.y0 - PAD_TOP * fh)
    y1 = min(float(height), face.y1 + PAD_BOTTOM * fh)
    if not (x1 > x0 and y1 > y0):
        return None
    return FaceBox(x0, y0, x1, y1)


def _holders(box: FaceBox, radius: float, shape: CropShape) -> shapely.Geometry:
    """The centres of the crops (half-side ``radius``) whose shape holds ``box``.

    The shape S is convex and symmetric about its centre, so a crop centred at c holds
    a point p exactly when c lies in the same shape centred at p; it holds the box
    when it holds its four corners. The answer is the intersection of the four.
    """
    corners = ((box.x0, box.y0), (box.x1, box.y0), (box.x0, box.y1), (box.x1, box.y1))
    if shape == "circle":
        parts = [Point(p).buffer(radius, quad_segs=_QUAD_SEGS) for p in corners]
    else:
        corner = PHOTO_CORNER_FRACTION * 2.0 * radius
        inner = radius - corner
        parts = [
            shapely_box(x - inner, y - inner, x + inner, y + inner).buffer(corner, quad_segs=_QUAD_SEGS)
            for x, y in corners
        ]
    return shapely.intersection_all(parts)


def _centres(width: float, height: float, radius: float) -> shapely.Geometry:
    """Every centre that keeps the crop square inside the image: a box, a segment or a point."""
    xs = (radius, width - radius) if width - 2.0 * radius > 1e-9 * width else (width / 2.0, width / 2.0)
    ys = (radius, height - radius) if height - 2.0 * radius > 1e-9 * height else (height / 2.0, height / 2.0)
    if xs[0] != xs[1] and ys[0] != ys[1]:
        return shapely_box(xs[0], ys[0], xs[1], ys[1])
    if xs[0] != xs[1] or ys[0] != ys[1]:
        return LineString([(xs[0], ys[0]), (xs[1], ys[1])])
    return Point(xs[0], ys[0])


def crop_window(
    size_px: tuple[int, int],
    faces: Sequence[FaceBox],
    focus: tuple[float, float] | None = None,
    zoom: float = 1.0,
    shape: CropShape = PhotoShape.CIRCLE,
) -> CropWindow:
    """Where a photo's crop goes: its square's centre and side, in pixels.

    Args:
        size_px: the photo's ``(width, height)`` in pixels (as oriented for display).
        faces: face boxes in those pixels (from :func:`find_faces`, or any source);
            boxes partly outside the image count for their inside part, boxes wholly
            outside are ignored.
        focus: ``(fx, fy)``, fractions of the width and height in ``[0, 1]`` (x right,
            y down; ``(0.5, 0.3)`` is centred, a third of the way down); when given the
            faces are ignored and the crop is centred there, as nearly as the image allows.
        zoom: ``>= 1``; the side is ``min(width, height) / zoom``.
        shape: ``"circle"`` (diameter = side) or ``"rounded"`` (square, corner radius
            :data:`PHOTO_CORNER_FRACTION` x side), the shape the photo is clipped to.

    Returns:
        A :class:`CropWindow` whose square lies inside ``[0, width] x [0, height]``:

        * with ``focus``: centred at ``(fx * width, fy * height)``, clamped inside;
        * else with faces: each face box padded (:func:`pad_face`) must lie wholly
          inside the *shape* (for a circle all four corners inside it, not merely inside
          its square). Faces are taken largest first, each kept if a position still
          holds it with all those kept before. Among the positions holding the kept
          faces, the one nearest the centre of their padded bounding box is chosen
          (exact up to ~1e-4 of the radius, always on the safe side). If not even the
          largest face can be held (bigger than the crop, or in a corner the shape
          cannot reach), the crop is centred on that face, clamped inside;
        * with neither: centred in the image (the photo's centre).

    Raises:
        ValueError: a size under 1 pixel, ``zoom`` below 1 or not finite, ``focus``
            outside ``[0, 1]``, an unknown ``shape``, or a face box with NaNs.
    """
    width, height = float(size_px[0]), float(size_px[1])
    if not (math.isfinite(width) and math.isfinite(height) and width >= 1.0 and height >= 1.0):
        raise ValueError(f"photo size must be at least 1 x 1 pixels, got {size_px!r}")
    if not (math.isfinite(zoom) and zoom >= 1.0):
        raise ValueError(f"zoom must be a number >= 1, got {zoom!r}")
    if shape not in tuple(PhotoShape):
        raise ValueError(f"shape must be one of {', '.join(PhotoShape)}, got {shape!r}")
    side = min(width, height) / zoom
    radius = side / 2.0

    def clamped(x: float, y: float) -> CropWindow:
        return CropWindow(min(max(x, radius), width - radius), min(max(y, radius), height - radius), side)

    if focus is not None:
        fx, fy = float(focus[0]), float(focus[1])
        if not (0.0 <= fx <= 1.0 and 0.0 <= fy <= 1.0):
            raise ValueError(f"focus must be two fractions in [0, 1], got {focus!r}")
        return clamped(fx * width, fy * height)
    kept_faces: list[tuple[FaceBox, FaceBox]] = []
    for face in faces:
        face = FaceBox(*(float(v) for v in face))
        if any(math.isnan(v) for v in face):
            raise ValueError(f"face box has NaN coordinates: {face!r}")
        padded = pad_face(face, (width, height))
        if padded is not None:
            kept_faces.append((face, padded))
    if not kept_faces:
        return clamped(width / 2.0, height / 2.0)
    kept_faces.sort(key=lambda fp: -fp[0].area)  # stable: equal areas keep the caller's order
    region = _centres(width, height, radius)
    held: list[FaceBox] = []
    for face, padded in kept_faces:
        narrower = region.intersection(_holders(padded, radius, shape))
        if narrower.is_empty:
            if not held:
                return clamped(*face.centre)
            continue
        region = narrower
        held.append(padded)
    target = Point(
        (min(b.x0 for b in held) + max(b.x1 for b in held)) / 2.0,
        (min(b.y0 for b in held) + max(b.y1 for b in held)) / 2.0,
    )
    best = nearest_points(region, target)[0]  # the target itself when inside
    return clamped(best.x, best.y)


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
