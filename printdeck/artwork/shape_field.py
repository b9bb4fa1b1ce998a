"""Distance fields of a silhouette: how far a point is from a symbol's outline, bounded on a grid.

Packing (:mod:`printdeck.layout`) throws away random poses whose inner discs would come
within the gap of a placed symbol, and skips vertices too far from an outline to meet
it. Exact tests for these (buffering the placed outlines, or polygon distances) cost a
polygon operation a try; these fields cost one grid lookup a point.

Each silhouette gets a :class:`ShapeField` once (``Silhouette.field``; box units, on a
grid over its outline plus :data:`MARGIN` all round):

- upper bounds: the Euclidean distance transform of the grid points inside the outline
  (those points are in the outline, so the distance to the nearest bounds the distance
  to the outline from above; the distance is 1-Lipschitz, so a point between grid
  points adds at most half a grid diagonal);
- lower bounds, from grid points marked inside or next to the boundary (see
  :func:`_lower`);
- up to :data:`DISCS` discs inside the outline, spread over it (the shape's
  stand-ins in the placement's cut).

A card's field, the smallest of its placed symbols' upper bounds, is built from these
by the packing (``printdeck.layout.packing.card_field``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from printdeck.artwork.faces import opencv

GRID_POINTS = 64  # grid points along a shape's longer side
DISCS = 8  # inner discs kept per shape (see shape_field)
MARGIN = 0.5  # the shape grid reaches this far (box units) beyond the outline's bounds


@dataclass(frozen=True)
class ShapeField:
    """Upper bounds of the distance to an outline on a grid (box units).

    Attributes:
        origin: Box coordinates of grid point ``[0, 0]``, complex ``x + iy``.
        step: Grid spacing, box units.
        bound: ``(ny, nx) float`` at each grid point, an upper bound of its distance
            to the outline plus half a grid diagonal: an upper bound of the distance
            of every point in its grid cell.
        lower: ``(ny, nx) float``, likewise a lower bound of the distance of every point
            in the grid point's cell (see :meth:`at_least`).
        disc_centres: ``(k,) complex`` centres of up to :data:`DISCS` discs inside the
            outline, biggest first, spread over it (box units).
        disc_radii: ``(k,)`` their radii (exact distances to the outline's boundary).
    """

    origin: complex
    step: float
    bound: np.ndarray
    lower: np.ndarray
    disc_centres: np.ndarray
    disc_radii: np.ndarray

    def at_least(self, q: np.ndarray) -> np.ndarray:
        """Lower bounds of the distance to the outline of the points ``q`` (complex, box
        units), like ``q``; points off the grid are at least :data:`MARGIN` from it."""
        ix = np.rint((q.real - self.origin.real) / self.step).astype(int)
        iy = np.rint((q.imag - self.origin.imag) / self.step).astype(int)
        ny, nx = self.lower.shape
        out = np.full(q.shape, MARGIN)
        ok = (ix >= 0) & (ix < nx) & (iy >= 0) & (iy < ny)
        out[ok] = self.lower[iy[ok], ix[ok]]
        return out


def shape_field(outline: BaseGeometry) -> ShapeField:
    """Build a shape's :class:`ShapeField` (see the module docstring).

    Args:
        outline: The collision outline, box units.
    """
    x0, y0, x1, y1 = outline.bounds
    step = max(x1 - x0, y1 - y0) / GRID_POINTS
    nx = math.ceil((x1 - x0 + 2 * MARGIN) / step) + 1
    ny = math.ceil((y1 - y0 + 2 * MARGIN) / step) + 1
    origin = complex(x0 - MARGIN, y0 - MARGIN)
    gx, gy = np.meshgrid(origin.real + step * np.arange(nx), origin.imag + step * np.arange(ny))
    shapely.prepare(outline)
    inside = shapely.contains_xy(outline, gx, gy)
    if not inside.any():  # thinner than the grid: mark the vertices' nearest points instead
        xy = shapely.get_coordinates(outline)
        inside[
            np.clip(np.round((xy[:, 1] - origin.imag) / step).astype(int), 0, ny - 1),
            np.clip(np.round((xy[:, 0] - origin.real) / step).astype(int), 0, nx - 1),
        ] = True
        extra = step * math.sqrt(2) / 2  # a vertex is at most this far from its grid point
    else:
        extra = 0.0
    outside_d, outside_err = distance_to_false(~inside)
    bound = (outside_d + outside_err) * step + extra + step * math.sqrt(2) / 2
    centres, radii = _inner_discs(outline, origin, step, distance_to_false(inside)[0] * step)
    return ShapeField(
        origin=origin,
        step=step,
        bound=bound.astype(np.float32),
        lower=_lower(outline, inside, origin, step),
        disc_centres=centres,
        disc_radii=radii,
    )


def _lower(outline: BaseGeometry, inside: np.ndarray, origin: complex, step: float) -> np.ndarray:
    """Lower bounds of the distance to ``outline`` on the grid (see :class:`ShapeField`).

    Marked: the grid points inside, and the nearest grid point of every point sampled
    along the boundary a quarter step apart. Every point of the outline is then within
    ``d = step (sqrt(2) / 2 + 1 / 8)`` of a marked point, so a point's distance to the
    outline is at least its distance to the nearest marked point less ``d``; a point in
    a grid point's cell is within half a diagonal of it."""
    rings = [np.asarray(r.coords) for part in shapely.get_parts(outline) for r in (part.exterior, *part.interiors)]
    a = np.concatenate([r[:-1] for r in rings])
    b = np.concatenate([r[1:] for r in rings])
    n = np.maximum(np.ceil(np.hypot(*(b - a).T) / (step / 4)).astype(int), 1)
    t = np.concatenate([np.arange(k) / k for k in n])
    pts = np.repeat(a, n, axis=0) + t[:, None] * np.repeat(b - a, n, axis=0)
    marked = inside.copy()
    ny, nx = marked.shape
    marked[
        np.clip(np.rint((pts[:, 1] - origin.imag) / step).astype(int), 0, ny - 1),
        np.clip(np.rint((pts[:, 0] - origin.real) / step).astype(int), 0, nx - 1),
    ] = True
    slack = step * (math.sqrt(2) / 2 + 1 / 8) + step * math.sqrt(2) / 2
    unmarked_d, unmarked_err = distance_to_false(~marked)
    return np.maximum((unmarked_d - unmarked_err) * step - slack, 0.0).astype(np.float32)


EXACT_DISTANCE_MOST = 1023.0
"""Largest grid distance (grid steps) :func:`distance_to_false` gives exactly (half of
what a correctly rounded float32 square root allows, for one a few ulps off)."""


def distance_to_false(mask: np.ndarray) -> tuple[np.ndarray, float]:
    """Each grid point's Euclidean distance (grid steps) to the nearest ``False`` point of
    ``mask`` (0 on those): the exact Euclidean distance transform, as
    ``scipy.ndimage.distance_transform_edt`` gives it, from OpenCV's (Felzenszwalb and
    Huttenlocher, "Distance transforms of sampled functions", Theory of Computing 8, 2012).

    OpenCV returns ``sqrt(n)`` (``n`` the whole squared distance) rounded to float32;
    squared and rounded it gives ``n`` back exactly while the rounding moves the square by
    under 0.5: for a correctly rounded root (relative error 2**-24) up to ``sqrt(n)`` =
    2047, so up to :data:`EXACT_DISTANCE_MOST` the result is exact to the bit.

    Args:
        mask: ``(ny, nx) bool`` with at least one ``False`` point.

    Returns:
        ``(distances (ny, nx) float64, err)``: ``err`` bounds each distance's error
        either way (0.0 when every distance is exact; farther than
        :data:`EXACT_DISTANCE_MOST` only on grids with a diagonal that long).

    Raises:
        ValueError: ``mask`` has no ``False`` point.
    """
    cv2 = opencv()  # imported once, under a lock: OpenCV's bootstrap is not thread-safe

    if mask.all():
        raise ValueError("distance_to_false: the mask has no False point")
    rounded = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE).astype(np.float64)
    exact = np.sqrt(np.rint(rounded * rounded))
    if float(rounded.max()) <= EXACT_DISTANCE_MOST:
        return exact, 0.0
    return rounded, float(rounded.max()) * 2.0**-20  # 16 float32 ulps: a root a few ulps off


