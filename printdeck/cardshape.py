"""Card shapes: circle, square, rectangle (optionally rounded corners) and hexagon.

One :class:`CardShape` describes a card's cut (mm, origin at the card's centre, y up).
Everything that follows the shape asks it: the layout's safe zone
(``shape.offset(-safe_margin)``), the printed bleed (``shape.offset(bleed)``), the cut
guide, crop marks, backs, PNG masks and the cut files. :func:`card_path` is the one
description of a card's cut path, as straight lines and circular arcs, for ReportLab,
SVG and DXF alike; :meth:`CardShape.vertices` the same outline as a convex polygon.

The theme's ``card`` keys become a shape in :mod:`printdeck.card_sizes` (the named sizes and
the keys only some shapes take).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from printdeck.choices import Orientation, ShapeKind

SQRT3 = math.sqrt(3.0)

ARC_CHORDS = 8
"""A rounded corner (a quarter turn) becomes this many chords in :meth:`CardShape.vertices`."""


@dataclass(frozen=True)
class Line:
    """A straight piece of a cut path, mm."""

    start: tuple[float, float]
    end: tuple[float, float]


@dataclass(frozen=True)
class Arc:
    """A circular arc of a cut path: ``centre``, ``radius`` (mm), from ``start_deg``
    turning ``sweep_deg`` counter-clockwise (360: a whole circle)."""

    centre: tuple[float, float]
    radius: float
    start_deg: float
    sweep_deg: float

    def point(self, deg: float) -> tuple[float, float]:
        """The point of the arc's circle at ``deg`` degrees, mm."""
        t = math.radians(deg)
        return (self.centre[0] + self.radius * math.cos(t), self.centre[1] + self.radius * math.sin(t))


PathPiece = Line | Arc


