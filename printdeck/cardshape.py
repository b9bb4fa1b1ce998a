"""Card shapes: circle, square, rectangle (optionally rounded corners) and hexagon.

One :class:`CardShape` describes a card's cut (mm, origin at the card's centre, y up).
Everything that follows the shape asks it: the layout's safe zone
(``shape.offset(-safe_margin)``), the printed bleed (``shape.offset(bleed)``), the cut
guide, crop marks, backs, PNG masks and the cut files. :func:`card_path` is the one
description of a card's cut path, as straight lines and circular arcs, for ReportLab,
SVG and DXF alike; :meth:`CardShape.vertices` the same outline as a convex polygon.

Named sizes (:data:`NAMED_SIZES`) are the one table of standard card sizes, and
:data:`SHAPE_ONLY_KEYS` the one table of the card keys only some shapes take.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from printdeck.choices import Orientation, ShapeKind

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class NamedSize:
    """A standard card size: its shape and the ``card.size`` it stands for.

    Attributes:
        kind: The shape the size belongs to.
        size_mm: ``(width, height)`` of a rectangle; ``(d, d)`` of a circle's diameter
            or a hexagon's width across corners.
        orientation: A hexagon's orientation (``None`` otherwise).
        note: Where the size comes from.
    """

    kind: ShapeKind
    size_mm: tuple[float, float]
    orientation: Orientation | None = None
    note: str = ""


NAMED_SIZES: dict[str, NamedSize] = {
    "poker": NamedSize(ShapeKind.RECTANGLE, (63.0, 88.0), note="poker / standard playing card, 2.5 x 3.5 in"),
    "bridge": NamedSize(ShapeKind.RECTANGLE, (57.0, 89.0), note="bridge card, 2.25 x 3.5 in"),
    "tarot": NamedSize(ShapeKind.RECTANGLE, (70.0, 120.0), note="tarot card, 2.75 x 4.75 in"),
    "mini": NamedSize(ShapeKind.RECTANGLE, (44.0, 63.0), note="mini card, 1.75 x 2.5 in"),
    "tgc-circle": NamedSize(ShapeKind.CIRCLE, (88.9, 88.9), note="The Game Crafter's 3.5 in circle deck"),
    "tgc-hex": NamedSize(
        ShapeKind.HEXAGON,
        (95.25, 95.25),
        Orientation.FLAT,
        note="The Game Crafter's hex deck, 3.75 x 3.25 in (across corners x across flats)",
    ),
}
"""Standard card sizes by name (``card.size: poker``)."""

SHAPE_ONLY_KEYS: dict[ShapeKind, frozenset[str]] = {
    ShapeKind.CIRCLE: frozenset({"diameter"}),
    ShapeKind.SQUARE: frozenset({"corner_radius"}),
    ShapeKind.RECTANGLE: frozenset({"corner_radius"}),
    ShapeKind.HEXAGON: frozenset({"orientation"}),
}
"""The ``card`` keys only some shapes take, by shape: each shape takes its own, and
:func:`resolve_shape` refuses the others' (every shape takes every other ``card`` key).
The one statement of this rule: front ends read it as ``printdeck.SHAPE_ONLY_KEYS``."""

_SHAPES_WORDS = {
    ShapeKind.CIRCLE: "round cards",
    ShapeKind.SQUARE: "squares",
    ShapeKind.RECTANGLE: "rectangles",
    ShapeKind.HEXAGON: "hexagons",
}
_INSTEAD = {"diameter": "card.size"}
"""The key another shape gives in place of a shape-only key (the others are left out)."""

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


def resolve_shape(
    kind: str | None,
    size: object,
    diameter_mm: float | None,
    corner_radius_mm: float,
    orientation: str | None,
) -> CardShape:
    """The card shape a theme's ``card`` section describes.

    Args:
        kind: ``card.shape`` (``None``: the named size's shape, else circle).
        size: ``card.size``: ``None``, a length in mm, a ``(w, h)`` pair in mm, or a name
            of :data:`NAMED_SIZES`.
        diameter_mm: ``card.diameter`` (a circle's size when ``size`` is not given).
        corner_radius_mm: ``card.corner_radius`` (squares and rectangles).
        orientation: ``card.orientation`` (hexagons; default pointy).

    Raises:
        ValueError: The keys disagree (names the key and the fix).
    """
    named = NAMED_SIZES.get(size) if isinstance(size, str) else None
    if isinstance(size, str) and named is None:
        raise ValueError(f"card.size: unknown size {size!r}; use a length, [width, height] or one of {_names()}")
    shape = ShapeKind(kind) if kind else (named.kind if named else ShapeKind.CIRCLE)
    if named is not None and named.kind != shape:
        raise ValueError(f"card.size: {size} is a {named.kind.value} size, but card.shape is {shape.value}")
    given = {
        "diameter": diameter_mm is not None,
        "corner_radius": bool(corner_radius_mm),  # 0 (sharp, the default) every shape has
        "orientation": orientation is not None,
    }
    _refuse_other_shapes_keys(shape, [key for key, value in given.items() if value])
    if diameter_mm is not None and size is not None:  # one would silently win over the other
        raise ValueError(
            "card.diameter: give only one of card.size and card.diameter (a round card's size is its diameter)"
        )
    w, h = _size_mm(shape, size, named, diameter_mm)
    if shape == ShapeKind.CIRCLE:
        return CardShape.circle(w)
    if shape == ShapeKind.HEXAGON:
        turn = Orientation(orientation) if orientation else (named.orientation if named else None)
        return CardShape.hexagon(w, turn or Orientation.POINTY)
    if shape == ShapeKind.SQUARE and abs(w - h) > 1e-9:
        raise ValueError(f"card.size: a square has one side; got {w:g} x {h:g} mm (use card.shape: rectangle)")
    if 2.0 * corner_radius_mm > min(w, h) * 0.5:
        raise ValueError(
            f"card.corner_radius: {corner_radius_mm:g} mm is too round; use at most {min(w, h) / 4:.3g} mm"
        )
    return CardShape(shape, w, h, corner_radius_mm)


def _refuse_other_shapes_keys(shape: ShapeKind, given: list[str]) -> None:
    """Refuse the first of the ``given`` shape-only card keys that :data:`SHAPE_ONLY_KEYS`
    leaves out of ``shape``.

    Raises:
        ValueError: ``card.orientation: only hexagons have one; leave it out for a square``.
    """
    refused = [key for key in given if key not in SHAPE_ONLY_KEYS[shape]]
    if refused:
        key = refused[0]
        takers = " and ".join(_SHAPES_WORDS[kind] for kind, keys in SHAPE_ONLY_KEYS.items() if key in keys)
        fix = f"give {_INSTEAD[key]}" if key in _INSTEAD else "leave it out"
        raise ValueError(f"card.{key}: only {takers} have one; {fix} for a {shape.value}")


def _size_mm(shape: ShapeKind, size: object, named: NamedSize | None, diameter_mm: float | None) -> tuple[float, float]:
    """``(w, h)`` mm from ``card.size`` (a hexagon's ``w`` is its width across corners)."""
    if named is not None:
        return named.size_mm
    if size is None:
        if shape == ShapeKind.RECTANGLE:
            return NAMED_SIZES["poker"].size_mm
        d = diameter_mm if diameter_mm is not None else DEFAULT_SIZE_MM[shape]
        return d, d
    if isinstance(size, (int, float)):
        return float(size), float(size)
    w, h = size  # type: ignore[misc]  # a pair, checked by the theme model
    if shape in (ShapeKind.CIRCLE, ShapeKind.HEXAGON):
        raise ValueError(f"card.size: a {shape.value} takes one length, not [width, height]")
    return float(w), float(h)  # type: ignore[has-type]


DEFAULT_SIZE_MM: dict[ShapeKind, float] = {
    ShapeKind.CIRCLE: 85.0,
    ShapeKind.SQUARE: 70.0,
    ShapeKind.HEXAGON: 80.0,
}
"""``card.size`` when a theme gives none (a rectangle without one is a poker card)."""


def _names() -> str:
    return ", ".join(NAMED_SIZES)
