"""A card's distance field: how far a point is from the symbols placed so far, bounded on a grid.

The first placement (:mod:`printdeck.layout.packing.first_placement`) drops random poses
whose inner discs this field puts within the gap of placed ink. A :class:`CardField` is,
on a square grid over the safe disc, the smallest of the placed symbols' upper bounds
(each symbol's :class:`~printdeck.artwork.ShapeField`, scaled to the card and read at the
point mapped into the symbol's box). Every value is an upper bound, so a point it places
within ``d`` of the placed symbols is within ``d``: dropping it never drops a valid pose.
"""

from __future__ import annotations

import importlib
import math

import numpy as np

from printdeck.artwork import ShapeField
from printdeck.layout.packing.safe_zone import SafeZone
from printdeck.layout.packing.symbol_geometry import padded_bound

CARD_STEP_MM = 0.5  # spacing of a card's grid, mm
FREE_DRAWS = 4  # rounds of draws of CardField.sample_free
GRIDS_KEPT = 8  # card grids kept for reuse (see _grid)


def clip_ufunc() -> np.ufunc:
    """The ufunc ``np.clip`` wraps, to call directly: ``np.clip``'s Python layers cost
    more than the clipping of the few thousand points of a :func:`_lookup`."""
    try:
        umath = importlib.import_module("numpy._core.umath")
    except ImportError:  # numpy 1.x
        umath = importlib.import_module("numpy.core.umath")
    clip: np.ufunc = umath.clip
    return clip


_clip = clip_ufunc()


class CardField:
    """Upper bounds of the distance to a card's placed symbols on a square grid (mm).

    The grid keeps a border of ``inf`` all round (no symbol there), so a point off the
    grid reads ``inf`` without a test.

    Args:
        half_extent_mm: ``(X, Y)``, half the safe zone's bounding box (or a safe disc's
            radius ``R``: ``(R, R)``); the grid covers ``[-X, X] x [-Y, Y]`` at
            :data:`CARD_STEP_MM`.
        zone: The safe zone, if :meth:`sample_free` is to draw only in it.
    """

    def __init__(self, half_extent_mm: tuple[float, float] | float, zone: SafeZone | None = None) -> None:
        if isinstance(half_extent_mm, (int, float)):  # a safe disc's radius
            half_extent_mm = (float(half_extent_mm), float(half_extent_mm))
        grid = _grid(half_extent_mm, zone)
        self.lo, self.lo_y = -half_extent_mm[0], -half_extent_mm[1]
        self.ny, self.n = grid.points.shape
        self.points = grid.points
        self._xs, self._ys = grid.points[0].real, grid.points[:, 0].imag  # the grid's columns' x and rows' y
        self._padded = np.full((self.ny + 2, self.n + 2), np.inf)
        self.bound = self._padded[1:-1, 1:-1]  # a view: the grid without its border
        self.zone = zone
        self.room = grid.room
        self._grid = grid

    def add(self, field: ShapeField, centre: complex, angle: float, height: float, reach: float) -> None:
        """Take in a placed symbol: ``field`` of its outline at ``centre`` (mm), ``angle``
        (rad), box ``height`` (mm); grid points farther than ``reach`` (mm) from its centre
        are left as they are."""
        lo = max(int((centre.real - reach - self.lo) / CARD_STEP_MM), 0)
        hi = min(int((centre.real + reach - self.lo) / CARD_STEP_MM) + 2, self.n)
        bot = max(int((centre.imag - reach - self.lo_y) / CARD_STEP_MM), 0)
        top = min(int((centre.imag + reach - self.lo_y) / CARD_STEP_MM) + 2, self.ny)
        if lo >= hi or bot >= top:
            return
        # the grid is separable: x and y offsets from the centre turned by -angle, as the
        # complex product (x + iy) e^{-i angle} is worked out, then into the field's grid
        dx, dy = self._xs[lo:hi] - centre.real, self._ys[bot:top] - centre.imag
        cos, sin = math.cos(-angle), math.sin(-angle)
        qx = ((dx * cos)[None, :] - (dy * sin)[:, None]) / height
        qy = ((dx * sin)[None, :] + (dy * cos)[:, None]) / height
        qx -= field.origin.real
        qy -= field.origin.imag
        qx /= field.step
        qy /= field.step
        d = _lookup(padded_bound(field), qx, qy) * height
        np.minimum(self.bound[bot:top, lo:hi], d, out=self.bound[bot:top, lo:hi])

    def near(self, z: np.ndarray, dist: float | np.ndarray) -> np.ndarray:
        """``bool`` like ``z``: which points (complex, mm) are surely within ``dist`` (mm, a
        number or an array broadcast to ``z``) of a placed symbol (the nearest grid point's
        bound plus half a grid diagonal)."""
        qx, qy = z.real - self.lo, z.imag - self.lo_y
        qx /= CARD_STEP_MM
        qy /= CARD_STEP_MM
        bound = _lookup(self._padded, qx, qy)
        bound += CARD_STEP_MM * math.sqrt(2) / 2
        return bound < dist

    def free_room(self, gap: float) -> float:
        """The radius (mm) of the largest free disc the field reads: the most, over the grid
        points, of a point's bound less ``gap`` (mm) and its depth in the zone (if given).

        Read at grid points only, and only as far as the placed symbols were added (see
        :meth:`add`'s ``reach``), so a guide, not a bound: the first placement tries a
        symbol no bigger than this room suggests fits (see
        :func:`~.first_placement.place_all`)."""
        free = self.bound - gap
        np.minimum(free, self.room, out=free)  # room is inf everywhere without a zone
        return float(free.max())

    def sample_free(self, rng: np.random.Generator, dist: float, inset: float, k: int) -> np.ndarray:
        """Up to ``k`` points (complex, mm) drawn uniformly over where :meth:`near` does not
        put them within ``dist`` (mm) of a placed symbol and the zone (if given) holds them
        at least ``inset`` (mm) deep; empty if no grid cell is left.

        A cell that may hold such points is drawn at random, then a uniform point in it
        (every point of a cell has that cell's grid point nearest) kept if it is that
        deep in the zone (the depth is 1-Lipschitz, so a cell whose grid point is less
        than ``inset`` less half a diagonal deep holds none): the points are uniform over
        what :meth:`near` keeps, at most :data:`FREE_DRAWS` rounds of draws."""
        half = CARD_STEP_MM * math.sqrt(2) / 2
        free = ((self.bound >= dist - half) & (self.room >= inset - half)).ravel().nonzero()[0]
        if not len(free):
            return np.zeros(0, dtype=complex)
        out: list[np.ndarray] = []
        found = 0
        for _ in range(FREE_DRAWS):
            cell = free[rng.integers(0, len(free), k)]
            jitter = rng.uniform(-0.5, 0.5, (2, k))
            iy, ix = np.divmod(cell, self.n)
            z = np.empty(k, dtype=complex)  # x + iy, its parts set in place
            z.real = self.lo + CARD_STEP_MM * (ix + jitter[0])
            z.imag = self.lo_y + CARD_STEP_MM * (iy + jitter[1])
            if self.zone is not None:
                z = z[self.zone.depth(z) >= inset]
            out.append(z)
            found += len(z)
            if found >= k or self.zone is None:
                break
        return np.concatenate(out)[:k]


