"""The answer slides' ring: a band round the one symbol two cards share, along its outline.

The ring follows the symbol's silhouette (the collision outline the layout packed, see
:mod:`printdeck.artwork.tracing`) grown by :data:`RING_MARGIN_MM`, so it holds the whole
symbol and nothing beside it: a circle round a long word ("zanahoria") took in its
neighbours, and one round a short sum cut through its digits.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from printdeck.model import Placement, SymbolSpec

RING_MARGIN_MM = 1.2
"""How far the ring's middle lies outside the symbol's outline, mm on the card's scale."""
_CLOSING_STEPS_MM = (8.0, 16.0)
"""Distances, mm, at which the outline is closed (grown, then shrunk back to the margin):
its notches and the gaps between a word's letters filled, so the ring runs smoothly."""


def ring_path_mm(symbol: SymbolSpec, placement: Placement) -> np.ndarray:
    """``(N, 2) float``: the ring's closed path round ``symbol`` placed by ``placement``,
    mm from the card's centre (x right, y up), on the card's scale.

    The placed outline closed (grown by 8 mm, or 16 mm where its parts stay apart, and
    shrunk back) to :data:`RING_MARGIN_MM` outside it, else its convex hull so grown;
    holes are left out (the ring is the outer edge).

    Raises:
        PrintdeckError: The symbol cannot be drawn (its silhouette cannot be traced).
    """
    from printdeck.artwork import silhouette  # noqa: PLC0415 - traced (or read from the cache) when a slide rings it

    placed = _placed_outline(silhouette(symbol).outline, placement)
    grown: BaseGeometry = placed
    for distance_mm in _CLOSING_STEPS_MM:  # closed: the ring goes round the symbol, not into its notches
        grown = placed.buffer(distance_mm).buffer(RING_MARGIN_MM - distance_mm)
        if isinstance(grown, Polygon):
            break
    if not isinstance(grown, Polygon):
        grown = placed.convex_hull.buffer(RING_MARGIN_MM)
    return np.asarray(shapely.simplify(grown, 0.1).exterior.coords)


def _placed_outline(outline: BaseGeometry, placement: Placement) -> BaseGeometry:
    """``outline`` (normalised box units) where ``placement`` puts it: scaled by the box's
    height, turned ``rotation_deg`` counter-clockwise, moved to ``center_mm`` (card mm)."""
    h = placement.box_mm[1]
    c, s = math.cos(math.radians(placement.rotation_deg)), math.sin(math.radians(placement.rotation_deg))
    x, y = placement.center_mm
    return shapely.affinity.affine_transform(outline, [h * c, -h * s, h * s, h * c, x, y])
