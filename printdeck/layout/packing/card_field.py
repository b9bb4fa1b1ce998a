"""A card's distance field: how far a point is from the symbols placed so far, bounded on a grid.

The first placement (:mod:`printdeck.layout.packing.first_placement`) drops random poses
whose inner discs this field puts within the gap of placed ink. A :class:`CardField` is,
on a square grid over the safe disc, the smallest of the placed symbols' upper bounds
(each symbol's :class:`~printdeck.artwork.ShapeField`, scaled to the card and read at the
point mapped into the symbol's box). Every value is an upper bound, so a point it places
within ``d`` of the placed symbols is within ``d``: dropping it never drops a valid pose.
"""

from __future__ import annotations

import math

import numpy as np

from printdeck.artwork import ShapeField

CARD_STEP_MM = 0.5  # spacing of a card's grid, mm


class CardField:
    """Upper bounds of the distance to a card's placed symbols on a square grid (mm).

    Args:
        half_extent_mm: ``(X, Y)``, half the safe zone's bounding box (or a safe disc's
            radius ``R``: ``(R, R)``); the grid covers ``[-X, X] x [-Y, Y]`` at
            :data:`CARD_STEP_MM`.
    """

    def __init__(self, half_extent_mm: tuple[float, float] | float) -> None:
        if isinstance(half_extent_mm, (int, float)):  # a safe disc's radius
            half_extent_mm = (float(half_extent_mm), float(half_extent_mm))
        nx = math.ceil(2 * half_extent_mm[0] / CARD_STEP_MM) + 1
        ny = math.ceil(2 * half_extent_mm[1] / CARD_STEP_MM) + 1
        self.lo, self.lo_y = -half_extent_mm[0], -half_extent_mm[1]
        self.n, self.ny = nx, ny
        self.points = (self.lo + CARD_STEP_MM * np.arange(nx))[None, :] + 1j * (
            self.lo_y + CARD_STEP_MM * np.arange(ny)
        )[:, None]  # (ny, nx): row = y, column = x
        self.bound = np.full((ny, nx), np.inf)

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
        q = (
            (self.points[bot:top, lo:hi] - centre) * complex(math.cos(-angle), math.sin(-angle)) / height - field.origin
        ) / field.step
        ix, iy = np.rint(q.real).astype(int), np.rint(q.imag).astype(int)
        ny, nx = field.bound.shape
        ok = (ix >= 0) & (ix < nx) & (iy >= 0) & (iy < ny)
        d = np.full(q.shape, np.inf)
        d[ok] = field.bound[iy[ok], ix[ok]] * height
        np.minimum(self.bound[bot:top, lo:hi], d, out=self.bound[bot:top, lo:hi])

    def near(self, z: np.ndarray, dist: float | np.ndarray) -> np.ndarray:
        """``bool`` like ``z``: which points (complex, mm) are surely within ``dist`` (mm, a
        number or an array broadcast to ``z``) of a placed symbol (the nearest grid point's
        bound plus half a grid diagonal)."""
        dist = np.broadcast_to(dist, z.shape)
        ix = np.rint((z.real - self.lo) / CARD_STEP_MM).astype(int)
        iy = np.rint((z.imag - self.lo_y) / CARD_STEP_MM).astype(int)
        out = np.zeros(z.shape, dtype=bool)
        ok = (ix >= 0) & (ix < self.n) & (iy >= 0) & (iy < self.ny)
        out[ok] = self.bound[iy[ok], ix[ok]] + CARD_STEP_MM * math.sqrt(2) / 2 < dist[ok]
        return out