@dataclass(frozen=True)
class CardShape:
    """A card's cut outline, centred on the origin (mm, y up).

    Attributes:
        kind: circle, square, rectangle or hexagon.
        width_mm: Width of the bounding box, mm.
        height_mm: Height of the bounding box, mm.
        corner_radius_mm: Rounded corners of a square or rectangle, mm (0: sharp).
        orientation: A hexagon's orientation; ``None`` for other shapes.
    """

    kind: ShapeKind
    width_mm: float
    height_mm: float
    corner_radius_mm: float = 0.0
    orientation: Orientation | None = None

    @classmethod
    def circle(cls, diameter_mm: float) -> CardShape:
        """A round card of ``diameter_mm``."""
        return cls(ShapeKind.CIRCLE, diameter_mm, diameter_mm)

    @classmethod
    def hexagon(cls, across_corners_mm: float, orientation: Orientation = Orientation.POINTY) -> CardShape:
        """A regular hexagon ``across_corners_mm`` wide from corner to corner."""
        flats = across_corners_mm * SQRT3 / 2.0
        if orientation == Orientation.POINTY:
            return cls(ShapeKind.HEXAGON, flats, across_corners_mm, orientation=orientation)
        return cls(ShapeKind.HEXAGON, across_corners_mm, flats, orientation=orientation)

    @property
    def is_circle(self) -> bool:
        """Whether the card is round."""
        return self.kind == ShapeKind.CIRCLE

    @property
    def across_corners_mm(self) -> float:
        """A hexagon's width across corners (a circle's diameter; a rectangle's diagonal), mm."""
        if self.kind == ShapeKind.HEXAGON:
            return max(self.width_mm, self.height_mm)
        if self.is_circle:
            return self.width_mm
        return math.hypot(self.width_mm, self.height_mm)

    @property
    def min_side_mm(self) -> float:
        """The card's narrowest width, mm (a circle's diameter, a hexagon's across flats)."""
        return min(self.width_mm, self.height_mm)

    @property
    def circumradius_mm(self) -> float:
        """Distance from the centre to the farthest point of the outline, mm."""
        if self.is_circle or self.kind == ShapeKind.HEXAGON:
            return self.across_corners_mm / 2.0
        r = self.corner_radius_mm
        return math.hypot(self.width_mm / 2.0 - r, self.height_mm / 2.0 - r) + r

    @property
    def area_mm2(self) -> float:
        """Exact area inside the outline, mm²."""
        if self.is_circle:
            return math.pi * self.width_mm**2 / 4.0
        if self.kind == ShapeKind.HEXAGON:
            return 3.0 * SQRT3 / 8.0 * self.across_corners_mm**2
        r = self.corner_radius_mm
        return self.width_mm * self.height_mm - (4.0 - math.pi) * r * r

    def offset(self, distance_mm: float) -> CardShape:
        """The outline moved outward by ``distance_mm`` (inward if negative).

        Outward: a bleed; corners come out sharp (a mitred offset, covering the rounded
        one): a rounded square's or rectangle's bleed is its sharp box grown, which a
        print shop trims square and rounds after, so no corner of the bleed box is left
        white. Inward: a safe zone, exact (every side moves in by the distance, a rounded
        corner's radius shrinks by it, down to sharp).

        Raises:
            ValueError: The inset leaves nothing of the shape.
        """
        d = distance_mm
        if self.is_circle:
            shape = CardShape.circle(self.width_mm + 2.0 * d)
        elif self.kind == ShapeKind.HEXAGON:
            shape = CardShape.hexagon(self.across_corners_mm + 4.0 * d / SQRT3, self.orientation or Orientation.POINTY)
        else:
            r = max(self.corner_radius_mm + d, 0.0) if self.corner_radius_mm > 0 and d < 0 else 0.0
            shape = CardShape(self.kind, self.width_mm + 2.0 * d, self.height_mm + 2.0 * d, r)
        if shape.width_mm <= 0 or shape.height_mm <= 0:
            raise ValueError(f"an inset of {-d:g} mm leaves nothing of a {self.describe()} card")
        return shape

    def corners(self) -> np.ndarray:
        """``(k, 2)`` the corners of the polygon the shape is (sharp corners), counter-clockwise
        from the right or the bottom right; a rounded rectangle's are its sharp box's."""
        if self.kind == ShapeKind.HEXAGON:
            r = self.across_corners_mm / 2.0
            start = 90.0 if self.orientation == Orientation.POINTY else 0.0
            t = np.radians(start + 60.0 * np.arange(6))
            return np.stack([r * np.cos(t), r * np.sin(t)], axis=1)
        w, h = self.width_mm / 2.0, self.height_mm / 2.0
        return np.array([(w, -h), (w, h), (-w, h), (-w, -h)])

    def vertices(self, circle_sides: int = 128) -> np.ndarray:
        """``(k, 2)`` convex polygon inscribed in the outline, counter-clockwise (mm).

        Sharp shapes give their corners exactly; a rounded corner gives :data:`ARC_CHORDS`
        chords (inside the arc); a circle the regular ``circle_sides``-gon.
        """
        if self.is_circle:
            t = 2.0 * math.pi * np.arange(circle_sides) / circle_sides
            r = self.width_mm / 2.0
            return np.stack([r * np.cos(t), r * np.sin(t)], axis=1)
        r = self.corner_radius_mm
        if self.kind == ShapeKind.HEXAGON or r <= 0:
            return self.corners()
        pts: list[tuple[float, float]] = []
        for piece in card_path(self):
            if isinstance(piece, Arc):
                for k in range(ARC_CHORDS):
                    pts.append(piece.point(piece.start_deg + piece.sweep_deg * k / ARC_CHORDS))
            else:
                pts.append(piece.start)
        return np.array(pts)

    def polyline(self, tolerance_mm: float = 0.01) -> np.ndarray:
        """``(k, 2)`` points along the outline (closed: last = first), arcs within ``tolerance_mm``."""
        return path_points(card_path(self), tolerance_mm)

    def contains(self, xy: np.ndarray, margin_mm: float = 0.0) -> np.ndarray:
        """``bool`` per row of ``xy`` ``(m, 2)`` (mm from the centre): inside the outline inset
        by ``margin_mm`` (exact: circle, sides, rounded corners)."""
        inner = self.offset(-margin_mm) if margin_mm else self
        x, y = np.abs(xy[:, 0]), np.abs(xy[:, 1])
        if inner.is_circle:
            return np.hypot(x, y) <= inner.width_mm / 2.0 + 1e-9
        if inner.kind == ShapeKind.HEXAGON:
            c = inner.corners()
            normals = (c + np.roll(c, -1, axis=0)) / 2.0
            apothem = np.hypot(*normals.T)
            u = normals / apothem[:, None]
            return ((xy @ u.T) <= apothem[None, :] + 1e-9).all(axis=1)
        w, h, r = inner.width_mm / 2.0, inner.height_mm / 2.0, inner.corner_radius_mm
        ok = (x <= w + 1e-9) & (y <= h + 1e-9)
        corner = (x > w - r) & (y > h - r)
        return ok & (~corner | (np.hypot(x - (w - r), y - (h - r)) <= r + 1e-9))

    def describe(self) -> str:
        """A short human description, e.g. ``85 mm circle`` or ``63 x 88 mm rectangle``."""
        if self.is_circle:
            return f"{self.width_mm:g} mm circle"
        if self.kind == ShapeKind.HEXAGON:
            return f"{self.across_corners_mm:.4g} mm {self.orientation.value if self.orientation else ''} hexagon"
        if self.kind == ShapeKind.SQUARE:
            return f"{self.width_mm:g} mm square"
        return f"{self.width_mm:g} x {self.height_mm:g} mm rectangle"

    def manifest(self) -> dict[str, object]:
        """The manifest's description of the shape (``card`` keys)."""
        return {
            "shape": self.kind.value,
            "width_mm": round(self.width_mm, 6),
            "height_mm": round(self.height_mm, 6),
            "corner_radius_mm": round(self.corner_radius_mm, 6),
            "orientation": self.orientation.value if self.orientation else None,
        }


