"""A symbol in several parts is one symbol: nothing is packed between its parts.

A teacher's clip art of a picture above its word, a question mark's dot, a sun's rays, a
pair of socks, a phrase such as "5 × 6" whose spaces are wider than a word's room: each is
drawn as separate pieces of ink. Packed as separate outlines, other symbols landed in the
gaps, and a child named the word under the wrong picture. :func:`joined_parts` bridges the
parts of a collision outline along a minimum spanning tree of their distances (Prim's
algorithm; Cormen et al., *Introduction to Algorithms*, ch. 23), each bridge the convex hull
of the two parts' facing regions: what lies within the gap plus a band of each other.
Lengths are normalised box units (see :mod:`printdeck.artwork.tracing`).
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

__all__ = ["BRIDGE_BAND", "MAX_PARTS", "joined_parts"]

BRIDGE_BAND = 0.08
"""How far past the gap (box units; or the gap itself, if wider) a part's facing region
reaches: a bridge as wide as the parts face each other, not a thread between two points."""
MAX_PARTS = 96
"""Outlines of more parts (a photo's scattered cut-out) are joined by their convex hull."""


def joined_parts(outline: BaseGeometry) -> BaseGeometry:
    """``outline`` with its parts joined into one (see the module docstring); an outline of
    one part as it is.

    Args:
        outline: A collision outline, a Polygon or MultiPolygon (box units).

    Returns:
        The outline and one bridge a tree edge between its parts, united.
    """
    parts = list(getattr(outline, "geoms", [outline]))
    if len(parts) < 2:
        return outline
    if len(parts) > MAX_PARTS:
        return shapely.union(outline, outline.convex_hull)
    bridges = [_bridge(parts[a], parts[b], gap) for a, b, gap in _spanning_tree(parts)]
    return shapely.union_all([outline, *bridges])


def _spanning_tree(parts: list[BaseGeometry]) -> list[tuple[int, int, float]]:
    """The edges ``(a, b, distance)`` of a minimum spanning tree of ``parts`` by their
    distances (Prim's algorithm on the dense distance matrix)."""
    geoms = np.array(parts, dtype=object)
    distance = shapely.distance(geoms[:, None], geoms[None, :])
    count = len(parts)
    joined = np.zeros(count, dtype=bool)
    joined[0] = True
    best, via = distance[0].copy(), np.zeros(count, dtype=int)
    edges = []
    for _ in range(count - 1):
        k = int(np.argmin(np.where(joined, np.inf, best)))
        edges.append((int(via[k]), k, float(best[k])))
        joined[k] = True
        closer = distance[k] < best
        best, via = np.where(closer, distance[k], best), np.where(closer, k, via)
    return edges


def _bridge(a: BaseGeometry, b: BaseGeometry, gap: float) -> BaseGeometry:
    """The convex hull of the regions of ``a`` and ``b`` within ``gap`` plus a band
    (:data:`BRIDGE_BAND`, or the gap if wider) of each other."""
    reach = gap + max(gap, BRIDGE_BAND)
    facing = shapely.union(shapely.intersection(a, b.buffer(reach)), shapely.intersection(b, a.buffer(reach)))
    return facing.convex_hull
