"""A theme's ``card`` keys as a :class:`~printdeck.cardshape.CardShape`: the named card sizes
(:data:`NAMED_SIZES`, the one table of standard sizes), the keys only some shapes take
(:data:`SHAPE_ONLY_KEYS`, the one statement of that rule) and :func:`resolve_shape`, which
checks the keys against each other and makes the shape.
"""

from __future__ import annotations

from dataclasses import dataclass

from printdeck.cardshape import CardShape
from printdeck.choices import Orientation, ShapeKind


class CardKeyError(ValueError):
    """``card`` keys that disagree: the ``key`` to change (``card.size``), the ``problem`` and
    its ``fix`` (None when the problem says it), worded ``"<key>: <problem>; <fix>"``; a
    front end takes the fields, never the words apart."""

    def __init__(self, key: str, problem: str, fix: str | None = None) -> None:
        self.key, self.problem, self.fix = key, problem, fix
        super().__init__(f"{key}: {self.said}")

    def __reduce__(self) -> tuple[type[CardKeyError], tuple[str, str, str | None]]:
        """Pickled with its fields (a layout worker's error crosses processes)."""
        return (CardKeyError, (self.key, self.problem, self.fix))

    @property
    def said(self) -> str:
        """The problem and its fix, as the message says them after the key."""
        return self.problem + (f"; {self.fix}" if self.fix else "")


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
    "poker": NamedSize(
        ShapeKind.RECTANGLE, (63.0, 88.0), note="poker / playing card, metric (2.5 x 3.5 in: 63.5 x 88.9)"
    ),
    "bridge": NamedSize(ShapeKind.RECTANGLE, (57.0, 89.0), note="bridge card, metric (2.25 x 3.5 in: 57.15 x 88.9)"),
    "tarot": NamedSize(ShapeKind.RECTANGLE, (70.0, 120.0), note="tarot card, metric (2.75 x 4.75 in: 69.85 x 120.65)"),
    "mini": NamedSize(ShapeKind.RECTANGLE, (44.0, 63.0), note="mini card, metric (1.75 x 2.5 in: 44.45 x 63.5)"),
    "tgc-circle": NamedSize(ShapeKind.CIRCLE, (88.9, 88.9), note="The Game Crafter's 3.5 in circle deck"),
    "tgc-hex": NamedSize(
        ShapeKind.HEXAGON,
        (95.25, 95.25),
        Orientation.FLAT,
        note="The Game Crafter's hex deck, 3.75 x 3.25 in (across corners x across flats)",
    ),
}
"""Standard card sizes by name (``card.size: poker``), in millimetres as European card makers
cut them; a print service whose template is in inches cuts a name to its own size
(``printdeck.theme.presets``: a preset's ``sizes``)."""

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
        CardKeyError: The keys disagree (a ``ValueError`` naming the key and the fix).
    """
    named = NAMED_SIZES.get(size) if isinstance(size, str) else None
    if isinstance(size, str) and named is None:
        raise CardKeyError(
            "card.size", f"unknown size {size!r}", f"use a length, [width, height] or one of {size_names()}"
        )
    shape = ShapeKind(kind) if kind else (named.kind if named else ShapeKind.CIRCLE)
    if named is not None and named.kind != shape:
        raise CardKeyError(
            "card.size",
            f"{size} is a {named.kind.value} size, but card.shape is {shape.value}",
            f"set card.shape to {named.kind.value}, or leave it out",
        )
    given = {
        "diameter": diameter_mm is not None,
        "corner_radius": bool(corner_radius_mm),  # 0 (sharp, the default) every shape has
        "orientation": orientation is not None,
    }
    _refuse_other_shapes_keys(shape, [key for key, value in given.items() if value])
    if diameter_mm is not None and size is not None:  # one would silently win over the other
        raise CardKeyError(
            "card.diameter", "give only one of card.size and card.diameter (a round card's size is its diameter)"
        )
    w, h = _size_mm(shape, size, named, diameter_mm)
    if shape == ShapeKind.CIRCLE:
        return CardShape.circle(w)
    if shape == ShapeKind.HEXAGON:
        turn = Orientation(orientation) if orientation else (named.orientation if named else None)
        return CardShape.hexagon(w, turn or Orientation.POINTY)
    if shape == ShapeKind.SQUARE and abs(w - h) > 1e-9:
        raise CardKeyError("card.size", f"a square has one side, got {w:g} x {h:g} mm", "use card.shape: rectangle")
    if 2.0 * corner_radius_mm > min(w, h) * 0.5:
        raise CardKeyError(
            "card.corner_radius", f"{corner_radius_mm:g} mm is too round", f"use at most {min(w, h) / 4:.3g} mm"
        )
    return CardShape(shape, w, h, corner_radius_mm)


def _refuse_other_shapes_keys(shape: ShapeKind, given: list[str]) -> None:
    """Refuse the first of the ``given`` shape-only card keys that :data:`SHAPE_ONLY_KEYS`
    leaves out of ``shape``.

    Raises:
        CardKeyError: ``card.orientation: only hexagons have one; leave it out for a square``.
    """
    refused = [key for key in given if key not in SHAPE_ONLY_KEYS[shape]]
    if refused:
        key = refused[0]
        takers = " and ".join(_SHAPES_WORDS[kind] for kind, keys in SHAPE_ONLY_KEYS.items() if key in keys)
        fix = f"give {_INSTEAD[key]}" if key in _INSTEAD else "leave it out"
        raise CardKeyError(f"card.{key}", f"only {takers} have one", f"{fix} for a {shape.value}")


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
        raise CardKeyError(
            "card.size",
            f"a {shape.value} takes one length, not [width, height]",
            "for a rectangular card give card.shape: rectangle",
        )
    return float(w), float(h)  # type: ignore[has-type]


DEFAULT_SIZE_MM: dict[ShapeKind, float] = {
    ShapeKind.CIRCLE: 85.0,
    ShapeKind.SQUARE: 70.0,
    ShapeKind.HEXAGON: 80.0,
}
"""``card.size`` when a theme gives none (a rectangle without one is a poker card)."""


def size_names() -> str:
    """The named card sizes as messages and the theme spec's help list them: ``"poker, bridge, ..."``."""
    return ", ".join(NAMED_SIZES)