def _inner_discs(
    outline: BaseGeometry, origin: complex, step: float, depth: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Up to :data:`DISCS` discs inside ``outline``, greedily: the deepest grid point
    (``depth``: distance to the nearest grid point outside), then the deepest one not
    inside a disc already taken, and so on. Radii are exact distances to the boundary."""
    depth = depth.copy()
    ny, nx = depth.shape
    centres: list[complex] = []
    radii: list[float] = []
    boundary = outline.boundary
    while len(centres) < DISCS and depth.max() > 0:
        iy, ix = np.unravel_index(int(np.argmax(depth)), depth.shape)
        z = origin + step * complex(ix, iy)
        r = float(shapely.distance(shapely.Point(z.real, z.imag), boundary)) * (1.0 - 1e-9)
        k = int(r / step) + 1  # the grid points within r of z lie in this window
        rows, cols = slice(max(iy - k, 0), min(iy + k + 1, ny)), slice(max(ix - k, 0), min(ix + k + 1, nx))
        ys, xs = np.ogrid[rows, cols]
        depth[rows, cols][np.hypot(xs - ix, ys - iy) * step <= r] = 0.0
        depth[iy, ix] = 0.0
        if r > 0 and outline.contains(shapely.Point(z.real, z.imag)):
            centres.append(z)
            radii.append(r)
    return np.array(centres, dtype=complex), np.array(radii)


FIELD_ARRAYS = {
    "bound": ("float32", 2),
    "lower": ("float32", 2),
    "disc_centres": ("complex128", 1),
    "disc_radii": ("float64", 1),
}
"""The arrays of a stored :class:`ShapeField`: each one's dtype and number of dimensions."""


def field_parts(field: ShapeField) -> tuple[dict[str, float], dict[str, np.ndarray]]:
    """A :class:`ShapeField` as numbers and arrays (:data:`FIELD_ARRAYS`), stored with the
    silhouette (:mod:`printdeck.artwork.binary_entry`) so a cached symbol never builds its
    field again."""
    numbers = {"origin_x": field.origin.real, "origin_y": field.origin.imag, "step": field.step}
    return numbers, {name: getattr(field, name) for name in FIELD_ARRAYS}


def field_from_parts(numbers: Mapping[str, object], arrays: Mapping[str, np.ndarray]) -> ShapeField:
    """The field :func:`field_parts` gave, bit for bit.

    Raises:
        ValueError, KeyError, TypeError: the parts are not a stored field.
    """
    field = ShapeField(
        origin=complex(float(str(numbers["origin_x"])), float(str(numbers["origin_y"]))),
        step=float(str(numbers["step"])),
        **{name: arrays[name] for name in FIELD_ARRAYS},
    )
    if field.bound.shape != field.lower.shape or len(field.disc_centres) != len(field.disc_radii):
        raise ValueError("not a stored field")
    if not (math.isfinite(field.step) and field.step > 0):
        raise ValueError("not a stored field")
    return field