def _lookup(padded: np.ndarray, qx: np.ndarray, qy: np.ndarray) -> np.ndarray:
    """``padded``'s value at the grid point nearest each point ``(qx, qy)`` (in grid steps
    from the point ``[0, 0]`` inside the ``inf`` border); ``inf`` off the grid. ``qx`` and
    ``qy`` are the caller's scratch arrays: they are overwritten."""
    ny, nx = padded.shape
    ix = _clip(np.rint(qx, out=qx), -1, nx - 2, out=qx)
    iy = _clip(np.rint(qy, out=qy), -1, ny - 2, out=qy)
    iy *= nx  # the flat index (iy + 1) nx + ix + 1 as iy nx + ix + (nx + 1), in floats (whole numbers, exact)
    iy += ix
    iy += nx + 1
    return padded.ravel().take(iy.astype(np.intp))


class _Grid:
    """A card grid's points and how deep in the safe zone each lies (shared by every
    card with that zone: see :func:`_grid`)."""

    def __init__(self, half_extent_mm: tuple[float, float], zone: SafeZone | None) -> None:
        nx = math.ceil(2 * half_extent_mm[0] / CARD_STEP_MM) + 1
        ny = math.ceil(2 * half_extent_mm[1] / CARD_STEP_MM) + 1
        self.points = (-half_extent_mm[0] + CARD_STEP_MM * np.arange(nx))[None, :] + 1j * (
            -half_extent_mm[1] + CARD_STEP_MM * np.arange(ny)
        )[:, None]  # (ny, nx): row = y, column = x
        self.room = np.full((ny, nx), np.inf) if zone is None else zone.depth(self.points)


_GRIDS: dict[tuple, _Grid] = {}


def _grid(half_extent_mm: tuple[float, float], zone: SafeZone | None) -> _Grid:
    """The :class:`_Grid` of a card of ``half_extent_mm`` and ``zone``, made once (the last
    :data:`GRIDS_KEPT` are kept: a deck's cards share their zone).

    Safe on two threads without a lock (a lock another thread held when a layout forked
    its workers would stay held in them): each step is one dictionary operation, and an
    eviction that meets another thread's stops (the other evicts)."""
    key: tuple = (half_extent_mm,) if zone is None else (half_extent_mm, *zone.key())
    grid = _GRIDS.pop(key, None) or _Grid(half_extent_mm, zone)
    _GRIDS[key] = grid  # the most recent last
    while len(_GRIDS) > GRIDS_KEPT:
        try:
            del _GRIDS[next(iter(_GRIDS))]
        except (KeyError, RuntimeError, StopIteration):  # another thread changed the dict meanwhile
            break
    return grid