def card_path(
    shape: CardShape, center_mm: tuple[float, float] = (0.0, 0.0), offset_mm: float = 0.0
) -> tuple[PathPiece, ...]:
    """A card's cut path: closed, counter-clockwise, as lines and arcs (mm).

    The one description of where a card is cut, used by the PDF's cut guide and die
    lines (ReportLab), the cut files (SVG, DXF) and the PNG masks.

    Args:
        shape: The card's shape.
        center_mm: The card's centre (e.g. on the page, mm from the bottom-left corner).
        offset_mm: Outward offset (e.g. the bleed's edge: ``bleed_mm``; a safe zone: negative).

    Returns:
        Pieces in order, each starting where the previous ended; a circle is one
        :class:`Arc` of 360 degrees starting at angle 0.
    """
    s = shape.offset(offset_mm) if offset_mm else shape
    cx, cy = center_mm
    if s.is_circle:
        return (Arc((cx, cy), s.width_mm / 2.0, 0.0, 360.0),)
    r = s.corner_radius_mm if s.kind != ShapeKind.HEXAGON else 0.0
    corners = s.corners()
    if r <= 0:
        pts = [(cx + float(x), cy + float(y)) for x, y in corners]
        return tuple(Line(pts[k], pts[(k + 1) % len(pts)]) for k in range(len(pts)))
    w, h = s.width_mm / 2.0 - r, s.height_mm / 2.0 - r
    pieces: list[PathPiece] = []
    centres = [(w, -h), (w, h), (-w, h), (-w, -h)]
    for k, (ax, ay) in enumerate(centres):
        start = -90.0 + 90.0 * k
        arc = Arc((cx + ax, cy + ay), r, start, 90.0)
        nxt = centres[(k + 1) % 4]
        end = arc.point(start + 90.0)
        nxt_arc = Arc((cx + nxt[0], cy + nxt[1]), r, start + 90.0, 90.0)
        pieces.append(arc)
        pieces.append(Line(end, nxt_arc.point(start + 90.0)))
    return tuple(pieces)


def path_points(pieces: tuple[PathPiece, ...], tolerance_mm: float = 0.01) -> np.ndarray:
    """``(k, 2)`` points along a path (closed paths end where they start); arcs are
    sampled so no chord strays more than ``tolerance_mm`` from the arc."""
    out: list[tuple[float, float]] = []
    for piece in pieces:
        if isinstance(piece, Line):
            out.append(piece.start)
            continue
        step = 2.0 * math.degrees(math.acos(max(-1.0, 1.0 - tolerance_mm / max(piece.radius, 1e-9))))
        n = max(2, math.ceil(abs(piece.sweep_deg) / max(step, 1e-3)))
        out.extend(piece.point(piece.start_deg + piece.sweep_deg * k / n) for k in range(n))
    first = pieces[0].start if isinstance(pieces[0], Line) else pieces[0].point(pieces[0].start_deg)
    out.append(first)
    return np.array(out)
