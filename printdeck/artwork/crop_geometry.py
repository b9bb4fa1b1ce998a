"""Where a photo's crop goes: boxes to keep whole, and the crop square that holds them.

A photo symbol is shown through a crop: a circle of diameter ``side`` or a square of that
side with corners rounded by :data:`~printdeck.choices.PHOTO_CORNER_FRACTION` of
the side (see :func:`printdeck.artwork.picture.photo_mask`). This module is the geometry
only (boxes in, crop out); :mod:`printdeck.artwork.faces` and
:mod:`printdeck.artwork.saliency` find the boxes, :mod:`printdeck.artwork.framing`
decides.

* :func:`crop_window` -- the crop square from faces (the largest group that fits), or
  from an explicit focus point, with an optional zoom.
* :func:`largest_group` -- which boxes one crop can hold together.
* :func:`smallest_side` -- the tightest crop that still holds a set of boxes.

Coordinates are pixels of the full-size image, x to the right, y down, origin at the
top-left corner of the top-left pixel (so an image spans ``[0, W] x [0, H]``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import shapely
from shapely.geometry import LineString, Point, box as shapely_box
from shapely.ops import nearest_points

from printdeck.choices import PHOTO_CORNER_FRACTION, PhotoShape

__all__ = [
    "GROUP_SEEDS",
    "PAD_BOTTOM",
    "PAD_SIDE",
    "PAD_TOP",
    "CropShape",
    "CropWindow",
    "FaceBox",
    "crop_window",
    "holds_all",
    "largest_group",
    "pad_face",
    "smallest_side",
    "union_box",
]

CropShape = PhotoShape

#: Padding of a face box for the crop, as fractions of the box's height (above,
#: below) and width (each side). A Haar box runs from mid-forehead to about the
#: chin, so the top padding keeps the hairline and the bottom one the chin.
PAD_TOP = 0.25
PAD_BOTTOM = 0.15
PAD_SIDE = 0.08
#: Faces tried as the first of a group (the largest ones) by :func:`largest_group`.
GROUP_SEEDS = 12
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

    def centre_point(self) -> Point:
        """The centre as a shapely point."""
        return Point(*self.centre)

    def grown(self, fraction: float) -> FaceBox:
        """The box grown by ``fraction`` of its width and height on each side."""
        dx, dy = fraction * self.width, fraction * self.height
        return FaceBox(self.x0 - dx, self.y0 - dy, self.x1 + dx, self.y1 + dy)

    def clipped(self, width: float, height: float) -> FaceBox | None:
        """The part inside ``[0, width] x [0, height]``; ``None`` when nothing is."""
        x0, y0 = max(0.0, self.x0), max(0.0, self.y0)
        x1, y1 = min(float(width), self.x1), min(float(height), self.y1)
        return FaceBox(x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


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
    size_px: tuple[float, float],
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
          its square). When not all fit, the largest group that fits is kept (most
          faces, then the largest total area: :func:`largest_group`). Among the
          positions holding the kept faces, the one nearest the centre of their
          padded bounding box is chosen
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
    region = _centres(width, height, radius)
    largest, largest_padded = max(kept_faces, key=lambda fp: fp[0].area)
    if region.intersection(_holders(largest_padded, radius, shape)).is_empty:
        return clamped(*largest.centre)
    held_region, held = largest_group([p for _, p in kept_faces], region, radius, shape)
    boxes = [kept_faces[i][1] for i in held]
    best = nearest_points(held_region, union_box(boxes).centre_point())[0]  # the target itself when inside
    return clamped(best.x, best.y)


def union_box(boxes: Sequence[FaceBox]) -> FaceBox:
    """The bounding box of ``boxes`` (at least one)."""
    return FaceBox(
        min(b.x0 for b in boxes), min(b.y0 for b in boxes), max(b.x1 for b in boxes), max(b.y1 for b in boxes)
    )


def largest_group(
    boxes: Sequence[FaceBox], region: shapely.Geometry, radius: float, shape: CropShape
) -> tuple[shapely.Geometry, list[int]]:
    """The largest group of ``boxes`` one crop (half-side ``radius``) holds whole.

    Args:
        boxes: Boxes to hold (padded faces), pixels.
        region: The crop centres allowed (those keeping the square inside the image).
        radius: Half the crop's side, pixels.
        shape: The crop's shape.

    Returns:
        ``(centres, indices)``: the centres holding the group (inside ``region``) and
        the indices of its boxes, ascending; ``(region, [])`` when no box can be held.

    How: greedy groups grown from each of the :data:`GROUP_SEEDS` largest boxes (its
    nearest neighbours first) and one grown largest first; the group with the most
    boxes wins, then the one with the largest total area. Each greedy step intersects
    exact feasible-centre sets (:func:`_holders`), so whatever group is returned is
    truly held; a larger group reachable only in another order may be missed.
    """
    holders = [region.intersection(_holders(b, radius, shape)) for b in boxes]
    by_area = sorted(range(len(boxes)), key=lambda i: -boxes[i].area)
    orders = [by_area]
    for seed in by_area[:GROUP_SEEDS]:
        sx, sy = boxes[seed].centre
        orders.append(
            sorted(by_area, key=lambda i: (i != seed, math.hypot(boxes[i].centre[0] - sx, boxes[i].centre[1] - sy)))
        )
    best: tuple[int, float, shapely.Geometry, list[int]] = (0, 0.0, region, [])
    for order in orders:
        centres: shapely.Geometry | None = None
        group: list[int] = []
        for i in order:
            narrower = holders[i] if centres is None else centres.intersection(holders[i])
            if not narrower.is_empty:
                centres, group = narrower, group + [i]
        area = sum(boxes[i].area for i in group)
        if centres is not None and (len(group), area) > best[:2]:
            best = (len(group), area, centres, sorted(group))
    return best[2], best[3]


def holds_all(
    boxes: Sequence[FaceBox], size_px: tuple[float, float], side: float, shape: CropShape
) -> shapely.Geometry:
    """The centres of the crops of ``side`` inside the image that hold every box (maybe empty)."""
    radius = side / 2.0
    region = _centres(float(size_px[0]), float(size_px[1]), radius)
    for b in boxes:
        region = region.intersection(_holders(b, radius, shape))
        if region.is_empty:
            break
    return region


def smallest_side(
    boxes: Sequence[FaceBox], size_px: tuple[float, float], sides: tuple[float, float], shape: CropShape
) -> float:
    """The smallest crop side in ``sides = (low, high)`` whose crop (inside the image)
    holds all ``boxes``, to 1 % of ``high`` (bisection; ``high`` when only it holds them).
    The caller knows ``high`` holds them."""
    low, high = sides
    if low >= high or not holds_all(boxes, size_px, low, shape).is_empty:
        return min(low, high)
    while high - low > 0.01 * sides[1]:
        mid = (low + high) / 2.0
        if holds_all(boxes, size_px, mid, shape).is_empty:
            low = mid
        else:
            high = mid
    return high
