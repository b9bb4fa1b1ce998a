"""Layout settings, read once from a theme."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from printdeck.cardshape import CardShape
from printdeck.layout.compact_budget import (
    COMPACT_MIN_GAIN,
    COMPACT_STEPS,
    POLYGON_COMPACT_MIN_GAIN,
    POLYGON_COMPACT_STEPS,
)
from printdeck.layout.pins import PinnedCard, pins_from_theme
from printdeck.theme import Theme

RATIO_FLOOR = 0.8  # a card's size ratio stays at least this times the intended spread
CENTRE_FREE_MM = 2.0  # the centre mark's arms (printdeck.render.style.CENTRE_MARK_MM / 2) and a little room
RATIO_CEILING = 0.6  # ... and at most this (when the intended spread is itself at most this)
MARK_SHARE = 0.055  # a class set's deck mark is this share of the card's diameter across ...
MARK_DIAMETER_MM = (4.0, 8.0)  # ... kept within these bounds, mm
MARK_ANGLE_DEG = 270.0  # ... and sits at the bottom of the card's safe zone (6 o'clock)


def deck_mark_radius_mm(diameter_mm: float) -> float:
    """Radius (mm) of a class set's deck mark on a card of cut diameter ``diameter_mm``:
    :data:`MARK_SHARE` of the diameter across, within :data:`MARK_DIAMETER_MM`."""
    low, high = MARK_DIAMETER_MM
    return min(max(MARK_SHARE * diameter_mm, low), high) / 2.0


@dataclass(frozen=True)
class LayoutSettings:
    """What the layout engine needs to know about the card and the theme's wishes.

    Attributes:
        safe_radius_mm: Radius of the safe zone (card diameter / 2 - safe margin), mm;
            for other shapes the safe shape's inradius (half its narrowest width).
        centre_free_mm: Radius of the disc about the card's centre the layout keeps free
            (with ``gap_mm`` beyond it) for the centre mark (``paper.centre_mark``); 0: none.
        safe_shape: The safe zone's shape (the card's shape inset by its safe margin);
            ``None``: the disc of ``safe_radius_mm``.
        gap_mm: Smallest allowed distance between two symbols' silhouettes, mm.
        size_ratio: Intended spread of sizes on a card: smallest over largest symbol
            (by square root of silhouette area, i.e. ``h_mm * sqrt(ink area)``); the
            size ladder spans 1 down to this value. The engine keeps every card's
            measured ratio within :meth:`ratio_bounds`: at least ``0.8 * size_ratio``
            (small symbols stay legible) and at most ``0.6`` (a real spread of sizes),
            or at most ``1.0`` when ``size_ratio`` itself is above 0.6 (e.g. a junior
            deck of big symbols). See :meth:`ratio_bounds`. (Should no first placement
            keep the floor, e.g. rings around others that cannot shrink, and the later
            stages not restore it, that card may end below the floor; no theme in the
            tests or benchmark does.)
        sizes: Optional size ladder, relative, largest first (overrides ``size_ratio``
            for the spread; the spread is then ``min(sizes) / max(sizes)``).
        max_rotation_deg: ``None`` = any angle; ``0`` = upright; else ±this many degrees.
        attempts: Random positions tried per symbol when first placing it.
        rounds: Grow-and-wiggle rounds per card (none by default: see
            ``printdeck.layout.packing.PackInput``).
        compact_steps: Most linear programs per card in the compaction (more = denser,
            slower; see :mod:`printdeck.layout.packing.compaction`).
        compact_min_gain: The compaction of a card stops once a step gains less ink than
            this share of its safe zone (less = denser, slower).
        min_size_mm: Smallest allowed symbol size (square root of its ink area, mm);
            a card whose smallest symbol ends up smaller is refused.
        retry_below: A card whose coverage is under this is packed again from another
            random stream (the densest try is kept); once cards are measured, 0.85 times
            their median coverage takes its place (see ``DeckPlanner.retry_below``).
        retries: At most this many extra tries per card.
        reroll: Card index (0-based) -> attempt number: a card with attempt ``a > 0``
            packs from another random stream (see :mod:`printdeck.layout.card`), to
            re-roll one card's layout; absent or 0 = the first attempt.
        mark_radius_mm: Radius of the deck mark the layout keeps room for (0: none; a
            class set's decks have one, see :meth:`mark_spot`).
        mark_angle_deg: Direction of the mark from the card's centre, degrees
            counter-clockwise from +x.
        pins: Card index (0-based) -> its pinned symbols (``layout.pinned``, see
            :mod:`printdeck.layout.pins`); the card's other symbols are packed around them.
    """

    safe_radius_mm: float
    gap_mm: float = 1.0
    size_ratio: float = 0.5
    sizes: tuple[float, ...] | None = None
    max_rotation_deg: float | None = None
    attempts: int = 400
    rounds: int = 0
    compact_steps: int = COMPACT_STEPS
    compact_min_gain: float = COMPACT_MIN_GAIN
    min_size_mm: float = 3.0
    retry_below: float = 0.42
    retries: int = 3
    reroll: Mapping[int, int] = field(default_factory=dict)
    safe_shape: CardShape | None = None
    centre_free_mm: float = 0.0

    def zone_shape(self) -> CardShape:
        """The safe zone's shape: ``safe_shape``, else the disc of ``safe_radius_mm``."""
        return self.safe_shape if self.safe_shape is not None else CardShape.circle(2.0 * self.safe_radius_mm)

    def zone_area_mm2(self) -> float:
        """The safe zone's area, mm² (``pi R²`` for the disc)."""
        return math.pi * self.safe_radius_mm**2 if self.safe_shape is None else self.safe_shape.area_mm2

    def card_size_key(self) -> str:
        """The theme key that makes the card larger: ``card.diameter`` for a round card,
        ``card.size`` for the others (a round card has no ``size`` to give, a square no diameter)."""
        return "card.diameter" if self.safe_shape is None else "card.size"

    mark_radius_mm: float = 0.0
    mark_angle_deg: float = MARK_ANGLE_DEG
    pins: Mapping[int, PinnedCard] = field(default_factory=dict)

    def mark_direction_deg(self) -> float:
        """The deck mark's direction from the card's centre, degrees: ``mark_angle_deg`` on a
        round card; on other shapes the corner of the safe zone nearest that direction
        (a corner leaves the most room near the rim)."""
        if self.safe_shape is None:
            return self.mark_angle_deg
        v = self.safe_shape.vertices()
        z = v[:, 0] + 1j * v[:, 1]
        toward = complex(math.cos(math.radians(self.mark_angle_deg)), math.sin(math.radians(self.mark_angle_deg)))
        corner = z[int(np.argmax((np.conj(toward) * z).real))]
        return math.degrees(math.atan2(corner.imag, corner.real))

    def mark_spot(self) -> tuple[tuple[float, float], float] | None:
        """Where the deck mark goes: ``((x, y) mm from the card's centre, radius mm)``, or
        None without a mark. The mark sits as far out along :meth:`mark_direction_deg` as the
        safe zone allows (it stays wholly inside it); :meth:`rim_cut` keeps the layout
        ``gap_mm`` away from it."""
        if self.mark_radius_mm <= 0:
            return None
        from printdeck.layout.packing import SafeZone  # noqa: PLC0415 - the packer's modules only when used

        a = self.mark_direction_deg()
        d = SafeZone.of(self.zone_shape()).reach_mm(a, self.mark_radius_mm)
        return (d * math.cos(math.radians(a)), d * math.sin(math.radians(a))), self.mark_radius_mm

    def rim_cut(self) -> tuple[float, float] | None:
        """The packer's rim cut (``PackInput.rim_cut``) that keeps the deck mark free:
        ``(direction deg, chord distance mm)``, the chord across the mark's direction
        ``gap_mm`` inside the mark's inner edge; None without a mark."""
        spot = self.mark_spot()
        if spot is None:
            return None
        (x, y), r = spot
        return self.mark_direction_deg(), math.hypot(x, y) - r - self.gap_mm

    def spread(self) -> float:
        """Intended smallest over largest size: ``min(sizes) / max(sizes)`` or ``size_ratio``."""
        if self.sizes:
            return min(self.sizes) / max(self.sizes)
        return self.size_ratio

    def ratio_bounds(self) -> tuple[float, float]:
        """Return ``(low, high)``, the allowed measured size ratio of every card.

        ``low = RATIO_FLOOR * spread`` and ``high = RATIO_CEILING`` (0.6) when the
        spread is at most 0.6, else ``high = 1.0``; ``spread`` is :meth:`spread`.
        The engine caps growth so the ratio never exceeds ``high``, and lets no
        symbol grow beyond ``smallest / low`` (shrinking the big ones if a card's
        smallest symbol stays jammed), so the ratio stays at least ``low``.
        """
        spread = self.spread()
        high = RATIO_CEILING if spread <= RATIO_CEILING else 1.0
        return min(RATIO_FLOOR * spread, high), high

    @classmethod
    def from_theme(cls, theme: Theme) -> LayoutSettings:
        """Read the ``card`` and ``layout`` sections of a theme.

        Args:
            theme: A loaded theme.

        Returns:
            The settings; ``safe_radius_mm`` = ``card.diameter/2 - card.safe_margin``
            and ``safe_shape`` the card's shape inset by ``card.safe_margin`` (other shapes);
            ``reroll`` from ``layout.reroll`` (1-based card numbers there, 0-based here;
            attempts of 0 left out); a class set (``deck.copies`` > 1) keeps room for
            its deck mark (:func:`deck_mark_radius_mm`); ``pins`` from ``layout.pinned``.
        """
        card, lay = theme.spec.card, theme.spec.layout
        rot = lay.rotation
        max_rot: float | None
        if rot == "any":
            max_rot = None
        elif rot == "none":
            max_rot = 0.0
        else:
            max_rot = float(rot)
            if max_rot >= 180.0:
                max_rot = None
        safe = card.outline().offset(-card.safe_margin_mm)
        return cls(
            safe_radius_mm=safe.min_side_mm / 2.0,
            safe_shape=None if safe.is_circle else safe,
            centre_free_mm=CENTRE_FREE_MM if theme.spec.paper.centre_mark else 0.0,
            compact_steps=COMPACT_STEPS if safe.is_circle else POLYGON_COMPACT_STEPS,
            compact_min_gain=COMPACT_MIN_GAIN if safe.is_circle else POLYGON_COMPACT_MIN_GAIN,
            gap_mm=lay.gap_mm,
            size_ratio=lay.size_ratio,
            sizes=tuple(lay.sizes) if lay.sizes else None,
            max_rotation_deg=max_rot,
            attempts=lay.attempts,
            reroll={number - 1: attempt for number, attempt in sorted(lay.reroll.items()) if attempt},
            mark_radius_mm=deck_mark_radius_mm(card.outline().min_side_mm) if theme.spec.deck.copies > 1 else 0.0,
            pins=pins_from_theme(theme),
        )
